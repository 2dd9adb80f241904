#include "urdf/compound_joints.hpp"

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "compiler/joint_chain.hpp"
#include "grbda/errors.hpp"

namespace grbda::urdf_detail {
namespace {

using detail::ChainCoordinate;
using detail::JointChain;
using tinyxml2::XMLElement;

constexpr double kZeroAxis = 1e-9;  ///< an axis shorter than this has no direction (as build() says)
constexpr double kParallel = 1e-6;  ///< sin of the angle below which two universal axes are parallel

const XMLElement& orJoint(const XMLElement* child, const XMLElement& joint) { return child ? *child : joint; }

void requireAxis(const ElementContext& at, const XMLElement& where, const Vec3& a, const char* which) {
  if (!(a.norm() >= kZeroAxis)) fail(at, where, std::string(which) + " has zero length; it needs a direction");
}

void readUniversal(const ElementContext& at, const XMLElement& e, UrdfJoint& j) {
  requireAxis(at, orJoint(e.FirstChildElement("axis"), e), j.spec.axis, "<axis>");
  const XMLElement* axis2 = uniqueChild(at, e, "axis2");
  if (!axis2)
    fail(at, e, "a universal joint needs its second axis: <axis2 xyz=\"...\"/> (in the joint frame, turning with "
                "the first angle)");
  if (!axis2->Attribute("xyz")) fail(at, *axis2, "<axis2> has no 'xyz' attribute");
  j.axis2 = vectorAttribute(at, *axis2, "xyz", Vec3::Zero());
  requireAxis(at, *axis2, j.axis2, "<axis2>");
  const Vec3 a1 = j.spec.axis.normalized(), a2 = j.axis2.normalized();
  if (a1.cross(a2).norm() < kParallel)
    fail(at, *axis2, "<axis2> is parallel to <axis>: a universal joint needs two distinct axes (two parallel axes "
                     "are one revolute joint)");
}

void readPlanar(const ElementContext& at, const XMLElement& e, UrdfJoint& j) {
  requireAxis(at, orJoint(e.FirstChildElement("axis"), e), j.spec.axis, "<axis> (the plane's normal)");
  if (const XMLElement* axis2 = e.FirstChildElement("axis2"))
    fail(at, *axis2, "<axis2> belongs to universal joints; a planar joint has one <axis>, the plane's normal");
  if (const XMLElement* limit = e.FirstChildElement("limit"))
    if (limit->Attribute("lower") || limit->Attribute("upper"))
      fail(at, *limit, "a planar joint has three coordinates (x, y, θ) and no single one to bound: <limit "
                       "lower/upper> is not supported on it (effort and velocity apply to each coordinate)");
}

// Joint `j` as its chain of 1-DoF joints (compiler/joint_chain.hpp), into `out`.
void expandOne(const UrdfJoint& j, const std::vector<ChainCoordinate>& coordinates, MergedUrdf& out,
               std::set<std::string>& linkNames, std::set<std::string>& jointNames) {
  const JointChain chain = detail::jointChain(j.spec, coordinates, linkNames, jointNames);
  for (const LinkSpec& l : chain.links) {
    UrdfLink link;
    link.spec = l;
    out.links.push_back(link);
  }
  for (const JointSpec& spec : chain.joints) {
    UrdfJoint part = j;
    part.compound = UrdfJoint::Compound::None;
    part.spec = spec;
    out.joints.push_back(part);
  }
}

}  // namespace

void readCompoundJoint(const ElementContext& at, const XMLElement& e, UrdfJoint& joint) {
  const char* type = joint.compound == UrdfJoint::Compound::Universal ? "universal" : "planar";
  if (const XMLElement* mimic = e.FirstChildElement("mimic"))
    fail(at, *mimic, std::string("a ") + type + " joint cannot follow another joint (<mimic> couples 1-DoF joints; "
                     "a <mimic> elsewhere may name one of its coordinates, e.g. '" + joint.spec.name + detail::kChainSeparator + "1')");
  if (joint.compound == UrdfJoint::Compound::Universal) readUniversal(at, e, joint);
  else readPlanar(at, e, joint);
}

std::pair<Vec3, Vec3> planarDirections(const Vec3& n) {
  Vec3 e1 = Vec3::UnitX() - n.x() * n;
  if (e1.norm() < kParallel) e1 = Vec3::UnitY() - n.y() * n;
  e1.normalize();
  return {e1, n.cross(e1)};
}

MergedUrdf expandCompoundJoints(const MergedUrdf& merged) {
  MergedUrdf out;
  out.robotName = merged.robotName;
  out.sourceFile = merged.sourceFile;
  out.links = merged.links;
  std::set<std::string> linkNames, jointNames;
  for (const UrdfLink& l : merged.links) linkNames.insert(l.spec.name);
  for (const UrdfJoint& j : merged.joints) jointNames.insert(j.spec.name);
  for (const UrdfJoint& j : merged.joints) {
    if (j.compound == UrdfJoint::Compound::None) {
      out.joints.push_back(j);
      continue;
    }
    if (j.compound == UrdfJoint::Compound::Universal) {
      const JointKind angle = j.spec.limits.hasPositionLimits ? JointKind::Revolute : JointKind::Continuous;
      expandOne(j, {{angle, j.spec.axis.normalized()}, {angle, j.axis2.normalized()}}, out, linkNames, jointNames);
    } else {
      const Vec3 n = j.spec.axis.normalized();
      const auto [e1, e2] = planarDirections(n);
      expandOne(j, {{JointKind::Prismatic, e1}, {JointKind::Prismatic, e2}, {JointKind::Continuous, n}}, out, linkNames,
                jointNames);
    }
  }
  return out;
}

}  // namespace grbda::urdf_detail
