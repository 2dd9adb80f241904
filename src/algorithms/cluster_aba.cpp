// C-ABA — cluster-based articulated-body algorithm (spec §6.3; [P0] Alg. 1, eqs. 52-60).
// Clusters have a single output body, so every articulated inertia IA_k stays block-diagonal
// over the cluster's bodies ([P0] §IV-B) and is stored per body in data.IA; the fold onto the
// parent, Xup^T (IA − U D^{-1} U^T) Xup, is done as Σ_i X_i^T IA_i X_i − XU D^{-1} XU^T with
// XU = Σ_i X_i^T U_i, never forming 6n x 6n matrices. Per-cluster steps are templated on d_k:
// fixed-size types for d_k ∈ {1, 2, 3, 6}, dynamic buffers from Data otherwise.
#include <Eigen/Cholesky>

#include "cluster_algorithms.hpp"
#include "cluster_state.hpp"
#include "grbda/spatial/cross.hpp"

namespace grbda::detail {

namespace {

constexpr int Dyn = Eigen::Dynamic;

template <int D>
struct Sizes {
  using MatD = Eigen::Matrix<double, D, D>;
  using VecD = Eigen::Matrix<double, D, 1>;
  using Mat6D = Eigen::Matrix<double, 6, D>;
  using Block = Eigen::Map<Mat6D, 0, Eigen::OuterStride<>>;
  using ConstBlock = Eigen::Map<const Mat6D, 0, Eigen::OuterStride<>>;
};

/// Rows of body r in a stacked 6n x d matrix.
template <int D>
typename Sizes<D>::Block rowsOf(MatX& M, int r) {
  return typename Sizes<D>::Block(M.data() + 6 * r, 6, M.cols(), Eigen::OuterStride<>(M.rows()));
}
template <int D>
typename Sizes<D>::ConstBlock rowsOf(const MatX& M, int r) {
  return typename Sizes<D>::ConstBlock(M.data() + 6 * r, 6, M.cols(), Eigen::OuterStride<>(M.rows()));
}

/// Inward step for cluster k with d_k = D fixed: leaves D_k^{-1} in cd.D and u_k in cd.u.
template <int D>
bool inwardStep(const Model& model, Data& data, const Cluster& cl, ClusterData& cd, const VecX& tau) {
  using S = Sizes<D>;
  typename S::MatD Dk = S::MatD::Zero();
  typename S::VecD u = tau.template segment<D>(cl.vIndex);
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    const auto Sr = rowsOf<D>(cd.S, r);
    auto Ur = rowsOf<D>(cd.U, r);
    Ur.noalias() = data.IA[i] * Sr;         // U_k = IA_k S_k
    Dk.noalias() += Sr.transpose() * Ur;    // D_k = S_k^T U_k     (eq. 53)
    u.noalias() -= Sr.transpose() * data.f[i];  // u_k = τ_k − S_k^T pA_k
  }
  const Eigen::LLT<typename S::MatD> llt(Dk);
  if (llt.info() != Eigen::Success) return false;
  const typename S::MatD Dinv = llt.solve(S::MatD::Identity());
  Eigen::Map<typename S::MatD>(cd.D.data()) = Dinv;
  Eigen::Map<typename S::VecD>(cd.u.data()) = u;
  if (cl.output < 0) return true;

  // fold onto the output body o: IA_o += Xup^T Ia Xup,  pA_o += Xup^T pa   (eqs. 55-56)
  const int o = cl.output;
  typename S::Mat6D XU = S::Mat6D::Zero();
  typename S::VecD w = u;  // u − U^T c
  Vec6 p = Vec6::Zero();
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    const Transform& X = data.Xout[i];
    const auto Ur = rowsOf<D>(cd.U, r);
    for (int c = 0; c < D; ++c) XU.col(c) += X.applyTranspose(Ur.col(c));
    data.IA[o] += X.transformInertia(data.IA[i]);
    p += X.applyTranspose(data.f[i] + data.IA[i] * data.c[i]);
    w.noalias() -= Ur.transpose() * data.c[i];
  }
  const typename S::Mat6D XUDinv = XU * Dinv;
  data.IA[o].noalias() -= XUDinv * XU.transpose();
  data.f[o] += p;
  data.f[o].noalias() += XUDinv * w;
  return true;
}

/// The same step for any d_k, on the dynamic buffers of ClusterData (cd.llt keeps the factor).
bool inwardStepDynamic(const Model& model, Data& data, const Cluster& cl, ClusterData& cd, const VecX& tau) {
  const int n = cl.numBodies, d = cl.nv;
  for (int r = 0; r < n; ++r)
    cd.U.middleRows<6>(6 * r).noalias() = data.IA[cl.firstBody + r] * cd.S.middleRows<6>(6 * r);
  cd.D.noalias() = cd.S.transpose() * cd.U;
  cd.llt.compute(cd.D);
  if (cd.llt.info() != Eigen::Success) return false;
  cd.u = tau.segment(cl.vIndex, d);
  for (int r = 0; r < n; ++r) cd.u.noalias() -= cd.S.middleRows<6>(6 * r).transpose() * data.f[cl.firstBody + r];
  if (cl.output < 0) return true;
  const int o = cl.output;
  cd.XU.setZero();
  cd.w = cd.u;
  Vec6 p = Vec6::Zero();
  for (int r = 0; r < n; ++r) {
    const int i = cl.firstBody + r;
    const Transform& X = data.Xout[i];
    for (int c = 0; c < d; ++c) cd.XU.col(c) += X.applyTranspose(cd.U.block<6, 1>(6 * r, c));
    data.IA[o] += X.transformInertia(data.IA[i]);
    p += X.applyTranspose(data.f[i] + data.IA[i] * data.c[i]);
    cd.w.noalias() -= cd.U.middleRows<6>(6 * r).transpose() * data.c[i];
  }
  cd.DinvXUt = cd.XU.transpose();
  cd.llt.solveInPlace(cd.DinvXUt);
  data.IA[o].noalias() -= cd.XU * cd.DinvXUt;
  data.f[o] += p;
  data.f[o].noalias() += cd.DinvXUt.transpose() * cd.w;
  return true;
}

/// a'_k = Xup_k a_λ(k) + c_k  into data.a.
void predictAccelerations(const Cluster& cl, Data& data, const Vec6& a0) {
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    data.a[i] = data.Xout[i].apply(cl.output < 0 ? a0 : data.a[cl.output]) + data.c[i];
  }
}

template <int D>
void outwardStep(Data& data, const Cluster& cl, ClusterData& cd, const Vec6& a0) {
  using S = Sizes<D>;
  predictAccelerations(cl, data, a0);
  typename S::VecD t = Eigen::Map<const typename S::VecD>(cd.u.data());  // ÿ_k = D^{-1}(u_k − U_k^T a'_k)
  for (int r = 0; r < cl.numBodies; ++r) t.noalias() -= rowsOf<D>(cd.U, r).transpose() * data.a[cl.firstBody + r];
  const typename S::VecD ydd = Eigen::Map<const typename S::MatD>(cd.D.data()) * t;
  data.qdd.template segment<D>(cl.vIndex) = ydd;
  for (int r = 0; r < cl.numBodies; ++r) data.a[cl.firstBody + r].noalias() += rowsOf<D>(cd.S, r) * ydd;  // a_k
}

void outwardStepDynamic(Data& data, const Cluster& cl, ClusterData& cd, const Vec6& a0) {
  predictAccelerations(cl, data, a0);
  cd.w = cd.u;
  for (int r = 0; r < cl.numBodies; ++r)
    cd.w.noalias() -= cd.U.middleRows<6>(6 * r).transpose() * data.a[cl.firstBody + r];
  cd.llt.solveInPlace(cd.w);
  data.qdd.segment(cl.vIndex, cl.nv) = cd.w;
  for (int r = 0; r < cl.numBodies; ++r) data.a[cl.firstBody + r].noalias() += cd.S.middleRows<6>(6 * r) * cd.w;
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
    bool ok;
    switch (cl.nv) {
      case 1: ok = inwardStep<1>(model, data, cl, cd, tau); break;
      case 2: ok = inwardStep<2>(model, data, cl, cd, tau); break;
      case 3: ok = inwardStep<3>(model, data, cl, cd, tau); break;
      case 6: ok = inwardStep<6>(model, data, cl, cd, tau); break;
      default: ok = inwardStepDynamic(model, data, cl, cd, tau);
    }
    if (!ok) return false;
  }
  const Vec6 a0 = gravityBias(model);
  for (int k = 0; k < model.numClusters(); ++k) {  // outward pass
    const Cluster& cl = model.cluster(k);
    ClusterData& cd = data.clusters[k];
    switch (cl.nv) {
      case 1: outwardStep<1>(data, cl, cd, a0); break;
      case 2: outwardStep<2>(data, cl, cd, a0); break;
      case 3: outwardStep<3>(data, cl, cd, a0); break;
      case 6: outwardStep<6>(data, cl, cd, a0); break;
      default: outwardStepDynamic(data, cl, cd, a0);
    }
  }
  return true;
}

}  // namespace grbda::detail
