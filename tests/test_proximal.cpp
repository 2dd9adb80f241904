// The proximal-and-sparse solver (spec §7) against independent answers: C-ABA, the explicit
// form q̈ = G ÿ + g, a dense evaluation of the same damped KKT step, the dense Lagrange algebra of
// spec §6.9.5 (which cannot cope with redundant rows), plus failure modes, allocations (counter
// of tests/test_allocations.cpp) and the size of the sparse factorisation.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <filesystem>
#include <iostream>

#include "cluster_support/constrained_models.hpp"
#include "support/allocation_counter.hpp"
#include "support/compare.hpp"
#include "grbda/grbda.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

/// The small mechanisms plus every shipped URDF+ model with loops or couplings.
std::vector<std::pair<std::string, Model>> constrainedAndShippedModels(Rng& rng) {
  std::vector<std::pair<std::string, Model>> models = constrainedModels(rng);
  // every shipped URDF+ model with loops or couplings (none until the parser reads them)
  const std::filesystem::path dir = std::filesystem::path(GRBDA_SOURCE_DIR) / "models";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".urdf") continue;
    try {
      Model m = loadUrdf(entry.path().string());
      if (m.hasConstraints()) models.emplace_back(entry.path().filename().string(), std::move(m));
    } catch (const Error& e) {
      ADD_FAILURE() << entry.path() << ": " << e.what();
    }
  }
  return models;
}

/// A seed from a model's name (FNV-1a), so that its random state does not depend on the others.
unsigned seedOf(const std::string& name) {
  unsigned h = 2166136261u;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  return h;
}

/// Configurations away from toggles: URDF models get small random joint angles.
VecX smallAngleConfiguration(Rng& rng, const Model& m) {
  if (m.hasConstraints() && m.sourceFile().empty()) return randomIndependentConfiguration(rng, m);
  VecX q = randomIndependentConfiguration(rng, m);
  for (const auto& cl : m.clusters())
    if (std::string(cl.typeName()) != "Free") q.segment(cl.qIndex, cl.nq) = randomVector(rng, cl.nq, -0.3, 0.3);
  return q;
}

/// The documented torque lift: τ on the independent spanning coordinates, 0 elsewhere.
VecX liftTorque(const Model& m, const VecX& tau) {
  VecX t = VecX::Zero(m.nvSpanning());
  for (const auto& cl : m.clusters()) {
    int col = 0;
    for (int r = 0; r < cl.numBodies; ++r) {
      const Body& b = m.body(cl.firstBody + r);
      if (b.independent)
        for (int j = 0; j < b.joint.nv(); ++j) t[b.vIndex + j] = tau[cl.vIndex + col++];
    }
  }
  return t;
}

struct TreeSystem {
  MatX H, K;
  VecX C, k, tauTree;
  ProjectionMatrices cm;
};
TreeSystem treeSystem(const Model& m, Data& data, const VecX& q, const VecX& v, const VecX& tau) {
  TreeSystem s;
  projectionMatrices(m, data, q, v, s.cm);
  const VecX qs = data.qSpan, vs = data.vSpan;
  s.H = tree::crba(m, data, qs);
  s.C = tree::nonLinearEffects(m, data, qs, vs);
  s.tauTree = liftTorque(m, tau);
  return s;
}

/// Spec §6.9.5 algebra (the Lagrange baseline) on given rows; throws NumericalError exactly
/// where lagrangeForwardDynamics does: when K H⁻¹ Kᵀ is rank-deficient.
VecX denseLagrange(const MatX& H, const VecX& rhs, const MatX& K, const VecX& k) {
  Eigen::LLT<MatX> llt(H);
  const MatX A = K * llt.solve(K.transpose());
  Eigen::ColPivHouseholderQR<MatX> qr(A);
  if (qr.rank() < A.rows()) throw NumericalError("K H⁻¹ Kᵀ is singular (redundant constraints)");
  const VecX lambda = qr.solve(VecX(k - K * llt.solve(rhs)));
  return llt.solve(VecX(rhs + K.transpose() * lambda));
}

const ProximalConstraintRows kAllRows[] = {ProximalConstraintRows::Cluster, ProximalConstraintRows::LoopPoint3D,
                                           ProximalConstraintRows::LoopFull};
/// Whether the rows style states every loop of `m` completely. The unreduced styles refuse
/// prismatic and planar loops (ModelError, checked here); 3-D point rows leave out a universal
/// loop's orientation row, which a spatial mechanism (the 2-RSU ankle) needs.
bool statesEveryLoop(const Model& m, ProximalConstraintRows rows) {
  if (rows == ProximalConstraintRows::Cluster) return true;
  for (const LoopFrames& l : m.loops()) {
    if (l.type == LoopKind::Prismatic || l.type == LoopKind::Planar) {
      EXPECT_THROW({ const ProximalData refused(m, rows); }, ModelError) << l.name;
      return false;
    }
    if (l.type == LoopKind::Universal && rows == ProximalConstraintRows::LoopPoint3D) return false;
  }
  return true;
}

const char* rowsName(ProximalConstraintRows r) {
  return r == ProximalConstraintRows::Cluster ? "cluster rows" : r == ProximalConstraintRows::LoopPoint3D ? "3-D point" : "full loop";
}

}  // namespace

TEST(Proximal, ConvergesToClusterAbaOnEveryConstrainedModel) {
  Rng rng(41);
  double worst = 0.0, worstDual = 0.0;
  int maxIterations = 0, checked = 0;
  for (auto& [name, model] : constrainedAndShippedModels(rng)) {
    SCOPED_TRACE(name);
    Data data(model);
    for (ProximalConstraintRows rows : kAllRows) {
      SCOPED_TRACE(rowsName(rows));
      if (!statesEveryLoop(model, rows)) continue;
      ProximalData pd(model, rows);
      ProximalSettings s;
      s.rows = rows;
      s.mu = 1e-8;
      s.maxIterations = 50;
      s.tolerance = 1e-10;
      for (int sample = 0; sample < 4; ++sample) {
        const VecX q = smallAngleConfiguration(rng, model);
        const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
        const VecX aba = forwardDynamics(model, data, q, v, tau);
        const ProximalResult& r = proximalSparseForwardDynamics(model, data, pd, q, v, tau, s);
        EXPECT_TRUE(r.converged);
        EXPECT_LE(r.primalResidual, s.tolerance);
        EXPECT_GE(r.iterations, 1);
        EXPECT_LE(r.iterations, s.maxIterations);
        EXPECT_LT(relErr(r.qdd, aba), 1e-8);
        // the spanning accelerations satisfy the model's explicit form q̈ = G ÿ + g
        ProjectionMatrices cm;
        projectionMatrices(model, data, q, v, cm);
        EXPECT_LT(relErr(r.qddSpanning, VecX(cm.G * aba + cm.g)), 1e-8);
        EXPECT_LT((cm.K * r.qddSpanning - cm.k).cwiseAbs().maxCoeff(), 1e-8);
        EXPECT_LT(r.dualResidual, 1e-8 * (1.0 + r.lambda.cwiseAbs().maxCoeff()));
        worst = std::max(worst, relErr(r.qdd, aba));
        worstDual = std::max(worstDual, r.dualResidual);
        maxIterations = std::max(maxIterations, r.iterations);
        ++checked;
      }
    }
  }
  std::cout << "[ measured ] proximal (mu 1e-8) vs C-ABA over " << checked << " solves: worst relative error "
            << worst << ", worst stationarity residual " << worstDual << ", most iterations " << maxIterations << "\n";
}

TEST(Proximal, OneIterationIsTheDampedKktStep) {
  // With λ_0 = 0 one iteration is λ = (K H⁻¹ Kᵀ + μ)⁻¹ (k − K H⁻¹(τ_tree − C)) — checked densely.
  Rng rng(42);
  for (auto& [name, model] : constrainedAndShippedModels(rng)) {
    SCOPED_TRACE(name);
    Data data(model);
    const VecX q = smallAngleConfiguration(rng, model);
    const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
    const TreeSystem t = treeSystem(model, data, q, v, tau);
    for (double mu : {1e-6, 1e-2, 1.0}) {
      ProximalSettings s;
      s.mu = mu;
      s.maxIterations = 1;
      const ProximalResult r = proximalSparseForwardDynamics(model, data, q, v, tau, s);
      Eigen::LLT<MatX> llt(t.H);
      const VecX rhs = t.tauTree - t.C;
      const MatX A = t.cm.K * llt.solve(t.cm.K.transpose()) + mu * MatX::Identity(t.cm.K.rows(), t.cm.K.rows());
      const VecX lambda = A.ldlt().solve(VecX(t.cm.k - t.cm.K * llt.solve(rhs)));
      const VecX qdd = llt.solve(VecX(rhs + t.cm.K.transpose() * lambda));
      EXPECT_EQ(r.iterations, 1);
      EXPECT_LT(relErr(r.lambda, lambda), 1e-9);
      EXPECT_LT(relErr(r.qddSpanning, qdd), 1e-9);
      // the reported residual is the true one
      const double residual = (t.cm.K * r.qddSpanning - t.cm.k).cwiseAbs().maxCoeff();
      EXPECT_NEAR(r.primalResidual, residual, 1e-12 * (1.0 + residual));
    }
  }
}

TEST(Proximal, MoreIterationsReduceTheResidual) {
  // The 1/2/5-iteration variants of the benchmark (spec §7.2), with a μ large enough that the
  // proximal iterations are visibly needed; tolerance 0 forces exactly maxIterations.
  Rng rng(43);
  for (auto& [name, model] : constrainedAndShippedModels(rng)) {
    SCOPED_TRACE(name);
    Rng stateRng(seedOf(name));  // each model's state does not depend on which other models exist
    Data data(model);
    ProximalData pd(model);
    const VecX q = smallAngleConfiguration(stateRng, model);
    const VecX v = randomVector(stateRng, model.nv()), tau = randomVector(stateRng, model.nv());
    const VecX aba = forwardDynamics(model, data, q, v, tau);
    ProjectionMatrices cm;
    projectionMatrices(model, data, q, v, cm);
    ProximalSettings s;
    s.mu = 1.0;
    s.tolerance = 0.0;
    std::vector<double> residuals, errors;
    for (int iterations : {1, 2, 5}) {
      s.maxIterations = iterations;
      const ProximalResult& r = proximalSparseForwardDynamics(model, data, pd, q, v, tau, s);
      EXPECT_EQ(r.iterations, iterations);
      EXPECT_FALSE(r.converged && r.primalResidual > 0.0);
      EXPECT_NEAR(r.primalResidual, (cm.K * r.qddSpanning - cm.k).cwiseAbs().maxCoeff(), 1e-12);
      residuals.push_back(r.primalResidual);
      errors.push_back(relErr(r.qdd, aba));
    }
    std::cout << "[ measured ] " << name << " (mu 1): residual after 1/2/5 iterations " << residuals[0] << " / "
              << residuals[1] << " / " << residuals[2] << ", error vs C-ABA " << errors[0] << " / " << errors[1]
              << " / " << errors[2] << "\n";
    EXPECT_GT(residuals[0], residuals[1]);
    EXPECT_GT(residuals[1], residuals[2]);
    EXPECT_GT(errors[0], errors[2]);
    // the benchmark's own settings: μ = 1e-10 is already tight after one iteration
    s.mu = 1e-10;
    s.tolerance = 1e-12;
    for (int iterations : {1, 2, 5}) {
      s.maxIterations = iterations;
      const ProximalResult& r = proximalSparseForwardDynamics(model, data, pd, q, v, tau, s);
      EXPECT_LE(r.iterations, iterations);
      EXPECT_LT(relErr(r.qdd, aba), 1e-7);
    }
  }
}

TEST(Proximal, RedundantLoopRowsNeedTheRegularisation) {
  // A planar four-bar stated as Pinocchio states it: a 3-D point constraint has one identically
  // zero row (out of plane), the full revolute loop 5 rows of rank 2. The dense Lagrange algebra
  // rejects them; the proximal method converges to the C-ABA answer; μ = 0 is refused.
  Rng rng(44);
  for (bool floating : {false, true}) {
    SCOPED_TRACE(floating ? "floating" : "fixed base");
    const Model model = fourBarChain(rng, 1, floating);
    Data data(model);
    for (ProximalConstraintRows rows : {ProximalConstraintRows::LoopPoint3D, ProximalConstraintRows::LoopFull}) {
      SCOPED_TRACE(rowsName(rows));
      ProximalData pd(model, rows);
      EXPECT_EQ(pd.numRows, rows == ProximalConstraintRows::LoopPoint3D ? 3 : 5);
      for (int sample = 0; sample < 5; ++sample) {
        const VecX q = randomIndependentConfiguration(rng, model);
        const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
        const VecX aba = forwardDynamics(model, data, q, v, tau);
        const TreeSystem t = treeSystem(model, data, q, v, tau);
        // the model's own (reduced) rows are fine for the Lagrange baseline
        EXPECT_LT(relErr(lagrangeForwardDynamics(model, data, q, v, tau), aba), 1e-9);
        ProximalSettings s;
        s.rows = rows;
        s.mu = 1e-10;
        s.maxIterations = 20;
        s.tolerance = 1e-11;
        const ProximalResult& r = proximalSparseForwardDynamics(model, data, pd, q, v, tau, s);
        EXPECT_TRUE(r.converged);
        EXPECT_LT(relErr(r.qdd, aba), 1e-8);
        Eigen::FullPivLU<MatX> lu(pd.K);
        lu.setThreshold(1e-10);  // the out-of-plane rows are zero up to rounding (~1e-16)
        EXPECT_EQ(lu.rank(), 2);
        // the same rows in the Lagrange algebra: singular
        EXPECT_THROW(denseLagrange(t.H, VecX(t.tauTree - t.C), pd.K, pd.k), NumericalError);
        // and without regularisation the KKT matrix is singular too
        s.mu = 0.0;
        EXPECT_THROW(proximalSparseForwardDynamics(model, data, pd, q, v, tau, s), NumericalError);
        if (sample == 0)
          std::cout << "[ measured ] four-bar " << (floating ? "floating" : "fixed") << ", " << rowsName(rows)
                    << " rows: " << r.iterations << " iterations, residual " << r.primalResidual
                    << ", error vs C-ABA " << relErr(r.qdd, aba) << "\n";
      }
    }
  }
}

TEST(Proximal, ZeroRegularisationWithIndependentRowsIsExactInOneIteration) {
  Rng rng(45);
  for (auto& [name, model] : constrainedAndShippedModels(rng)) {
    SCOPED_TRACE(name);
    Data data(model);
    const VecX q = smallAngleConfiguration(rng, model);
    const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
    ProximalSettings s;
    s.mu = 0.0;
    s.maxIterations = 3;
    const ProximalResult r = proximalSparseForwardDynamics(model, data, q, v, tau, s);
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.iterations, 1);
    EXPECT_LT(relErr(r.qdd, forwardDynamics(model, data, q, v, tau)), 1e-9);
  }
}

TEST(Proximal, SingularStatesAndBadInputsRaiseTypedErrors) {
  Rng rng(46);
  const Model model = fourBarChain(rng, 1, false);
  Data data(model);
  ProximalData pd(model, ProximalConstraintRows::LoopPoint3D);
  ProximalSettings s;
  s.rows = ProximalConstraintRows::LoopPoint3D;
  const VecX v = VecX::Ones(1), tau = VecX::Ones(1);
  // toggle position: crank, coupler and rocker collinear, the loop Jacobian loses rank
  EXPECT_THROW(proximalSparseForwardDynamics(model, data, pd, VecX::Zero(1), v, tau, s), NumericalError);
  EXPECT_THROW(proximalSparseForwardDynamics(model, data, pd, VecX::Zero(3), v, tau, s), NumericalError);
  const VecX q = VecX::Constant(1, 0.7);
  EXPECT_THROW(proximalSparseForwardDynamics(model, data, pd, q, v, VecX::Ones(2), s), InputError);
  EXPECT_THROW(proximalSparseForwardDynamics(model, data, pd, q, VecX::Constant(1, NAN), tau, s), InputError);
  ProximalSettings bad = s;
  bad.mu = -1.0;
  EXPECT_THROW(proximalSparseForwardDynamics(model, data, pd, q, v, tau, bad), InputError);
  bad = s;
  bad.maxIterations = 0;
  EXPECT_THROW(proximalSparseForwardDynamics(model, data, pd, q, v, tau, bad), InputError);
  const Model other = rotorChain(rng, 2, false);
  EXPECT_THROW(proximalSparseForwardDynamics(other, data, pd, VecX::Zero(2), VecX::Zero(2), VecX::Zero(2), s), InputError);
  // running out of iterations is reported, not thrown, and stays finite
  s.mu = 10.0;
  s.maxIterations = 1;
  s.tolerance = 1e-12;
  const ProximalResult& r = proximalSparseForwardDynamics(model, data, pd, q, v, tau, s);
  EXPECT_FALSE(r.converged);
  EXPECT_GT(r.primalResidual, s.tolerance);
  EXPECT_TRUE(r.qdd.allFinite());
  EXPECT_TRUE(r.lambda.allFinite());
}

TEST(Proximal, NoHeapAllocationOnAPreparedWorkspace) {
  // counter provided by tests/test_allocations.cpp (see support/allocation_counter.hpp)
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator in this binary (sanitizer build?)";
  Rng rng(47);
  for (auto& [name, model] : constrainedAndShippedModels(rng)) {
    SCOPED_TRACE(name);
    Data data(model);
    for (ProximalConstraintRows rows : kAllRows) {
      if (!statesEveryLoop(model, rows)) continue;
      ProximalData pd(model, rows);
      ProximalSettings s;
      s.rows = rows;
      const VecX q = smallAngleConfiguration(rng, model);
      const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
      proximalSparseForwardDynamics(model, data, pd, q, v, tau, s);  // warm-up (first loop closure)
      long count = 0;
      {
        AllocationScope scope;
        for (int i = 0; i < 3; ++i) proximalSparseForwardDynamics(model, data, pd, q, v, tau, s);
        count = scope.count();
      }
      EXPECT_EQ(count, 0) << rowsName(rows);
    }
  }
}

TEST(Proximal, FactorisationGrowsLinearlyWithLocalLoops) {
  // k four-bars hanging side by side from a floating base: each loop's multipliers couple only
  // with its own bar and the base, so the factorisation work is linear in k (a dense KKT or a
  // dense Schur complement K H⁻¹ Kᵀ would grow like k³).
  Rng rng(48);
  std::vector<long> updates, entries;
  for (int count : {2, 4, 8, 16}) {
    ModelBuilder b("parallel_four_bars");
    const std::string base = startModel(b, rng, true);
    for (int i = 1; i <= count; ++i) addFourBar(b, rng, base, std::to_string(i));
    const Model model = b.build();
    const ProximalData pd(model, ProximalConstraintRows::LoopPoint3D);
    updates.push_back(pd.factorizationUpdates());
    entries.push_back(pd.patternEntries());
    // and it is still the right answer
    Data data(model);
    const VecX q = randomIndependentConfiguration(rng, model);
    const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
    ProximalSettings s;
    s.rows = ProximalConstraintRows::LoopPoint3D;
    s.maxIterations = 50;
    const ProximalResult r = proximalSparseForwardDynamics(model, data, q, v, tau, s);
    EXPECT_LT(relErr(r.qdd, forwardDynamics(model, data, q, v, tau)), 1e-8);
  }
  std::cout << "[ measured ] factorisation multiply-adds for 2/4/8/16 parallel four-bars: " << updates[0] << " / "
            << updates[1] << " / " << updates[2] << " / " << updates[3] << "\n";
  for (size_t i = 1; i < updates.size(); ++i) {
    // doubling the loops: each bar adds the same constant work
    EXPECT_EQ(updates[i] - updates[i - 1], (updates[1] - updates[0]) * (1L << (i - 1)));
    EXPECT_EQ(entries[i] - entries[i - 1], (entries[1] - entries[0]) * (1L << (i - 1)));
  }
}

// Documented behaviour (proximal.hpp): a workspace prepared for one choice of rows, called with
// another, is rebuilt for the new rows (once, allocating) and gives exactly what a workspace
// prepared for those rows gives; later calls with the new rows allocate nothing.
TEST(Proximal, WorkspaceBuiltForOtherRowsIsRebuiltOnceAndAgreesWithAFreshOne) {
  Rng rng(53);
  ModelBuilder b = crankRockerBuilder(rng, false);
  const Model model = b.build();
  Data data(model);
  const VecX q = smallAngleConfiguration(rng, model);
  const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
  ProximalData reused(model, ProximalConstraintRows::Cluster);
  const int clusterRows = reused.numRows;
  ProximalSettings s;
  s.rows = ProximalConstraintRows::LoopFull;
  const VecX switched = proximalSparseForwardDynamics(model, data, reused, q, v, tau, s).qdd;
  EXPECT_EQ(reused.rows, ProximalConstraintRows::LoopFull);
  ProximalData fresh(model, ProximalConstraintRows::LoopFull);
  EXPECT_EQ(reused.numRows, fresh.numRows);
  EXPECT_NE(reused.numRows, clusterRows);
  EXPECT_EQ(switched, proximalSparseForwardDynamics(model, data, fresh, q, v, tau, s).qdd);
  if (allocationCounterLinked()) {
    AllocationScope scope;
    proximalSparseForwardDynamics(model, data, reused, q, v, tau, s);
    EXPECT_EQ(scope.count(), 0);
  }
}
