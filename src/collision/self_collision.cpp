// Self-collision and general shape pairs (self_collision.hpp): the pairs, the boxes that cull them
// and the contacts are here; FCL's distance and penetration of two shapes come through the
// backend table (src/backends/fcl_shapes.cpp, loaded privately by loaders/backends.cpp).
#include "grbda/collision/self_collision.hpp"

#include <cmath>

#include "grbda/errors.hpp"
#include "loaders/backends.hpp"

namespace grbda {
namespace {

/// Half sizes of a shape's world AABB about its centre (a mesh: its bounding sphere).
Vec3 halfBox(const CollisionShape& s, const Mat3& R, double meshRadius) {
  switch (s.type) {
    case ShapeType::Sphere: return Vec3::Constant(s.radius);
    case ShapeType::Box: return R.cwiseAbs() * s.halfExtents;
    case ShapeType::Capsule: return (0.5 * s.length) * R.col(2).cwiseAbs() + Vec3::Constant(s.radius);
    case ShapeType::Cylinder: {  // the rim's extent along each world axis: r √(1 − a_i²)
      const Vec3 a = R.col(2);
      return (0.5 * s.length) * a.cwiseAbs() + s.radius * (Vec3::Ones() - a.cwiseProduct(a)).cwiseMax(0.0).cwiseSqrt();
    }
    case ShapeType::Mesh: return Vec3::Constant(meshRadius);
  }
  return Vec3::Zero();
}

bool adjacent(const Model& model, int a, int b) {
  if (a == b) return true;
  if (a < 0 || b < 0) {  // a shape on the world: adjacent to the bodies jointed to it
    const int body = a < 0 ? b : a;
    return model.body(body).parent < 0;
  }
  const Body &A = model.body(a), &B = model.body(b);
  return A.parent == b || B.parent == a || A.cluster == B.cluster;
}

}  // namespace

ShapePose geometryPose(const Data& data, const CollisionGeometry& g) {
  ShapePose p;
  if (g.body < 0) {  // placement is ^shape X_world
    p.center = g.placement.r;
    p.rotation = g.placement.E.transpose();
    return p;
  }
  const Transform& Xa = data.Xa[static_cast<size_t>(g.body)];  // ^b X_0
  p.center = Xa.inverseTransformPoint(g.placement.r);
  p.rotation.noalias() = Xa.E.transpose() * g.placement.E.transpose();
  return p;
}

ShapeDistance shapeDistance(const CollisionShape& a, const ShapePose& poseA, const CollisionShape& b, const ShapePose& poseB) {
  const detail::FclObjectPtr oa = detail::makeFclObject(a), ob = detail::makeFclObject(b);
  const detail::BackendTable& fcl = detail::backends();
  fcl.placeFclObject(oa.get(), poseA);
  fcl.placeFclObject(ob.get(), poseB);
  return fcl.fclQuery(*oa, *ob);
}

struct SelfCollision::Impl {
  std::vector<detail::FclObjectPtr> objects;                    ///< per geometry (null: in no pair)
  std::vector<double> meshRadius;                               ///< per geometry: a mesh's bounding radius
  std::vector<ShapePose> poses;                                 ///< per geometry, this step
  std::vector<Vec3> lo, hi;                                     ///< per geometry: world AABB + margin
  std::vector<char> used;                                       ///< per geometry: in some pair
};

SelfCollision::SelfCollision(const Model& model) : impl_(std::make_unique<Impl>()) {
  const auto& g = model.collisionGeometries();
  const int n = static_cast<int>(g.size());
  Impl& s = *impl_;
  s.objects.resize(static_cast<size_t>(n));
  s.meshRadius.assign(static_cast<size_t>(n), 0.0);
  s.poses.resize(static_cast<size_t>(n));
  s.lo.assign(static_cast<size_t>(n), Vec3::Zero());
  s.hi.assign(static_cast<size_t>(n), Vec3::Zero());
  s.used.assign(static_cast<size_t>(n), 0);
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const int ba = g[static_cast<size_t>(a)].body, bb = g[static_cast<size_t>(b)].body;
      if (ba < 0 && bb < 0) continue;  // both on the world
      if (adjacent(model, ba, bb)) continue;
      pairs_.emplace_back(a, b);
      s.used[static_cast<size_t>(a)] = s.used[static_cast<size_t>(b)] = 1;
    }
  for (int i = 0; i < n; ++i) {
    if (!s.used[static_cast<size_t>(i)]) continue;
    const CollisionShape& shape = g[static_cast<size_t>(i)].shape;
    s.objects[static_cast<size_t>(i)] = detail::makeFclObject(shape);
    if (shape.type == ShapeType::Mesh)
      for (const Vec3& v : shape.hull->vertices) s.meshRadius[static_cast<size_t>(i)] = std::max(s.meshRadius[static_cast<size_t>(i)], v.norm());
  }
}

SelfCollision::~SelfCollision() = default;  // the objects go back to the backend (FclObjectPtr)

void SelfCollision::detect(const Model& model, const Data& data, const World& world, std::vector<ContactPoint>& contacts) {
  if (pairs_.empty()) return;
  const auto& g = model.collisionGeometries();
  Impl& s = *impl_;
  for (size_t i = 0; i < g.size(); ++i) {  // poses and grown boxes, once per shape
    if (!s.used[i]) continue;
    s.poses[i] = geometryPose(data, g[i]);
    const Vec3 h = halfBox(g[i].shape, s.poses[i].rotation, s.meshRadius[i]) + Vec3::Constant(0.5 * world.margin);
    s.lo[i] = s.poses[i].center - h;
    s.hi[i] = s.poses[i].center + h;
  }
  const detail::BackendTable& fcl = detail::backends();
  bool placed = false;
  for (const auto& [a, b] : pairs_) {
    const size_t ia = static_cast<size_t>(a), ib = static_cast<size_t>(b);
    if ((s.lo[ia].array() > s.hi[ib].array()).any() || (s.lo[ib].array() > s.hi[ia].array()).any()) continue;
    if (!placed) {  // FCL objects are posed only on a step that has a candidate
      for (size_t i = 0; i < g.size(); ++i)
        if (s.used[i]) fcl.placeFclObject(s.objects[i].get(), s.poses[i]);
      placed = true;
    }
    const ShapeDistance d = fcl.fclQuery(*s.objects[ia], *s.objects[ib]);
    if (d.distance > world.margin) continue;
    ContactPoint c;
    c.geometry = a;
    c.geometry2 = b;
    c.body = g[ia].body;
    c.body2 = g[ib].body;
    c.obstacle = kSelfObstacle;
    c.point = 0.5 * (d.point1 + d.point2);
    c.normal = d.normal;
    if (c.body < 0) {  // the moving shape is the contact's body
      std::swap(c.geometry, c.geometry2);
      std::swap(c.body, c.body2);
      c.normal = -c.normal;
    }
    c.distance = d.distance;
    c.friction = world.friction;
    c.restitution = world.restitution;
    contacts.push_back(c);
  }
}

}  // namespace grbda
