// C-ABA — cluster-based articulated-body algorithm (spec §6.3; [P0] Alg. 1, eqs. 52-60).
// Clusters have a single output body, so every articulated inertia IA_k stays block-diagonal
// over the cluster's bodies ([P0] §IV-B) and is stored per body in data.IA; the fold onto the
// parent, Xup^T (IA − U D^{-1} U^T) Xup, is done as Σ_i X_i^T IA_i X_i − XU D^{-1} XU^T with
// XU = Σ_i X_i^T U_i, never forming 6n x 6n matrices. Per-cluster steps are templated on d_k:
// fixed-size types for d_k ∈ {1, 2, 3, 6}, dynamic buffers from Data otherwise (the D_k
// factorisation differs: an unrolled Cholesky inverse vs. the LLT kept in ClusterData).
#include <Eigen/Cholesky>

#include "cluster_algorithms.hpp"
#include "cluster_blocks.hpp"
#include "cluster_state.hpp"
#include "small_spd.hpp"
#include "grbda/spatial/cross.hpp"

namespace grbda::detail {

namespace {

/// IA_o += X^T IA_i X; a body that supports no cluster still has its rigid inertia as IA_i.
inline void addFoldedInertia(const Model& model, int i, const Transform& X, const Mat6& IAi, Mat6& IAo) {
  if (model.body(i).supportsClusters) X.addTransformedInertia(IAi, IAo);
  else X.addTransformedRigidInertia(IAi, IAo);
}

/// Inward step for cluster k (eqs. 52-56). Leaves D_k^{-1} in cd.D (fixed d_k) or the Cholesky
/// factor of D_k in cd.llt (dynamic d_k), and u_k in cd.u; folds the cluster onto its output body.
template <int D>
bool inwardStep(const Model& model, Data& data, const Cluster& cl, ClusterData& cd, const VecX& tau) {
  using S = Sizes<D>;
  constexpr bool dynamic = D == Eigen::Dynamic;
  const int d = cl.nv;
  Eigen::Map<typename S::MatD> Dk(cd.D.data(), d, d);
  Eigen::Map<typename S::VecD> u(cd.u.data(), d);
  Dk.setZero();
  u = clusterSegment<D>(tau, cl.vIndex, d);
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    const auto Sr = rowsOf<D>(cd.S, r);
    auto Ur = rowsOf<D>(cd.U, r);
    Ur.noalias() = data.IA[i] * Sr;             // U_k = IA_k S_k
    Dk.noalias() += Sr.transpose() * Ur;        // D_k = S_k^T U_k     (eq. 53)
    u.noalias() -= Sr.transpose() * data.f[i];  // u_k = τ_k − S_k^T pA_k
  }
  if constexpr (dynamic) {
    cd.llt.compute(cd.D);
    if (cd.llt.info() != Eigen::Success) return false;
  } else {
    typename S::MatD Dinv;
    if (!spdInverse<D>(Dk, Dinv)) return false;
    Dk = Dinv;
  }
  if (cl.output < 0) return true;

  // fold onto the output body o: IA_o += Xup^T Ia Xup,  pA_o += Xup^T pa   (eqs. 55-56)
  const int o = cl.output;
  Eigen::Map<typename S::Mat6D> XU(cd.XU.data(), 6, d);
  Eigen::Map<typename S::VecD> w(cd.w.data(), d);  // u − U^T c
  XU.setZero();
  w = u;
  Vec6 p = Vec6::Zero();
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    const Transform& X = data.Xout[i];
    const auto Ur = rowsOf<D>(cd.U, r);
    for (int c = 0; c < d; ++c) XU.col(c) += X.applyTranspose(Ur.col(c));
    addFoldedInertia(model, i, X, data.IA[i], data.IA[o]);
    p += X.applyTranspose(data.f[i] + data.IA[i] * data.c[i]);
    w.noalias() -= Ur.transpose() * data.c[i];
  }
  data.f[o] += p;
  if constexpr (dynamic) {
    cd.DinvXUt = cd.XU.transpose();
    cd.llt.solveInPlace(cd.DinvXUt);
    data.IA[o].noalias() -= cd.XU * cd.DinvXUt;
    data.f[o].noalias() += cd.DinvXUt.transpose() * cd.w;
  } else {
    const typename S::Mat6D XUDinv = XU * Dk;
    data.IA[o].noalias() -= XUDinv * XU.transpose();
    data.f[o].noalias() += XUDinv * w;
  }
  return true;
}

/// a'_k = Xup_k a_λ(k) + c_k  into data.a.
void predictAccelerations(const Cluster& cl, Data& data, const Vec6& a0) {
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    data.a[i] = data.Xout[i].apply(cl.output < 0 ? a0 : data.a[cl.output]) + data.c[i];
  }
}

/// ÿ_k = D_k^{-1}(u_k − U_k^T a'_k) and a_k = a'_k + S_k ÿ_k  (eqs. 58-60); cd.w is the buffer.
template <int D>
void outwardStep(Data& data, const Cluster& cl, ClusterData& cd, const Vec6& a0) {
  predictAccelerations(cl, data, a0);
  auto t = clusterSegment<D>(cd.w, 0, cl.nv);
  t = clusterSegment<D>(cd.u, 0, cl.nv);
  for (int r = 0; r < cl.numBodies; ++r) t.noalias() -= rowsOf<D>(cd.U, r).transpose() * data.a[cl.firstBody + r];
  if constexpr (D == Eigen::Dynamic) cd.llt.solveInPlace(cd.w);
  else t = Eigen::Map<const typename Sizes<D>::MatD>(cd.D.data()) * typename Sizes<D>::VecD(t);
  clusterSegment<D>(data.qdd, cl.vIndex, cl.nv) = t;
  for (int r = 0; r < cl.numBodies; ++r) data.a[cl.firstBody + r].noalias() += rowsOf<D>(cd.S, r) * t;
}

}  // namespace

bool clusterAba(const Model& model, Data& data, const VecX& tau, const ExternalForces* fext) {
  const bool hasFext = fext && !fext->empty();
  for (int i = 0; i < model.numBodies(); ++i) {  // IA_i = I_i,  pA_i = v_i ×* I_i v_i − ^iX*_0 f^ext_i
    const Mat6& I = model.body(i).inertia;
    data.IA[i] = I;
    data.f[i] = crossForce(data.v[i], I * data.v[i]);
    if (hasFext) data.f[i] -= data.Xa[i].applyForce((*fext)[i]);
  }
  for (int k = model.numClusters() - 1; k >= 0; --k) {  // inward pass
    const Cluster& cl = model.cluster(k);
    ClusterData& cd = data.clusters[k];
    const bool ok = withClusterDof(cl.nv, [&](auto D) { return inwardStep<D>(model, data, cl, cd, tau); });
    if (!ok) return false;
  }
  const Vec6 a0 = gravityBias(model);
  for (int k = 0; k < model.numClusters(); ++k) {  // outward pass
    const Cluster& cl = model.cluster(k);
    ClusterData& cd = data.clusters[k];
    withClusterDof(cl.nv, [&](auto D) { outwardStep<D>(data, cl, cd, a0); });
  }
  return true;
}

}  // namespace grbda::detail
