// Articulated inertias without bias terms (spec §6.3 pass A), as C-EFPA (§6.5) and
// apply-test-force (§6.6) need them. As in C-ABA, clusters have one output body, so IA stays
// per body and the fold Xupᵀ (IA − U D⁻¹ Uᵀ) Xup is Σ_i Xout_iᵀ IA_i Xout_i − XU D⁻¹ XUᵀ.
#include "force_propagators.hpp"

#include <string>

#include "cluster_state.hpp"
#include "grbda/algorithms/osim.hpp"
#include "grbda/errors.hpp"

namespace grbda {
namespace detail {

bool updatePropagators(const Model& model, Data& data, const MatX* massOffset) {
  data.osim.propagatorsReady = false;
  for (int i = 0; i < model.numBodies(); ++i) data.IA[i] = model.body(i).inertia;
  for (int k = model.numClusters() - 1; k >= 0; --k) {
    const Cluster& cl = model.cluster(k);
    ClusterData& cd = data.clusters[static_cast<size_t>(k)];
    const int n = cl.numBodies;
    for (int r = 0; r < n; ++r)  // U_k = IA_k S_k
      cd.U.middleRows<6>(6 * r).noalias() = data.IA[cl.firstBody + r] * cd.S.middleRows<6>(6 * r);
    cd.D.noalias() = cd.S.transpose() * cd.U;  // D_k = S_kᵀ IA_k S_k
    if (massOffset) cd.D += massOffset->block(cl.vIndex, cl.vIndex, cl.nv, cl.nv);
    cd.propagatorLlt.compute(cd.D);
    if (cd.propagatorLlt.info() != Eigen::Success) return false;
    if (cl.output < 0) continue;
    const int o = cl.output;
    cd.XU.setZero();
    for (int r = 0; r < n; ++r) {
      const int i = cl.firstBody + r;
      const Transform& X = data.Xout[i];
      for (int c = 0; c < cl.nv; ++c) cd.XU.col(c) += X.applyTranspose(cd.U.block<6, 1>(6 * r, c));
      X.addTransformedInertia(data.IA[i], data.IA[o]);
    }
    cd.propagatorDinvXUt = cd.propagatorLlt.solve(cd.XU.transpose());
    data.IA[o].noalias() -= cd.XU * cd.propagatorDinvXUt;
  }
  data.osim.qSpan = data.qSpan;
  data.osim.propagatorsReady = true;
  return true;
}

void requirePropagators(const Model& model, Data& data, const char* algorithm, const MatX* massOffset) {
  if (!updatePropagators(model, data, massOffset))
    throw NumericalError(std::string(algorithm) +
                         ": an articulated joint-space inertia D_k is not positive definite (singular configuration "
                         "or massless subtree)");
}

}  // namespace detail

void updateForcePropagators(const Model& model, Data& data, const VecX& q) {
  detail::prepareState(model, data, q, nullptr, "updateForcePropagators");
  detail::requirePropagators(model, data, "updateForcePropagators");
}

}  // namespace grbda
