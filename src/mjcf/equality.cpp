// MJCF `<equality>` → grbda's exact constraints (MuJoCo enforces them softly, with solref/solimp;
// grbda embeds them in clusters, so those attributes are ignored).
//   joint    q1 = c0 + c1 q2 (polycoef linear): a URDF+ coupling when the two joints hang from the
//            same link and c0 = 0 (a geared rotor: the exact rotor cluster), else a linear implicit
//            constraint like URDF's <mimic>. joint1 becomes dependent.
//   connect  a point of body1 and a point of body2 coincide: a spherical loop, or, when the loop
//            is planar (hinge axes parallel, slide axes normal to them), a revolute loop about the
//            common axis, which is then the same constraint.
//   weld     body1 and body2 keep their relative pose at qpos0: a fixed loop.
// MJCF has no independent flags: for each loop the reader marks joints nearest its two ends
// dependent, as many as the loop removes degrees of freedom (loop_dependents.hpp, docs/mjcf.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "log.hpp"
#include "mjcf/attributes.hpp"
#include "mjcf/loop_dependents.hpp"
#include "mjcf/reader.hpp"
#include "urdf/mimic.hpp"

namespace grbda::mjcf_detail {
namespace {

using tinyxml2::XMLElement;

constexpr double kParallel = 1e-9;

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

const JointInfo& jointNamed(const Reader& r, const ElementContext& at, const XMLElement& e, const char* attr) {
  const std::string name = urdf_detail::requiredAttribute(at, e, attr);
  const auto it = r.jointInfo.find(name);
  if (it == r.jointInfo.end()) fail(at, e, std::string(attr) + " '" + name + "' is not a joint of this file");
  if (it->second.kind == JointKind::Floating) fail(at, e, std::string(attr) + " '" + name + "' is a free joint");
  if (it->second.kind == JointKind::Spherical)
    fail(at, e, std::string(attr) + " '" + name + "' is a ball joint (an <equality joint> couples 1-DoF joints)");
  return it->second;
}

const BodyInfo& bodyNamed(const Reader& r, const ElementContext& at, const XMLElement& e, const char* attr,
                          const char* fallback) {
  const char* raw = e.Attribute(attr);
  const std::string name = raw ? raw : fallback ? fallback : urdf_detail::requiredAttribute(at, e, attr);
  const auto it = r.bodies.find(name);
  if (it == r.bodies.end()) fail(at, e, std::string(attr) + " '" + name + "' is not a body of this file");
  return it->second;
}

void markDependent(Reader& r, const ElementContext& at, const XMLElement& e, const std::string& joint) {
  JointSpec& j = r.joints[static_cast<size_t>(r.jointIndex(joint))];
  if (!j.independent) fail(at, e, "joint '" + joint + "' is already driven by another equality");
  j.independent = false;
  j.independentGiven = true;
}

void readJointEquality(Reader& r, const ElementContext& at, const Attributes& a, const std::string& name) {
  const XMLElement& e = a.e;
  const JointInfo& j1 = jointNamed(r, at, e, "joint1");
  const std::string n1 = e.Attribute("joint1");
  std::vector<double> c = a.has("polycoef") ? a.numbers("polycoef", 1, 5) : std::vector<double>{0.0, 1.0};
  c.resize(5, 0.0);
  const XMLElement& coefAt = a.has("polycoef") ? *a.source("polycoef") : e;
  if (c[2] != 0.0 || c[3] != 0.0 || c[4] != 0.0)
    fail(at, coefAt, "polycoef \"" + fmt(c[0]) + " " + fmt(c[1]) + " " + fmt(c[2]) + " " + fmt(c[3]) + " " + fmt(c[4]) +
                         "\" is nonlinear (c2, c3 or c4 non-zero); grbda's joint couplings are linear, q1 = c0 + c1 q2");
  if (!e.Attribute("joint2") || c[1] == 0.0)
    fail(at, coefAt, "the equality holds joint '" + n1 + "' at a constant (no joint2, or c1 = 0); grbda does not lock "
                     "joints: make the body fixed (remove the joint) instead");
  const JointInfo& j2 = jointNamed(r, at, e, "joint2");
  const std::string n2 = e.Attribute("joint2");
  if (n1 == n2) fail(at, e, "joint1 and joint2 are the same joint");
  const auto& p1 = r.parentOfLink.at(j1.link);
  const auto& p2 = r.parentOfLink.at(j2.link);
  if (c[0] == 0.0 && p1.first == p2.first) {
    // both joints hang from one link: Σ q̇ over each chain below it is that joint's q̇ alone
    r.couplings.push_back(CouplingSpec{name, j2.link, j1.link, c[1], SourceLocation{r.file, e.GetLineNum()}});
  } else {
    ConstraintSpec s;
    s.name = name;
    s.joints = {n2, n1};
    s.constraint = urdf_detail::linearJointConstraint(c[1], c[0]);
    s.where = SourceLocation{r.file, e.GetLineNum()};
    s.typeHint = "Mimic";
    s.description = "equality " + n1 + " = " + (c[0] != 0.0 ? fmt(c[0]) + " + " : "") + fmt(c[1]) + " * " + n2;
    r.constraints.push_back(std::move(s));
  }
  markDependent(r, at, e, n1);
}

struct LoopChains {
  std::vector<std::string> pred, succ;
  bool planar = true;
  Vec3 normal = Vec3::UnitZ();  ///< the common hinge axis (world, qpos0)
};

LoopChains chainsOf(const Reader& r, const std::string& link1, const std::string& link2) {
  LoopChains c;
  loopChains(r, link1, link2, c.pred, c.succ);
  bool haveNormal = false;
  for (const auto* chain : {&c.pred, &c.succ})
    for (const std::string& j : *chain) {
      const JointInfo& info = r.jointInfo.at(j);
      if (info.kind == JointKind::Spherical) c.planar = false;  // a ball turns about any axis
      if (info.kind != JointKind::Revolute && info.kind != JointKind::Continuous) continue;
      const Vec3 a = info.worldAxis.normalized();
      if (!haveNormal) c.normal = a, haveNormal = true;
      else if (c.normal.cross(a).norm() > kParallel) c.planar = false;
    }
  for (const auto* chain : {&c.pred, &c.succ})
    for (const std::string& j : *chain) {
      const JointInfo& info = r.jointInfo.at(j);
      if (info.kind == JointKind::Prismatic && std::abs(c.normal.dot(info.worldAxis.normalized())) > kParallel)
        c.planar = false;
    }
  return c;
}

// MJCF has no independent flags: loop_dependents.hpp chooses the joints the loop makes dependent.
void markLoopDependents(Reader& r, const ElementContext& at, const XMLElement& e, const LoopEnds& ends) {
  auto taken = [&r](const std::string& joint) { return !r.joints[static_cast<size_t>(r.jointIndex(joint))].independent; };
  const LoopDependents d = loopDependents(r, ends, taken);
  if (d.rank == 0) fail(at, e, "the equality constrains nothing (no joint moves one end relative to the other)");
  if (static_cast<int>(d.joints.size()) < d.rank)
    fail(at, e, "the loop removes " + std::to_string(d.rank) + " degrees of freedom, but only " +
                    std::to_string(d.joints.size()) + " of its joints can be made dependent (other equalities drive the rest)");
  for (const std::string& j : d.joints) markDependent(r, at, e, j);
}

// A point: (link, position in the link frame), from body + point in the body frame.
std::pair<std::string, Vec3> pointOn(const BodyInfo& b, const Vec3& inBody) {
  return {b.link, b.bodyInLink.R * inBody + b.bodyInLink.p};
}

void readConnect(Reader& r, const ElementContext& at, const XMLElement& e, const std::string& name) {
  std::pair<std::string, Vec3> p1, p2;
  if (e.Attribute("site1") || e.Attribute("site2")) {
    for (const char* s : {"site1", "site2"}) {
      const std::string site = urdf_detail::requiredAttribute(at, e, s);
      if (!r.sites.count(site)) fail(at, e, std::string(s) + " '" + site + "' is not a named site of this file");
    }
    const SiteInfo& s1 = r.sites.at(e.Attribute("site1"));
    const SiteInfo& s2 = r.sites.at(e.Attribute("site2"));
    p1 = pointOn(r.bodies.at(s1.body), s1.inBody.p);
    p2 = pointOn(r.bodies.at(s2.body), s2.inBody.p);
  } else {
    const BodyInfo& b1 = bodyNamed(r, at, e, "body1", nullptr);
    const BodyInfo& b2 = bodyNamed(r, at, e, "body2", "world");
    if (!e.Attribute("anchor")) fail(at, e, "<connect> has no 'anchor' attribute");
    const Vec3 anchor = urdf_detail::vectorAttribute(at, e, "anchor", Vec3::Zero());
    p1 = pointOn(b1, anchor);
    // MuJoCo: body2's point is the one that coincides with the anchor at qpos0
    const Vec3 world = b1.world.R * anchor + b1.world.p;
    const Pose& l2 = r.linkWorld.at(b2.link);
    p2 = {b2.link, l2.R.transpose() * (world - l2.p)};
  }
  if (p1.first == p2.first) fail(at, e, "both points are on the same rigid body; the equality constrains nothing");
  const LoopChains c = chainsOf(r, p1.first, p2.first);
  for (const auto* chain : {&c.pred, &c.succ})
    for (const std::string& j : *chain)
      if (r.jointInfo.at(j).kind == JointKind::Spherical)
        fail(at, e, "this <connect> closes a spatial loop (joint '" + j +
                        "' is a ball joint); the reader chooses a loop's dependent joints among 1-DoF joints only, "
                        "so a <connect> loop may not pass through a ball (write it as three hinges)");
  LoopSpec l;
  l.name = name;
  // planar: a revolute loop about the common axis, the same constraint with the rows a planar
  // loop has; spatial: a ball (three position rows)
  l.type = c.planar ? LoopKind::Revolute : LoopKind::Spherical;
  l.predecessor = p1.first;
  l.successor = p2.first;
  // loop frames parallel to the world at qpos0, so that the common axis is the same vector in both
  l.predecessorOrigin = Pose{r.linkWorld.at(p1.first).R.transpose(), p1.second}.toTransform();
  l.successorOrigin = Pose{r.linkWorld.at(p2.first).R.transpose(), p2.second}.toTransform();
  l.axis = c.normal;
  l.where = SourceLocation{r.file, e.GetLineNum()};
  r.loops.push_back(l);
  markLoopDependents(r, at, e, LoopEnds{p1.first, p2.first, p1.second, p2.second, false});
}

void readWeld(Reader& r, const ElementContext& at, const XMLElement& e, const std::string& name) {
  if (e.Attribute("site1") || e.Attribute("site2")) fail(at, e, "a <weld> between sites is not supported yet; name the bodies");
  if (e.Attribute("relpose")) {
    const auto rp = urdf_detail::numbersAttribute(at, e, "relpose", 7, 7);
    if (rp[3] != 0.0 || rp[4] != 0.0 || rp[5] != 0.0 || rp[6] != 0.0)
      fail(at, e, "a <weld> with an explicit relpose is not supported yet (the pose at qpos0 is used when its "
                  "quaternion is zero)");
  }
  const BodyInfo& b1 = bodyNamed(r, at, e, "body1", nullptr);
  const BodyInfo& b2 = bodyNamed(r, at, e, "body2", "world");
  if (b1.link == b2.link) fail(at, e, "body1 and body2 are the same body");
  LoopSpec l;
  l.name = name;
  l.type = LoopKind::Fixed;
  l.predecessor = b1.link;
  l.successor = b2.link;
  // the loop frame is body1's frame; on body2 it is where body1's frame is at qpos0
  l.predecessorOrigin = b1.bodyInLink.toTransform();
  l.successorOrigin = (r.linkWorld.at(b2.link).inverse() * b1.world).toTransform();
  l.where = SourceLocation{r.file, e.GetLineNum()};
  r.loops.push_back(l);
  markLoopDependents(r, at, e, LoopEnds{b1.link, b2.link, b1.bodyInLink.p, l.successorOrigin.r, true});
}

}  // namespace

void readEquality(Reader& r, const XMLElement& equality) {
  int index = 0;
  for (const XMLElement* c = equality.FirstChildElement(); c; c = c->NextSiblingElement(), ++index) {
    const std::string tag = c->Name();
    const std::string name = c->Attribute("name") ? c->Attribute("name") : "equality" + std::to_string(index);
    const auto at = r.at("equality " + tag + " '" + name + "'");
    const Attributes a{at, *c, r.defaults.classOf(at, *c, nullptr), "equality"};
    if (!a.flag("active", true)) {
      detail::log().warn("{}:{}: {}: inactive (active=\"false\"); skipped", r.file, c->GetLineNum(), at.element);
      continue;
    }
    if (tag == "joint") readJointEquality(r, at, a, name);
    else if (tag == "connect") readConnect(r, at, *c, name);
    else if (tag == "weld") readWeld(r, at, *c, name);
    else if (tag == "tendon" || tag == "flex" || tag == "distance")
      fail(at, *c, "<" + tag + "> equalities are not supported (grbda reads joint, connect and weld)");
    else
      fail(at, *c, "unknown equality <" + tag + "> (expected joint, connect or weld)");
  }
}

}  // namespace grbda::mjcf_detail
