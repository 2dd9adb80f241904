#pragma once
// Impulse (impact) dynamics on the cluster tree (Pinocchio's impulseDynamics), rotors and loops
// exact: the velocity jump of an impact that makes the rows of a ConstraintModel (feet hitting the
// ground) rebound with restitution e ∈ [0, 1]:
//
//   ℳ (v⁺ − v⁻) = Jᵀ Λ,     J v⁺ = −e J v⁻
//   ⇒ (J ℳ⁻¹ Jᵀ) Λ = −(1 + e) J v⁻,   v⁺ = v⁻ + ℳ⁻¹ Jᵀ Λ.
//
// Λ (the impulses) in the layout of constrainedForwardDynamics's λ: per row, world axes, what the
// environment gives the robot [N s] (a weld's moment rows [N m s]). J ℳ⁻¹ Jᵀ is PV-OSIM's pass
// (pv_osim.hpp: the rows propagated through the articulated-cluster pass without bias terms, no
// ℳ, ℳ⁻¹ or Jacobian formed), and ℳ⁻¹ Jᵀ Λ one bias-free outward sweep: one PV solve with
// the velocity terms and gravity left out, so it costs less than PV itself. A rotor geared by N
// enters ℳ with its N² reflected inertia and its gyroscopic coupling exactly (no armature).
//
// Redundant rows (two welds on one link, a 3-D contact on a planar mechanism) make J ℳ⁻¹ Jᵀ
// singular: solved as PV solves them (the proximal method of multipliers, the least-norm Λ),
// reported in ImpulseData::rank / redundant. The kinetic energy never grows: T⁺ − T⁻ =
// ½ Λᵀ J (v⁺ + v⁻) = −½ (1 − e) Λᵀ (J ℳ⁻¹ Jᵀ) Λ / (1 + e) ≤ 0, and e = 1 conserves it.
// Errors: InputError for e outside [0, 1] or not finite, a Data / ConstraintData / ImpulseData of
// another model or constraint set, bad sizes or non-finite q, v; NumericalError for a singular
// articulated inertia or rows that no impulse can meet. After the first call nothing allocates.
#include <cstdint>

#include "grbda/algorithms/constrained_dynamics.hpp"

namespace grbda {

/// The results of impulseDynamics (sized for one Model and ConstraintModel).
class ImpulseData {
 public:
  ImpulseData(const Model& model, const ConstraintModel& constraints);  ///< sized for this model and constraint set
  VecX vPlus;                 ///< v⁺ (model.nv())
  VecX impulses;              ///< Λ (rows of the ConstraintModel)
  VecX rowVelocityBefore;     ///< J v⁻ (the rows' velocities before the impact)
  VecX rowVelocityAfter;      ///< J v⁺ (= −e J v⁻ up to residual)
  double residual = 0.0;      ///< max_r |J v⁺ + e J v⁻|_r
  double energyChange = 0.0;  ///< T⁺ − T⁻ = ½ Λᵀ J (v⁺ + v⁻) ≤ 0
  int rank = 0;               ///< numerical rank of J ℳ⁻¹ Jᵀ
  bool redundant = false;     ///< rank < rows: the least-norm Λ (proximal path)
  std::uint64_t modelId = 0;    ///< the Model it was sized for (checked by every call)
  int constraintsVersion = 0;  ///< the ConstraintModel version it was sized for
};

/// v⁺ (returned, in idata.vPlus) and Λ (idata.impulses, also cdata.lambda) for the rows of
/// `constraints` at (q, v⁻) with restitution e. q independent or spanning positions, v independent
/// velocities. `settings.mu` / maxIterations / tolerance steer the redundant-rows path.
/// \note this overwrites idata, cdata.lambda and cdata's rows, data.qdd, data.a, the cluster
/// kinematics and the articulated-cluster pass.
const VecX& impulseDynamics(const Model& model, Data& data, const ConstraintModel& constraints, ConstraintData& cdata,
                            ImpulseData& idata, const VecRef& q, const VecRef& v, double restitution,
                            const ConstraintSolverSettings& settings = {});

}  // namespace grbda
