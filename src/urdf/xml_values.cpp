#include "urdf/xml_values.hpp"

#include <charconv>
#include <cmath>
#include <vector>

#include "grbda/errors.hpp"

namespace grbda::urdf_detail {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::vector<std::string> splitWhitespace(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && isSpace(s[i])) ++i;
    const size_t start = i;
    while (i < s.size() && !isSpace(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

enum class NumberStatus { Ok, NotANumber, NotFinite };

// std::from_chars is locale-independent (strtod and iostreams follow the global locale, where
// "0.5" may not be a number). It rejects a leading '+', which URDF writers sometimes emit.
NumberStatus parseNumber(const std::string& token, double& value) {
  const char* first = token.data();
  const char* last = token.data() + token.size();
  if (first != last && *first == '+') ++first;
  if (first == last) return NumberStatus::NotANumber;
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec == std::errc::result_out_of_range) return NumberStatus::NotFinite;
  if (ec != std::errc() || end != last) return NumberStatus::NotANumber;
  return std::isfinite(value) ? NumberStatus::Ok : NumberStatus::NotFinite;
}

std::string describe(const tinyxml2::XMLElement& e, const char* attribute, const std::string& value) {
  return std::string("<") + e.Name() + " " + attribute + "=\"" + value + "\">";
}

}  // namespace

void fail(const ElementContext& at, const tinyxml2::XMLElement& where, const std::string& message) {
  throw ModelError(message, at.file, where.GetLineNum(), at.element);
}

std::string requiredAttribute(const ElementContext& at, const tinyxml2::XMLElement& e, const char* name) {
  const char* value = e.Attribute(name);
  if (!value) fail(at, e, std::string("<") + e.Name() + "> has no '" + name + "' attribute");
  if (!*value) fail(at, e, std::string("<") + e.Name() + "> has an empty '" + name + "' attribute");
  return value;
}

double numberAttribute(const ElementContext& at, const tinyxml2::XMLElement& e, const char* name) {
  const std::string text = requiredAttribute(at, e, name);
  const auto tokens = splitWhitespace(text);
  double value = 0.0;
  if (tokens.size() != 1) fail(at, e, describe(e, name, text) + ": expected one number");
  switch (parseNumber(tokens[0], value)) {
    case NumberStatus::Ok: return value;
    case NumberStatus::NotANumber: fail(at, e, describe(e, name, text) + ": not a number");
    case NumberStatus::NotFinite: fail(at, e, describe(e, name, text) + ": not a finite number");
  }
  return value;
}

double numberText(const ElementContext& at, const tinyxml2::XMLElement& e) {
  const std::string text = e.GetText() ? e.GetText() : "";
  const auto tokens = splitWhitespace(text);
  const std::string shown = std::string("<") + e.Name() + ">" + text + "</" + e.Name() + ">";
  double value = 0.0;
  if (tokens.size() != 1) fail(at, e, shown + ": expected one number");
  switch (parseNumber(tokens[0], value)) {
    case NumberStatus::Ok: return value;
    case NumberStatus::NotANumber: fail(at, e, shown + ": not a number");
    case NumberStatus::NotFinite: fail(at, e, shown + ": not a finite number");
  }
  return value;
}

double numberAttribute(const ElementContext& at, const tinyxml2::XMLElement& e, const char* name,
                       double fallback) {
  return e.Attribute(name) ? numberAttribute(at, e, name) : fallback;
}

Vec3 vectorAttribute(const ElementContext& at, const tinyxml2::XMLElement& e, const char* name,
                     const Vec3& fallback) {
  const char* raw = e.Attribute(name);
  if (!raw) return fallback;
  const std::string text = raw;
  const auto tokens = splitWhitespace(text);
  if (tokens.size() != 3)
    fail(at, e, describe(e, name, text) + ": expected 3 numbers, found " + std::to_string(tokens.size()));
  Vec3 v;
  for (int k = 0; k < 3; ++k) {
    switch (parseNumber(tokens[static_cast<size_t>(k)], v[k])) {
      case NumberStatus::Ok: break;
      case NumberStatus::NotANumber:
        fail(at, e, describe(e, name, text) + ": component '" + tokens[static_cast<size_t>(k)] + "' is not a number");
      case NumberStatus::NotFinite:
        fail(at, e, describe(e, name, text) + ": component '" + tokens[static_cast<size_t>(k)] +
                        "' is not a finite number");
    }
  }
  return v;
}

std::vector<double> numbersAttribute(const ElementContext& at, const tinyxml2::XMLElement& e, const char* name,
                                     size_t minCount, size_t maxCount) {
  const std::string text = requiredAttribute(at, e, name);
  const auto tokens = splitWhitespace(text);
  if (tokens.size() < minCount || tokens.size() > maxCount) {
    const std::string expected = minCount == maxCount ? std::to_string(minCount)
                                                      : std::to_string(minCount) + " to " + std::to_string(maxCount);
    fail(at, e, describe(e, name, text) + ": expected " + expected + " numbers, found " + std::to_string(tokens.size()));
  }
  std::vector<double> values(tokens.size());
  for (size_t k = 0; k < tokens.size(); ++k) {
    switch (parseNumber(tokens[k], values[k])) {
      case NumberStatus::Ok: break;
      case NumberStatus::NotANumber: fail(at, e, describe(e, name, text) + ": component '" + tokens[k] + "' is not a number");
      case NumberStatus::NotFinite:
        fail(at, e, describe(e, name, text) + ": component '" + tokens[k] + "' is not a finite number");
    }
  }
  return values;
}

Origin readOrigin(const ElementContext& at, const tinyxml2::XMLElement* origin) {
  Origin o;
  if (!origin) return o;
  o.xyz = vectorAttribute(at, *origin, "xyz", Vec3::Zero());
  o.rpy = vectorAttribute(at, *origin, "rpy", Vec3::Zero());
  return o;
}

const tinyxml2::XMLElement* uniqueChild(const ElementContext& at, const tinyxml2::XMLElement& parent,
                                        const char* name) {
  const tinyxml2::XMLElement* first = parent.FirstChildElement(name);
  if (first) {
    if (const tinyxml2::XMLElement* second = first->NextSiblingElement(name))
      fail(at, *second, std::string("<") + parent.Name() + "> has more than one <" + name + "> element");
  }
  return first;
}

const tinyxml2::XMLElement& requiredChild(const ElementContext& at, const tinyxml2::XMLElement& parent,
                                          const char* name) {
  const tinyxml2::XMLElement* child = uniqueChild(at, parent, name);
  if (!child) fail(at, parent, std::string("<") + parent.Name() + "> has no <" + name + "> element");
  return *child;
}

}  // namespace grbda::urdf_detail
