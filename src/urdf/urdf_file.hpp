#pragma once
// Internal: the tinyxml2 pass over one URDF file. It checks the syntax of every <link> and
// <joint> (names, parent/child, joint types, every number) and turns them into LinkSpec/JointSpec
// with their file and line, plus the URDF+ `independent` flag. Graph problems (unknown links, two
// roots, cycles) are left to ModelBuilder::build(), which reports them with the same locations.
#include <tinyxml2.h>

#include <memory>
#include <string>
#include <vector>

#include "grbda/builder.hpp"

namespace grbda::urdf_detail {

struct UrdfLink {
  LinkSpec spec;
  bool hasInertial = false;  ///< false: a bare `<link name="x"/>` (massless, or a placeholder)
  std::vector<CollisionSpec> collisions;  ///< its <collision> primitives (meshes skipped with a warning)
  const tinyxml2::XMLElement* element = nullptr;
};

struct UrdfJoint {
  /// A URDF+ joint the reader expands into 1-DoF joints (urdf/compound_joints.hpp); spec.kind is
  /// then Continuous (what urdfdom is shown for a universal joint) and the expansion sets the kinds.
  enum class Compound { None, Universal, Planar };
  JointSpec spec;
  Compound compound = Compound::None;
  Vec3 axis2 = Vec3::Zero();  ///< universal: `<axis2 xyz>`, in the joint frame
  const tinyxml2::XMLElement* element = nullptr;
};

/// One parsed file. The document stays alive so that later passes (URDF+ <loop>, <coupling>) can
/// walk it again with forEachTopLevelElement.
struct UrdfFile {
  std::string source;  ///< file name (or the caller's name for a string) used in messages
  std::string text;    ///< the XML text, as given to urdfdom
  std::unique_ptr<tinyxml2::XMLDocument> document;
  const tinyxml2::XMLElement* robot = nullptr;
  std::string robotName;
  std::vector<UrdfLink> links;
  std::vector<UrdfJoint> joints;
};


/// Parses XML text and reads its links and joints. Throws ModelError on any syntax problem.
UrdfFile readUrdf(std::string text, std::string source);

/// Calls `visit` for each direct child element of <robot>, in document order.
template <typename Visitor>
void forEachTopLevelElement(const UrdfFile& file, Visitor&& visit) {
  for (const tinyxml2::XMLElement* e = file.robot->FirstChildElement(); e; e = e->NextSiblingElement()) visit(*e);
}

}  // namespace grbda::urdf_detail
