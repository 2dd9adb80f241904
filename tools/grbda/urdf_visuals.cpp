#include "urdf_visuals.hpp"

#include <tinyxml2.h>

#include <filesystem>
#include <map>
#include <sstream>

namespace grbda::cli {

namespace fs = std::filesystem;
using tinyxml2::XMLElement;

namespace {
// "a b c" -> the numbers; false when there are not exactly n of them.
bool numbers(const char* text, int n, double* out) {
  if (!text) return false;
  std::istringstream in(text);
  int k = 0;
  for (double x; in >> x; ++k)
    if (k < n) out[k] = x;
  return k == n && in.eof();
}

bool vec3(const XMLElement& e, const char* attribute, Vec3& out) {
  const char* text = e.Attribute(attribute);
  double v[3];
  if (!text) return true;  // absent: keep the default
  if (!numbers(text, 3, v)) return false;
  out = Vec3(v[0], v[1], v[2]);
  return true;
}

bool color(const XMLElement* material, UrdfVisual& v) {
  const XMLElement* c = material ? material->FirstChildElement("color") : nullptr;
  if (!c || !numbers(c->Attribute("rgba"), 4, v.rgba)) return false;
  v.hasColor = true;
  return true;
}

std::string place(const std::string& file, const XMLElement& e) { return file + ":" + std::to_string(e.GetLineNum()); }

// One <visual>: false (and a warning) when it cannot be drawn.
bool readVisual(const std::string& file, const XMLElement& visual, const std::map<std::string, const XMLElement*>& named,
                UrdfVisual& v, std::vector<std::string>& warnings) {
  Vec3 xyz = Vec3::Zero(), rpy = Vec3::Zero();
  if (const XMLElement* origin = visual.FirstChildElement("origin"))
    if (!vec3(*origin, "xyz", xyz) || !vec3(*origin, "rpy", rpy)) {
      warnings.push_back(place(file, *origin) + ": <visual> of link '" + v.link + "' skipped: bad <origin>");
      return false;
    }
  v.origin = urdfOriginToTransform(xyz, rpy);
  const XMLElement* geometry = visual.FirstChildElement("geometry");
  const XMLElement* shape = geometry ? geometry->FirstChildElement() : nullptr;
  if (!shape) {
    warnings.push_back(place(file, visual) + ": <visual> of link '" + v.link + "' skipped: no <geometry>");
    return false;
  }
  v.type = shape->Name();
  bool ok = true;
  if (v.type == "box") ok = shape->Attribute("size") && vec3(*shape, "size", v.size);
  else if (v.type == "sphere") ok = shape->QueryDoubleAttribute("radius", &v.radius) == tinyxml2::XML_SUCCESS;
  else if (v.type == "cylinder")
    ok = shape->QueryDoubleAttribute("radius", &v.radius) == tinyxml2::XML_SUCCESS &&
         shape->QueryDoubleAttribute("length", &v.length) == tinyxml2::XML_SUCCESS;
  else if (v.type == "mesh") {
    ok = shape->Attribute("filename") && vec3(*shape, "scale", v.size);
    if (ok) v.meshFile = shape->Attribute("filename");
  } else ok = false;
  if (!ok) {
    warnings.push_back(place(file, *shape) + ": <visual> of link '" + v.link + "' skipped: <" + v.type +
                       "> is not a box, sphere, cylinder or mesh with its sizes");
    return false;
  }
  if (const XMLElement* material = visual.FirstChildElement("material"))
    if (!color(material, v) && material->Attribute("name")) {
      const auto it = named.find(material->Attribute("name"));
      if (it != named.end()) color(it->second, v);
    }
  if (v.type == "mesh") v.meshPath = findMeshFile(v.meshFile, file);
  return true;
}
}  // namespace

std::string findMeshFile(const std::string& filename, const std::string& urdfPath) {
  const fs::path dir = fs::absolute(fs::path(urdfPath)).parent_path();
  std::vector<fs::path> candidates;
  const std::string package = "package://", fileUrl = "file://";
  if (filename.rfind(package, 0) == 0) {
    const fs::path rest(filename.substr(package.size()));  // PKG/REST
    const fs::path pkg = *rest.begin();
    const fs::path below = rest.lexically_relative(pkg);
    for (fs::path up = dir;; up = up.parent_path()) {
      candidates.push_back(up / rest);
      if (up.filename() == pkg) candidates.push_back(up / below);
      if (up == up.parent_path()) break;
    }
  } else if (filename.rfind(fileUrl, 0) == 0) {
    candidates.emplace_back(filename.substr(fileUrl.size()));
  } else {
    candidates.push_back(dir / filename);
  }
  std::error_code ec;
  for (const fs::path& p : candidates)
    if (fs::is_regular_file(p, ec)) return p.string();
  return {};
}

std::vector<UrdfVisual> readUrdfVisuals(const std::vector<std::string>& files, std::vector<std::string>& warnings) {
  std::vector<UrdfVisual> visuals;
  for (const std::string& file : files) {
    tinyxml2::XMLDocument doc;
    if (doc.LoadFile(file.c_str()) != tinyxml2::XML_SUCCESS) continue;  // the model loader judged the file
    const XMLElement* robot = doc.FirstChildElement("robot");
    if (!robot) continue;
    std::map<std::string, const XMLElement*> named;  // top-level <material name> with a colour
    for (const XMLElement* m = robot->FirstChildElement("material"); m; m = m->NextSiblingElement("material"))
      if (m->Attribute("name")) named[m->Attribute("name")] = m;
    for (const XMLElement* link = robot->FirstChildElement("link"); link; link = link->NextSiblingElement("link"))
      for (const XMLElement* visual = link->FirstChildElement("visual"); visual;
           visual = visual->NextSiblingElement("visual")) {
        UrdfVisual v;
        v.link = link->Attribute("name") ? link->Attribute("name") : "";
        if (readVisual(file, *visual, named, v, warnings)) visuals.push_back(v);
      }
  }
  return visuals;
}

}  // namespace grbda::cli
