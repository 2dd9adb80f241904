#pragma once
// Exact baselines on the spanning tree (spec §6.9): the loop constraints are stacked block-
// diagonally into G, g (explicit) and K, k (implicit) over all clusters, and the tree algorithms
// supply H_tree, C_tree. Same argument conventions as dynamics.hpp.
#include "grbda/data.hpp"

namespace grbda {

/// Global constraint matrices at (q, v): q̇_span = G v, q̈_span = G ÿ + g, K q̈_span = k.
struct ProjectionMatrices {
  /// G (nvSpan x nv) and K (rows x nvSpan)
  ///@{
  MatX G, K;
  ///@}
  /// g (nvSpan) and k (rows)
  ///@{
  VecX g, k;
  ///@}
};
void projectionMatrices(const Model& model, Data& data, const VecRef& q, const VecRef& v, ProjectionMatrices& out);
/// Old name of ProjectionMatrices, kept for existing code.
using ConstraintMatrices = ProjectionMatrices;
/// Old name of projectionMatrices, kept for existing code.
inline void constraintMatrices(const Model& model, Data& data, const VecRef& q, const VecRef& v, ProjectionMatrices& out) {
  projectionMatrices(model, data, q, v, out);
}

/// The projection method's inverse dynamics ("projected RNEA", spec §6.9.2):
/// τ = Gᵀ RNEA_tree(q, q̇, G ÿ + g).
VecX projectionInverseDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd);
/// Projection method (spec §6.9.4): ÿ = (Gᵀ H_tree G)⁻¹ (τ − Gᵀ(C_tree + H_tree g)).
VecX projectionForwardDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau);
/// Lagrange multipliers (spec §6.9.5): dense KKT with τ_tree = pinv(Gᵀ) τ; returns ÿ.
VecX lagrangeForwardDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau);
/// The projection method's mass matrix Gᵀ H_tree G ("projected mass matrix", spec §6.9.7).
MatX projectionMassMatrix(const Model& model, Data& data, const VecRef& q);
/// The projection method's bias forces Gᵀ (C_tree + H_tree g) (spec §6.9.7).
VecX projectionBiasForces(const Model& model, Data& data, const VecRef& q, const VecRef& v);

/// Old name of projectionInverseDynamics, kept for existing code.
inline VecX projectedInverseDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd) {
  return projectionInverseDynamics(model, data, q, v, qdd);
}
/// Old name of projectionMassMatrix, kept for existing code.
inline MatX projectedMassMatrix(const Model& model, Data& data, const VecRef& q) {
  return projectionMassMatrix(model, data, q);
}
/// Old name of projectionBiasForces, kept for existing code.
inline VecX projectedBiasForces(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  return projectionBiasForces(model, data, q, v);
}

}  // namespace grbda
