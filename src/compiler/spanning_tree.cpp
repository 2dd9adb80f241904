// The spanning tree: links carried by bodies (fixed joints merged into their parent body), numbered
// depth first in declaration order, and what is placed on it (frames, collision shapes).
#include <cmath>

#include "check_specs.hpp"
#include "compiler.hpp"
#include "log.hpp"

namespace grbda::detail {

namespace {

/// Links in depth-first order from the root, children in declaration order.
std::vector<size_t> depthFirstLinks(const CompilerState& s) {
  std::vector<std::vector<size_t>> childJoints(s.builder.links().size());
  for (size_t j = 0; j < s.joints.size(); ++j) childJoints[s.linkIndex.at(s.joints[j].parent)].push_back(j);
  std::vector<size_t> stack{s.root}, order;
  while (!stack.empty()) {
    const size_t link = stack.back();
    stack.pop_back();
    order.push_back(link);
    const auto& kids = childJoints[link];
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(s.linkIndex.at(s.joints[*it].child));
  }
  return order;
}

Joint jointOf(const JointSpec& j) {
  switch (j.kind) {
    case JointKind::Prismatic: return Joint{JointType::Prismatic, j.axis};
    case JointKind::Screw: return Joint{JointType::Screw, j.axis, j.pitch};
    case JointKind::Floating: return Joint{JointType::Free, Vec3::UnitX()};
    case JointKind::Spherical: return Joint{JointType::Spherical, Vec3::UnitX()};
    default: return Joint{JointType::Revolute, j.axis};  // revolute, continuous
  }
}

}  // namespace

void buildSpanningTree(CompilerState& s) {
  const auto& links = s.builder.links();
  s.m.name = s.builder.name();
  s.m.sourceFile = s.builder.sourceFile();
  s.m.gravity = s.builder.gravity();
  s.linkBody.assign(links.size(), -2);  // -2 = not reached yet
  s.linkPlacement.assign(links.size(), Transform());
  s.linkBody[s.root] = -1;
  if (links[s.root].mass > 0.0) log().info("root link '{}' is the fixed ground; its inertia is ignored", links[s.root].name);
  s.m.frames.push_back(Frame{links[s.root].name, -1, Transform()});

  for (size_t link : depthFirstLinks(s)) {
    if (link == s.root) continue;
    const JointSpec& j = s.joints[static_cast<size_t>(s.parentJointOf[link])];
    const size_t p = s.linkIndex.at(j.parent);
    const int parentBody = s.linkBody[p];
    const Transform XtoJoint = j.origin * s.linkPlacement[p];  // parent body -> joint frame
    const LinkSpec& L = links[link];
    const Mat6 I = spatialInertia(L.mass, L.com, L.inertia);
    if (j.kind == JointKind::Fixed) {
      s.linkBody[link] = parentBody;
      s.linkPlacement[link] = XtoJoint;
      if (parentBody >= 0) s.m.bodies[static_cast<size_t>(parentBody)].inertia += XtoJoint.transformInertia(I);
      else if (L.mass > 0.0) log().info("link '{}' is welded to the ground; its inertia is ignored", L.name);
      s.m.frames.push_back(Frame{L.name, parentBody, XtoJoint});
      continue;
    }
    if (j.kind == JointKind::Floating && parentBody != -1)
      fail("a floating joint must connect the root (ground) to the base; its parent '" + j.parent + "' moves",
           j.where, jointElement(j.name));
    Body b;
    b.name = L.name;
    b.jointName = j.name;
    b.parent = parentBody;
    b.Xtree = XtoJoint;
    b.inertia = I;
    b.limits = j.limits;
    b.dynamics = j.dynamics;
    b.joint = jointOf(j);
    if (j.kind == JointKind::Floating) s.m.floatingBase = true;
    s.linkBody[link] = static_cast<int>(s.m.bodies.size());
    s.linkPlacement[link] = Transform();
    s.m.frames.push_back(Frame{L.name, s.linkBody[link], Transform()});
    s.m.bodies.push_back(std::move(b));
  }
  for (size_t i = 0; i < links.size(); ++i)
    if (s.linkBody[i] == -2)
      fail("link '" + links[i].name + "' is not connected to the root '" + links[s.root].name +
               "' (its joints form a cycle)",
           links[i].where, linkElement(links[i].name));
  for (const auto& b : s.m.bodies) s.bodyJoint.push_back(&s.joints[s.jointIndex.at(b.jointName)]);
}

// An indefinite inertia is refused on every link that moves; on a link welded to the fixed
// world (Tiago's antenna: an eigenvalue of −3.5e-8) it never enters the dynamics: a warning.
void checkMovingInertias(CompilerState& s) {
  const auto& links = s.builder.links();
  for (size_t i : s.indefinite) {
    if (s.linkBody[i] >= 0) fail(indefiniteInertia(links[i]), links[i].where, linkElement(links[i].name));
    log().warn("{}: {}: {}; the link is welded to the fixed world, so its inertia never enters the dynamics: accepted",
               where(links[i].where), linkElement(links[i].name), indefiniteInertia(links[i]));
  }
}

void placeFrames(CompilerState& s) {  // named frames: placed like a fixed child link, no inertia
  for (const FrameSpec& f : s.builder.frames()) {
    const std::string el = "frame '" + f.name + "'";
    if (f.name.empty()) fail("frame has no name", f.where, "frame");
    for (const Frame& existing : s.m.frames)
      if (existing.name == f.name) fail("duplicate name: a link or frame '" + f.name + "' exists", f.where, el);
    const auto link = s.linkIndex.find(f.link);
    if (link == s.linkIndex.end()) fail("unknown link '" + f.link + "'", f.where, el);
    if (!f.origin.E.allFinite() || !f.origin.r.allFinite()) fail("origin is not finite", f.where, el);
    requireRotation(f.origin.E, f.where, el, "origin rotation");
    s.m.frames.push_back(Frame{f.name, s.linkBody[link->second], f.origin * s.linkPlacement[link->second]});
  }
}

namespace {

// A shape's sizes: positive and finite (a zero radius is no shape; NaN would poison a step).
void checkCollisionShape(const CollisionSpec& c, const SourceLocation& at, const std::string& el) {
  const auto positive = [&](double x, const char* what) {
    if (!(std::isfinite(x) && x > 0.0))
      fail(std::string(shapeTypeName(c.shape.type)) + " " + what + " must be positive and finite (got " +
               fmtNumber(x) + ")",
           at, el);
  };
  switch (c.shape.type) {
    case ShapeType::Sphere: positive(c.shape.radius, "radius"); break;
    case ShapeType::Box:
      for (int a = 0; a < 3; ++a) positive(2.0 * c.shape.halfExtents[a], "size");
      break;
    case ShapeType::Cylinder:
    case ShapeType::Capsule:
      positive(c.shape.radius, "radius");
      positive(c.shape.length, "length");
      break;
    case ShapeType::Mesh:
      if (!c.shape.hull || c.shape.hull->vertices.size() < 4 || c.shape.hull->faces.size() < 4)
        fail("mesh has no convex hull of at least 4 vertices (collision/mesh.hpp: convexHull, loadMeshHull)", at, el);
      for (const Vec3& v : c.shape.hull->vertices)
        if (!v.allFinite()) fail("mesh hull has a non-finite vertex", at, el);
      break;
  }
  if (!c.origin.E.allFinite() || !c.origin.r.allFinite()) fail("origin is not finite", at, el);
}

}  // namespace

// Collision shapes: placed on the body that carries their link (after any renumbering).
void placeCollisions(CompilerState& s) {
  for (const CollisionSpec& c : s.builder.collisions()) {
    const SourceLocation at{c.sourceFile.empty() ? s.builder.sourceFile() : c.sourceFile, c.sourceLine};
    const std::string el = "link '" + c.link + "' <collision>";
    if (s.linkIndex.find(c.link) == s.linkIndex.end()) fail("unknown link '" + c.link + "'", at, el);
    checkCollisionShape(c, at, el);
    const Frame& f = s.model.frame(s.model.frameIndex(c.link));
    s.m.collisionGeometries.push_back(CollisionGeometry{c.link, f.body, c.origin * f.placement, c.shape});
  }
}

}  // namespace grbda::detail
