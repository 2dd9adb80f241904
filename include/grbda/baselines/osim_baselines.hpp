#pragma once
// Baseline for C-EFPA (spec §6.9.6): the projected inverse operational-space inertia, formed
// densely on the spanning tree — what the benchmarks compare C-EFPA against.
#include <vector>

#include "grbda/algorithms/osim.hpp"

namespace grbda {

/// Λ⁻¹ = J_y (Gᵀ H_tree G)⁻¹ J_yᵀ with J_y = J_tree G stacked over the end-effectors; J_tree is
/// tree::frameJacobian (Local axes, at the point) at the spanning configuration. Same layout as
/// inverseOperationalSpaceInertia (6-D blocks, or the linear rows with `linearOnly`). Allocates.
MatX projectedInverseOperationalSpaceInertia(const Model& model, Data& data,
                                             const std::vector<EndEffector>& endEffectors, const VecX& q,
                                             bool linearOnly = false);

}  // namespace grbda
