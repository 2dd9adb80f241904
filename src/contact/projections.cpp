// What the contact solvers share: the rows' velocities and the projections onto their sets.
#include <algorithm>
#include <cmath>

#include "contact_solvers.hpp"

namespace grbda::detail {

void rowVelocities(const ContactProblem& p, const VecRef& lambda, VecX& c) {
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

// The pyramid P = {n ≥ 0, |t_i| ≤ k n}, k = μ/√2, is symmetric in each tangent's sign and in
// swapping the tangents, so project (n, a1, a2) with a1 = max|t_i| ≥ a2 = min|t_i| ≥ 0 and put signs
// and order back. In that chamber the nearest point lies, in order of the active faces' count:
//   inside (a1 ≤ k n); on the face t1 = k n alone: n' = (n + k a1) / (1 + k²), t1' = k n', t2' = a2,
//   valid while a2 ≤ k n'; on the edge t1 = t2 = k n: n' = (n + k (a1 + a2)) / (1 + 2k²), valid
//   while n' > 0 (its multipliers a_i − k n' ≥ 0 hold once the face was refused); else the apex.
void projectOntoPyramid(double mu, double& n, double& t1, double& t2) {
  const double k = mu / std::sqrt(2.0);
  const bool swapped = std::abs(t2) > std::abs(t1);
  const double a1 = swapped ? std::abs(t2) : std::abs(t1), a2 = swapped ? std::abs(t1) : std::abs(t2);
  if (a1 <= k * n && n >= 0.0) return;  // inside (n ≥ 0 matters only when μ = 0)
  double np, x1, x2;
  const double face = (n + k * a1) / (1.0 + k * k);
  if (face >= 0.0 && a2 <= k * face) {
    np = face; x1 = k * face; x2 = a2;
  } else {
    const double edge = (n + k * (a1 + a2)) / (1.0 + 2.0 * k * k);
    if (edge > 0.0) { np = edge; x1 = x2 = k * edge; }
    else { np = x1 = x2 = 0.0; }
  }
  const double s1 = std::copysign(1.0, swapped ? t2 : t1), s2 = std::copysign(1.0, swapped ? t1 : t2);
  n = np;
  t1 = swapped ? s2 * x2 : s1 * x1;
  t2 = swapped ? s1 * x1 : s2 * x2;
}

void projectOntoSets(const ContactProblem& p, VecX& lambda, bool pyramidal) {
  for (int r = 0; r < p.m;) {
    switch (p.set[static_cast<size_t>(r)]) {
      case RowSet::Cone:
        if (pyramidal) projectOntoPyramid(p.mu[static_cast<size_t>(r)], lambda[r], lambda[r + 1], lambda[r + 2]);
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

void residualsAt(const ContactProblem& p, const VecRef& lambda, const VecRef& velocity, ContactSolveStats& stats) {
  const int m = p.m;
  stats.rows = m;
  stats.coneResidual = stats.velocityResidual = stats.complementarityResidual = 0.0;
  for (int r = 0; r < m;) {
    const double l = lambda[r], c = velocity[r];
    switch (p.set[static_cast<size_t>(r)]) {
      case RowSet::Cone: {
        // the exact cone's disk, or the pyramid's square: its extent (the friction's size measured
        // as the set bounds it) and its support function at −c_t (the dissipation it allows)
        const double mu = p.pyramidal ? p.mu[static_cast<size_t>(r)] / std::sqrt(2.0) : p.mu[static_cast<size_t>(r)];
        const double lt = p.pyramidal ? std::max(std::abs(lambda[r + 1]), std::abs(lambda[r + 2])) : norm2(lambda[r + 1], lambda[r + 2]);
        const double ct = p.pyramidal ? std::abs(velocity[r + 1]) + std::abs(velocity[r + 2]) : norm2(velocity[r + 1], velocity[r + 2]);
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

bool solvedWithin(const ContactProblem& p, const VecRef& lambda, const VecRef& c, double tolerance) {
  ContactSolveStats s;
  residualsAt(p, lambda, c, s);
  const double impulse = p.m > 0 ? lambda.head(p.m).cwiseAbs().maxCoeff() : 0.0;
  // a contact's gap sums three products of an impulse and a velocity error (and μ‖c_t‖ on the normal)
  return s.velocityResidual <= tolerance && s.complementarityResidual <= 4.0 * tolerance * impulse &&
         s.coneResidual <= 1e-12 * impulse;
}

}  // namespace grbda::detail
