#pragma once
// Internal: the dense joint-space terms the KKT and LTL baselines share (kkt.cpp), so that both
// see the same H, C, J and right-hand side.
#include "grbda/algorithms/constrained_dynamics.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

/// the constraint workspace's J (m x nv) of the gathered rows: row r's parts K through the body Jacobians ^bX_j S_j of
/// the bodies j supporting each part's body. Poses and S of the prepared state.
void constraintJacobian(const Model& model, const Data& data, ConstraintData& cd);

/// On the prepared state and gathered rows: data.H (cluster CRBA), data.tau = C − Jᵀ f_ext
/// (C-RNEA at ÿ = 0), the constraint workspace's J and the constraint workspace's hard.b = k − J̇ẏ.
void denseConstraintTerms(const Model& model, Data& data, ConstraintData& cd, const ExternalForces* fext);

/// data.a: the gravity-biased body accelerations at ÿ = data.qdd (what the PV solvers leave, and
/// what the residual reads).
void bodyAccelerationsAtQdd(const Model& model, Data& data);

}  // namespace grbda::detail
