#pragma once
// What a robot file says about its physics beyond the rigid bodies: joint limits, damping and dry
// friction (URDF `<limit>`, `<dynamics>`), and collision geometry on links (URDF `<collision>`). The
// dynamics algorithms ignore all of it; the simulator (sim/simulator.hpp) enforces it.
#include <array>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "grbda/spatial/transform.hpp"

namespace grbda {

/// URDF `<limit>`: position bounds of a revolute or prismatic joint (continuous joints have none),
/// effort (the largest |τ| a user's command may apply; saturated by the simulator's controllers)
/// and velocity (reported, not enforced). Units: rad or m, N·m or N, rad/s or m/s.
struct JointLimits {
  bool hasPositionLimits = false;  ///< lower/upper are enforced as unilateral constraints
  double lower = -std::numeric_limits<double>::infinity();    ///< lower position bound [rad or m]
  double upper = std::numeric_limits<double>::infinity();     ///< upper position bound [rad or m]
  double effort = std::numeric_limits<double>::infinity();    ///< largest |τ| a command may apply [N·m or N]
  double velocity = std::numeric_limits<double>::infinity();  ///< stated speed limit [rad/s or m/s] (reported only)
};

/// URDF `<dynamics>`: viscous damping (τ = −damping · q̇; N·m·s/rad) and dry Coulomb friction
/// (|τ| ≤ friction while the joint sticks; MuJoCo's frictionloss) on the joint's own coordinate.
/// On a rotor's joint they act on the rotor coordinate and reach the link through the gear.
struct JointDynamics {
  double damping = 0.0;   ///< viscous damping coefficient (≥ 0)
  double friction = 0.0;  ///< dry friction torque or force (≥ 0)
};

enum class ShapeType { Sphere, Box, Cylinder, Capsule, Mesh };
/// "sphere", "box", "cylinder", "capsule", "mesh".
const char* shapeTypeName(ShapeType type);

/// A convex polyhedron: the convex hull of a mesh's vertices (collision/mesh.hpp loads one from an
/// STL or OBJ file). Its triangles are outward (counter-clockwise seen from outside).
struct ConvexHull {
  std::vector<Vec3> vertices;               ///< the hull's extreme points, shape frame [m]
  std::vector<std::array<int, 3>> faces;    ///< triangles over `vertices`
  std::string source;                       ///< the mesh file it came from (empty: built in code)
};

/// A convex primitive in its own frame, centred at the origin. Cylinders and capsules lie along
/// their z axis (URDF's convention); `length` is the cylinder part (a capsule adds two caps).
struct CollisionShape {
  ShapeType type = ShapeType::Sphere;  ///< which primitive
  double radius = 0.0;             ///< sphere, cylinder, capsule
  double length = 0.0;             ///< cylinder, capsule
  Vec3 halfExtents = Vec3::Zero(); ///< box
  std::shared_ptr<const ConvexHull> hull;  ///< mesh: its convex hull (shared between copies)
  /// A sphere of radius r.
  static CollisionShape sphere(double r) { CollisionShape s; s.radius = r; return s; }
  /// A box of full sizes `size` (as URDF writes it).
  static CollisionShape box(const Vec3& size) {
    CollisionShape s; s.type = ShapeType::Box; s.halfExtents = 0.5 * size; return s;
  }
  /// A cylinder of radius r and length len along z.
  static CollisionShape cylinder(double r, double len) {
    CollisionShape s; s.type = ShapeType::Cylinder; s.radius = r; s.length = len; return s;
  }
  /// A capsule: a cylinder of radius r and length len along z with two hemispherical caps.
  static CollisionShape capsule(double r, double len) {
    CollisionShape s; s.type = ShapeType::Capsule; s.radius = r; s.length = len; return s;
  }
  /// A mesh's convex hull (collision/mesh.hpp: convexHull, loadMeshHull).
  static CollisionShape mesh(std::shared_ptr<const ConvexHull> h) {
    CollisionShape s; s.type = ShapeType::Mesh; s.hull = std::move(h); return s;
  }
};

/// A collision shape as a file (or code) attaches it to a link: origin is the link frame -> shape
/// frame transform (as a URDF `<origin>`).
struct CollisionSpec {
  std::string link;        ///< the link that carries it
  CollisionShape shape;    ///< the primitive (or a mesh's hull)
  Transform origin;        ///< link frame -> shape frame
  std::string sourceFile;  ///< where it was written, for messages (empty: built in code)
  int sourceLine = 0;      ///< its line in sourceFile
};

/// A collision shape of the compiled model, attached to a body (fixed links merged).
struct CollisionGeometry {
  std::string link;      ///< the link named in the file that carries it
  int body = -1;         ///< the body it moves with (-1: fixed to the world)
  Transform placement;   ///< ^shape X_body: body coordinates -> shape coordinates
  CollisionShape shape;  ///< the primitive
};

}  // namespace grbda
