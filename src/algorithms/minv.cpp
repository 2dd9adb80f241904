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

#include "../kernels/articulated_pass.hpp"
#include "../kernels/cluster_algorithms.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/algorithms/dynamics.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda {

namespace {

void requirePass(const Model& model, Data& data, const char* alg) {
  detail::ArticulatedPassInputs in;
  if (!detail::articulatedPass<false>(model, data, in)) detail::throwArticulatedInertiaNotPositive(model, data, alg);
}

/// Columns [vIndex_k, subtreeEnd_k) hold cluster k's subtree (parent-first numbering: every
/// descendant has a larger index; a column in between of another branch only adds zeros).
void subtreeEnds(const Model& model, VecX& end) {
  for (int k = 0; k < model.numClusters(); ++k) end[k] = model.cluster(k).vIndex + model.cluster(k).nv;
  for (int k = model.numClusters() - 1; k > 0; --k)
    if (const int p = model.cluster(k).parent; p >= 0) end[p] = std::max(end[p], end[k]);
}

/// P_o += Xᵀ P for a 6 x n block of forces (columns at once: Xᵀ[n; f] = [Eᵀn + r × Eᵀf; Eᵀf]).
template <class Block, class OutBlock>
void addTransposeApplied(const Transform& X, const Block& P, OutBlock&& Po) {
  const Mat3 Et = X.E.transpose();
  const Mat3 rEt = skew(X.r) * Et;
  Po.template topRows<3>().noalias() += Et.lazyProduct(P.template topRows<3>());
  Po.template topRows<3>().noalias() += rEt.lazyProduct(P.template bottomRows<3>());
  Po.template bottomRows<3>().noalias() += Et.lazyProduct(P.template bottomRows<3>());
}

/// A = X A_o for a 6 x n block of motions (X[w; v] = [E w; E v − E r × w]).
template <class Block, class OutBlock>
void assignApplied(const Transform& X, const Block& Ao, OutBlock&& A) {
  const Mat3 Er = X.E * skew(X.r);
  A.template topRows<3>().noalias() = X.E.lazyProduct(Ao.template topRows<3>());
  A.template bottomRows<3>().noalias() = X.E.lazyProduct(Ao.template bottomRows<3>());
  A.template bottomRows<3>().noalias() -= Er.lazyProduct(Ao.template topRows<3>());
}

/// The inward part: rows M_k = D⁻¹ E_k − (D⁻¹ Sᵀ) P over the subtree's columns, the fold of P onto the
/// output body. Only bodies that support clusters carry a force operator P (the others, rotors and
/// feet among them, have nothing outboard of them: P = 0).
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
    const Eigen::Map<const typename Sz::MatD> Dinv(cd.Dinv.data(), d, d);
    M.leftCols(d) = Dinv;  // D⁻¹ E_k: P has no column of cluster k's own coordinates
    bool supports = false;
    for (int r = 0; r < cl.numBodies; ++r) {  // − D⁻¹ Sᵀ P over the columns of the subtree below
      const int i = cl.firstBody + r;
      if (!model.body(i).supportsClusters) continue;
      supports = true;
      Eigen::Map<Eigen::Matrix<double, D, 6>> DinvSt(cd.scratchD6.data(), d, 6);  // no allocation for a dynamic d
      DinvSt.noalias() = Dinv * detail::rowsOf<D>(cd.S, r).transpose();
      M.rightCols(ns - d).noalias() -= DinvSt.lazyProduct(data.work().minvP[static_cast<size_t>(i)].middleCols(c0 + d, ns - d));
    }
    if (cl.output < 0) return;
    auto Po = data.work().minvP[static_cast<size_t>(cl.output)].middleCols(c0, ns);
    if (supports)
      for (int r = 0; r < cl.numBodies; ++r) {
        const int i = cl.firstBody + r;
        if (model.body(i).supportsClusters)
          addTransposeApplied(data.work().Xout[static_cast<size_t>(i)], data.work().minvP[static_cast<size_t>(i)].middleCols(c0 + d, ns - d),
                              Po.rightCols(ns - d));
      }
    const Eigen::Map<const typename Sz::Mat6D> XU(cd.XU.data(), 6, d);
    Po.noalias() += XU.lazyProduct(M);
  }
};

/// The outward part over columns ≥ vIndex_k: M_k −= D⁻¹ XUᵀ A_o, then A_i = Xout_i A_o + S_i M_k
/// for the bodies that support clusters (the only ones whose acceleration a child reads).
template <int D>
void minvOutward(const Model& model, Data& data, const Cluster& cl, const ClusterData& cd) {
  DataWorkspace& ws = data.work();
  const int c0 = cl.vIndex, nc = model.nv() - c0, d = cl.nv;
  auto M = data.Minv.block(c0, c0, d, nc);
  if (cl.output >= 0) {
    const auto Ao = ws.minvA[static_cast<size_t>(cl.output)].rightCols(nc);
    const Eigen::Map<const Eigen::Matrix<double, D, 6>> DinvXUt(cd.DinvXUt.data(), d, 6);
    M.noalias() -= DinvXUt.lazyProduct(Ao);
    for (int r = 0; r < cl.numBodies; ++r) {
      const int i = cl.firstBody + r;
      if (!model.body(i).supportsClusters) continue;
      // children (numbered after k) read only the columns right of cluster k's own
      auto A = ws.minvA[static_cast<size_t>(i)].rightCols(nc - d);
      assignApplied(ws.Xout[static_cast<size_t>(i)], Ao.rightCols(nc - d), A);
      A.noalias() += detail::rowsOf<D>(cd.S, r).lazyProduct(M.rightCols(nc - d));
    }
  } else {
    for (int r = 0; r < cl.numBodies; ++r)
      if (model.body(cl.firstBody + r).supportsClusters)
        ws.minvA[static_cast<size_t>(cl.firstBody + r)].rightCols(nc - d).noalias() =
            detail::rowsOf<D>(cd.S, r).lazyProduct(M.rightCols(nc - d));
  }
}

}  // namespace

namespace detail {

void inverseMassMatrix(const Model& model, Data& data, const char* alg) {
  DataWorkspace& ws = data.work();
  const int nv = model.nv();
  if (data.Minv.rows() != nv) data.Minv.resize(nv, nv);
  if (ws.minvP.size() != static_cast<size_t>(model.numBodies())) {  // operators where clusters hang
    ws.minvP.assign(static_cast<size_t>(model.numBodies()), Mat6X());
    ws.minvA.assign(static_cast<size_t>(model.numBodies()), Mat6X());
    for (int i = 0; i < model.numBodies(); ++i)
      if (model.body(i).supportsClusters) {
        ws.minvP[static_cast<size_t>(i)] = Mat6X::Zero(6, nv);
        ws.minvA[static_cast<size_t>(i)] = Mat6X::Zero(6, nv);
      }
  }
  for (int i = 0; i < model.numBodies(); ++i)
    if (model.body(i).supportsClusters) ws.minvP[static_cast<size_t>(i)].setZero();
  VecX& end = ws.spanScratch;  // nvSpanning ≥ numClusters entries: the subtree ends, as scratch
  subtreeEnds(model, end);
  detail::ArticulatedPassInputs in;
  if (!detail::articulatedPass<false>(model, data, in, detail::NoLeafTerms{}, MinvInward{model, data, end}))
    detail::throwArticulatedInertiaNotPositive(model, data, alg);
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = ws.clusters[static_cast<size_t>(k)];
    detail::withClusterDof(cl.nv, [&](auto D) { minvOutward<decltype(D)::value>(model, data, cl, cd); });
  }
  data.Minv.triangularView<Eigen::StrictlyLower>() = data.Minv.transpose();  // from the upper triangle
  if (!std::isfinite(data.Minv.sum())) throw NumericalError(std::string(alg) + ": the result is not finite (singular inertia)");
}

}  // namespace detail

const MatX& inverseMassMatrix(const Model& model, Data& data, const VecRef& q) {
  constexpr const char* alg = "inverseMassMatrix";
  detail::prepareState(model, data, q, nullptr, alg);
  detail::inverseMassMatrix(model, data, alg);
  return data.Minv;
}

double logDetMassMatrix(const Model& model, Data& data, const VecRef& q) {
  constexpr const char* alg = "logDetMassMatrix";
  detail::prepareState(model, data, q, nullptr, alg);
  requirePass(model, data, alg);
  double logDet = 0.0;
  for (const ClusterData& cd : data.work().clusters) logDet += std::log(cd.detD);
  return logDet;
}

}  // namespace grbda
