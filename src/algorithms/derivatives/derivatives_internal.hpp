#pragma once
// Internal: the three stages of the dynamics derivatives (algorithms/derivatives.hpp).
#include "grbda/data.hpp"

namespace grbda::detail {

/// Sizes data.derivatives for the model (first call only).
void sizeDerivatives(const Model& model, Data& data);

/// Forces on the bodies that keep their world direction while their points of application move
/// with the bodies (constraint forces at fixed λ). Per body: F, the world force about the world
/// origin, and E with ∂F/∂q_j = S_j ×* F + E S_j for any joint column S_j supporting the body
/// (world axes). For forces f and moments m at points p: E = [Σ (m× + p× f×), 0; Σ f×, 0]. The
/// pass sums E over subtrees in place.
struct WorldFixedForces {
  const std::vector<Vec6>* F = nullptr;
  std::vector<Mat6>* E = nullptr;
};

/// Spanning-tree RNEA and its derivatives in the world frame at data.qSpan (poses data.Xa),
/// data.vSpan and derivatives.qddSpan: tauSpan, dtauSpan_dq, dtauSpan_dv, HSpan. With `ext`,
/// τ_s − J_sᵀ f_ext and its derivatives at fixed forces.
/// With intoClusters (only when projectsInPass(model)), the pass accumulates ∂τ/∂y, ∂τ/∂ẏ, ℳ
/// and τ of the clusters directly and leaves the spanning matrices untouched.
void spanningRneaDerivatives(const Model& model, Data& data, const WorldFixedForces* ext = nullptr,
                             bool intoClusters = false);

/// Every cluster's Ĝ is constant (and d_k ≤ 6, and all its bodies hang from its output body):
/// the projection through Ĝ can be done pair by pair inside the spanning pass.
bool projectsInPass(const Model& model);

/// The whole RNEA-derivative pipeline at the cluster kinematics already in data (q, v prepared)
/// and ÿ = ydd: data.derivatives sized, spanning pass, cluster-local terms, projection.
void rneaDerivativesPrepared(const Model& model, Data& data, const VecRef& ydd, const WorldFixedForces* ext = nullptr);

/// data.Minv = ℳ⁻¹ and derivatives.ddq_dq, ddq_dv = −ℳ⁻¹ ∂τ/∂y, −ℳ⁻¹ ∂τ/∂ẏ from the ℳ, ∂τ/∂y,
/// ∂τ/∂ẏ the RNEA-derivative pipeline has just left in data.derivatives (sparse LTL factor of ℳ).
void solveWithMassMatrix(const Model& model, Data& data, const char* alg);

/// T = X Ĝ (X: rows x nvSpanning, T: rows x nv): each cluster's columns of T combine its
/// spanning columns of X through its block of G.
void timesG(const Model& model, const Data& data, const MatX& X, MatX& T);

/// ∂G/∂y, ∂(G ẏ)/∂y, ∂(G ÿ + g)/∂y and ∂g/∂ẏ of every cluster with a state-dependent G, at the
/// cluster kinematics in data (G, g, qSpan, vSpan) and ÿ = ydd.
void clusterLocalDerivatives(const Model& model, Data& data, const VecRef& ydd);

/// The cluster derivatives from the spanning ones, block by cluster block (see the header).
void projectDerivatives(const Model& model, Data& data);

}  // namespace grbda::detail
