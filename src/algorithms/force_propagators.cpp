// The configuration-only articulated-cluster pass (spec §6.3 pass A), as C-EFPA (§6.5) and
// apply-test-force (§6.6) need it: articulated_pass.hpp without bias terms.
#include "force_propagators.hpp"

#include <string>

#include "articulated_pass.hpp"
#include "cluster_state.hpp"
#include "grbda/algorithms/osim.hpp"
#include "grbda/errors.hpp"

namespace grbda {
namespace detail {

void requirePropagators(const Model& model, Data& data, const char* algorithm, const MatX* massOffset) {
  ArticulatedPassInputs in;
  in.massOffset = massOffset;
  if (!articulatedPass<false>(model, data, in)) throwArticulatedInertiaNotPositive(model, data, algorithm);
}

}  // namespace detail

void updateForcePropagators(const Model& model, Data& data, const VecX& q) {
  detail::prepareState(model, data, q, nullptr, "updateForcePropagators");
  detail::requirePropagators(model, data, "updateForcePropagators");
}

}  // namespace grbda
