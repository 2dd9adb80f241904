#pragma once
// Analytic derivatives of the cluster dynamics (Carpentier & Mansard, RSS 2018, carried to
// cluster trees). In independent coordinates the exact dynamics is τ = Gᵀ τ_s(q_s, q̇_s, q̈_s)
// with τ_s the spanning-tree RNEA, q̇_s = G ẏ and q̈_s = G ÿ + g, so
//   ∂τ/∂ÿ = Gᵀ H_s G = ℳ
//   ∂τ/∂ẏ = Gᵀ [∂τ_s/∂q̇_s G + H_s ∂g/∂ẏ]
//   ∂τ/∂y = ∂Gᵀ/∂y τ_s + Gᵀ [∂τ_s/∂q_s G + ∂τ_s/∂q̇_s ∂(G ẏ)/∂y + H_s ∂(G ÿ + g)/∂y].
// ∂τ_s/∂q_s, ∂τ_s/∂q̇_s and H_s come from one recursive pass pair over the spanning tree (world
// frame, O(n·depth)); the products with G are taken cluster block by cluster block.
//
// Position derivatives are with respect to the tangent space: a floating base is moved by a
// body-frame twist, as integrate() moves it, so every matrix is nv x nv and
// τ(integrate(q, δ, 1)) ≈ τ(q) + dtau_dq δ. Inputs are validated like inverseDynamics; results
// live in data.derivatives (sized by the first call, nothing allocated afterwards). External
// forces are not taken (they would add their ∂/∂y through the body poses).
//
// Clusters whose G depends on the state add ∂K/∂q · u and ∂k/∂q · u of their constraints
// (ImplicitConstraint::jacobianDerivative, biasDerivative): exact for an AutoDiffConstraint (the
// Tello differentials, nested dual numbers). Remaining gap: the others (URDF <loop>, the four-bar)
// use central differences of their own K(q), k(q, q̇) (step 1e-5, error ~1e-10 relative); ∂g/∂ẏ is
// exact everywhere (k is quadratic in q̇). The dynamics itself is never differenced.
#include "grbda/data.hpp"

namespace grbda {

/// ∂τ/∂y, ∂τ/∂ẏ and ℳ = ∂τ/∂ÿ of inverse dynamics at (q, v, qdd), into data.derivatives.dtau_dq,
/// dtau_dv, M (and τ into data.derivatives.tau).
/// \note this overwrites data.derivatives and the cluster kinematics.
void computeRNEADerivatives(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd);

/// ÿ = forwardDynamics(q, v, tau) into data.derivatives.ddq, with ∂ÿ/∂y = −ℳ⁻¹ ∂τ/∂y and
/// ∂ÿ/∂ẏ = −ℳ⁻¹ ∂τ/∂ẏ at the solved ÿ (data.derivatives.ddq_dq, ddq_dv) and ∂ÿ/∂τ = ℳ⁻¹
/// (data.Minv). The RNEA derivatives at (q, v, ÿ) are left in data.derivatives as well.
/// \note this overwrites data.derivatives, data.qdd, data.Minv, the cluster kinematics and the
/// articulated-cluster pass.
void computeABADerivatives(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau);

}  // namespace grbda
