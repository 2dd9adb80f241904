#pragma once
// Constrained forward dynamics on the cluster tree: local loops stay embedded in their clusters,
// contacts, welds, relative constraints and custom rows (constraints/constraint_model.hpp) are
// solved with multipliers. q, v, tau are as in dynamics.hpp (independent coordinates; q may be
// spanning). The result q̈ lives in data.qdd, the forces λ in cdata.lambda.
//
//   pv        Popov–Vereshchagin on the cluster tree (seed 003 Alg. 1): constraint rows are
//             propagated through the articulated-cluster pass; O(n + m²d + m³), no Jacobian.
//   pv-soft   PV-soft (seed 003 §VI, MuJoCo's soft Gauss principle) with the rows' compliance R:
//             a row on one link enters as the leaf inertia Kᵀ R⁻¹ K, a relative row through the
//             Delassus matrix as (J H⁻¹ Jᵀ + R) λ = ...; always feasible.
//   pv-early  PV-early (seed 003 §VIII): each cluster eliminates the rows it determines, by a
//             rank-revealing (pivoted Householder) split, as soon as it has seen them; no m x m
//             matrix, O(n + m). Redundant rows get no force in the combinations no joint can
//             meet; an infeasible set is a NumericalError. Rows on two bodies (relative
//             constraints) are solved by pv.
//   kkt       the dense baseline: H (cluster CRBA), J (body Jacobians), [H Jᵀ; J 0] by the Schur
//             complement. The reference the others are checked against.
//   ltl       Featherstone's LTL baseline (Pinocchio's method): H = LᵀL with no fill-in on the DoF
//             parent array (baselines/ltl.hpp), Y = J L⁻¹, Y Yᵀ λ = the KKT right-hand side.
//   ltl-soft  the same with the rows' compliance R, (Y Yᵀ + R) λ = ... (MuJoCo's route to the soft
//             Gauss principle); equals pv-soft.
//   proximal-delassus  (old name "proximal") PV's Delassus matrix with the proximal method of
//             multipliers (L + μ1) λ_{j+1} = b + μ λ_j; when that does not converge (redundant or
//             inconsistent rows), the minimum-norm least-squares λ. Inconsistent rows are not an
//             error here: cdata.inconsistent says so and cdata.inconsistency what is left unmet.
//
// Redundant rows (a 3-D contact on a planar mechanism, two welds on one link) are detected by the
// hard solvers (rank of J H⁻¹ Jᵀ), reported in cdata.rank / cdata.redundant with a warning logged
// once, and get the minimum-norm λ: never NaN. Redundant rows are consistent when their
// right-hand sides agree within settings.consistencyTolerance (drift, stabilisation). Errors:
// InputError for a ConstraintData of another model or constraint set, bad sizes or non-finite
// inputs; NumericalError for a singular articulated inertia or, from every solver but
// proximal-delassus and the soft ones, an inconsistent (infeasible) constraint set.
//
// What it leaves valid in Data: data.qdd (q̈), data.a (gravity-biased body accelerations), the
// articulated-cluster pass (plain for pv, kkt, proximal-delassus; with added inertias for pv-soft, pv-early;
// untouched by ltl and ltl-soft, which leave H in data.H instead).
#include <string>

#include "grbda/constraints/constraint_data.hpp"

namespace grbda {

/// The solvers of constrainedForwardDynamics (the file comment says what each computes).
enum class ConstraintSolver {
  PV,                ///< "pv"
  PVSoft,            ///< "pv-soft"
  KKT,               ///< "kkt"
  ProximalDelassus,  ///< "proximal-delassus": the proximal method on PV's Delassus matrix
  LTL,               ///< "ltl"
  LTLSoft,           ///< "ltl-soft"
  PVEarly,           ///< "pv-early"
  /// Old name of ProximalDelassus, kept for existing code.
  Proximal = ProximalDelassus
};

/// "pv", "pv-soft", "kkt", "proximal-delassus", "ltl", "ltl-soft", "pv-early".
const char* constraintSolverName(ConstraintSolver solver);
/// The solver named `name` ("proximal", the old name of proximal-delassus, too); InputError
/// listing the valid names otherwise.
ConstraintSolver constraintSolverFromName(const std::string& name);

/// Whether constrainedForwardDynamics measures the equation of motion at its answer
/// (ConstraintData::dynamicsResidual, ‖H q̈ + C − τ − Jᵀλ‖∞ by one Newton–Euler sweep: about a
/// fifth of a C-ABA on the Mini Cheetah). A check to ask for, like MuJoCo's fwdinv flag: the
/// direct solvers meet the equation of motion by construction, as C-ABA does.
enum class DynamicsCheck {
  Auto,    ///< the solvers whose answer can meet the rows but miss the dynamics: pv-early, proximal-delassus
  Always,  ///< every solver
  Never,   ///< none
};
/// "auto", "always", "never".
const char* dynamicsCheckName(DynamicsCheck check);
/// The check named `name`; InputError listing the valid names otherwise.
DynamicsCheck dynamicsCheckFromName(const std::string& name);

/// Which solver constrainedForwardDynamics uses, the proximal solver's settings, and when to
/// measure the equation of motion.
struct ConstraintSolverSettings {
  ConstraintSolver solver = ConstraintSolver::PV;  ///< the solver (PV by default)
  double mu = 1e-8;          ///< proximal: regularisation, relative to the largest diagonal of J H⁻¹ Jᵀ
  int maxIterations = 50;    ///< proximal: iteration cap (≥ 1)
  double tolerance = 1e-12;  ///< proximal: stop when ‖J H⁻¹ Jᵀ λ − b‖∞ ≤ tolerance · (1 + ‖b‖∞)
  /// Redundant rows whose right-hand sides disagree by at most this × ‖b‖∞ (+ 1e-6 (1 + ‖b‖∞))
  /// are consistent: integration drift and Baumgarte stabilisation make exactly redundant rows
  /// (four corners of a flat foot) disagree slightly. λ is then the minimum-norm force.
  double consistencyTolerance = 1e-4;
  DynamicsCheck checkDynamics = DynamicsCheck::Auto;  ///< when to measure cdata.dynamicsResidual
};

/// Constrained forward dynamics by `settings.solver`: q̈ in data.qdd (returned), λ in cdata.lambda.
/// \note this overwrites data.qdd, data.a, the cluster kinematics, cdata's results and workspace,
/// and the articulated-cluster pass (pv, kkt, proximal-delassus, pv-soft, pv-early) or data.H (ltl).
const VecX& constrainedForwardDynamics(const Model& model, Data& data, const ConstraintModel& constraints,
                                       ConstraintData& cdata, const VecRef& q, const VecRef& v, const VecRef& tau,
                                       const ConstraintSolverSettings& settings = {},
                                       const ExternalForces& fext = ExternalForces());

}  // namespace grbda
