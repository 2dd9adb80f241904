// Self-collision and general shape pairs through FCL (self_collision.hpp).
#include "grbda/collision/self_collision.hpp"

#include <fcl/fcl.h>

#include <cmath>

#include "grbda/errors.hpp"

namespace grbda {
namespace {

using FclGeometry = std::shared_ptr<fcl::CollisionGeometryd>;

FclGeometry fclShape(const CollisionShape& s) {
  switch (s.type) {
    case ShapeType::Sphere: return std::make_shared<fcl::Sphered>(s.radius);
    case ShapeType::Box: return std::make_shared<fcl::Boxd>(2.0 * s.halfExtents);
    case ShapeType::Cylinder: return std::make_shared<fcl::Cylinderd>(s.radius, s.length);
    case ShapeType::Capsule: return std::make_shared<fcl::Capsuled>(s.radius, s.length);
    case ShapeType::Mesh: {
      if (!s.hull) throw InputError("a mesh collision shape has no convex hull");
      auto vertices = std::make_shared<std::vector<fcl::Vector3d>>(s.hull->vertices.begin(), s.hull->vertices.end());
      auto faces = std::make_shared<std::vector<int>>();  // FCL's layout: count, then the indices
      for (const auto& f : s.hull->faces) faces->insert(faces->end(), {3, f[0], f[1], f[2]});
      return std::make_shared<fcl::Convexd>(vertices, static_cast<int>(s.hull->faces.size()), faces);
    }
  }
  throw InputError("unknown collision shape");
}

fcl::Transform3d fclPose(const ShapePose& p) {
  fcl::Transform3d X = fcl::Transform3d::Identity();
  X.linear() = p.rotation;
  X.translation() = p.center;
  return X;
}

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

/// FCL's query on two placed objects, in ShapeDistance's convention.
ShapeDistance query(const fcl::CollisionObjectd& a, const fcl::CollisionObjectd& b) {
  ShapeDistance out;
  fcl::DistanceRequestd request(true, false);  // nearest points; penetration from collide below
  fcl::DistanceResultd result;
  fcl::distance(&a, &b, request, result);
  const Vec3 gap = result.nearest_points[0] - result.nearest_points[1];
  if (result.min_distance > 0.0 && gap.norm() > 1e-12) {
    out.distance = result.min_distance;
    out.point1 = result.nearest_points[0];
    out.point2 = result.nearest_points[1];
    out.normal = gap / gap.norm();
    return out;
  }
  fcl::CollisionRequestd cRequest(1, true);
  fcl::CollisionResultd cResult;
  fcl::collide(&a, &b, cRequest, cResult);
  if (cResult.numContacts() == 0) {  // touching within FCL's tolerance: no depth, no direction of its own
    out.distance = std::max(result.min_distance, 0.0);
    out.point1 = result.nearest_points[0];
    out.point2 = result.nearest_points[1];
    const Vec3 centres = a.getTranslation() - b.getTranslation();
    out.normal = centres.norm() > 0.0 ? Vec3(centres.normalized()) : Vec3(Vec3::UnitZ());
    return out;
  }
  const fcl::Contactd& c = cResult.getContact(0);
  out.distance = -c.penetration_depth;
  out.point1 = out.point2 = c.pos;
  out.normal = -c.normal;  // FCL's points from object 1 to object 2
  return out;
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
  const fcl::CollisionObjectd oa(fclShape(a), fclPose(poseA)), ob(fclShape(b), fclPose(poseB));
  return query(oa, ob);
}

struct SelfCollision::Impl {
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects;  ///< per geometry (null: in no pair)
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
    s.objects[static_cast<size_t>(i)] = std::make_unique<fcl::CollisionObjectd>(fclShape(shape));
    if (shape.type == ShapeType::Mesh)
      for (const Vec3& v : shape.hull->vertices) s.meshRadius[static_cast<size_t>(i)] = std::max(s.meshRadius[static_cast<size_t>(i)], v.norm());
  }
}

SelfCollision::~SelfCollision() = default;

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
  bool placed = false;
  for (const auto& [a, b] : pairs_) {
    const size_t ia = static_cast<size_t>(a), ib = static_cast<size_t>(b);
    if ((s.lo[ia].array() > s.hi[ib].array()).any() || (s.lo[ib].array() > s.hi[ia].array()).any()) continue;
    if (!placed) {  // FCL objects are posed only on a step that has a candidate
      for (size_t i = 0; i < g.size(); ++i)
        if (s.used[i]) s.objects[i]->setTransform(fclPose(s.poses[i]));
      placed = true;
    }
    const ShapeDistance d = query(*s.objects[ia], *s.objects[ib]);
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
