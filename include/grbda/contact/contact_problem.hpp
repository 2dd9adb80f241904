#pragma once
// The contact problem of one time step, at the velocity level (impulses over the step):
//
//   find λ ∈ K  with  c = (G + R) λ + b  and  λ ⟂ c (+ De Saxcé's μ‖c_t‖ on cone rows),
//
// where G = J ℳ⁻¹ Jᵀ is the Delassus matrix of the active rows (from the cluster tree: ℳ⁻¹Jᵀ by
// test forces through the articulated-cluster pass, never a dense ℳ⁻¹), b the rows' velocity
// after a free step plus their stabilisation targets, R ≥ 0 per-row compliance and K the product of
// the rows' sets:
//   Cone        3 rows [normal, t1, t2] of a frictional contact: ‖λ_t‖ ≤ μ λ_n (the exact Coulomb
//               cone), or with `pyramidal` |λ_t1|, |λ_t2| ≤ μ λ_n / √2 (the inscribed pyramid)
//   Unilateral  λ ≥ 0 (a joint at its limit)
//   Box         |λ| ≤ bound (dry joint friction: bound = friction · dt)
//   Free        λ ∈ ℝ with R > 0 (a viscous damper integrated implicitly: R = 1 / (damping · dt))
// Velocities c are in the rows' units (m/s, rad/s); λ are impulses (N s, N m s).
#include <string>
#include <vector>

#include "grbda/spatial/types.hpp"

namespace grbda {

enum class ContactSolverType { ADMM, PGS, Compliant };
/// "admm", "pgs", "compliant".
const char* contactSolverName(ContactSolverType type);
/// The solver named `name`; InputError listing the valid names otherwise.
ContactSolverType contactSolverFromName(const std::string& name);

/// How solveContactProblem solves (the simulator's SimulatorOptions::solver).
struct ContactSolverSettings {
  ContactSolverType type = ContactSolverType::ADMM;  ///< the algorithm
  int maxIterations = 500;      ///< cap of the iterative solvers (≥ 1); reaching it is reported, not hidden
  double tolerance = 1e-9;      ///< on the residuals, velocity units [m/s]
  bool pyramidal = false;       ///< the inscribed four-sided friction pyramid instead of the exact cone (every solver)
  /// Position correction: a penetration d < 0 is pushed out at the velocity −erp · d / dt (0: off).
  double erp = 0.2;
  /// Compliant contacts (MuJoCo's solref): time constant [s] and damping ratio of the normal
  /// spring–damper, per unit effective mass (k = m_eff / (T ζ)², c = 2 m_eff / T).
  double timeConstant = 0.02;
  double dampingRatio = 1.0;    ///< compliant contacts: ζ (1: critically damped)
  bool warmStart = true;        ///< start from the previous step's impulses of the same contacts
  void validate() const;        ///< InputError naming the offending value
};

/// The set a row's impulse lives in (see the file comment).
enum class RowSet : unsigned char { Cone, Unilateral, Box, Free };

/// What one solve reports. Residuals are in velocity units except complementarity (impulse ×
/// velocity); a solve that stops at its iteration cap says so in `converged`, never silently.
/// ADMM that does not converge (De Saxcé's fixed point can cycle with redundant contacts) hands
/// the step to PGS from the same warm start and says so in `fellBack`.
struct ContactSolveStats {
  int rows = 0;             ///< active rows m
  int iterations = 0;       ///< iterations the solver ran
  bool converged = true;    ///< false: it stopped at its iteration cap
  bool fellBack = false;    ///< ADMM did not converge and PGS solved the step (iterations count both)
  double coneResidual = 0.0;          ///< how far λ is outside K (impulse units; 0 up to round-off)
  double velocityResidual = 0.0;      ///< how far c violates its constraints (penetrating or, when sticking, sliding)
  double complementarityResidual = 0.0;  ///< |λ_n c_n| and the friction's maximal-dissipation gap
};

/// The rows and matrices of one step's problem, sized once for the most rows the simulation can
/// have (no allocation per step). Filled by the simulator (or a test); solved by solveContactProblem.
struct ContactProblem {
  /// Sizes every buffer for up to `maxRows` rows.
  void reserve(int maxRows);
  void clear() { m = 0; numCones = 0; }  ///< no rows (the buffers stay)
  /// Appends rows (returns the first) of one set with μ (cones) or a bound (box rows); G, b and R
  /// are the caller's to fill (R starts at 0).
  int addRows(RowSet set, int count, double mu = 0.0, double bound = 0.0);

  int m = 0;                 ///< active rows
  int numCones = 0;          ///< frictional contacts among the rows
  /// Cone rows live in the inscribed pyramid |λ_t1|, |λ_t2| ≤ μ λ_n / √2 (set by
  /// solveContactProblem from its settings; residuals and De Saxcé's correction follow it).
  bool pyramidal = false;
  MatX G;                    ///< Delassus J ℳ⁻¹ Jᵀ (capacity x capacity, top-left m x m used)
  VecX b;                    ///< per row: velocity after a free step minus its stabilisation target
  VecX R;                    ///< per row: compliance (0: hard)
  VecX lambda;               ///< the solution (impulses), warm start on entry
  std::vector<RowSet> set;   ///< per row
  std::vector<double> mu;    ///< per row (cone rows: the first row of the cone carries it)
  std::vector<double> bound; ///< per row (box rows)
  // solver workspace
  MatX factor;               ///< Cholesky factor (ADMM)
  VecX c;                    ///< row velocities (G + R) λ + b of the last residual measurement
  VecX z;                    ///< ADMM: the projected iterate
  VecX y;                    ///< ADMM: the multiplier
  VecX s;                    ///< ADMM: De Saxcé's correction
  VecX rhs;                  ///< ADMM: the right-hand side, then λ
  VecX zPrev;                ///< ADMM: the previous z
  VecX warm;                 ///< the warm start, kept for a fallback solve
};

/// Solves `problem` (its first m rows) into problem.lambda with `settings`. NumericalError if the
/// matrices hold NaN. Allocates nothing after ContactProblem::reserve.
ContactSolveStats solveContactProblem(ContactProblem& problem, const ContactSolverSettings& settings);

/// The residuals of problem.lambda as a solution (for reports and tests): fills every field of the
/// stats but `iterations` and `converged`.
void measureContactResiduals(ContactProblem& problem, ContactSolveStats& stats);

}  // namespace grbda
