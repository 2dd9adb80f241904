// C-RNEA — cluster-based recursive Newton-Euler (spec §6.2; [P0] eqs. 62-65, [P2] eqs. 32-35).
#include "../kernels/cluster_algorithms.hpp"
#include "cluster_rnea_halves.hpp"
#include "../kernels/cluster_blocks.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/spatial/cross.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

namespace {

/// a_k = Xup_k a_λ(k) + S_k ÿ_k + c_k, then f_k = I a + v ×* I v − ^iX*_0 f^ext  (eqs. 62-63)
template <int D>
void outwardStep(const Model& model, Data& data, const Cluster& cl, const ClusterData& cd, const VecRef& ydd,
                 const Vec6& a0, const ExternalForces* fext) {
  DataWorkspace& ws = data.work();
  const auto y = clusterSegment<D>(ydd, cl.vIndex, cl.nv);
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    Vec6 a = ws.Xout[i].apply(cl.output < 0 ? a0 : data.a[cl.output]) + ws.c[i];
    a.noalias() += rowsOf<D>(cd.S, r) * y;
    data.a[i] = a;
    const Mat6& I = model.body(i).inertia;
    data.f[i] = I * a + crossForce(data.v[i], I * data.v[i]);
    if (fext) data.f[i] -= data.Xa[i].applyForce((*fext)[i]);
  }
}

/// τ_k = S_k^T f_k, and f_λ(k) += Xup_k^T f_k onto the output body  (eqs. 64-65)
template <int D>
void inwardStep(Data& data, const Cluster& cl, const ClusterData& cd) {
  const DataWorkspace& ws = data.work();
  auto tau = clusterSegment<D>(data.tau, cl.vIndex, cl.nv);
  tau.setZero();
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    tau.noalias() += rowsOf<D>(cd.S, r).transpose() * data.f[i];
    if (cl.output >= 0) data.f[cl.output] += ws.Xout[i].applyTranspose(data.f[i]);
  }
}

}  // namespace

void clusterRnea(const Model& model, Data& data, const VecRef& ydd, const ExternalForces* fext) {
  DataWorkspace& ws = data.work();
  if (fext && fext->empty()) fext = nullptr;
  const Vec6 a0 = gravityBias(model, data);
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    withClusterDof(cl.nv, [&](auto D) { outwardStep<D>(model, data, cl, ws.clusters[k], ydd, a0, fext); });
  }
  for (int k = model.numClusters() - 1; k >= 0; --k) {
    const Cluster& cl = model.cluster(k);
    withClusterDof(cl.nv, [&](auto D) { inwardStep<D>(data, cl, ws.clusters[k]); });
  }
  ws.rneaForcesVersion = ws.kinematicsVersion;
}

void clusterRneaOutward(const Model& model, Data& data, const VecRef& ydd, const ExternalForces* fext) {
  if (fext && fext->empty()) fext = nullptr;
  const Vec6 a0 = gravityBias(model, data);
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    withClusterDof(cl.nv, [&](auto D) { outwardStep<D>(model, data, cl, data.work().clusters[k], ydd, a0, fext); });
  }
}

void clusterRneaInward(const Model& model, Data& data) {
  DataWorkspace& ws = data.work();
  for (int k = model.numClusters() - 1; k >= 0; --k) {
    const Cluster& cl = model.cluster(k);
    withClusterDof(cl.nv, [&](auto D) { inwardStep<D>(data, cl, ws.clusters[k]); });
  }
  ws.rneaForcesVersion = ws.kinematicsVersion;
}

}  // namespace grbda::detail
