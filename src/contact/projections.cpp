// What the contact solvers share: the rows' velocities and the projections onto their sets.
#include <algorithm>
#include <cmath>

#include "contact_solvers.hpp"

namespace grbda::detail {

void rowVelocities(const ContactProblem& p, const VecX& lambda, VecX& c) {
  const int m = p.m;
  c.head(m).noalias() = p.G.topLeftCorner(m, m) * lambda.head(m);
  c.head(m) += p.b.head(m) + p.R.head(m).cwiseProduct(lambda.head(m));
}

void projectOntoCone(double mu, double& n, double& t1, double& t2) {
  const double t = norm2(t1, t2);
  if (t <= mu * n) return;        // inside
  if (mu * t <= -n) {             // inside the polar cone: the apex
    n = t1 = t2 = 0.0;
    return;
  }
  const double a = (mu * t + n) / (mu * mu + 1.0);  // onto the cone's surface
  n = a;
  const double scale = mu * a / t;
  t1 *= scale;
  t2 *= scale;
}

namespace {
/// The inscribed pyramid: λ_n ≥ 0, each tangent within ±μ λ_n / √2 (a clamp, not a Euclidean
/// projection; PGS's per-contact step uses it so).
void clampToPyramid(double mu, double& n, double& t1, double& t2) {
  n = std::max(n, 0.0);
  const double limit = mu * n / std::sqrt(2.0);
  t1 = std::clamp(t1, -limit, limit);
  t2 = std::clamp(t2, -limit, limit);
}
}  // namespace

void projectOntoSets(const ContactProblem& p, VecX& lambda, bool pyramidal) {
  for (int r = 0; r < p.m;) {
    switch (p.set[static_cast<size_t>(r)]) {
      case RowSet::Cone:
        if (pyramidal) clampToPyramid(p.mu[static_cast<size_t>(r)], lambda[r], lambda[r + 1], lambda[r + 2]);
        else projectOntoCone(p.mu[static_cast<size_t>(r)], lambda[r], lambda[r + 1], lambda[r + 2]);
        r += 3;
        continue;
      case RowSet::Unilateral: lambda[r] = std::max(lambda[r], 0.0); break;
      case RowSet::Box: {
        const double bound = p.bound[static_cast<size_t>(r)];
        lambda[r] = std::clamp(lambda[r], -bound, bound);
        break;
      }
      case RowSet::Free: break;
    }
    ++r;
  }
}

void residualsAt(const ContactProblem& p, const VecX& lambda, const VecX& velocity, ContactSolveStats& stats) {
  const int m = p.m;
  stats.rows = m;
  stats.coneResidual = stats.velocityResidual = stats.complementarityResidual = 0.0;
  for (int r = 0; r < m;) {
    const double l = lambda[r], c = velocity[r];
    switch (p.set[static_cast<size_t>(r)]) {
      case RowSet::Cone: {
        const double mu = p.mu[static_cast<size_t>(r)];
        const double lt = norm2(lambda[r + 1], lambda[r + 2]), ct = norm2(velocity[r + 1], velocity[r + 2]);
        stats.coneResidual = std::max({stats.coneResidual, lt - mu * l, -l});
        stats.velocityResidual = std::max(stats.velocityResidual, -c);
        // λ · (c + s), s = (μ‖c_t‖, 0, 0): zero exactly when the normal and the friction laws hold
        const double gap = l * (c + mu * ct) + lambda[r + 1] * velocity[r + 1] + lambda[r + 2] * velocity[r + 2];
        stats.complementarityResidual = std::max(stats.complementarityResidual, std::abs(gap));
        r += 3;
        continue;
      }
      case RowSet::Unilateral:
        stats.coneResidual = std::max(stats.coneResidual, -l);
        stats.velocityResidual = std::max(stats.velocityResidual, -c);
        stats.complementarityResidual = std::max(stats.complementarityResidual, std::abs(l * c));
        break;
      case RowSet::Box: {
        const double bound = p.bound[static_cast<size_t>(r)];
        stats.coneResidual = std::max(stats.coneResidual, std::abs(l) - bound);
        // friction opposes the motion with its whole bound, or holds it still
        stats.complementarityResidual = std::max(stats.complementarityResidual, std::abs(bound * std::abs(c) + l * c));
        break;
      }
      case RowSet::Free: stats.velocityResidual = std::max(stats.velocityResidual, std::abs(c)); break;
    }
    ++r;
  }
  stats.coneResidual = std::max(stats.coneResidual, 0.0);
}

bool solvedWithin(const ContactProblem& p, const VecX& lambda, const VecX& c, double tolerance) {
  ContactSolveStats s;
  residualsAt(p, lambda, c, s);
  const double impulse = p.m > 0 ? lambda.head(p.m).cwiseAbs().maxCoeff() : 0.0;
  // a contact's gap sums three products of an impulse and a velocity error (and μ‖c_t‖ on the normal)
  return s.velocityResidual <= tolerance && s.complementarityResidual <= 4.0 * tolerance * impulse &&
         s.coneResidual <= 1e-12 * impulse;
}

}  // namespace grbda::detail
