#pragma once
// Internal: the three stages of the dynamics derivatives (algorithms/derivatives.hpp).
#include "grbda/data.hpp"

namespace grbda::detail {

/// Sizes data.derivatives for the model (first call only).
void sizeDerivatives(const Model& model, Data& data);

/// Spanning-tree RNEA and its derivatives in the world frame at data.qSpan (poses data.Xa),
/// data.vSpan and derivatives.qddSpan: tauSpan, dtauSpan_dq, dtauSpan_dv, HSpan.
void spanningRneaDerivatives(const Model& model, Data& data);

/// ∂G/∂y, ∂(G ẏ)/∂y, ∂(G ÿ + g)/∂y and ∂g/∂ẏ of every cluster with a state-dependent G, at the
/// cluster kinematics in data (G, g, qSpan, vSpan) and ÿ = ydd.
void clusterLocalDerivatives(const Model& model, Data& data, const VecX& ydd);

/// The cluster derivatives from the spanning ones, block by cluster block (see the header).
void projectDerivatives(const Model& model, Data& data);

}  // namespace grbda::detail
