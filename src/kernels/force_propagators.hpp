#pragma once
// Internal: the configuration-only articulated pass shared by C-EFPA and apply-test-force.
#include "grbda/algorithms/osim.hpp"
#include "grbda/data.hpp"

namespace grbda::detail {

/// The articulated-cluster pass without bias terms (articulated_pass.hpp) on the prepared
/// kinematics, throwing NumericalError (naming `algorithm`) when some D_k is not positive
/// definite. `massOffset` (nv x nv, optional): a constant joint-space inertia added to every D_k
/// (its diagonal block at the cluster's velocities), the armature of the approximate models
/// (baselines/approximate.hpp); entries outside those blocks are ignored.
void requirePropagators(const Model& model, Data& data, const char* algorithm, const MatX* massOffset = nullptr);

/// C-EFPA (inverseOperationalSpaceInertia) with an optional massOffset as above, errors naming
/// `algorithm`. The approximate-model baseline runs it on the independent tree with the armature.
const MatX& inverseOperationalSpaceInertia(const Model& model, Data& data, const OsimSet& set, const VecRef& q,
                                           bool linearOnly, const MatX* massOffset, const char* algorithm);

/// The outward sweep of apply-test-force (spec §6.6) on the last articulated pass: on entry ydd holds
/// D_k⁻¹ t_k per cluster (zero where no force entered), on return the free system's accelerations
/// ÿ_k = D_k⁻¹ t_k − D_k⁻¹ XU_kᵀ a_o. data.a is its scratch (the bodies' accelerations).
void outwardResponse(const Model& model, Data& data, Eigen::Ref<VecX> ydd);

}  // namespace grbda::detail
