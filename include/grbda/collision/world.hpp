#pragma once
// The world a robot is simulated in: a ground half-space, static boxes (a step, a ramp), and the
// contact properties of their pairs with the robot's collision shapes. Units SI, world z up.
#include <vector>

#include "grbda/spatial/types.hpp"

namespace grbda {

/// A box fixed in the world: its centre, its axes (columns of `rotation`, world coordinates) and
/// half extents. A ramp is a box turned about a horizontal axis.
struct StaticBox {
  Vec3 center = Vec3::Zero();              ///< world [m]
  Mat3 rotation = Mat3::Identity();        ///< its axes as columns, world coordinates
  Vec3 halfExtents = Vec3::Constant(0.5);  ///< half sizes along its axes [m]
  double friction = kWorlds;     ///< μ of its contacts (≥ 0), or kWorlds: the world's
  double restitution = kWorlds;  ///< e of its contacts (in [0, 1]), or kWorlds: the world's
  /// The one negative value a box's friction or restitution may take: "use the world's".
  static constexpr double kWorlds = -1.0;
};

/// The simulated environment: ground, static boxes and contact properties.
struct World {
  bool hasGround = true;                 ///< the half-space {x : n·x ≤ height}
  double groundHeight = 0.0;             ///< along groundNormal [m]
  Vec3 groundNormal = Vec3::UnitZ();     ///< unit outward normal of the ground
  std::vector<StaticBox> boxes;          ///< static boxes (steps, ramps, tables)
  double friction = 1.0;                 ///< Coulomb μ of ground contacts (and boxes without their own)
  double restitution = 0.0;              ///< normal restitution e ∈ [0, 1] (0: no bounce)
  /// A shape closer than this to an obstacle [m] has a contact row in the step; the row pushes only
  /// once the gap would close within the step, so a body resting flush does not fall for a step.
  double margin = 1e-3;
  /// Contacts between the robot's own shapes (off by default). Pairs on the same body, on a
  /// parent and its child, or in the same cluster (a rotor and its link, a four-bar's links) are
  /// never tested; the others meet through FCL (collision/self_collision.hpp), one contact a pair.
  bool selfCollision = false;

  /// A world without ground or boxes (a robot in the air, or a model without geometry).
  static World empty() { World w; w.hasGround = false; return w; }
  /// InputError naming the offending value: μ < 0, e ∉ [0, 1], a non-unit or NaN normal,
  /// non-positive box sizes, a margin < 0.
  void validate() const;
};

}  // namespace grbda
