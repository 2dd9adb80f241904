#pragma once
// Internal: the pieces every constrained solver shares — the row gatherer, the residual and the
// solve of the Delassus system L λ = b (direct, or regularised when the rows are redundant).
#include "grbda/algorithms/constrained_dynamics.hpp"

namespace grbda::detail {

/// cd.parts[*].K, cd.k and cd.kBiased at the kinematics in `data` (prepareState with v ran).
/// Without `rightHandSides` only the K (they depend on the pose alone; prepareState without v is
/// enough; the OSIM algorithms): k and kBiased are then not meaningful until the next full gather.
void gatherConstraintRows(const Model& model, const Data& data, const ConstraintModel& constraints,
                          ConstraintData& cd, bool rightHandSides = true);

/// InputError unless `constraints` belongs to `model` and `cd` was made for both (as they are now).
void checkConstraintWorkspace(const Model& model, const ConstraintModel& constraints, const ConstraintData& cd,
                              const char* algorithm);

/// J (cd.J, rows in the ConstraintModel's order): the body Jacobians of the gathered rows at the
/// kinematics in `data`; row r is Σ_parts Kᵀ ^bX_j S_j over the clusters supporting the part's
/// body b (kkt.cpp).
void constraintJacobian(const Model& model, const Data& data, ConstraintData& cd);

/// max_r |Σ_parts K · a_body − kBiased_r| with the gravity-biased accelerations in data.a.
double constraintResidual(const Data& data, ConstraintData& cd);

/// λ = L⁻¹ b for the symmetric positive semi-definite L of `sys` (lower triangle read). A
/// Cholesky factorisation when L is well conditioned; otherwise (redundant rows) the proximal
/// method of multipliers from λ = 0, which converges to the least-norm solution of a consistent
/// system. `proximal` forces the iteration. Sets cd.rank, cd.redundant, cd.iterations.
/// NumericalError when the rows are inconsistent (no λ satisfies them).
void solveDelassus(ConstraintData::RowSystem& sys, ConstraintData& cd, const ConstraintSolverSettings& settings,
                   bool proximal, const char* algorithm);

}  // namespace grbda::detail
