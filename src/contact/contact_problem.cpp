// ContactProblem's bookkeeping, the solver dispatch and the residuals of a solution.
#include "grbda/contact/contact_problem.hpp"

#include <algorithm>
#include <cmath>

#include "contact_solvers.hpp"
#include "grbda/errors.hpp"

namespace grbda {

const char* contactSolverName(ContactSolverType type) {
  switch (type) {
    case ContactSolverType::ADMM: return "admm";
    case ContactSolverType::PGS: return "pgs";
    case ContactSolverType::Compliant: return "compliant";
  }
  return "?";
}

ContactSolverType contactSolverFromName(const std::string& name) {
  for (ContactSolverType t : {ContactSolverType::ADMM, ContactSolverType::PGS, ContactSolverType::Compliant})
    if (name == contactSolverName(t)) return t;
  throw InputError("unknown contact solver '" + name + "' (expected admm, pgs or compliant)");
}

void ContactSolverSettings::validate() const {
  if (maxIterations < 1) throw InputError("contact solver: maxIterations must be >= 1 (got " + std::to_string(maxIterations) + ")");
  if (!(std::isfinite(tolerance) && tolerance > 0.0)) throw InputError("contact solver: tolerance must be > 0 and finite");
  if (!(std::isfinite(erp) && erp >= 0.0 && erp <= 1.0)) throw InputError("contact solver: erp must be in [0, 1]");
  if (!(std::isfinite(timeConstant) && timeConstant > 0.0)) throw InputError("contact solver: timeConstant must be > 0");
  if (!(std::isfinite(dampingRatio) && dampingRatio > 0.0)) throw InputError("contact solver: dampingRatio must be > 0");
}

void ContactProblem::reserve(int maxRows) {
  const int cap = std::max(maxRows, 1);
  G.setZero(cap, cap);
  factor.setZero(cap, cap);
  for (VecX* x : {&b, &R, &lambda, &c, &z, &y, &s, &rhs, &zPrev, &warm}) x->setZero(cap);
  set.assign(static_cast<size_t>(cap), RowSet::Free);
  mu.assign(static_cast<size_t>(cap), 0.0);
  bound.assign(static_cast<size_t>(cap), 0.0);
  clear();
}

int ContactProblem::addRows(RowSet rowSet, int count, double rowMu, double rowBound) {
  if (m + count > static_cast<int>(set.size()))
    throw InputError("ContactProblem: more rows than reserved (" + std::to_string(m + count) + " > " +
                     std::to_string(set.size()) + ")");
  const int first = m;
  for (int r = first; r < first + count; ++r) {
    set[static_cast<size_t>(r)] = rowSet;
    mu[static_cast<size_t>(r)] = rowMu;
    bound[static_cast<size_t>(r)] = rowBound;
    R[r] = 0.0;
  }
  if (rowSet == RowSet::Cone) ++numCones;
  m += count;
  return first;
}

void measureContactResiduals(ContactProblem& p, ContactSolveStats& stats) {
  detail::rowVelocities(p, p.lambda, p.c);
  detail::residualsAt(p, p.lambda, p.c, stats);
}

ContactSolveStats solveContactProblem(ContactProblem& p, const ContactSolverSettings& settings) {
  ContactSolveStats stats;
  stats.rows = p.m;
  if (p.m == 0) return stats;
  if (!p.G.topLeftCorner(p.m, p.m).allFinite() || !p.b.head(p.m).allFinite() || !p.R.head(p.m).allFinite())
    throw NumericalError("contact solver: the Delassus matrix or the free velocities are not finite");
  p.pyramidal = settings.pyramidal;
  if (!settings.warmStart) p.lambda.head(p.m).setZero();
  detail::projectOntoSets(p, p.lambda, settings.pyramidal);  // a warm start from another contact set may lie outside
  if (settings.type == ContactSolverType::ADMM) {
    p.warm.head(p.m) = p.lambda.head(p.m);
    detail::solveAdmm(p, settings, stats);
    // De Saxcé's fixed point is not a convex problem: with redundant contacts (a sole's four
    // corners) ADMM can cycle or blow up. Then PGS solves the step from the same warm start, and
    // the result says so.
    if (!stats.converged || !p.lambda.head(p.m).allFinite()) {
      const int admmIterations = stats.iterations;
      p.lambda.head(p.m) = p.warm.head(p.m);
      detail::solvePgs(p, settings, stats);
      stats.iterations += admmIterations;
      stats.fellBack = true;
    }
  } else {
    detail::solvePgs(p, settings, stats);
  }
  const int iterations = stats.iterations;
  const bool converged = stats.converged, fellBack = stats.fellBack;
  measureContactResiduals(p, stats);
  stats.iterations = iterations;
  stats.converged = converged;
  stats.fellBack = fellBack;
  return stats;
}

}  // namespace grbda
