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
#include <algorithm>
#include <cmath>
#include <string>

#include "articulated_pass.hpp"
#include "cluster_algorithms.hpp"
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

/// Columns [vIndex_k, subtreeEnd_k) hold cluster k's subtree (parent-first numbering: every
/// descendant has a larger index; a column in between of another branch only adds zeros).
void subtreeEnds(const Model& model, VecX& end) {
  for (int k = 0; k < model.numClusters(); ++k) end[k] = model.cluster(k).vIndex + model.cluster(k).nv;
  for (int k = model.numClusters() - 1; k > 0; --k)
    if (const int p = model.cluster(k).parent; p >= 0) end[p] = std::max(end[p], end[k]);
}

/// The inward part: rows M_k = D⁻¹ (E_k − Sᵀ P) over the subtree's columns, the fold of P onto the
/// output body.
struct MinvInward {
  const Model& model;
  Data& data;
  const VecX& end;  ///< subtreeEnds
  void operator()(int k, const Cluster& cl, ClusterData& cd) const {
    detail::withClusterDof(cl.nv, [&](auto D) { step<decltype(D)::value>(k, cl, cd); });
  }
  template <int D>
  void step(int k, const Cluster& cl, ClusterData& cd) const {
    using Sz = detail::Sizes<D>;
    const int c0 = cl.vIndex, d = cl.nv, ns = static_cast<int>(end[k]) - c0;
    data.Minv.block(c0, c0, d, model.nv() - c0).setZero();
    auto M = data.Minv.block(c0, c0, d, ns);
    M.leftCols(d).setIdentity();
    for (int r = 0; r < cl.numBodies; ++r)
      M.noalias() -= detail::rowsOf<D>(cd.S, r).transpose().lazyProduct(
          data.minvP[static_cast<size_t>(cl.firstBody + r)].middleCols(c0, ns));
    const Eigen::Map<const typename Sz::MatD> Dinv(cd.Dinv.data(), d, d);
    Eigen::Map<typename Sz::VecD> column(cd.scratchD6.col(0).data(), d);  // no allocation for a dynamic d
    for (int c = 0; c < ns; ++c) {  // M ← D⁻¹ M
      column.noalias() = Dinv * M.col(c);
      M.col(c) = column;
    }
    if (cl.output < 0) return;
    auto Po = data.minvP[static_cast<size_t>(cl.output)].middleCols(c0, ns);
    for (int r = 0; r < cl.numBodies; ++r) {
      const Transform& X = data.Xout[static_cast<size_t>(cl.firstBody + r)];
      const auto P = data.minvP[static_cast<size_t>(cl.firstBody + r)].middleCols(c0, ns);
      for (int c = 0; c < ns; ++c) Po.col(c) += X.applyTranspose(P.col(c));
    }
    const Eigen::Map<const typename Sz::Mat6D> XU(cd.XU.data(), 6, d);
    Po.noalias() += XU.lazyProduct(M);
  }
};

/// The outward part over columns ≥ vIndex_k: M_k −= D⁻¹ XUᵀ A_o, A_i = Xout_i A_o + S_i M_k.
template <int D>
void minvOutward(const Model& model, Data& data, const Cluster& cl, const ClusterData& cd) {
  const int c0 = cl.vIndex, nc = model.nv() - c0, d = cl.nv;
  auto M = data.Minv.block(c0, c0, d, nc);
  if (cl.output >= 0) {
    const auto Ao = data.minvA[static_cast<size_t>(cl.output)].rightCols(nc);
    const Eigen::Map<const Eigen::Matrix<double, D, 6>> DinvXUt(cd.DinvXUt.data(), d, 6);
    M.noalias() -= DinvXUt.lazyProduct(Ao);
    for (int r = 0; r < cl.numBodies; ++r) {
      const int i = cl.firstBody + r;
      auto A = data.minvA[static_cast<size_t>(i)].rightCols(nc);
      for (int c = 0; c < nc; ++c) A.col(c) = data.Xout[static_cast<size_t>(i)].apply(Ao.col(c));
      A.noalias() += detail::rowsOf<D>(cd.S, r).lazyProduct(M);
    }
  } else {
    for (int r = 0; r < cl.numBodies; ++r)
      data.minvA[static_cast<size_t>(cl.firstBody + r)].rightCols(nc).noalias() = detail::rowsOf<D>(cd.S, r).lazyProduct(M);
  }
}

}  // namespace

namespace detail {

void inverseMassMatrix(const Model& model, Data& data, const char* alg) {
  const int nv = model.nv();
  if (data.Minv.rows() != nv) data.Minv.resize(nv, nv);
  if (data.minvP.size() != static_cast<size_t>(model.numBodies())) {
    data.minvP.assign(static_cast<size_t>(model.numBodies()), Mat6X::Zero(6, nv));
    data.minvA.assign(static_cast<size_t>(model.numBodies()), Mat6X::Zero(6, nv));
  }
  for (Mat6X& P : data.minvP) P.setZero();
  VecX& end = data.spanScratch;  // nvSpanning ≥ numClusters entries: the subtree ends, as scratch
  subtreeEnds(model, end);
  detail::ArticulatedPassInputs in;
  if (!detail::articulatedPass<false>(model, data, in, detail::NoLeafTerms{}, MinvInward{model, data, end}))
    requirePass(model, data, alg);  // rethrows with the message
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = data.clusters[static_cast<size_t>(k)];
    detail::withClusterDof(cl.nv, [&](auto D) { minvOutward<decltype(D)::value>(model, data, cl, cd); });
  }
  for (int c = 0; c < nv; ++c)  // the lower triangle from the upper one
    for (int r = c + 1; r < nv; ++r) data.Minv(r, c) = data.Minv(c, r);
  if (!data.Minv.allFinite()) throw NumericalError(std::string(alg) + ": the result is not finite (singular inertia)");
}

}  // namespace detail

const MatX& inverseMassMatrix(const Model& model, Data& data, const VecX& q) {
  constexpr const char* alg = "inverseMassMatrix";
  detail::prepareState(model, data, q, nullptr, alg);
  detail::inverseMassMatrix(model, data, alg);
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
