#include "urdf/merge.hpp"

#include <cstring>
#include <map>
#include <set>

#include "grbda/errors.hpp"

namespace grbda::urdf_detail {
namespace {

std::string at(const SourceLocation& where) { return where.file + ":" + std::to_string(where.line); }

void addLink(MergedUrdf& merged, std::map<std::string, size_t>& index, const UrdfLink& link) {
  const auto found = index.find(link.spec.name);
  if (found == index.end()) {
    index.emplace(link.spec.name, merged.links.size());
    merged.links.push_back(link);
    return;
  }
  UrdfLink& existing = merged.links[found->second];
  if (existing.hasInertial && link.hasInertial)
    throw ModelError("link defined in two files with an <inertial> each (" + at(existing.spec.where) + " and " +
                         at(link.spec.where) + "); keep one and make the other a bare <link name=\"" +
                         link.spec.name + "\"/>",
                     link.spec.where.file, link.spec.where.line, "link '" + link.spec.name + "'");
  if (link.hasInertial) existing = link;  // the placeholder met its definition
}

void addJoint(MergedUrdf& merged, std::map<std::string, SourceLocation>& seen, const UrdfJoint& joint) {
  const auto [it, inserted] = seen.emplace(joint.spec.name, joint.spec.where);
  if (!inserted)
    throw ModelError("joint defined in two files (" + at(it->second) + " and " + at(joint.spec.where) + ")",
                     joint.spec.where.file, joint.spec.where.line, "joint '" + joint.spec.name + "'");
  merged.joints.push_back(joint);
}

}  // namespace

MergedUrdf mergeUrdfFiles(const std::vector<UrdfFile>& files) {
  MergedUrdf merged;
  if (files.empty()) throw ModelError("no URDF files given");
  merged.robotName = files.front().robotName;
  merged.sourceFile = files.front().source;
  std::map<std::string, size_t> linkIndex;
  std::map<std::string, SourceLocation> jointSeen;
  for (const UrdfFile& f : files) {
    for (const UrdfLink& l : f.links) addLink(merged, linkIndex, l);
    for (const UrdfJoint& j : f.joints) addJoint(merged, jointSeen, j);
  }
  return merged;
}

bool jointsFormACycle(const MergedUrdf& merged) {
  std::map<std::string, std::vector<std::string>> children;
  for (const UrdfJoint& j : merged.joints) children[j.spec.parent].push_back(j.spec.child);
  enum class Mark { Unseen, OnPath, Done };
  std::map<std::string, Mark> mark;
  // iterative depth-first search; a link met again while still on the path closes a cycle
  for (const auto& start : children) {
    if (mark[start.first] != Mark::Unseen) continue;
    std::vector<std::pair<std::string, size_t>> path{{start.first, 0}};
    mark[start.first] = Mark::OnPath;
    while (!path.empty()) {
      auto& [link, next] = path.back();
      const auto it = children.find(link);
      if (it == children.end() || next >= it->second.size()) {
        mark[link] = Mark::Done;
        path.pop_back();
        continue;
      }
      const std::string child = it->second[next++];
      if (mark[child] == Mark::OnPath) return true;
      if (mark[child] == Mark::Unseen) {
        mark[child] = Mark::OnPath;
        path.emplace_back(child, 0);
      }
    }
  }
  return false;
}

std::string mergedXml(const std::vector<UrdfFile>& files, const MergedUrdf& merged) {
  tinyxml2::XMLDocument doc;
  tinyxml2::XMLElement* robot = doc.NewElement("robot");
  robot->SetAttribute("name", merged.robotName.c_str());
  doc.InsertEndChild(robot);
  std::set<std::string> materials;  // visuals may refer to top-level materials of their own file
  for (const UrdfFile& f : files) {
    forEachTopLevelElement(f, [&](const tinyxml2::XMLElement& e) {
      const char* name = e.Attribute("name");
      if (std::strcmp(e.Name(), "material") == 0 && name && materials.insert(name).second)
        robot->InsertEndChild(e.DeepClone(&doc));
    });
  }
  for (const UrdfLink& l : merged.links) robot->InsertEndChild(l.element->DeepClone(&doc));
  for (const UrdfJoint& j : merged.joints) robot->InsertEndChild(j.element->DeepClone(&doc));
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  return printer.CStr();
}

}  // namespace grbda::urdf_detail
