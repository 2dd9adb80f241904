// MJCF `<worldbody>`: each `<body>` becomes a grbda link named after it. A body with one joint
// hangs from its parent's link by that joint; a body with none is fixed to it (the builder merges
// it); a body with several joints gets a chain of massless intermediate links, one per joint but
// the last (MuJoCo applies a body's joints in order, each about its own anchor).
//
// Frames. grbda puts a link's frame on its joint (URDF), MuJoCo puts the joint anywhere in the body
// frame (`<joint pos>`). The link frame is therefore the body frame moved to the last joint's anchor
// (same orientation); whatever the body holds (inertial, geoms, sites, child bodies) is carried
// into the link frame by bodyInLink = translation(−pos). Composing MuJoCo's per-joint rule
//   body ← body · T(p_k) · J_k(q_k) · T(−p_k)
// over the joints gives the chain T(p_1) J_1 T(p_2 − p_1) J_2 … J_n T(−p_n): these are the joint
// origins below.
#include <cstring>

#include "log.hpp"
#include "mjcf/attributes.hpp"
#include "mjcf/geoms.hpp"
#include "mjcf/reader.hpp"

namespace grbda::mjcf_detail {
namespace {

using tinyxml2::XMLElement;

struct JointDesc {
  const XMLElement* e;
  const Defaults::Class* cls;
  std::string name;
  std::string type;  // hinge, slide, ball, free
  Vec3 pos = Vec3::Zero();
};

void claimLink(Reader& r, const ElementContext& at, const XMLElement& e, const std::string& name) {
  if (!r.linkNames.insert(name).second) fail(at, e, "the name '" + name + "' is used by two bodies");
}

// damping, frictionloss, armature and stiffness, as every MuJoCo joint type states them: damping and
// friction kept, armature listed (approximate rotor inertia, docs/mjcf.md), stiffness warned about.
void readJointPassives(Reader& r, const Attributes& a, JointSpec& j) {
  j.dynamics.damping = a.number("damping", 0.0);
  j.dynamics.friction = a.number("frictionloss", 0.0);
  if (j.dynamics.damping < 0.0) fail(a.at, *a.source("damping"), "damping must be >= 0");
  if (j.dynamics.friction < 0.0) fail(a.at, *a.source("frictionloss"), "frictionloss must be >= 0");
  const double armature = a.number("armature", 0.0);
  if (armature < 0.0) fail(a.at, *a.source("armature"), "armature must be >= 0");
  if (armature > 0.0) r.armatureJoints.push_back(j.name);
  if (a.number("stiffness", 0.0) != 0.0)
    detail::log().warn("{}:{}: {}: joint stiffness is ignored (grbda has no joint springs)", r.file,
                       a.source("stiffness")->GetLineNum(), a.at.element);
}

// hinge and slide: axis, range/limited (ref shifts the coordinate origin), damping, frictionloss,
// armature (kept out: see docs/mjcf.md), stiffness (no springs in grbda).
void readJointPhysics(Reader& r, const Attributes& a, const std::string& type, JointSpec& j) {
  j.axis = a.vec3("axis", Vec3::UnitZ());
  if (j.axis.norm() < 1e-12) fail(a.at, *a.source("axis"), "joint axis is a zero vector");
  const double scale = type == "hinge" ? r.compiler.angleScale() : 1.0;
  const double ref = a.number("ref", 0.0) * scale;
  const std::string limited = a.keyword("limited", "auto", {"true", "false", "auto"});
  const bool hasRange = a.has("range");
  const bool isLimited = limited == "true" || (limited == "auto" && r.compiler.autolimits && hasRange);
  if (isLimited) {
    const std::vector<double> range = hasRange ? a.numbers("range", 2, 2) : std::vector<double>{0.0, 0.0};
    if (!(range[0] < range[1]))
      fail(a.at, hasRange ? *a.source("range") : a.e, "a limited joint needs range[0] < range[1]");
    j.limits.hasPositionLimits = true;
    j.limits.lower = range[0] * scale - ref;
    j.limits.upper = range[1] * scale - ref;
  }
  j.kind = type == "slide" ? JointKind::Prismatic : isLimited ? JointKind::Revolute : JointKind::Continuous;
  readJointPassives(r, a, j);
}

// ball: grbda's spherical joint (docs/mjcf.md): MuJoCo's qpos (w, x, y, z) and its qvel (ω in the
// body frame) are grbda's coordinates as they stand. No axis; a range is a cone limit, which grbda
// has not: ignored with a warning. damping/frictionloss are kept as a URDF spherical joint keeps
// <dynamics> (the simulator's joint friction acts on 1-DoF joints only).
void readBallPhysics(Reader& r, const Attributes& a, JointSpec& j) {
  j.kind = JointKind::Spherical;
  const std::string limited = a.keyword("limited", "auto", {"true", "false", "auto"});
  if (limited == "true" || (limited == "auto" && r.compiler.autolimits && a.has("range")))
    detail::log().warn("{}:{}: {}: the range of a ball joint (a cone limit) is ignored: grbda's spherical joint has "
                       "no limits", r.file, a.e.GetLineNum(), a.at.element);
  readJointPassives(r, a, j);
}

std::vector<JointDesc> jointsOf(Reader& r, const XMLElement& body, const std::string& bodyName,
                                const Defaults::Class* cls) {
  std::vector<JointDesc> out;
  for (const XMLElement* c = body.FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (!is(*c, "joint") && !is(*c, "freejoint")) continue;
    JointDesc d{c, nullptr, "", "free"};
    d.name = c->Attribute("name") ? c->Attribute("name") : bodyName + "/joint" + std::to_string(out.size());
    const auto at = r.at("joint '" + d.name + "'");
    d.cls = r.defaults.classOf(at, *c, cls);
    if (is(*c, "joint")) {
      const Attributes a{at, *c, d.cls};
      d.type = a.keyword("type", "hinge", {"free", "ball", "slide", "hinge"});
      d.pos = a.vec3("pos", Vec3::Zero());
    }
    if (r.jointInfo.count(d.name)) fail(at, *c, "joint name '" + d.name + "' is used twice");
    out.push_back(d);
  }
  return out;
}

// <inertial pos quat mass diaginertia|fullinertia>, in the body frame.
void readInertial(Reader& r, const ElementContext& at, const XMLElement& e, MassSum& sum) {
  const double m = urdf_detail::numberAttribute(at, e, "mass");
  if (m < 0.0) fail(at, e, "inertial mass must be >= 0");
  if (!e.Attribute("pos")) fail(at, e, "<inertial> has no 'pos' attribute");
  const Pose pose = readPose(at, e, r.compiler);
  Mat3 I;
  const bool diag = e.Attribute("diaginertia"), full = e.Attribute("fullinertia");
  if (diag == full) fail(at, e, "<inertial> needs exactly one of 'diaginertia' and 'fullinertia'");
  if (diag) {
    const auto d = urdf_detail::numbersAttribute(at, e, "diaginertia", 3, 3);
    I = Vec3(d[0], d[1], d[2]).asDiagonal();
  } else {
    if (!pose.R.isIdentity(0.0))
      fail(at, e, "<inertial> gives 'fullinertia' and an orientation; fullinertia is in the body axes");
    const auto f = urdf_detail::numbersAttribute(at, e, "fullinertia", 6, 6);  // ixx iyy izz ixy ixz iyz
    I << f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2];
  }
  sum.add(m, pose, I);
}

void readSite(Reader& r, const XMLElement& e, const Defaults::Class* cls, const std::string& body,
              const std::string& link, const Pose& bodyInLink) {
  if (!e.Attribute("name")) return;  // only named sites can be referred to
  const std::string name = e.Attribute("name");
  const auto at = r.at("site '" + name + "'");
  const Pose inBody = readPoseWithDefaults(Attributes{at, e, r.defaults.classOf(at, e, cls)}, r.compiler);
  r.sites[name] = SiteInfo{body, inBody};
  r.frames.push_back(FrameSpec{name, link, (bodyInLink * inBody).toTransform(), SourceLocation{r.file, e.GetLineNum()}});
}

void refuseUnsupported(const ElementContext& at, const XMLElement& c) {
  for (const char* tag : {"frame", "composite", "flexcomp", "replicate", "attach", "include"})
    if (is(c, tag))
      fail(at, c, std::string("<") + tag + "> inside a body is not supported by grbda's MJCF reader (see docs/mjcf.md)");
}

void readBody(Reader& r, const XMLElement& e, const std::string& parentLink, const Pose& parentInLink,
              const Pose& parentWorld, const Defaults::Class* inherited);

// Geoms, sites and child bodies of a body (or of the world).
void readContents(Reader& r, const XMLElement& e, const std::string& body, const std::string& link,
                  const Pose& bodyInLink, const Pose& bodyWorld, const Defaults::Class* cls, MassSum* geomMass) {
  const auto at = r.at(body == "world" ? std::string("worldbody") : "body '" + body + "'");
  for (const XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
    refuseUnsupported(at, *c);
    if (is(*c, "geom")) readGeom(r, *c, cls, link, bodyInLink, geomMass);
    else if (is(*c, "site")) readSite(r, *c, cls, body, link, bodyInLink);
    else if (is(*c, "body")) readBody(r, *c, link, bodyInLink, bodyWorld, cls);
  }
}

// A body without joints: fixed to its parent link (the builder merges it).
void addFixedJoint(Reader& r, const XMLElement& e, const std::string& name, const std::string& parentLink,
                   const Pose& origin) {
  JointSpec j;
  j.name = name + "/fixed";
  j.kind = JointKind::Fixed;
  j.parent = parentLink;
  j.child = name;
  j.origin = origin.toTransform();
  j.where = SourceLocation{r.file, e.GetLineNum()};
  r.joints.push_back(j);
  r.parentOfLink[name] = {parentLink, j.name};
  r.linkOrigin[name] = origin;
}

// The body's joints as a chain of links ending in the body's own link (see the top of this file).
// `origin` is the body frame in the parent link at q = 0, `world` in the world at qpos0.
void addJointChain(Reader& r, const std::vector<JointDesc>& joints, const std::string& name,
                   const std::string& parentLink, const Pose& origin, const Pose& world) {
  std::string prev = parentLink;
  for (size_t k = 0; k < joints.size(); ++k) {
    const JointDesc& d = joints[k];
    const auto jat = r.at("joint '" + d.name + "'");
    JointSpec j;
    j.name = d.name;
    j.parent = prev;
    j.child = k + 1 == joints.size() ? name : name + "/" + d.name;
    j.where = SourceLocation{r.file, d.e->GetLineNum()};
    if (d.type == "free") {
      // MuJoCo's free joint sets the body's world pose directly (the body's pos/quat are only its
      // initial value qpos0), so the joint has no origin; only a top-level body may have one.
      if (joints.size() != 1) fail(jat, *d.e, "a free joint must be the only joint of its body");
      if (parentLink != "world")  // only top-level bodies hang from the world link itself
        fail(jat, *d.e, "a free joint must be on a top-level body (a child of <worldbody>)");
      j.kind = JointKind::Floating;
    } else {
      if (d.type == "ball") readBallPhysics(r, Attributes{jat, *d.e, d.cls}, j);
      else readJointPhysics(r, Attributes{jat, *d.e, d.cls}, d.type, j);
      j.origin = (k == 0 ? origin * Pose::translation(d.pos) : Pose::translation(d.pos - joints[k - 1].pos)).toTransform();
    }
    if (j.child != name) {
      claimLink(r, jat, *d.e, j.child);
      r.links.push_back(LinkSpec{j.child, 0.0, Vec3::Zero(), Mat3::Zero(), SourceLocation{r.file, d.e->GetLineNum()}});
      r.linkWorld[j.child] = world * Pose::translation(d.pos);
    }
    r.jointInfo[d.name] = JointInfo{name, j.child, prev, j.kind, world.R * j.axis.normalized(), j.axis.normalized(),
                                    joints.size() == 1, d.e->GetLineNum()};
    r.linkOrigin[j.child] = Pose{j.origin.E.transpose(), j.origin.r};
    r.parentOfLink[j.child] = {prev, d.name};
    r.joints.push_back(j);
    prev = j.child;
  }
}

// The body's mass in its link frame: its <inertial>, or its geoms (compiler inertiafromgeom),
// read together with its geoms, sites and child bodies.
void readMassAndContents(Reader& r, const XMLElement& e, const std::string& name, const Pose& bodyInLink,
                         const Pose& world, const Defaults::Class* cls) {
  const auto at = r.at("body '" + name + "'");
  const XMLElement* inertial = urdf_detail::uniqueChild(at, e, "inertial");
  const auto mode = r.compiler.inertiaFromGeom;
  const bool fromGeoms = mode == Compiler::FromGeom::True || (mode == Compiler::FromGeom::Auto && !inertial);
  MassSum sum;
  if (inertial && !fromGeoms) readInertial(r, at, *inertial, sum);
  readContents(r, e, name, name, bodyInLink, world, cls, fromGeoms ? &sum : nullptr);
  MassSum inLink;  // the body-frame sum carried into the link frame
  for (const MassSum::Part& p : sum.parts)
    inLink.parts.push_back(MassSum::Part{p.m, bodyInLink.R * p.c + bodyInLink.p, bodyInLink.R * p.I * bodyInLink.R.transpose()});
  LinkSpec link{name, 0.0, Vec3::Zero(), Mat3::Zero(), SourceLocation{r.file, e.GetLineNum()}};
  inLink.result(link.mass, link.com, link.inertia);
  r.links.push_back(link);
}

void readBody(Reader& r, const XMLElement& e, const std::string& parentLink, const Pose& parentInLink,
              const Pose& parentWorld, const Defaults::Class* inherited) {
  const std::string name = e.Attribute("name") ? e.Attribute("name") : "body" + std::to_string(++r.unnamedBodies);
  const auto at = r.at("body '" + name + "'");
  claimLink(r, at, e, name);
  const Defaults::Class* cls = e.Attribute("childclass") ? r.defaults.named(at, e, e.Attribute("childclass")) : inherited;
  const Pose pose = readPose(at, e, r.compiler);
  const Pose world = parentWorld * pose;
  const std::vector<JointDesc> joints = jointsOf(r, e, name, cls);
  if (joints.empty()) addFixedJoint(r, e, name, parentLink, parentInLink * pose);
  else addJointChain(r, joints, name, parentLink, parentInLink * pose, world);
  // the link frame is the body frame moved to the last joint's anchor (a free joint has none)
  const bool moved = !joints.empty() && joints.back().type != "free";
  const Pose bodyInLink = moved ? Pose::translation(-joints.back().pos) : Pose();
  r.bodies[name] = BodyInfo{name, bodyInLink, world, e.GetLineNum()};
  r.linkWorld[name] = moved ? world * Pose::translation(joints.back().pos) : world;
  readMassAndContents(r, e, name, bodyInLink, world, cls);
}

}  // namespace

void readWorldbody(Reader& r, const XMLElement& worldbody) {
  readContents(r, worldbody, "world", "world", Pose(), Pose(), r.defaults.main(), nullptr);
}

}  // namespace grbda::mjcf_detail
