#pragma once
// Internal: MJCF `<default>` classes. A class holds one element per tag (`<joint>`, `<geom>`,
// `<site>`, `<motor>`, ...) whose attributes are the defaults; nested classes inherit from their
// parent. An element takes an attribute from itself, else from its class (its `class` attribute,
// else the `childclass` of the nearest body that has one, else "main"), else from that class's
// ancestors.
#include <tinyxml2.h>

#include <deque>
#include <map>
#include <string>

#include "urdf/xml_values.hpp"

namespace grbda::mjcf_detail {

class Defaults {
 public:
  struct Class {
    std::string name;
    const Class* parent = nullptr;
    std::map<std::string, const tinyxml2::XMLElement*> elements;  ///< by tag
  };

  Defaults();
  /// Reads a top-level `<default>` (the class "main") and the classes nested in it.
  void read(const urdf_detail::ElementContext& at, const tinyxml2::XMLElement& root);
  const Class* main() const { return &classes_.front(); }
  /// The class named by `e`'s `class` attribute, else `active`. ModelError for an unknown class.
  const Class* classOf(const urdf_detail::ElementContext& at, const tinyxml2::XMLElement& e, const Class* active) const;
  /// A class by name (`childclass`); ModelError naming `e` for an unknown one.
  const Class* named(const urdf_detail::ElementContext& at, const tinyxml2::XMLElement& e, const std::string& name) const;
  /// The element that gives attribute `attr` to `e`: `e` itself, else the default element of tag
  /// `tag` (e's own tag when null) of `cls` or its nearest ancestor that has it; null when none does.
  /// Error messages about the value then name the line where it is written.
  static const tinyxml2::XMLElement* source(const tinyxml2::XMLElement& e, const char* attr, const Class* cls,
                                            const char* tag = nullptr);

 private:
  void readClass(const urdf_detail::ElementContext& at, const tinyxml2::XMLElement& e, Class& cls);
  std::deque<Class> classes_;  // stable addresses; front() is "main"
  std::map<std::string, Class*> byName_;
};

}  // namespace grbda::mjcf_detail
