#pragma once
// Internal: the state of one MJCF read. The passes (bodies.cpp, equality.cpp, actuators.cpp) fill
// the vectors below; mjcf.cpp hands them to the ModelBuilder at the end (after `settotalmass`
// could rescale the links). Frames are "poses": where a child frame sits in a parent frame.
#include <tinyxml2.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "grbda/mjcf/mjcf.hpp"
#include "mjcf/defaults.hpp"
#include "mjcf/frames.hpp"
#include "urdf/xml_values.hpp"

namespace grbda::mjcf_detail {

using urdf_detail::ElementContext;
using urdf_detail::fail;

/// A `<joint>` as read: what the equality and actuator passes need to know about it.
struct JointInfo {
  std::string body;        ///< the MJCF body it moves
  std::string link;        ///< the grbda link it is the joint of (the body, or an intermediate link)
  std::string parentLink;  ///< the link it hangs from
  JointKind kind = JointKind::Revolute;
  Vec3 worldAxis = Vec3::UnitZ();  ///< its axis in world coordinates at the file's pose (qpos0)
  Vec3 axis = Vec3::UnitZ();       ///< its unit axis in its link's frame
  bool soleJointOfBody = true;
  int line = 0;
};

/// A `<body>` as read.
struct BodyInfo {
  std::string link;          ///< the grbda link that carries its mass (its own name)
  Pose bodyInLink;           ///< the MJCF body frame in its link's frame (joint pos offsets it)
  Pose world;                ///< the MJCF body frame in the world at qpos0
  int line = 0;
};

/// A named `<site>` (a grbda frame), for `<equality>` elements that name sites.
struct SiteInfo {
  std::string body;
  Pose inBody;
};

/// One MJCF read.
struct Reader {
  std::string file;
  Compiler compiler;
  Defaults defaults;
  std::string robotName = "MuJoCo Model";
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);

  std::vector<LinkSpec> links;
  std::vector<JointSpec> joints;
  std::vector<LoopSpec> loops;
  std::vector<CouplingSpec> couplings;
  std::vector<ConstraintSpec> constraints;
  std::vector<FrameSpec> frames;
  std::vector<CollisionSpec> collisions;
  std::vector<MjcfMotor> motors;

  std::map<std::string, BodyInfo> bodies;   ///< by MJCF body name ("world" included)
  std::map<std::string, JointInfo> jointInfo;  ///< by joint name
  std::map<std::string, SiteInfo> sites;    ///< by site name
  std::map<std::string, Pose> linkWorld;     ///< each link's frame in the world at qpos0
  std::map<std::string, Pose> linkOrigin;    ///< each link's frame in its parent link's at q = 0 (its joint origin)
  std::map<std::string, std::pair<std::string, std::string>> parentOfLink;  ///< link -> (parent link, joint)
  std::set<std::string> linkNames;
  std::vector<std::string> armatureJoints;  ///< joints whose `armature` is ignored (one warning)
  /// Skipped elements by kind ("mesh geoms", "position actuators"): count and first line (one warning each).
  std::map<std::string, std::pair<int, int>> skipped;
  void skip(const std::string& kind, int line) {
    auto& s = skipped[kind];
    if (s.first++ == 0) s.second = line;
  }
  int unnamedBodies = 0;

  ElementContext at(const std::string& element) const { return ElementContext{file, element}; }
  /// Index of the joint spec named `name` (-1 when none).
  int jointIndex(const std::string& name) const;
};

/// The `<worldbody>` tree: links, joints, inertias, collisions, sites.
void readWorldbody(Reader& r, const tinyxml2::XMLElement& worldbody);
/// `<equality>`: couplings, loops and linear joint constraints.
void readEquality(Reader& r, const tinyxml2::XMLElement& equality);
/// `<actuator>`: the motors.
void readActuators(Reader& r, const tinyxml2::XMLElement& actuator);

}  // namespace grbda::mjcf_detail
