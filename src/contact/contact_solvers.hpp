#pragma once
// Internal: the iterative solvers of a ContactProblem and what they share.
#include <cmath>

#include "grbda/contact/contact_problem.hpp"

namespace grbda::detail {

/// √(a² + b²) for impulses and velocities (no overflow to guard against; std::hypot is slower).
inline double norm2(double a, double b) { return std::sqrt(a * a + b * b); }

/// c = (G + R) λ + b over the first m rows.
void rowVelocities(const ContactProblem& p, const VecRef& lambda, VecX& c);
/// The residuals of λ with the row velocities c = (G + R) λ + b (ContactSolveStats' three).
void residualsAt(const ContactProblem& p, const VecRef& lambda, const VecRef& c, ContactSolveStats& stats);
/// λ solves the problem to `tolerance` [m/s]: no row velocity violates its law by more, and the
/// complementarity gap is within tolerance times the largest impulse.
bool solvedWithin(const ContactProblem& p, const VecRef& lambda, const VecRef& c, double tolerance);
/// Euclidean projection of λ onto the rows' sets (the exact cone, or the inscribed pyramid).
void projectOntoSets(const ContactProblem& p, VecX& lambda, bool pyramidal);
/// The exact second-order cone ‖t‖ ≤ μ n, Euclidean projection.
void projectOntoCone(double mu, double& n, double& t1, double& t2);
/// The inscribed four-sided pyramid n ≥ 0, |t1|, |t2| ≤ μ n / √2, Euclidean projection (ADMM's
/// z-step needs the true projection; a clamp of the tangents is not one).
void projectOntoPyramid(double mu, double& n, double& t1, double& t2);

/// ADMM on the exact cone with De Saxcé's correction (Carpentier et al., RSS 2024).
void solveAdmm(ContactProblem& p, const ContactSolverSettings& settings, ContactSolveStats& stats);
/// Projected Gauss–Seidel, one contact (3 rows) or one row at a time.
void solvePgs(ContactProblem& p, const ContactSolverSettings& settings, ContactSolveStats& stats);

}  // namespace grbda::detail
