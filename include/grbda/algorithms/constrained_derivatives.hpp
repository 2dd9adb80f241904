#pragma once
// Analytic derivatives of constrained forward dynamics with hard (rigid) constraints
// (algorithms/constrained_dynamics.hpp; issue #16). The solution (ÿ, λ) of
//   ℳ ÿ + c(y, ẏ) = τ + Jᵀ λ,     J ÿ + J̇ ẏ = k        (λ: what the environment exerts on the robot)
// moves with x ∈ {y, ẏ, τ} by the KKT system (differentiate both rows at the solved ÿ, λ):
//   [ℳ  −Jᵀ] [∂ÿ/∂x]   [∂τ/∂x − ∂ID_λ/∂x]
//   [J   0 ] [∂λ/∂x] = [   −∂a_c/∂x     ]
// where ID_λ(y, ẏ, ÿ) = ID(y, ẏ, ÿ) − Jᵀ λ is inverse dynamics with the constraint forces applied as
// external forces at fixed λ (they keep their world direction while their points move with the
// links), and a_c(y, ẏ, ÿ) = J ÿ + J̇ ẏ the constraint rows' accelerations (classical point
// acceleration p̈, angular ω̇, world axes; custom rows K a) at fixed ÿ. By the Schur complement
// with Λ⁻¹ = J ℳ⁻¹ Jᵀ:
//   ∂λ/∂x = Λ (−∂a_c/∂x − J ℳ⁻¹ r),   ∂ÿ/∂x = ℳ⁻¹ (r + Jᵀ ∂λ/∂x),   r = ∂τ/∂x − ∂ID_λ/∂x,
// so ∂ÿ/∂τ = ℳ⁻¹ − ℳ⁻¹Jᵀ Λ J ℳ⁻¹ and ∂λ/∂τ = −Λ J ℳ⁻¹.
//
// ∂ID_λ/∂y comes from the spanning-tree ∂RNEA pass of derivatives.hpp with the forces added to the
// subtree forces; ∂a_c/∂y, ∂a_c/∂ẏ from the same pass's world-frame velocity and acceleration
// derivatives, projected through G like the dynamics (∂a_c/∂y = ∂a_c/∂q_s G + ∂a_c/∂q̇_s ∂(Gẏ)/∂y
// + J_s ∂(Gÿ + g)/∂y). Position derivatives are in the tangent space as in derivatives.hpp.
//
// Supported: point contacts, welds, relative points and welds, custom rows, Baumgarte
// stabilisation (k = −k_v ė − k_p e is differentiated with the reference pose held fixed; rotation
// errors through the inverse left Jacobian of SO(3)); every hard solver of ConstraintSolverSettings
// for the solve (pv, kkt, ltl, pv-early, proximal; default pv). Refused with InputError: the soft
// solvers pv-soft and ltl-soft (a different dynamics). NumericalError for redundant rows (J ℳ⁻¹ Jᵀ
// singular: ∂λ is not defined) and the errors of constrainedForwardDynamics. Results in
// cdata.derivatives (ConstraintDerivativesData); the unconstrained RNEA derivatives at (q, v, ÿ, λ)
// are left in data.derivatives, ℳ⁻¹ in data.Minv. Nothing is allocated after the first call.
#include "grbda/algorithms/constrained_dynamics.hpp"

namespace grbda {

/// ÿ, λ and their derivatives with respect to q (tangent space), v and τ into cdata.derivatives.
/// Returns cdata.derivatives.ddq.
/// \note this overwrites what constrainedForwardDynamics does, data.derivatives, data.Minv and
/// cdata.derivatives.
const VecX& computeConstrainedDynamicsDerivatives(const Model& model, Data& data, const ConstraintModel& constraints,
                                                  ConstraintData& cdata, const VecRef& q, const VecRef& v,
                                                  const VecRef& tau, const ConstraintSolverSettings& settings = {});

}  // namespace grbda
