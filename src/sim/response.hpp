#pragma once
// Internal: the response ÿ = ℳ⁻¹ Jᵀ f of the free system to one unit row force, from the force
// propagators of the last plain articulated-cluster pass (C-ABA's, at this configuration) —
// apply-test-force (spec §6.6) generalised to forces on a body and to generalised forces on a
// cluster's coordinates. O(depth) inward, O(n) outward; data.a and each ClusterData::u are scratch.
#include "grbda/data.hpp"

namespace grbda::detail {

/// ÿ for the spatial force p (body coordinates) applied to `body`.
void responseToBodyForce(const Model& model, Data& data, int body, const Vec6& p, Eigen::Ref<VecX> dydd);
/// ÿ for the generalised force t (d_k entries) on cluster k's independent coordinates.
void responseToClusterForce(const Model& model, Data& data, int k, const Eigen::Ref<const VecX>& t,
                            Eigen::Ref<VecX> dydd);

}  // namespace grbda::detail
