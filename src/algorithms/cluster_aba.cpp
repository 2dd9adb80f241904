// C-ABA — cluster-based articulated-body algorithm (spec §6.3; [P0] Alg. 1, eqs. 52-60).
// Clusters have a single output body, so every articulated inertia IA_k stays block-diagonal
// over the cluster's bodies ([P0] §IV-B) and is stored per body in data.IA; the fold onto the
// parent, Xup^T (IA − U D^{-1} U^T) Xup, is done as Σ_i X_i^T IA_i X_i − XU D^{-1} XU^T with
// XU = Xup^T U, never forming 6n x 6n matrices.
#include "cluster_algorithms.hpp"
#include "cluster_state.hpp"
#include "grbda/spatial/cross.hpp"

namespace grbda::detail {

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
    const int n = cl.numBodies, d = cl.nv;
    for (int r = 0; r < n; ++r)  // U_k = IA_k S_k
      cd.U.middleRows<6>(6 * r).noalias() = data.IA[cl.firstBody + r] * cd.S.middleRows<6>(6 * r);
    cd.D.noalias() = cd.S.transpose() * cd.U;  // D_k = S_k^T U_k  (eq. 53)
    cd.llt.compute(cd.D);
    if (cd.llt.info() != Eigen::Success) return false;
    cd.u = tau.segment(cl.vIndex, d);  // u_k = τ_k − S_k^T pA_k
    for (int r = 0; r < n; ++r) cd.u.noalias() -= cd.S.middleRows<6>(6 * r).transpose() * data.f[cl.firstBody + r];
    if (cl.output < 0) continue;

    // fold onto the output body o = Λ: IA_o += Xup^T Ia Xup,  pA_o += Xup^T pa  (eqs. 55-56)
    const int o = cl.output;
    cd.XU.setZero();
    cd.w = cd.u;  // becomes u − U^T c
    Vec6 pSum = Vec6::Zero();
    for (int r = 0; r < n; ++r) {
      const int i = cl.firstBody + r;
      const Transform& X = data.Xout[i];
      for (int c = 0; c < d; ++c) cd.XU.col(c) += X.applyTranspose(cd.U.block<6, 1>(6 * r, c));
      data.IA[o] += X.transformInertia(data.IA[i]);
      pSum += X.applyTranspose(data.f[i] + data.IA[i] * data.c[i]);
      cd.w.noalias() -= cd.U.middleRows<6>(6 * r).transpose() * data.c[i];
    }
    cd.DinvXUt = cd.llt.solve(cd.XU.transpose());  // D^{-1} XU^T
    data.IA[o].noalias() -= cd.XU * cd.DinvXUt;
    data.f[o] += pSum;
    data.f[o].noalias() += cd.DinvXUt.transpose() * cd.w;
  }

  const Vec6 a0 = gravityBias(model);
  for (int k = 0; k < model.numClusters(); ++k) {  // outward pass
    const Cluster& cl = model.cluster(k);
    ClusterData& cd = data.clusters[k];
    const int n = cl.numBodies;
    cd.w = cd.u;  // ÿ_k = D^{-1}(u_k − U_k^T a'_k)
    for (int r = 0; r < n; ++r) {
      const int i = cl.firstBody + r;
      data.a[i] = data.Xout[i].apply(cl.output < 0 ? a0 : data.a[cl.output]) + data.c[i];  // a'_k
      cd.w.noalias() -= cd.U.middleRows<6>(6 * r).transpose() * data.a[i];
    }
    cd.llt.solveInPlace(cd.w);
    data.qdd.segment(cl.vIndex, cl.nv) = cd.w;
    for (int r = 0; r < n; ++r) data.a[cl.firstBody + r].noalias() += cd.S.middleRows<6>(6 * r) * cd.w;  // a_k
  }
  return true;
}

}  // namespace grbda::detail
