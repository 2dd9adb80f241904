#pragma once
// The Constraint Force Algorithm on a chain of clusters (spec §3.6 C5 — research; not in any
// seed). Seed 004's Eq. 16 holds for any SPD system, so it holds with a whole cluster in place of
// a joint: cluster k's bodies (n_k of them, body coordinates) move as
//     a_k = Φ_k a_λ(k) + S_k ÿ_k        (Φ_k: the blocks Xout of each body, from the parent body)
// with S_k the cluster's motion subspace (6 n_k × d_k, the one C-ABA uses). Its reciprocal
// complement H_k^⊥ (6 n_k × (6 n_k − d_k), H_k^⊥ᵀ S_k = 0) spans the cluster's constraint forces —
// the joints' reactions and the loop or gear forces together — and the immobilised system
//     A μ = b,  A = H^⊥ᵀ P I⁻¹ Pᵀ H^⊥
// is block-tridiagonal over the chain of clusters with blocks of size r_k = 6 n_k − d_k (11 for a
// rotor pair, 6 for a single revolute's 5 plus nothing else). Everything else is the CFA of
// algorithms/cfa.hpp with cluster blocks: τ' = τ − C-RNEA(q, q̇, 0); w_k = h̃_k τ'_k with
// h̃_k = S_k (S_kᵀ S_k)⁻¹; a_free = I⁻¹ Pᵀ w; b_k = H_k^⊥ᵀ (P a_free)_k; block Thomas; then
// a = I⁻¹ Pᵀ (w − H^⊥ μ) and ÿ_k = h̃_kᵀ (P a)_k.
//
// Serial only (block Thomas): the parallel form needs the cyclic reduction of algorithms/cfa.hpp
// with blocks of varying size (bench/RESULTS.md "Cluster CFA" reports what was measured and what
// that would take). Every body needs a positive-definite inertia (I⁻¹ per body).
//
// Usage: ClusterCfaData cfa(model);  (InputError with clusterCfaUnsupportedReason's text when it
// does not apply) then clusterCfaForwardDynamics(model, cfa, q, v, tau) as often as needed: no
// allocation per call.
#include <memory>
#include <string>

#include "grbda/data.hpp"

namespace grbda {

/// Why the cluster CFA does not apply to `model` ("" when it does), naming the clusters or body:
/// two clusters hanging from one body (their constraint forces would couple through its inertia:
/// side branches need the articulated folding of algorithms/cfa.hpp, not done here), or a body
/// whose spatial inertia is singular.
std::string clusterCfaUnsupportedReason(const Model& model);

/// Workspace of the cluster CFA (clusterCfaForwardDynamics) for one model.
class ClusterCfaData {
 public:
  explicit ClusterCfaData(const Model& model);  ///< InputError naming the reason when the cluster CFA does not apply
  ~ClusterCfaData();
  ClusterCfaData(const ClusterCfaData&) = delete;
  ClusterCfaData& operator=(const ClusterCfaData&) = delete;

  VecX qdd;  ///< ÿ of the last call (model.nv())
  /// Size of the immobilised system's blocks, per cluster (6 n_k − d_k) and in all.
  int blockSize(int cluster) const;
  int systemSize() const;  ///< Σ_k (6 n_k − d_k)

  struct Impl;
  std::unique_ptr<Impl> impl;  ///< the workspace (internal)
};

/// ÿ = ℳ⁻¹ (τ − C) by the cluster CFA (block Thomas). q, v, tau as in dynamics.hpp. InputError for
/// bad arguments or a ClusterCfaData of another model; NumericalError for a body without mass or
/// an immobilised system that is not positive definite.
const VecX& clusterCfaForwardDynamics(const Model& model, ClusterCfaData& cfa, const VecRef& q, const VecRef& v,
                                      const VecRef& tau);

}  // namespace grbda
