// C-RNEA — cluster-based recursive Newton-Euler (spec §6.2; [P0] eqs. 62-65, [P2] eqs. 32-35).
#include "cluster_algorithms.hpp"
#include "cluster_state.hpp"
#include "grbda/spatial/cross.hpp"

namespace grbda::detail {

void clusterRnea(const Model& model, Data& data, const VecX& ydd, const ExternalForces* fext) {
  const bool hasFext = fext && !fext->empty();
  const Vec6 a0 = gravityBias(model);
  for (int k = 0; k < model.numClusters(); ++k) {  // outward: a_k = Xup_k a_λ(k) + S_k ÿ_k + c_k
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = data.clusters[k];
    for (int r = 0; r < cl.numBodies; ++r) {
      const int i = cl.firstBody + r;
      Vec6 a = data.Xout[i].apply(cl.output < 0 ? a0 : data.a[cl.output]) + data.c[i];
      a.noalias() += cd.S.middleRows<6>(6 * r) * ydd.segment(cl.vIndex, cl.nv);
      data.a[i] = a;
      const Mat6& I = model.body(i).inertia;  // f_i = I a + v ×* I v − ^iX*_0 f^ext
      data.f[i] = I * a + crossForce(data.v[i], I * data.v[i]);
      if (hasFext) data.f[i] -= data.Xa[i].applyForce((*fext)[i]);
    }
  }
  for (int k = model.numClusters() - 1; k >= 0; --k) {  // inward: τ_k = S_k^T f_k, f_λ += Xup^T f_k
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = data.clusters[k];
    auto tau = data.tau.segment(cl.vIndex, cl.nv);
    tau.setZero();
    for (int r = 0; r < cl.numBodies; ++r) {
      const int i = cl.firstBody + r;
      tau.noalias() += cd.S.middleRows<6>(6 * r).transpose() * data.f[i];
      if (cl.output >= 0) data.f[cl.output] += data.Xout[i].applyTranspose(data.f[i]);
    }
  }
}

}  // namespace grbda::detail
