#include "urdf/urdf_plus.hpp"

#include <cstring>
#include <string>

#include "log.hpp"
#include "urdf/mimic.hpp"
#include "urdf/xml_values.hpp"

namespace grbda::urdf_detail {

namespace {

using tinyxml2::XMLElement;

LoopKind loopKind(const ElementContext& at, const XMLElement& e) {
  const std::string type = requiredAttribute(at, e, "type");
  if (type == "revolute") return LoopKind::Revolute;
  if (type == "continuous") return LoopKind::Continuous;
  if (type == "prismatic") return LoopKind::Prismatic;
  if (type == "planar") return LoopKind::Planar;
  if (type == "fixed") return LoopKind::Fixed;
  if (type == "spherical") return LoopKind::Spherical;
  if (type == "universal") return LoopKind::Universal;
  fail(at, e,
       "unknown loop type '" + type +
           "' (expected revolute, continuous, prismatic, planar, fixed, spherical or universal)");
}

/// <predecessor link="..."><origin .../></predecessor>: the link and its loop-frame transform.
std::string readLoopEnd(const ElementContext& at, const XMLElement& end, Transform& frame) {
  const std::string link = requiredAttribute(at, end, "link");
  const Origin o = readOrigin(at, uniqueChild(at, end, "origin"));
  frame = urdfOriginToTransform(o.xyz, o.rpy);
  return link;
}

LoopSpec readLoop(const std::string& file, const XMLElement& e) {
  LoopSpec l;
  l.name = requiredAttribute(ElementContext{file, "loop"}, e, "name");
  l.where = SourceLocation{file, e.GetLineNum()};
  const ElementContext at{file, "loop '" + l.name + "'"};
  l.type = loopKind(at, e);
  l.predecessor = readLoopEnd(at, requiredChild(at, e, "predecessor"), l.predecessorOrigin);
  l.successor = readLoopEnd(at, requiredChild(at, e, "successor"), l.successorOrigin);
  if (const XMLElement* axis = uniqueChild(at, e, "axis")) l.axis = vectorAttribute(at, *axis, "xyz", Vec3::UnitX());
  const XMLElement* axis2 = uniqueChild(at, e, "axis2");
  if (l.type == LoopKind::Universal && !axis2)
    fail(at, e, "a universal loop needs <axis2> (the successor's axis, SDFormat's spelling)");
  if (axis2 && l.type != LoopKind::Universal)  // files that load today keep loading
    detail::log().warn("{}:{}: {}: <axis2> is read by universal loops only; ignored", file, axis2->GetLineNum(),
                       at.element);
  else if (axis2)
    l.axis2 = vectorAttribute(at, *axis2, "xyz", Vec3::Zero());
  return l;
}

CouplingSpec readCoupling(const std::string& file, const XMLElement& e) {
  CouplingSpec c;
  c.name = requiredAttribute(ElementContext{file, "coupling"}, e, "name");
  c.where = SourceLocation{file, e.GetLineNum()};
  const ElementContext at{file, "coupling '" + c.name + "'"};
  c.predecessor = requiredAttribute(at, requiredChild(at, e, "predecessor"), "link");
  c.successor = requiredAttribute(at, requiredChild(at, e, "successor"), "link");
  if (const XMLElement* ratio = uniqueChild(at, e, "ratio")) c.ratio = numberAttribute(at, *ratio, "value");
  return c;  // the optional type="rolling" is documentation only (spec §3.5)
}

}  // namespace

UrdfConstraints readUrdfConstraints(const UrdfFile& file) {
  UrdfConstraints out;
  forEachTopLevelElement(file, [&](const XMLElement& e) {
    if (std::strcmp(e.Name(), "loop") == 0) out.loops.push_back(readLoop(file.source, e));
    else if (std::strcmp(e.Name(), "coupling") == 0) out.couplings.push_back(readCoupling(file.source, e));
  });
  for (const UrdfJoint& j : file.joints) {
    const ElementContext at{file.source, "joint '" + j.spec.name + "'"};
    const XMLElement* mimic = uniqueChild(at, *j.element, "mimic");
    if (!mimic) continue;
    if (j.spec.kind != JointKind::Fixed) {
      out.mimics.push_back(readMimic(at, *mimic, j.spec.name));
      continue;
    }
    // A fixed joint has no coordinate to follow another (Pinocchio loads such files too).
    out.ignoredMimics.push_back(readMimic(at, *mimic, j.spec.name));
    detail::log().warn("{}:{}: {}: the joint is fixed, so its <mimic> is ignored", file.source, mimic->GetLineNum(),
                       at.element);
  }
  return out;
}

}  // namespace grbda::urdf_detail
