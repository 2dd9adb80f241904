#pragma once
// Contacts between a robot's own shapes (World::selfCollision), and general shape pairs, with FCL
// (Debian's libfcl-dev, GJK/EPA through libccd). The ground and static boxes keep their closed
// forms (collision/contacts.hpp); FCL meets what those do not cover: a shape against another
// moving shape, mesh hulls included.
//
// Broad phase: the candidate pairs are fixed once — not on one body, not parent and child, not in
// one cluster (a rotor and its link, a four-bar's links move together by construction) — and each
// step tests their world boxes (AABBs grown by the margin) in a fixed order, so the contacts come
// out in the same order on every run. Narrow phase: FCL's signed distance for pairs apart, FCL's
// penetration (EPA) for pairs that overlap; one contact a pair.
//
// Allocation: FCL's narrow phase allocates (libccd's simplex and polytope); the rest does not. A
// step with self-collision on and a pair within reach is therefore not allocation-free (docs/simulation.md).
#include <memory>
#include <utility>
#include <vector>

#include "grbda/collision/contacts.hpp"

namespace grbda {

/// A shape placed in the world: its centre and its axes (columns of `rotation`, world coordinates).
struct ShapePose {
  Vec3 center = Vec3::Zero();        ///< world [m]
  Mat3 rotation = Mat3::Identity();  ///< shape axes as columns, world coordinates
};

/// What FCL reports for two posed shapes.
struct ShapeDistance {
  double distance = 0.0;        ///< signed: negative is the penetration depth [m]
  Vec3 point1 = Vec3::Zero();   ///< on shape 1 (world) when apart; the contact point when overlapping
  Vec3 point2 = Vec3::Zero();   ///< on shape 2 (world) when apart; the contact point when overlapping
  Vec3 normal = Vec3::UnitZ();  ///< unit, world, from shape 2 into shape 1
};

/// The signed distance of two shapes (FCL). InputError for a mesh without a hull.
ShapeDistance shapeDistance(const CollisionShape& a, const ShapePose& poseA, const CollisionShape& b, const ShapePose& poseB);

/// The world pose of a collision geometry at the kinematics in `data` (forwardKinematics done).
ShapePose geometryPose(const Data& data, const CollisionGeometry& g);

/// Self-collision of a model: its candidate pairs and their FCL objects, built once.
class SelfCollision {
 public:
  /// The candidate pairs of `model`'s shapes (filtered as the file comment says).
  explicit SelfCollision(const Model& model);
  ~SelfCollision();  ///< releases the FCL objects
  SelfCollision(const SelfCollision&) = delete;             ///< owns FCL objects
  SelfCollision& operator=(const SelfCollision&) = delete;  ///< owns FCL objects

  /// The pairs tested, (geometry a, geometry b) with a < b, in their fixed order.
  const std::vector<std::pair<int, int>>& pairs() const { return pairs_; }
  /// Appends one contact per pair closer than world.margin, in pair order: body = geometry a's
  /// body (feels +λ along the normal), body2 = geometry b's (feels −λ), obstacle = kSelfObstacle.
  void detect(const Model& model, const Data& data, const World& world, std::vector<ContactPoint>& contacts);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<std::pair<int, int>> pairs_;
};

}  // namespace grbda
