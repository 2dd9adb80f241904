#pragma once
// Internal: Ĝ̇ = Σ_j ∂G/∂y_j ẏ_j of every cluster whose G varies with the state (four-bars,
// <loop>s, differentials), for the Coriolis matrix and J̇.
#include "grbda/data.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

/// the workspace's coriolis.Gdot[k] at the cluster kinematics in data (qSpan, vSpan = G ẏ). From K G = 0:
/// K_d Ġ_d = −K̇ G with K̇ = ∂K/∂q · q̇_s, and Ġ's independent rows are zero (they are the
/// identity in G). Clusters with a constant G keep the zeros Data(model) put there.
void clusterGdot(const Model& model, Data& data);

}  // namespace grbda::detail
