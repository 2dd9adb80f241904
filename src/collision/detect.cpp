// Closed-form narrow phase for convex primitives against the ground half-space and static boxes.
// Every pair reduces to points of the robot shape (a sphere's centre with its radius, a box's
// corners, a capsule's two end spheres, a cylinder's rim points) tested against the obstacle, and,
// for a robot box on a static box, the static box's corners tested against the robot box. This is
// exact for the resting and sliding configurations legged robots and manipulation scenes meet
// (vertex–face, sphere–face); edge–edge contact between two boxes is not detected.
#include <cmath>

#include "grbda/collision/contacts.hpp"
#include "grbda/errors.hpp"

namespace grbda {
namespace {

/// A point feature of a robot shape: a centre with a radius (0 for a corner).
struct Feature {
  Vec3 center;
  double radius;
};

/// The world pose of a shape on a body.
struct Pose {
  Vec3 center;
  Mat3 rotation;  ///< shape axes as columns, world coordinates
};

Pose shapePose(const Data& data, const CollisionGeometry& g) {
  const Transform& Xa = data.Xa[static_cast<size_t>(g.body)];  // ^b X_0
  Pose p;
  p.center = Xa.inverseTransformPoint(g.placement.r);
  // a sphere's features need no axes (the common foot): skip the 3 x 3 product
  if (g.shape.type != ShapeType::Sphere) p.rotation.noalias() = Xa.E.transpose() * g.placement.E.transpose();
  return p;
}

constexpr int kBoxCorners = 8;
constexpr int kRimPoints = 4;  ///< per cylinder cap lying flat

Vec3 corner(const Vec3& h, int i) {
  return Vec3((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
}

/// The point features of a shape facing direction `down` (world, unit): the parts that can touch
/// an obstacle below. Returns how many were written into `out`.
int features(const CollisionShape& s, const Pose& p, const Vec3& down, Feature* out) {
  switch (s.type) {
    case ShapeType::Sphere: out[0] = {p.center, s.radius}; return 1;
    case ShapeType::Box:
      for (int i = 0; i < kBoxCorners; ++i) out[i] = {p.center + p.rotation * corner(s.halfExtents, i), 0.0};
      return kBoxCorners;
    case ShapeType::Capsule: {
      const Vec3 a = 0.5 * s.length * p.rotation.col(2);
      out[0] = {p.center + a, s.radius};
      out[1] = {p.center - a, s.radius};
      return 2;
    }
    case ShapeType::Cylinder: {
      const Vec3 axis = p.rotation.col(2);
      Vec3 u = down - down.dot(axis) * axis;  // towards the obstacle, in the cap's plane
      int n = 0;
      for (double side : {1.0, -1.0}) {
        const Vec3 cap = p.center + side * 0.5 * s.length * axis;
        if (u.norm() > 1e-3) {
          out[n++] = {cap + s.radius * u.normalized(), 0.0};
        } else {  // cap flat on the obstacle: four rim points carry it
          for (int k = 0; k < kRimPoints; ++k) {
            const double angle = k * 0.5 * M_PI;
            out[n++] = {cap + s.radius * (std::cos(angle) * p.rotation.col(0) + std::sin(angle) * p.rotation.col(1)), 0.0};
          }
        }
      }
      return n;
    }
    case ShapeType::Mesh: break;  // forEachFeature walks its vertices
  }
  return 0;
}

/// Calls visit(feature, index) for each point feature of a shape facing `down`: the primitives'
/// features above, or a mesh hull's vertices (as a box's corners: exact for a convex polyhedron
/// resting or sliding on a face).
template <class Visit>
void forEachFeature(const CollisionShape& s, const Pose& p, const Vec3& down, Visit&& visit) {
  if (s.type == ShapeType::Mesh) {
    const std::vector<Vec3>& v = s.hull->vertices;
    for (int i = 0; i < static_cast<int>(v.size()); ++i) visit(Feature{p.center + p.rotation * v[static_cast<size_t>(i)], 0.0}, i);
    return;
  }
  Feature f[2 * kRimPoints];
  const int count = features(s, p, down, f);
  for (int i = 0; i < count; ++i) visit(f[i], i);
}

int maxFeatures(const CollisionShape& s) {
  switch (s.type) {
    case ShapeType::Sphere: return 1;
    case ShapeType::Box: return kBoxCorners;
    case ShapeType::Capsule: return 2;
    case ShapeType::Cylinder: return 2 * kRimPoints;
    case ShapeType::Mesh: return static_cast<int>(s.hull->vertices.size());
  }
  return 0;
}

/// Signed distance from a point to a box (local coordinates), the closest surface point and the
/// outward normal there.
double boxDistance(const Vec3& x, const Vec3& h, Vec3& surface, Vec3& normal) {
  const Vec3 q = x.cwiseAbs() - h;
  if (q.maxCoeff() > 0.0) {  // outside: the clamped point
    surface = x.cwiseMax(-h).cwiseMin(h);
    const Vec3 d = x - surface;
    const double dist = d.norm();
    normal = d / dist;
    return dist;
  }
  int axis = 0;  // inside: leave through the nearest face
  q.maxCoeff(&axis);
  normal = Vec3::Zero();
  normal[axis] = x[axis] >= 0.0 ? 1.0 : -1.0;
  surface = x;
  surface[axis] = normal[axis] * h[axis];
  return q[axis];
}

struct Pair {
  int geometry, body, obstacle;
  double friction, restitution;
};

void emit(std::vector<ContactPoint>& out, const Pair& pair, int feature, const Vec3& point, const Vec3& normal,
          double distance, double margin) {
  if (distance > margin) return;
  out.push_back(ContactPoint{pair.geometry, pair.body, pair.obstacle, feature, point, normal, distance, pair.friction,
                             pair.restitution});
}

void againstGround(const World& w, const CollisionGeometry& g, const Pose& p, const Pair& pair,
                   std::vector<ContactPoint>& out) {
  const Vec3& n = w.groundNormal;
  forEachFeature(g.shape, p, -n, [&](const Feature& f, int i) {
    const double height = n.dot(f.center) - w.groundHeight;  // of the feature's centre
    const double distance = height - f.radius;
    // midway between the shape's lowest point and the ground below it
    const Vec3 point = f.center - (f.radius + 0.5 * distance) * n;
    emit(out, pair, i, point, n, distance, w.margin);
  });
}

void againstBox(const World& w, const CollisionGeometry& g, const Pose& p, const StaticBox& box, const Pair& pair,
                std::vector<ContactPoint>& out) {
  // features facing the box: "down" is from the shape towards the box centre
  Vec3 towards = box.center - p.center;
  towards = towards.norm() > 0.0 ? Vec3(towards.normalized()) : Vec3(-Vec3::UnitZ());
  forEachFeature(g.shape, p, towards, [&](const Feature& f, int i) {
    Vec3 surface, normal;
    const double centre = boxDistance(box.rotation.transpose() * (f.center - box.center), box.halfExtents, surface, normal);
    const Vec3 n = box.rotation * normal;
    const double distance = centre - f.radius;
    const Vec3 onBox = box.center + box.rotation * surface;
    const Vec3 onShape = f.center - f.radius * n;
    emit(out, pair, i, 0.5 * (onBox + onShape), n, distance, w.margin);
  });
  if (g.shape.type != ShapeType::Box) return;
  // the static box's corners against the robot box (a box resting on an edge of a step)
  for (int i = 0; i < kBoxCorners; ++i) {
    const Vec3 x = box.center + box.rotation * corner(box.halfExtents, i);
    Vec3 surface, normal;
    const double distance = boxDistance(p.rotation.transpose() * (x - p.center), g.shape.halfExtents, surface, normal);
    const Vec3 n = -(p.rotation * normal);  // from the obstacle's corner into the robot box
    emit(out, pair, kBoxCorners + i, 0.5 * (x + p.center + p.rotation * surface), n, distance, w.margin);
  }
}

}  // namespace

int maxContacts(const Model& model, const World& world) {
  int total = 0;
  for (const CollisionGeometry& g : model.collisionGeometries()) {
    if (g.body < 0) continue;
    const int perObstacle = maxFeatures(g.shape);
    if (world.hasGround) total += perObstacle;
    total += static_cast<int>(world.boxes.size()) * (perObstacle + (g.shape.type == ShapeType::Box ? kBoxCorners : 0));
  }
  return total;
}

void detectContacts(const Model& model, const Data& data, const World& world, std::vector<ContactPoint>& contacts) {
  contacts.clear();
  const auto& geometries = model.collisionGeometries();
  for (int gi = 0; gi < static_cast<int>(geometries.size()); ++gi) {
    const CollisionGeometry& g = geometries[static_cast<size_t>(gi)];
    if (g.body < 0) continue;  // welded to the world: no relative motion
    const Pose p = shapePose(data, g);
    if (world.hasGround) againstGround(world, g, p, Pair{gi, g.body, -1, world.friction, world.restitution}, contacts);
    for (int k = 0; k < static_cast<int>(world.boxes.size()); ++k) {
      const StaticBox& b = world.boxes[static_cast<size_t>(k)];
      const Pair pair{gi, g.body, k, b.friction >= 0.0 ? b.friction : world.friction,
                      b.restitution >= 0.0 ? b.restitution : world.restitution};
      againstBox(world, g, p, b, pair, contacts);
    }
  }
}

}  // namespace grbda
