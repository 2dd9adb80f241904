#pragma once
// Internal: an MJCF element's attributes with its default class behind it. Each value is parsed
// from the element that writes it (the element itself or a `<default>` entry), so an error names
// the line where the bad text is.
#include <tinyxml2.h>

#include <cstring>
#include <string>
#include <vector>

#include "mjcf/defaults.hpp"
#include "urdf/xml_values.hpp"

namespace grbda::mjcf_detail {

/// Whether e is a <tag> element.
inline bool is(const tinyxml2::XMLElement& e, const char* tag) { return std::strcmp(e.Name(), tag) == 0; }

struct Attributes {
  const urdf_detail::ElementContext& at;
  const tinyxml2::XMLElement& e;
  const Defaults::Class* cls;
  const char* tag = nullptr;  ///< the default tag when not e's own name

  const tinyxml2::XMLElement* source(const char* name) const { return Defaults::source(e, name, cls, tag); }
  bool has(const char* name) const { return source(name) != nullptr; }
  double number(const char* name, double fallback) const {
    const tinyxml2::XMLElement* s = source(name);
    return s ? urdf_detail::numberAttribute(at, *s, name) : fallback;
  }
  Vec3 vec3(const char* name, const Vec3& fallback) const {
    const tinyxml2::XMLElement* s = source(name);
    return s ? urdf_detail::vectorAttribute(at, *s, name, fallback) : fallback;
  }
  /// ModelError when absent.
  std::vector<double> numbers(const char* name, size_t minCount, size_t maxCount) const {
    const tinyxml2::XMLElement* s = source(name);
    if (!s) urdf_detail::fail(at, e, std::string("<") + e.Name() + "> has no '" + name + "' attribute");
    return urdf_detail::numbersAttribute(at, *s, name, minCount, maxCount);
  }
  std::string text(const char* name, const std::string& fallback) const {
    const tinyxml2::XMLElement* s = source(name);
    return s ? std::string(s->Attribute(name)) : fallback;
  }
  /// One of `choices` (ModelError listing them otherwise), or fallback when absent.
  std::string keyword(const char* name, const std::string& fallback, const std::vector<std::string>& choices) const {
    const tinyxml2::XMLElement* s = source(name);
    if (!s) return fallback;
    const std::string v = s->Attribute(name);
    for (const std::string& c : choices)
      if (v == c) return v;
    std::string list;
    for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
    urdf_detail::fail(at, *s, std::string("<") + s->Name() + " " + name + "=\"" + v + "\">: expected one of " + list);
  }
  /// MuJoCo's booleans: "true" or "false".
  bool flag(const char* name, bool fallback) const { return keyword(name, fallback ? "true" : "false", {"true", "false"}) == "true"; }
};

}  // namespace grbda::mjcf_detail
