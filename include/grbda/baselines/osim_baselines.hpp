#pragma once
// Baseline for C-EFPA (spec §6.9.6): the projected inverse operational-space inertia, formed
// densely on the spanning tree — what the benchmarks compare C-EFPA against.
#include <vector>

#include "grbda/algorithms/osim.hpp"
#include "grbda/constraints/constraint_data.hpp"

namespace grbda {

/// Λ⁻¹ = J_y (Gᵀ H_tree G)⁻¹ J_yᵀ with J_y = J_tree G stacked over the end-effectors; J_tree is
/// tree::frameJacobian (Local axes, at the point) at the spanning configuration. Same layout as
/// inverseOperationalSpaceInertia (6-D blocks, or the linear rows with `linearOnly`). Allocates.
MatX projectionInverseOperationalSpaceInertia(const Model& model, Data& data,
                                              const std::vector<EndEffector>& endEffectors, const VecRef& q,
                                              bool linearOnly = false);

/// Λ⁻¹ = J H⁻¹ Jᵀ of the rows of `constraints` formed densely at q: H by the cluster CRBA, J
/// from the body Jacobians of the rows (the KKT baseline's), H⁻¹ Jᵀ by a Cholesky solve. The
/// reference PV-OSIM (pv_osim.hpp) is checked against; same layout (m x m, the ConstraintModel's
/// order), into cdata.LambdaInv. O(n² m + n³); allocates nothing after the first call.
const MatX& denseInverseOperationalSpaceInertia(const Model& model, Data& data, const ConstraintModel& constraints,
                                                ConstraintData& cdata, const VecRef& q);

/// Old name of projectionInverseOperationalSpaceInertia, kept for existing code.
inline MatX projectedInverseOperationalSpaceInertia(const Model& model, Data& data,
                                                    const std::vector<EndEffector>& endEffectors, const VecRef& q,
                                                    bool linearOnly = false) {
  return projectionInverseOperationalSpaceInertia(model, data, endEffectors, q, linearOnly);
}
/// Old name of denseInverseOperationalSpaceInertia, kept for existing code.
inline const MatX& denseInverseOsim(const Model& model, Data& data, const ConstraintModel& constraints,
                                    ConstraintData& cdata, const VecRef& q) {
  return denseInverseOperationalSpaceInertia(model, data, constraints, cdata, q);
}

}  // namespace grbda
