// The pyramidal friction cone with ADMM: its Euclidean projection against a brute-force projection
// onto the polyhedral cone, ADMM-pyramidal against PGS-pyramidal and against a dense reference that
// enumerates every contact mode (written here), and a simulated box sliding diagonally.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "contact/contact_solvers.hpp"
#include "grbda/grbda.hpp"
#include "grbda/sim/simulator.hpp"
#include "support/allocation_counter.hpp"
#include "support/floating_body.hpp"

namespace grbda {
namespace {

using testsupport::boxInertia;
using testsupport::floatingBody;

/// Brute force: P = {x : a_iᵀ x ≤ 0} with a = −e_n, ±e_t1 − k e_n, ±e_t2 − k e_n. The projection of
/// y lies in the relative interior of some face, so it is the projection of y onto the subspace
/// {a_iᵀ x = 0, i ∈ S} for some active set S; try every S, keep the feasible candidates, take the
/// nearest.
Vec3 bruteForcePyramid(double mu, const Vec3& y) {
  const double k = mu / std::sqrt(2.0);
  Eigen::Matrix<double, 5, 3> A;
  A << -1, 0, 0,  //
      -k, 1, 0,   //
      -k, -1, 0,  //
      -k, 0, 1,   //
      -k, 0, -1;
  Vec3 best = Vec3::Zero();  // the apex is always feasible
  double bestDistance = y.norm();
  for (int S = 0; S < 32; ++S) {
    int rows = 0;
    Eigen::Matrix<double, 5, 3> AS;
    for (int i = 0; i < 5; ++i)
      if (S & (1 << i)) AS.row(rows++) = A.row(i);
    Vec3 x = y;
    if (rows > 0) {  // x = y − A_Sᵀ (A_S A_Sᵀ)⁺ A_S y, by an orthonormal basis of A_S's row space
      const MatX B = AS.topRows(rows).transpose();
      Eigen::JacobiSVD<MatX> svd(B, Eigen::ComputeThinU);
      const int rank = static_cast<int>((svd.singularValues().array() > 1e-12).count());
      const MatX U = svd.matrixU().leftCols(rank);
      x = y - U * (U.transpose() * y);
    }
    if ((A * x).maxCoeff() > 1e-12) continue;
    if ((x - y).norm() < bestDistance) {
      bestDistance = (x - y).norm();
      best = x;
    }
  }
  return best;
}

TEST(PyramidProjection, EqualsTheBruteForceProjectionOntoThePolyhedralCone) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  double worst = 0.0;
  for (double mu : {0.0, 0.3, 1.0, 2.5})
    for (int trial = 0; trial < 4000; ++trial) {
      Vec3 y(u(rng), u(rng), u(rng));
      if (trial % 4 == 1) y[2] = y[1];          // on the diagonal: the edge case
      if (trial % 4 == 2) y[2] = 0.0;           // on a tangent axis
      double n = y[0], t1 = y[1], t2 = y[2];
      detail::projectOntoPyramid(mu, n, t1, t2);
      const Vec3 expected = bruteForcePyramid(mu, y);
      worst = std::max(worst, (Vec3(n, t1, t2) - expected).norm());
      ASSERT_LT((Vec3(n, t1, t2) - expected).norm(), 1e-12) << "mu " << mu << " y " << y.transpose();
    }
  EXPECT_LT(worst, 1e-12);
}

TEST(PyramidProjection, IsAProjectionAndNotAClamp) {
  // a clamp keeps λ_n; the projection moves it: (0.1, 1, 0) with μ = 1 lands on the face t1 = n/√2
  double n = 0.1, t1 = 1.0, t2 = 0.0;
  detail::projectOntoPyramid(1.0, n, t1, t2);
  const double k = 1.0 / std::sqrt(2.0);
  EXPECT_NEAR(n, (0.1 + k) / (1.0 + k * k), 1e-15);
  EXPECT_NEAR(t1, k * n, 1e-15);
  // the projection's defining inequality (y − x)·(z − x) ≤ 0 for points z of the pyramid
  const Vec3 y(0.1, 1.0, 0.0), x(n, t1, t2);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(0.0, 1.0), s(-1.0, 1.0);
  for (int i = 0; i < 1000; ++i) {
    const double zn = 3.0 * u(rng);
    const Vec3 z(zn, k * zn * s(rng), k * zn * s(rng));
    EXPECT_LE((y - x).dot(z - x), 1e-14);
  }
}

// ---- the contact problem: ADMM-pyramidal, PGS-pyramidal and a dense mode enumeration ----

/// A random step's problem with `contacts` contacts: G = A Aᵀ (positive definite, as J ℳ⁻¹ Jᵀ of
/// a system with more coordinates than rows), approaching normals, random tangential velocities.
ContactProblem randomProblem(int contacts, double mu, std::mt19937& rng) {
  const int m = 3 * contacts;
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  MatX A(m, m + 3);
  for (int i = 0; i < A.rows(); ++i)
    for (int j = 0; j < A.cols(); ++j) A(i, j) = u(rng);
  ContactProblem p;
  p.reserve(m);
  for (int c = 0; c < contacts; ++c) p.addRows(RowSet::Cone, 3, mu);
  p.G.topLeftCorner(m, m) = A * A.transpose() + 0.1 * MatX::Identity(m, m);
  for (int r = 0; r < m; ++r) p.b[r] = r % 3 == 0 ? -0.2 - 0.8 * std::abs(u(rng)) : u(rng);
  return p;
}

/// Dense reference: each contact is apart (λ = 0, c_n ≥ 0) or touching with each tangent either
/// sticking (c_t = 0, |λ_t| ≤ k λ_n) or sliding on an edge of the square (λ_t = ±k λ_n, c_t opposite).
/// Every combination is a 3m × 3m linear system; the valid solutions are returned.
std::vector<VecX> enumerateModes(const ContactProblem& p) {
  const int m = p.m, contacts = m / 3;
  const MatX G = p.G.topLeftCorner(m, m);
  const VecX b = p.b.head(m);
  std::vector<VecX> valid;
  int combos = 1;
  for (int c = 0; c < contacts; ++c) combos *= 10;
  for (int code = 0; code < combos; ++code) {
    MatX M = MatX::Zero(m, m);
    VecX rhs = VecX::Zero(m);
    std::vector<int> mode(static_cast<size_t>(contacts));
    for (int c = 0, x = code; c < contacts; ++c, x /= 10) mode[static_cast<size_t>(c)] = x % 10;
    for (int c = 0; c < contacts; ++c) {
      const int r = 3 * c, md = mode[static_cast<size_t>(c)];
      const double k = p.mu[static_cast<size_t>(r)] / std::sqrt(2.0);
      if (md == 0) {  // apart: λ = 0
        for (int i = 0; i < 3; ++i) M(r + i, r + i) = 1.0;
        continue;
      }
      M.row(r) = G.row(r);  // c_n = 0
      rhs[r] = -b[r];
      const int tangentMode[2] = {(md - 1) % 3, (md - 1) / 3};  // 0: stick, 1: +edge, 2: −edge
      for (int i = 0; i < 2; ++i) {
        if (tangentMode[i] == 0) {
          M.row(r + 1 + i) = G.row(r + 1 + i);  // c_t = 0
          rhs[r + 1 + i] = -b[r + 1 + i];
        } else {
          M(r + 1 + i, r + 1 + i) = 1.0;  // λ_t = ±k λ_n
          M(r + 1 + i, r) = tangentMode[i] == 1 ? -k : k;
        }
      }
    }
    Eigen::FullPivLU<MatX> lu(M);
    if (!lu.isInvertible()) continue;
    const VecX lambda = lu.solve(rhs);
    const VecX c = G * lambda + b;
    bool ok = true;
    const double eps = 1e-10;
    for (int ct = 0; ct < contacts && ok; ++ct) {
      const int r = 3 * ct, md = mode[static_cast<size_t>(ct)];
      const double k = p.mu[static_cast<size_t>(r)] / std::sqrt(2.0);
      if (md == 0) { ok = c[r] >= -eps; continue; }
      ok = lambda[r] >= -eps;
      const int tangentMode[2] = {(md - 1) % 3, (md - 1) / 3};
      for (int i = 0; i < 2 && ok; ++i) {
        const double l = lambda[r + 1 + i], v = c[r + 1 + i];
        if (tangentMode[i] == 0) ok = std::abs(l) <= k * lambda[r] + eps;
        else ok = (tangentMode[i] == 1 ? v : -v) <= eps;  // sliding opposite its friction
      }
    }
    if (ok) valid.push_back(lambda);
  }
  return valid;
}

double distanceToNearest(const VecX& x, const std::vector<VecX>& set) {
  double best = std::numeric_limits<double>::infinity();
  for (const VecX& y : set) best = std::min(best, (x - y).norm());
  return best;
}

TEST(PyramidSolvers, AdmmAndPgsAgreeWithTheDenseModeEnumeration) {
  std::mt19937 rng(11);
  int solved = 0;
  for (int contacts : {1, 2, 3})
    for (double mu : {0.2, 0.7, 1.5})
      for (int trial = 0; trial < 6; ++trial) {
        ContactProblem p = randomProblem(contacts, mu, rng);
        const std::vector<VecX> reference = enumerateModes(p);
        ASSERT_FALSE(reference.empty());
        ContactSolverSettings admm, pgs;
        admm.pyramidal = pgs.pyramidal = true;
        admm.maxIterations = pgs.maxIterations = 20000;
        pgs.type = ContactSolverType::PGS;
        p.lambda.setZero();
        const ContactSolveStats sa = solveContactProblem(p, admm);
        const VecX la = p.lambda.head(p.m);
        p.lambda.setZero();
        const ContactSolveStats sp = solveContactProblem(p, pgs);
        const VecX lp = p.lambda.head(p.m);
        ASSERT_TRUE(sa.converged) << contacts << " contacts, mu " << mu;
        ASSERT_TRUE(sp.converged) << contacts << " contacts, mu " << mu;
        EXPECT_FALSE(sa.fellBack) << "ADMM handed the pyramid to PGS: " << contacts << " contacts, mu " << mu;
        const double scale = 1.0 + la.norm();
        EXPECT_LT(distanceToNearest(la, reference), 1e-6 * scale) << contacts << " contacts, mu " << mu;
        EXPECT_LT(distanceToNearest(lp, reference), 1e-6 * scale) << contacts << " contacts, mu " << mu;
        if (reference.size() == 1) EXPECT_LT((la - lp).norm(), 1e-6 * scale);
        EXPECT_LE(sa.coneResidual, 1e-12 * scale);  // inside the pyramid, measured as a pyramid
        ++solved;
      }
  EXPECT_EQ(solved, 54);
}

TEST(PyramidSolvers, AdmmOnThePyramidAllocatesNothingOnceReserved) {
  if (!testsupport::allocationCounterLinked()) GTEST_SKIP() << "no counting allocator in this binary";
  std::mt19937 rng(4);
  ContactProblem p = randomProblem(3, 0.7, rng);
  ContactSolverSettings admm;
  admm.pyramidal = true;
  solveContactProblem(p, admm);
  p.lambda.setZero();
  testsupport::AllocationScope scope;
  const ContactSolveStats s = solveContactProblem(p, admm);
  EXPECT_EQ(scope.count(), 0);
  EXPECT_TRUE(s.converged);
}

// ---- a simulated step: a box sliding along the pyramid's diagonal ----

Model slidingBox() {
  const Vec3 size(0.4, 0.3, 0.1);
  return floatingBody(2.0, boxInertia(2.0, size), CollisionShape::box(size));
}

TEST(PyramidSolvers, ASlidingBoxStepsTheSameWithAdmmAndPgsAndDeceleratesAtThePyramidsRate) {
  // sliding along a pyramid edge direction: each tangent's friction is μ m g / √2... the tangents
  // are the simulator's own (tangents(n)), so the box slides along x and the decoupled law gives the
  // deceleration μ g / √2 along each tangent that moves. Whatever the axes, ADMM and PGS must agree.
  const Model model = slidingBox();
  VecX q(7);
  q << 0.0, 0.0, 0.05, 1.0, 0.0, 0.0, 0.0;
  VecX v = VecX::Zero(6);
  v.segment<3>(3) = Vec3(1.0, 0.7, 0.0);
  SimulatorOptions a, p;
  a.solver.pyramidal = p.solver.pyramidal = true;
  a.solver.tolerance = p.solver.tolerance = 1e-12;
  a.solver.maxIterations = p.solver.maxIterations = 5000;
  p.solver.type = ContactSolverType::PGS;
  World world;
  world.friction = 0.5;
  Simulator admm(model, world, a), pgs(model, world, p);
  admm.setState(q, v);
  pgs.setState(q, v);
  for (int step = 0; step < 50; ++step) {
    admm.step();
    pgs.step();
    ASSERT_LT((admm.v() - pgs.v()).norm(), 1e-8) << "step " << step;
    ASSERT_FALSE(admm.lastStep().solver.fellBack) << "step " << step;
  }
  // the velocity change along each world tangent: friction μ λ_n / √2 on each sliding tangent axis
  // (the box's axes are the world's here); the simulator's tangents are a fixed function of n = z:
  // t1 = z × x = y, t2 = z × y = −x — both slide, so both decelerate at μ g / √2.
  const double decel = world.friction * 9.81 / std::sqrt(2.0), T = 50 * a.dt;
  const Vec3 vw = admm.v().segment<3>(3);
  EXPECT_NEAR(vw.x(), 1.0 - decel * T, 1e-6);
  EXPECT_NEAR(vw.y(), 0.7 - decel * T, 1e-6);
}

}  // namespace
}  // namespace grbda
