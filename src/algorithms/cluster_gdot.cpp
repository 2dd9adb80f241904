#include "cluster_gdot.hpp"

#include "../cluster/cluster_joint.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

void clusterGdot(const Model& model, Data& data) {
  DataWorkspace& ws = data.work();
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    const ConstraintSet& cs = cl.joint->constraints();
    if (cs.isStatic()) continue;
    ClusterData& w = ws.coriolis.work[static_cast<size_t>(k)];
    const ClusterData& cd = ws.clusters[static_cast<size_t>(k)];
    MatX& Gdot = ws.coriolis.Gdot[static_cast<size_t>(k)];
    const double* q = data.qSpan.data() + cl.qSpanIndex;
    const double* qd = data.vSpan.data() + cl.vSpanIndex;
    cs.jacobian(q, w);
    const auto& dep = cs.dependentCoordinates();
    for (size_t c = 0; c < dep.size(); ++c) w.Kd.col(static_cast<Eigen::Index>(c)) = w.K.col(dep[c]);
    w.luKd.compute(w.Kd);
    cs.jacobianDerivative(q, qd, w);  // w.K = K̇ (exact for autodiff constraints, central differences otherwise)
    Gdot.setZero();
    for (int c = 0; c < cl.nv; ++c) {
      w.phi.noalias() = w.K * cd.G.col(c);
      w.phi = -w.phi;
      w.dq.noalias() = w.luKd.solve(w.phi);
      for (size_t r = 0; r < dep.size(); ++r) Gdot(dep[r], c) = w.dq[static_cast<Eigen::Index>(r)];
    }
  }
}

}  // namespace grbda::detail
