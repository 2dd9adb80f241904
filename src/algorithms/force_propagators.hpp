#pragma once
// Internal: the configuration-only articulated pass shared by C-EFPA and apply-test-force.
#include "grbda/data.hpp"

namespace grbda::detail {

/// C-ABA pass A (spec §6.3) on the prepared kinematics: articulated inertias (data.IA, folded
/// onto output bodies) and, per cluster, the Cholesky factor of D_k and D_k⁻¹ XU_kᵀ in
/// ClusterData::propagatorLlt / propagatorDinvXUt. Records data.qSpan in data.osim. False if some
/// D_k is not positive definite.
bool updatePropagators(const Model& model, Data& data);
/// updatePropagators, throwing NumericalError (naming `algorithm`) when it fails.
void requirePropagators(const Model& model, Data& data, const char* algorithm);

}  // namespace grbda::detail
