#pragma once
// Internal: the pieces every constrained solver shares — the row gatherer, the residual and the
// solve of the Delassus system L λ = b (direct, or regularised when the rows are redundant).
#include <algorithm>

#include "grbda/algorithms/constrained_dynamics.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

/// InputError naming `algorithm` unless `constraints` and `cd` belong to `model` and to each other
/// (cd made from this version of the constraints).
void checkConstraintWorkspace(const Model& model, const ConstraintModel& constraints, const ConstraintData& cd,
                              const char* algorithm);

/// the constraint workspace's parts[*].K, the constraint workspace's k and the constraint workspace's kBiased at the kinematics in `data` (prepareState with v ran).
/// Without `rightHandSides` only the K (they depend on the pose alone; prepareState without v is
/// enough; the OSIM algorithms): k and kBiased are then not meaningful until the next full gather.
void gatherConstraintRows(const Model& model, const Data& data, const ConstraintModel& constraints,
                          ConstraintData& cd, bool rightHandSides = true);

/// max_r |Σ_parts K · a_body − kBiased_r| with the gravity-biased accelerations in data.a.
double constraintResidual(const Data& data, ConstraintData& cd);

/// ‖H q̈ + C − τ − Jᵀ λ − J_extᵀ f_ext‖∞ at the solution in data.a and cd.lambda, by one inward
/// Newton–Euler sweep (no H, no J formed; nothing allocated).
double dynamicsResidual(const Model& model, Data& data, ConstraintData& cd, const VecRef& tau,
                        const ExternalForces* fext);

/// How far redundant rows may miss being consistent, for right-hand sides of size bNorm (max |b_i|):
/// exactly redundant rows (four corners of a flat foot) have right-hand sides that agree only to
/// integration drift and stabilisation (issue #27). One rule for every hard solver.
inline double allowedInconsistency(double bNorm, const ConstraintSolverSettings& settings) {
  return 1e-6 * (1.0 + bNorm) + std::max(settings.consistencyTolerance, 0.0) * bNorm;
}

/// λ = L⁻¹ b for the symmetric positive semi-definite L of `sys` (lower triangle read). A
/// Cholesky factorisation when L is well conditioned; otherwise (redundant rows) the proximal
/// method of multipliers from λ = 0, which converges to the least-norm solution of a consistent
/// system. `proximal` forces the iteration. Sets cd.rank, cd.redundant, cd.iterations.
/// NumericalError when the rows are inconsistent (no λ satisfies them).
void solveDelassus(ConstraintWorkspace::RowSystem& sys, ConstraintData& cd, const ConstraintSolverSettings& settings,
                   bool proximal, const char* algorithm);

/// λ = L⁻¹ b for the soft system L = J H⁻¹ Jᵀ + R (positive definite for R > 0), by Cholesky
/// (pv-soft, ltl-soft). NumericalError only for a non-finite L.
void solveSoftDelassus(ConstraintWorkspace::RowSystem& sys, const char* algorithm);

}  // namespace grbda::detail
