#include "mjcf/defaults.hpp"

#include <cstring>

namespace grbda::mjcf_detail {

using tinyxml2::XMLElement;
using urdf_detail::ElementContext;
using urdf_detail::fail;

Defaults::Defaults() {
  classes_.push_back(Class{"main", nullptr, {}});
  byName_["main"] = &classes_.front();
}

void Defaults::read(const ElementContext& at, const XMLElement& root) {
  if (const char* name = root.Attribute("class"); name && std::strcmp(name, "main") != 0)
    fail(at, root, std::string("the top-level <default> is the class 'main'; it cannot be named '") + name + "'");
  readClass(at, root, classes_.front());
}

void Defaults::readClass(const ElementContext& at, const XMLElement& e, Class& cls) {
  for (const XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (std::strcmp(c->Name(), "default") != 0) {
      cls.elements[c->Name()] = c;  // a later element of the same tag wins, as in MuJoCo
      continue;
    }
    const std::string name = urdf_detail::requiredAttribute(at, *c, "class");
    if (byName_.count(name)) fail(at, *c, "default class '" + name + "' is defined twice");
    classes_.push_back(Class{name, &cls, {}});
    Class& child = classes_.back();
    byName_[name] = &child;
    readClass(at, *c, child);
  }
}

const Defaults::Class* Defaults::named(const ElementContext& at, const XMLElement& e, const std::string& name) const {
  const auto it = byName_.find(name);
  if (it == byName_.end()) fail(at, e, "unknown default class '" + name + "'");
  return it->second;
}

const Defaults::Class* Defaults::classOf(const ElementContext& at, const XMLElement& e, const Class* active) const {
  if (const char* name = e.Attribute("class")) return named(at, e, name);
  return active ? active : main();
}

const XMLElement* Defaults::source(const XMLElement& e, const char* attr, const Class* cls, const char* tag) {
  if (e.Attribute(attr)) return &e;
  const std::string t = tag ? tag : e.Name();
  for (const Class* c = cls; c; c = c->parent) {
    const auto it = c->elements.find(t);
    if (it != c->elements.end() && it->second->Attribute(attr)) return it->second;
  }
  return nullptr;
}

}  // namespace grbda::mjcf_detail
