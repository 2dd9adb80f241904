#pragma once
// The Tello humanoid (facts: robot-data/tello.md) built in code: a floating torso, per leg a
// geared hip-clamp rotor, a hip differential (two rotors on the hip clamp drive hip roll and
// pitch) and a knee-ankle differential (two rotors on the thigh drive knee and ankle), and
// optionally the two arms with four geared rotors each. The differentials are closed-form
// implicit constraints (the MATLAB derivation's form) differentiated automatically; their
// independent coordinates are the pre-gearbox rotor angles.
#include <memory>

#include "grbda/builder.hpp"
#include "grbda/cluster/implicit_constraint.hpp"
#include "grbda/model.hpp"

namespace grbda::robots {

/// Cluster-joint type names of the differential clusters (Cluster::typeName()).
inline constexpr const char* kTelloHipDifferential = "TelloHipDifferential";
inline constexpr const char* kTelloKneeAnkleDifferential = "TelloKneeAnkleDifferential";
/// Gear ratio of every Tello leg rotor (hip clamp and both differentials).
inline constexpr double kTelloLegGear = 6.0;

/// φ over [q_rotor1, q_rotor2, q_gimbal (hip roll), q_thigh (hip pitch)], 2 rows.
std::shared_ptr<const ImplicitConstraint> telloHipDifferential();
/// φ over [q_rotor1, q_rotor2, q_shin (knee), q_foot (ankle)], 2 rows.
std::shared_ptr<const ImplicitConstraint> telloKneeAnkleDifferential();

/// Adds the rotor gears and both differentials of each leg (and the arm gears when `withArms`)
/// to a builder holding the Tello tree under the link and joint names of
/// models/tello_humanoid.urdf (e.g. parseUrdfFile on that file).
void addTelloConstraints(ModelBuilder& builder, bool withArms = true);

/// The complete builder (tree + constraints), gravity (0, 0, -9.81).
ModelBuilder telloBuilder(bool withArms = true);

/// TelloWithArms (37 bodies, 42 spanning / 24 independent DoF) or, without arms, Tello
/// (21 bodies, 26 / 16 DoF).
Model tello(bool withArms = true);
inline Model telloLegs() { return tello(false); }

}  // namespace grbda::robots
