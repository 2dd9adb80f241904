// Projected Gauss–Seidel: sweep the contacts and rows in order, each solved against the others'
// current impulses, then projected onto its set — a contact's normal row first, then its two
// tangent rows together (their 2 x 2 block) projected onto the disk of radius μ λ_n (the exact
// cone's section) or the pyramid's square. Stops when no impulse changes the velocities by more
// than the tolerance in a sweep.
#include <algorithm>
#include <cmath>

#include "contact_solvers.hpp"

namespace grbda::detail {
namespace {

constexpr double kTinyPivot = 1e-300;

/// (A λ + b)_r for one row, A = G + R.
double rowVelocity(const ContactProblem& p, int r) {
  return p.b[r] + p.G.row(r).head(p.m).dot(p.lambda.head(p.m)) + p.R[r] * p.lambda[r];
}

double diag(const ContactProblem& p, int r) { return p.G(r, r) + p.R[r]; }

/// One contact: normal, then tangents. Returns the largest velocity change its update caused.
double contactStep(ContactProblem& p, int r, bool pyramidal) {
  double change = 0.0;
  const double ann = diag(p, r);
  if (ann > kTinyPivot) {
    const double n = std::max(0.0, p.lambda[r] - rowVelocity(p, r) / ann);
    change = std::abs(n - p.lambda[r]) * ann;
    p.lambda[r] = n;
  }
  // The tangents move along −c_t with one step length for both (1 / the largest eigenvalue of
  // their 2 x 2 block), then onto the disk: the fixed point of an isotropic projected step is the
  // disk's point opposite c_t — maximal dissipation. (The block's inverse would converge to the
  // projection in its own metric, which is not Coulomb's law when the block is anisotropic.)
  const double c1 = rowVelocity(p, r + 1), c2 = rowVelocity(p, r + 2);
  const double a11 = diag(p, r + 1), a22 = diag(p, r + 2), a12 = p.G(r + 1, r + 2);
  const double largest = 0.5 * (a11 + a22 + norm2(a11 - a22, 2.0 * a12));
  if (largest <= kTinyPivot) return change;
  double t1 = p.lambda[r + 1] - c1 / largest;
  double t2 = p.lambda[r + 2] - c2 / largest;
  const double mu = p.mu[static_cast<size_t>(r)], n = p.lambda[r];
  if (pyramidal) {
    const double limit = mu * n / std::sqrt(2.0);
    t1 = std::clamp(t1, -limit, limit);
    t2 = std::clamp(t2, -limit, limit);
  } else {
    const double t = norm2(t1, t2);
    if (t > mu * n) {
      t1 *= mu * n / t;
      t2 *= mu * n / t;
    }
  }
  change = std::max({change, std::abs(t1 - p.lambda[r + 1]) * a11, std::abs(t2 - p.lambda[r + 2]) * a22});
  p.lambda[r + 1] = t1;
  p.lambda[r + 2] = t2;
  return change;
}

/// One scalar row (unilateral, box or free).
double rowStep(ContactProblem& p, int r) {
  const double a = diag(p, r);
  if (a <= kTinyPivot) return 0.0;
  double l = p.lambda[r] - rowVelocity(p, r) / a;
  if (p.set[static_cast<size_t>(r)] == RowSet::Unilateral) l = std::max(l, 0.0);
  else if (p.set[static_cast<size_t>(r)] == RowSet::Box) l = std::clamp(l, -p.bound[static_cast<size_t>(r)], p.bound[static_cast<size_t>(r)]);
  const double change = std::abs(l - p.lambda[r]) * a;
  p.lambda[r] = l;
  return change;
}

}  // namespace

void solvePgs(ContactProblem& p, const ContactSolverSettings& settings, ContactSolveStats& stats) {
  const double scale = std::max(1.0, p.b.head(p.m).cwiseAbs().maxCoeff());
  stats.converged = false;
  for (int it = 1; it <= settings.maxIterations; ++it) {
    stats.iterations = it;
    double change = 0.0;
    for (int r = 0; r < p.m;) {
      if (p.set[static_cast<size_t>(r)] == RowSet::Cone) {
        change = std::max(change, contactStep(p, r, settings.pyramidal));
        r += 3;
      } else {
        change = std::max(change, rowStep(p, r));
        ++r;
      }
    }
    if (change <= settings.tolerance * scale) {
      stats.converged = true;
      break;
    }
    // redundant contacts (a sole's corners) trade force among themselves slowly while the
    // velocities already obey the contact laws: judge those every few sweeps
    if (it % 8 == 0) {
      rowVelocities(p, p.lambda, p.c);
      if (solvedWithin(p, p.lambda, p.c, settings.tolerance * scale)) {
        stats.converged = true;
        break;
      }
    }
  }
}

}  // namespace grbda::detail
