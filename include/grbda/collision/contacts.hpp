#pragma once
// Collision detection between a model's collision shapes (Model::collisionGeometries) and a
// World, at the kinematics in a Data: contact points with a world normal and a signed distance.
// Closed forms for every pair the simulator meets — sphere, box, capsule and cylinder against the
// ground half-space and against static boxes (vertices and sphere caps against box faces) —
// so a step needs no general GJK/EPA; see docs/simulation.md for what is and is not detected.
#include <vector>

#include "grbda/collision/world.hpp"
#include "grbda/data.hpp"

namespace grbda {

/// One contact between a robot shape and an obstacle.
struct ContactPoint {
  int geometry = -1;        ///< index into model.collisionGeometries()
  int body = -1;            ///< the body carrying the shape
  int obstacle = -1;        ///< -1: the ground; k ≥ 0: world.boxes[k]; kSelfObstacle: the robot's shape geometry2
  int feature = 0;          ///< which point of the shape (corner, end, rim point): with geometry and obstacle, the contact's identity across steps (warm start)
  Vec3 point = Vec3::Zero();   ///< world, midway between the two surfaces
  Vec3 normal = Vec3::UnitZ(); ///< world, unit: from the obstacle (or body2) into the robot's body (the normal force's direction on it)
  double distance = 0.0;    ///< signed gap [m]; negative when penetrating
  double friction = 1.0;    ///< μ of the pair
  double restitution = 0.0; ///< e of the pair
  int geometry2 = -1;       ///< self-collision: the other shape (index into model.collisionGeometries()); -1 otherwise
  int body2 = -1;           ///< self-collision: the body carrying geometry2 (it feels −λ); -1: a static obstacle
};

/// ContactPoint::obstacle of a contact between two of the robot's own shapes.
constexpr int kSelfObstacle = -2;

/// Upper bound on the contacts detectContacts can report for `model` in `world` (to size buffers).
int maxContacts(const Model& model, const World& world);

/// Appends to `contacts` (cleared first) every contact with distance ≤ world.margin, in a fixed
/// order (geometry, then obstacle, then feature). Needs forwardKinematics (positions) in `data`.
/// Allocates nothing once `contacts` has capacity maxContacts(model, world).
void detectContacts(const Model& model, const Data& data, const World& world, std::vector<ContactPoint>& contacts);

}  // namespace grbda
