// The configuration-only articulated-cluster pass (spec §6.3 pass A), as C-EFPA (§6.5) and
// apply-test-force (§6.6) need it: articulated_pass.hpp without bias terms.
#include "../kernels/force_propagators.hpp"

#include <string>

#include "../kernels/articulated_pass.hpp"
#include "../kernels/cluster_blocks.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/algorithms/osim.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda {
namespace detail {

void requirePropagators(const Model& model, Data& data, const char* algorithm, const MatX* massOffset) {
  ArticulatedPassInputs in;
  in.massOffset = massOffset;
  if (!articulatedPass<false>(model, data, in)) throwArticulatedInertiaNotPositive(model, data, algorithm);
}

namespace {
template <int D>
void outwardResponseAt(Data& data, const Cluster& cl, const ClusterData& cd, Eigen::Ref<VecX> ydd) {
  auto yk = clusterSegment<D>(ydd, cl.vIndex, cl.nv);
  const Vec6 ao = cl.output < 0 ? Vec6::Zero() : Vec6(data.a[cl.output]);
  if (cl.output >= 0) yk.noalias() -= Eigen::Map<const Eigen::Matrix<double, D, 6>>(cd.DinvXUt.data(), cl.nv, 6) * ao;
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    data.a[i] = data.work().Xout[i].apply(ao);
    data.a[i].noalias() += rowsOf<D>(cd.S, r) * yk;
  }
}
}  // namespace

void outwardResponse(const Model& model, Data& data, Eigen::Ref<VecX> ydd) {
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = data.work().clusters[static_cast<size_t>(k)];
    withClusterDof(cl.nv, [&](auto D) { outwardResponseAt<decltype(D)::value>(data, cl, cd, ydd); });
  }
}

}  // namespace detail

void updateForcePropagators(const Model& model, Data& data, const VecRef& q) {
  detail::prepareState(model, data, q, nullptr, "updateForcePropagators");
  detail::requirePropagators(model, data, "updateForcePropagators");
}

}  // namespace grbda
