// Cluster composite-rigid-body algorithm: H in independent coordinates (spec §6.4). It writes
// the workspace's Ic, data.H and each cluster's F and Fout, nothing the articulated pass owns.
#include "../kernels/cluster_algorithms.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

void clusterCrba(const Model& model, Data& data) {
  DataWorkspace& ws = data.work();
  for (int i = 0; i < model.numBodies(); ++i) ws.Ic[i] = model.body(i).inertia;
  for (int k = model.numClusters() - 1; k >= 0; --k) {
    const Cluster& cl = model.cluster(k);
    ClusterData& cd = ws.clusters[k];
    const int d = cl.nv;
    // F = Ic_k S_k,  H_kk = S_k^T F;  fold Ic_k and F onto the output body
    cd.Fout.setZero();
    for (int r = 0; r < cl.numBodies; ++r) {
      const int i = cl.firstBody + r;
      cd.F.middleRows<6>(6 * r).noalias() = ws.Ic[i] * cd.S.middleRows<6>(6 * r);
      if (cl.output >= 0) {
        ws.Xout[i].addTransformedRigidInertia(ws.Ic[i], ws.Ic[cl.output]);  // composites are rigid
        for (int c = 0; c < d; ++c) cd.Fout.col(c) += ws.Xout[i].applyTranspose(cd.F.block<6, 1>(6 * r, c));
      }
    }
    data.H.block(cl.vIndex, cl.vIndex, d, d).noalias() = cd.S.transpose() * cd.F;
    for (int r = 0; r < d; ++r)  // exactly symmetric: keep the upper triangle
      for (int c = 0; c < r; ++c) data.H(cl.vIndex + r, cl.vIndex + c) = data.H(cl.vIndex + c, cl.vIndex + r);
    // H_jk for ancestors j: the force Fout acts on the output body only; carry it up body by body
    for (int o = cl.output; o >= 0; o = model.body(o).output) {
      const Cluster& cj = model.cluster(model.body(o).cluster);
      const ClusterData& cdj = ws.clusters[model.body(o).cluster];
      const int ro = o - cj.firstBody;
      auto Hjk = data.H.block(cj.vIndex, cl.vIndex, cj.nv, d);
      Hjk.noalias() = cdj.S.middleRows<6>(6 * ro).transpose() * cd.Fout;
      data.H.block(cl.vIndex, cj.vIndex, d, cj.nv) = Hjk.transpose();
      for (int c = 0; c < d; ++c) cd.Fout.col(c) = ws.Xout[o].applyTranspose(cd.Fout.col(c));
    }
  }
}

}  // namespace grbda::detail
