// ℳ⁻¹ and log det ℳ on the cluster tree (seed 001 §1.7-1.8, spec J4/J5): C-ABA with τ as the
// unknown, run on every column at once, no velocity and no gravity.
//
// Inward (after cluster k's articulated step, articulated_pass.hpp): the bias force on body i is
// linear in τ, pA_i = P_i τ (P_i: 6 x nv). Then
//   u_k = τ_k − Σ_i S_iᵀ P_i τ,   M_k ← D_k⁻¹ (E_k − Σ_i S_iᵀ P_i)      (E_k picks τ_k)
//   P_o += Σ_i Xout_iᵀ P_i + XU_k M_k                                       (the fold, eq. 56)
// Outward: ÿ_k = D_k⁻¹ (u_k − XU_kᵀ a_o), a_i = Xout_i a_o + S_i ÿ_k, so with A_i = ∂a_i/∂τ
//   M_k ← M_k − D_k⁻¹ XU_kᵀ A_o,   A_i = Xout_i A_o + S_i M_k
// M_k are the rows of ℳ⁻¹ of cluster k. Clusters are numbered parent first, so a cluster's subtree
// only has columns ≥ vIndex_k: every product runs over those columns (the upper triangle), and the
// lower triangle is copied at the end. log det ℳ = Σ_k log det D_k.
#include <cmath>
#include <string>

#include "articulated_pass.hpp"
#include "cluster_state.hpp"
#include "grbda/algorithms/dynamics.hpp"
#include "grbda/errors.hpp"

namespace grbda {

namespace {

void requirePass(const Model& model, Data& data, const char* alg) {
  detail::ArticulatedPassInputs in;
  if (!detail::articulatedPass<false>(model, data, in))
    throw NumericalError(std::string(alg) +
                         ": an articulated joint-space inertia D_k is not positive definite (singular configuration "
                         "or massless subtree)");
}

/// The inward part: rows M_k = D⁻¹ (E_k − Sᵀ P) and the fold of P onto the output body.
struct MinvInward {
  const Model& model;
  Data& data;
  void operator()(int, const Cluster& cl, ClusterData& cd) const {
    const int c0 = cl.vIndex, nc = model.nv() - c0, d = cl.nv;
    auto M = data.Minv.block(c0, c0, d, nc);
    M.setZero();
    M.leftCols(d).setIdentity();
    for (int r = 0; r < cl.numBodies; ++r)
      M.noalias() -= cd.S.middleRows<6>(6 * r).transpose() * data.minvP[static_cast<size_t>(cl.firstBody + r)].rightCols(nc);
    // M ← D⁻¹ M, column by column through the d-sized buffer w
    for (int c = 0; c < nc; ++c) {
      cd.w.noalias() = cd.Dinv * M.col(c);
      M.col(c) = cd.w;
    }
    if (cl.output < 0) return;
    auto Po = data.minvP[static_cast<size_t>(cl.output)].rightCols(nc);
    for (int r = 0; r < cl.numBodies; ++r) {
      const Transform& X = data.Xout[static_cast<size_t>(cl.firstBody + r)];
      const auto P = data.minvP[static_cast<size_t>(cl.firstBody + r)].rightCols(nc);
      for (int c = 0; c < nc; ++c) Po.col(c) += X.applyTranspose(P.col(c));
    }
    Po.noalias() += cd.XU * M;
  }
};

}  // namespace

const MatX& inverseMassMatrix(const Model& model, Data& data, const VecX& q) {
  constexpr const char* alg = "inverseMassMatrix";
  detail::prepareState(model, data, q, nullptr, alg);
  const int nv = model.nv();
  if (data.Minv.rows() != nv) data.Minv.resize(nv, nv);
  if (data.minvP.size() != static_cast<size_t>(model.numBodies())) {
    data.minvP.assign(static_cast<size_t>(model.numBodies()), Mat6X::Zero(6, nv));
    data.minvA.assign(static_cast<size_t>(model.numBodies()), Mat6X::Zero(6, nv));
  }
  for (Mat6X& P : data.minvP) P.setZero();
  detail::ArticulatedPassInputs in;
  if (!detail::articulatedPass<false>(model, data, in, detail::NoLeafTerms{}, MinvInward{model, data}))
    requirePass(model, data, alg);  // rethrows with the message
  for (int k = 0; k < model.numClusters(); ++k) {  // outward
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = data.clusters[static_cast<size_t>(k)];
    const int c0 = cl.vIndex, nc = nv - c0;
    auto M = data.Minv.block(c0, c0, cl.nv, nc);
    if (cl.output >= 0) {
      const auto Ao = data.minvA[static_cast<size_t>(cl.output)].rightCols(nc);
      M.noalias() -= cd.DinvXUt * Ao;
      for (int r = 0; r < cl.numBodies; ++r) {
        const int i = cl.firstBody + r;
        auto A = data.minvA[static_cast<size_t>(i)].rightCols(nc);
        for (int c = 0; c < nc; ++c) A.col(c) = data.Xout[static_cast<size_t>(i)].apply(Ao.col(c));
        A.noalias() += cd.S.middleRows<6>(6 * r) * M;
      }
    } else {
      for (int r = 0; r < cl.numBodies; ++r)
        data.minvA[static_cast<size_t>(cl.firstBody + r)].rightCols(nc).noalias() = cd.S.middleRows<6>(6 * r) * M;
    }
  }
  for (int c = 0; c < nv; ++c)  // the lower triangle from the upper one
    for (int r = c + 1; r < nv; ++r) data.Minv(r, c) = data.Minv(c, r);
  if (!data.Minv.allFinite()) throw NumericalError(std::string(alg) + ": the result is not finite (singular inertia)");
  return data.Minv;
}

double logDetMassMatrix(const Model& model, Data& data, const VecX& q) {
  constexpr const char* alg = "logDetMassMatrix";
  detail::prepareState(model, data, q, nullptr, alg);
  requirePass(model, data, alg);
  double logDet = 0.0;
  for (const ClusterData& cd : data.clusters) logDet += std::log(cd.detD);
  return logDet;
}

}  // namespace grbda
