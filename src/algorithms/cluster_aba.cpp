// C-ABA — cluster-based articulated-body algorithm (spec §6.3; [P0] Alg. 1, eqs. 52-60): the
// articulated-cluster pass with bias terms (articulated_pass.hpp), then the outward pass.
#include "../kernels/articulated_pass.hpp"
#include "../kernels/cluster_algorithms.hpp"
#include "../kernels/cluster_state.hpp"

namespace grbda::detail {

bool clusterAba(const Model& model, Data& data, const VecRef& tau, const ExternalForces* fext) {
  ArticulatedPassInputs in;
  in.tau = &tau;
  in.fext = fext;
  if (!articulatedPass<true>(model, data, in)) return false;
  outwardPass(model, data, gravityBias(model, data), [](int, auto&) {});
  return true;
}

}  // namespace grbda::detail
