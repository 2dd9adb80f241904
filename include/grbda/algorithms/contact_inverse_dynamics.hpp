#pragma once
// Contact-consistent inverse dynamics on the cluster tree (RBDL's InverseDynamicsConstraints,
// Pinocchio's contact inverse dynamics), rotors and loops exact. Given q, v and an acceleration
// q̈ that the rows of a ConstraintModel allow (J q̈ + J̇ v = k: feet that stay where they are),
// find the joint torques τ and the constraint forces λ with
//
//   H q̈ + C = τ + Jᵀ λ,     τ_b = 0 on the floating base's six (unactuated) coordinates.
//
// The base rows are the Newton–Euler equations of the whole robot: J_bᵀ λ = (H q̈ + C)_b, six
// equations for m unknowns. With more rows than six (four feet: 12) λ is the minimum-norm
// solution, min Σ_r w_r λ_r² (w = 1: the plain Euclidean norm of λ as `fd` reports it), i.e.
// λ = W⁻¹ J_b (J_bᵀ W⁻¹ J_b)⁻¹ (H q̈ + C)_b. Then τ = H q̈ + C − Jᵀ λ is C-RNEA with the
// contact forces as external forces: one outward pass (which also gives (H q̈ + C)_b as the
// robot's total wrench), the 6 x 6 solve, the forces subtracted, one inward pass — about one
// C-RNEA, never H or a Jacobian. A fixed base has no unactuated coordinates: the joints carry
// everything, λ = 0 (the minimum norm) and τ = inverseDynamics.
//
// Rows and λ follow docs/constraints.md (world axes; λ is what the environment exerts on the
// robot; the ConstraintModel's row order); loops kept as constraint rows have no base columns,
// so their λ is 0 and the torque stays on the joints.
//
// Reported (ContactInverseDynamicsReport), or thrown as NumericalError with throwOnError:
//   * q̈ inconsistent with the rows: max_r |J q̈ + J̇ v − k|_r above tolerance · (1 + max |k|);
//   * a contact set the base cannot support: J_b of rank below six (one foot, collinear points).
//     λ is then the least-squares minimum-norm one, and what it cannot balance is left in
//     baseResidual (the base's share of H q̈ + C − Jᵀ λ before τ_b is set to zero).
// Results: τ in data.tau (returned), λ in cdata.lambda, the acceleration residual in
// cdata.residual, rank(J_b) in cdata.rank. InputError for a Data / ConstraintData of another
// model or constraint set, bad sizes, non-finite inputs, non-positive weights. No allocation.
#include "grbda/constraints/constraint_data.hpp"

namespace grbda {

/// Options of contactInverseDynamics: the norm of λ and what a failed check does.
struct ContactInverseDynamicsSettings {
  VecX weights;              ///< one w_r > 0 per row: minimise Σ w_r λ_r²; empty: w = 1 (Euclidean)
  double tolerance = 1e-8;   ///< relative tolerance of the consistency and support checks
  bool throwOnError = false; ///< NumericalError instead of the report's flags
};

/// What contactInverseDynamics found about the given q̈ and contact set.
struct ContactInverseDynamicsReport {
  double accelerationResidual = 0.0;  ///< max_r |J q̈ + J̇ v − k|_r at the given q̈
  double baseResidual = 0.0;          ///< max |(H q̈ + C − Jᵀ λ)_b|: base wrench the forces leave unbalanced
  int baseDof = 0;                    ///< unactuated coordinates: 6 (floating base) or 0 (fixed)
  int baseRank = 0;                   ///< rank of J_b (m x baseDof)
  bool consistent = true;             ///< q̈ satisfies the rows (accelerationResidual within tolerance)
  bool supported = true;              ///< rank J_b = baseDof: the contacts can hold any base wrench
  bool balanced = true;               ///< baseResidual within tolerance (τ_b = 0 is exact)
  bool ok() const { return consistent && balanced; }  ///< consistent and balanced
};

/// τ (model.nv(), zero on the floating base) and λ (cdata.lambda) for q̈ consistent with the rows.
/// q independent or spanning positions, v and qdd independent velocities (as inverseDynamics).
/// \note this overwrites data.tau (returned), data.a, data.f, the cluster kinematics, cdata.lambda
/// and cdata's rows and diagnostics.
const VecX& contactInverseDynamics(const Model& model, Data& data, const ConstraintModel& constraints,
                                   ConstraintData& cdata, const VecRef& q, const VecRef& v, const VecRef& qdd,
                                   const ContactInverseDynamicsSettings& settings = {},
                                   ContactInverseDynamicsReport* report = nullptr);

}  // namespace grbda
