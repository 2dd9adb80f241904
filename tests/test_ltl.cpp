// Featherstone's LTL baselines (seed 003 P6): the factor against a dense Cholesky of the reversed
// mass matrix and its zero pattern against the cluster tree's support paths; the solves against
// Eigen's LLT; LTL-OSIM against dense J H⁻¹ Jᵀ and C-EFPA; ltl / ltl-soft constrained dynamics
// against KKT, PV and PV-soft; the command's --method ltl / ltl-soft.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "cluster_support/bundled_models.hpp"
#include "cluster_support/constrained_models.hpp"
#include "cluster_support/constraint_problems.hpp"
#include "grbda/grbda.hpp"
#include "support/cli_runner.hpp"
#include "support/compare.hpp"
#include "support/osim_reference.hpp"
#include "support/random_model.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

/// Every bundled model (generated ones included), the Tello built in code, random trees (fixed
/// and floating) and the small cluster mechanisms.
std::vector<std::pair<std::string, Model>> allModels(Rng& rng) {
  std::vector<std::pair<std::string, Model>> models = bundledModels();
  for (bool floating : {false, true})
    for (int t = 0; t < 4; ++t) {
      TreeOptions opt;
      opt.numLinks = uniformInt(rng, 2, 25);
      opt.floatingBase = floating;
      models.emplace_back(std::string(floating ? "floating" : "fixed") + " random tree " + std::to_string(t),
                          randomTree(rng, opt));
    }
  for (auto& m : constrainedModels(rng)) models.push_back(std::move(m));
  return models;
}

/// A configuration where the model's loops close: random if possible, else the neutral one.
VecX closedConfiguration(Rng& rng, const Model& m, Data& data) {
  const VecX q = randomIndependentConfiguration(rng, m);
  try {
    massMatrix(m, data, q);
    return q;
  } catch (const NumericalError&) {
    return m.neutralConfiguration();
  }
}

/// The DoFs supporting DoF i (itself included), from the bodies' output chain: every DoF of the
/// clusters met walking body.output from i's cluster, and i's own cluster's DoFs up to i.
std::set<int> supportingDofs(const Model& m, int i) {
  std::set<int> dofs;
  int k = 0;
  while (!(m.cluster(k).vIndex <= i && i < m.cluster(k).vIndex + m.cluster(k).nv)) ++k;
  for (int d = m.cluster(k).vIndex; d <= i; ++d) dofs.insert(d);
  for (int b = m.cluster(k).output; b >= 0; b = m.body(b).output) {
    const Cluster& c = m.cluster(m.body(b).cluster);
    for (int d = c.vIndex; d < c.vIndex + c.nv; ++d) dofs.insert(d);
  }
  return dofs;
}

MatX reversed(const MatX& A) { return A.reverse(); }  // P A P with the exchange matrix P

}  // namespace

TEST(Ltl, FactorIsTheReversedCholeskyWithoutFillIn) {
  // H = LᵀL; with P the exchange matrix, P H P = (P Lᵀ P)(P L P) is a Cholesky LLᵀ, so the factor
  // is P Gᵀ P for Eigen's G of P H P (unique with a positive diagonal). Entries of L off the
  // supporting DoFs are exactly 0.
  Rng rng(101);
  int checked = 0;
  for (const auto& [name, m] : allModels(rng)) {
    SCOPED_TRACE(name);
    if (m.nv() == 0) continue;
    Data data(m);
    const VecX q = closedConfiguration(rng, m, data);
    const MatX H = massMatrix(m, data, q);
    LtlFactor f(m);
    f.factorize(H);
    const MatX& L = f.L();
    EXPECT_LT(strictRelErr(L.transpose() * L, H), 1e-12);
    const MatX G = Eigen::LLT<MatX>(reversed(H)).matrixL();
    EXPECT_LT(strictRelErr(L, reversed(MatX(G.transpose()))), 1e-9);
    std::vector<std::set<int>> support;
    for (int i = 0; i < m.nv(); ++i) support.push_back(supportingDofs(m, i));
    for (int i = 0; i < m.nv(); ++i) {
      const std::set<int>& si = support[static_cast<size_t>(i)];
      EXPECT_EQ(f.parents()[static_cast<size_t>(i)], si.size() > 1 ? *std::prev(si.end(), 2) : -1) << "DoF " << i;
      for (int j = 0; j < m.nv(); ++j) {
        if (!si.count(j)) ASSERT_EQ(L(i, j), 0.0) << "L(" << i << ", " << j << ") off the support of DoF " << i;
        if (!si.count(j) && !support[static_cast<size_t>(j)].count(i))  // unrelated DoFs: the sparsity LTL keeps
          ASSERT_EQ(H(i, j), 0.0) << "H(" << i << ", " << j << ")";
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 40);
}

TEST(Ltl, SolvesAgreeWithEigensLlt) {
  Rng rng(103);
  for (const auto& [name, m] : allModels(rng)) {
    SCOPED_TRACE(name);
    if (m.nv() == 0) continue;
    Data data(m);
    const MatX H = massMatrix(m, data, closedConfiguration(rng, m, data));
    LtlFactor f(m);
    f.factorize(H);
    const VecX b = randomVector(rng, m.nv());
    VecX x = b;
    f.solveH(x);
    const VecX expected = H.llt().solve(b);
    EXPECT_LT(relErr(x, expected), 1e-9 * (1.0 + expected.norm()));
    EXPECT_LT(relErr(H * x, b), 1e-10);
    x = b;
    f.solveL(x);
    EXPECT_LT(relErr(f.L() * x, b), 1e-11);
    x = b;
    f.solveLt(x);
    EXPECT_LT(relErr(f.L().transpose() * x, b), 1e-11);
  }
}

TEST(Ltl, OsimEqualsDenseAndClusterEfpa) {
  Rng rng(107);
  for (const char* file : {"mini_cheetah.urdf", "mit_humanoid.urdf", "jvrc1_humanoid.urdf", "arm_6dof.urdf",
                           "tello_humanoid.urdf", "planar_leg_linkage.urdf"}) {
    SCOPED_TRACE(file);
    const Model m = loadUrdf(modelFile(file));
    Data data(m), efpa(m);
    const VecX q = closedConfiguration(rng, m, data);
    const std::vector<int> frames = movingFrames(m);
    std::vector<EndEffector> ees;
    for (int e = 0; e < 3; ++e)
      ees.push_back({frames[static_cast<size_t>(uniformInt(rng, 0, static_cast<int>(frames.size()) - 1))],
                     randomVec3(rng, -0.1, 0.1)});
    const OsimSet set(m, ees);
    LtlOsimData ws(m);
    for (bool linear : {false, true}) {
      const MatX ltl = ltlInverseOperationalSpaceInertia(m, data, ws, ees, q, linear);
      const MatX cluster = inverseOperationalSpaceInertia(m, efpa, set, q, linear);
      const MatX H = massMatrix(m, efpa, q);
      const MatX J = stackedJacobian(m, efpa, ees, linear ? 3 : 6);
      const MatX dense = J * H.llt().solve(J.transpose());
      EXPECT_LT(strictRelErr(ltl, dense), 1e-9) << (linear ? "linear" : "6-D");
      EXPECT_LT(strictRelErr(ltl, cluster), 1e-9) << (linear ? "linear" : "6-D");
    }
  }
}

TEST(Ltl, ConstraintDelassusEqualsDenseJHinvJt) {
  // J from a KKT solve of the same set (the rows' body Jacobians), H from the cluster CRBA.
  Rng rng(109);
  for (const Problem& p : bundledProblems()) {
    SCOPED_TRACE(p.label);
    ConstraintModel cm = makeConstraints(p.model, p.constraints, Vec3(0.01, 0.02, -0.03));
    cm.setBaumgarte(0.1);
    Data data(p.model), ref(p.model);
    ConstraintData cd(p.model, cm), kkt(p.model, cm);
    const VecX q = randomIndependentConfiguration(rng, p.model);
    const MatX A = ltlConstraintDelassus(p.model, data, cm, cd, q);
    EXPECT_FALSE(cd.work().hasReference);  // an OSIM query does not capture the Baumgarte pose
    ConstraintSolverSettings s;
    s.solver = ConstraintSolver::KKT;
    const VecX zero = VecX::Zero(p.model.nv());
    constrainedForwardDynamics(p.model, ref, cm, kkt, q, zero, zero, s);
    const MatX H = massMatrix(p.model, ref, q);
    const MatX dense = kkt.work().J * H.llt().solve(kkt.work().J.transpose());
    EXPECT_LT(strictRelErr(A, dense), 1e-9);
  }
}

namespace {

/// `solver` = each of `references` (q̈ 1e-10, λ 1e-8 relative; the same rank report).
void expectAgrees(const Model& m, const ConstraintModel& cm, const VecX& q, const VecX& v, const VecX& tau,
                  const std::string& label, ConstraintSolver solver, std::vector<ConstraintSolver> references) {
  SCOPED_TRACE(label);
  Data data(m);
  ConstraintData cd(m, cm);
  ConstraintSolverSettings s;
  s.solver = solver;
  const VecX qdd = constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
  const VecX lambda = cd.lambda;
  const int rank = cd.rank;
  if (solver == ConstraintSolver::LTL) EXPECT_LT(cd.residual, 1e-8);
  for (ConstraintSolver other : references) {
    SCOPED_TRACE(constraintSolverName(other));
    s.solver = other;
    const VecX ref = constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
    EXPECT_LT(relErr(qdd, ref), 1e-10);
    EXPECT_LT((lambda - cd.lambda).norm() / (1.0 + cd.lambda.norm()), 1e-8);
    EXPECT_EQ(rank, cd.rank);
  }
}

/// Fixed-base bundled robots with a contact or weld at the tip.
std::vector<Problem> fixedBaseProblems() {
  using K = ConstraintKind;
  std::vector<Problem> p;
  p.push_back({"arm 6-DoF tool welded", loadUrdf(modelFile("arm_6dof.urdf")), {{K::Weld, "tool_flange"}}});
  p.push_back({"arm 6-DoF wrist and tool contacts", loadUrdf(modelFile("arm_6dof.urdf")),
               {{K::PointContact, "wrist_1"}, {K::PointContact, "tool_flange"}}});
  p.push_back({"mit humanoid leg ankle contact", loadUrdf(modelFile("mit_humanoid_leg.urdf")),
               {{K::PointContact, "ankle_link"}}});
  return p;
}

}  // namespace

TEST(Ltl, HardEqualsKktAndPvOnBundledRobots) {
  Rng rng(113);
  std::vector<Problem> problems = bundledProblems();
  for (Problem& p : fixedBaseProblems()) problems.push_back(std::move(p));
  problems.push_back({"tello both feet (differential clusters)", loadUrdf(modelFile("tello_humanoid.urdf")),
                      {{ConstraintKind::PointContact, "left-foot"}, {ConstraintKind::PointContact, "right-foot"}}});
  for (const Problem& p : problems) {
    ConstraintModel cm = makeConstraints(p.model, p.constraints, Vec3(0.01, -0.02, 0.03));
    for (int t = 0; t < 3; ++t) {
      if (t == 2) cm.setBaumgarte(0.1);  // the biased k, from the pose of the first solve
      const VecX q = randomIndependentConfiguration(rng, p.model);
      const VecX v = randomVector(rng, p.model.nv()), tau = randomVector(rng, p.model.nv(), -5.0, 5.0);
      expectAgrees(p.model, cm, q, v, tau, p.label + " state " + std::to_string(t), ConstraintSolver::LTL,
                   {ConstraintSolver::KKT, ConstraintSolver::PV});
    }
  }
}

TEST(Ltl, HardEqualsKktAndPvOnClusterMechanismsWithRelativeRows) {
  // Random mechanisms (rotors, belts, four-bars; fixed and floating), a contact on the last body,
  // and a relative point between the last body and a member of another cluster.
  Rng rng(127);
  int checked = 0;
  for (auto& [name, m] : constrainedModels(rng)) {
    const int last = m.numBodies() - 1;
    ConstraintModel cm(m);
    if (m.isFloatingBase()) cm.addPointContact(m.body(last).name, randomVec3(rng, -0.1, 0.1));
    for (int i = last - 1; i > 0; --i)
      if (m.body(i).cluster != m.body(last).cluster && m.cluster(m.body(i).cluster).numBodies > 1) {
        cm.addRelativePoint(m.body(last).name, randomVec3(rng, -0.1, 0.1), m.body(i).name, Vec3::Zero());
        break;
      }
    if (cm.numRows() == 0 || cm.numRows() > m.nv() - 1) continue;
    const VecX q = randomIndependentConfiguration(rng, m);
    const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
    expectAgrees(m, cm, q, v, tau, name, ConstraintSolver::LTL, {ConstraintSolver::KKT, ConstraintSolver::PV});
    ++checked;
  }
  EXPECT_GE(checked, 3);
}

TEST(Ltl, SoftEqualsPvSoft) {
  // Per-row compliances, and a relative row (pv-soft solves it through its Delassus matrix, ltl-soft
  // like every row).
  Rng rng(131);
  std::vector<Problem> problems = bundledProblems();
  for (Problem& p : fixedBaseProblems()) problems.push_back(std::move(p));
  for (const Problem& p : problems) {
    ConstraintModel cm = makeConstraints(p.model, p.constraints);
    if (p.model.isFloatingBase()) cm.addRelativePoint(p.constraints[0].second, Vec3(0.0, 0.0, 0.05),
                                                      p.constraints[1].second, Vec3::Zero());
    for (int r = 0; r < cm.numRows(); ++r) cm.setRowCompliance(r, uniform(rng, 1e-4, 1e-2));
    const VecX q = randomIndependentConfiguration(rng, p.model);
    const VecX v = randomVector(rng, p.model.nv()), tau = randomVector(rng, p.model.nv(), -5.0, 5.0);
    expectAgrees(p.model, cm, q, v, tau, p.label, ConstraintSolver::LTLSoft, {ConstraintSolver::PVSoft});
  }
}

TEST(Ltl, RedundantRowsAreReportedLikeKkt) {
  // A 3-D contact on a planar arm: rank 2 of 3, solved by the shared proximal path.
  const Model m = loadUrdf(modelFile("planar_arm_3dof.urdf"));
  ConstraintModel cm(m);
  cm.addPointContact(m.frames().back().name, Vec3(0.05, 0.0, 0.0));
  Rng rng(137);
  const VecX q = randomVector(rng, m.nv(), -1.0, 1.0), v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  Data data(m);
  ConstraintData cd(m, cm);
  ConstraintSolverSettings s;
  s.solver = ConstraintSolver::LTL;
  const VecX qdd = constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
  EXPECT_EQ(cd.rank, 2);
  EXPECT_TRUE(cd.redundant);
  EXPECT_LT(cd.residual, 1e-8);
  s.solver = ConstraintSolver::KKT;
  const VecX ref = constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
  EXPECT_LT(relErr(qdd, ref), 1e-8);
}

TEST(Ltl, NoConstraintsIsForwardDynamics) {
  Rng rng(139);
  for (auto& [name, m] : constrainedModels(rng)) {
    SCOPED_TRACE(name);
    const ConstraintModel none(m);
    Data data(m), ref(m);
    ConstraintData cd(m, none);
    const VecX q = randomIndependentConfiguration(rng, m), v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
    for (ConstraintSolver solver : {ConstraintSolver::LTL, ConstraintSolver::LTLSoft}) {
      ConstraintSolverSettings s;
      s.solver = solver;
      EXPECT_LT(relErr(constrainedForwardDynamics(m, data, none, cd, q, v, tau, s), forwardDynamics(m, ref, q, v, tau)),
                1e-10);
    }
  }
}

TEST(Ltl, ErrorsNameTheProblem) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  LtlFactor f(m);
  auto expectMessage = [](auto&& call, const std::string& text, bool numerical) {
    try {
      call();
      ADD_FAILURE() << "no error; expected: " << text;
    } catch (const NumericalError& e) {
      EXPECT_TRUE(numerical) << e.what();
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    } catch (const InputError& e) {
      EXPECT_FALSE(numerical) << e.what();
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  expectMessage([&] { f.factorize(MatX::Identity(3, 3)); }, "H is 3 x 3, expected 18 x 18", false);
  MatX H = MatX::Identity(18, 18);
  H(17, 16) = NAN;
  expectMessage([&] { f.factorize(H); }, "H(17, 16) is not finite", false);
  H = MatX::Identity(18, 18);
  H(10, 10) = -1.0;
  expectMessage([&] { f.factorize(H); }, "not positive definite (pivot -1.000000 at DoF 10", true);
  VecX x = VecX::Zero(5);
  expectMessage([&] { f.solveH(x); }, "expected 18 rows, got 5", false);

  EXPECT_EQ(constraintSolverFromName("ltl"), ConstraintSolver::LTL);
  EXPECT_EQ(constraintSolverFromName("ltl-soft"), ConstraintSolver::LTLSoft);
  ConstraintModel cm(m);
  cm.addPointContact("FR_foot");
  Data data(m);
  ConstraintData cd(m, cm);
  ConstraintSolverSettings soft;
  soft.solver = ConstraintSolver::LTLSoft;
  const VecX q = m.neutralConfiguration(), z = VecX::Zero(m.nv());
  expectMessage([&] { constrainedForwardDynamics(m, data, cm, cd, q, z, z, soft); }, "ltl-soft needs a compliance",
                false);
}

#ifdef GRBDA_CLI_PATH

namespace {
using namespace grbda::testing;
using Args = std::vector<std::string>;

std::vector<double> resultOf(Args args) { return grbdaJson(std::move(args))["result"].numbers(); }

std::vector<double> flat(const Json& rows) {
  std::vector<double> x;
  for (size_t r = 0; r < rows.size(); ++r)
    for (double v : rows[r].numbers()) x.push_back(v);
  return x;
}

void expectNear(const std::vector<double>& a, const std::vector<double>& b, double tol, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  double scale = 0.0;
  for (double x : b) scale = std::max(scale, std::abs(x));
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], tol * (1.0 + scale)) << what << " entry " << i;
}
}  // namespace

TEST(CliLtl, FdMethodsLtlAndLtlSoftMatchPvAndPvSoft) {
  const std::string cheetah = modelFile("mini_cheetah.urdf");
  const Args base = {"fd", cheetah, "--weld", "FR_foot:0.01,0,0", "--contact", "HL_foot", "--contact", "FL_foot",
                     "--v", "0.1,0.2,-0.1,0.3,0,0.1,0,0,0,0.2,0,0,0,0,0,0,0,0"};
  auto with = [&](Args extra) {
    Args a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  const Json ltl = grbdaJson(with({"--method", "ltl"}));
  EXPECT_EQ(ltl["method"].text, "ltl");
  const Json pv = grbdaJson(with({"--method", "pv"}));
  expectNear(ltl["result"].numbers(), pv["result"].numbers(), 1e-10, "ltl vs pv");
  for (size_t c = 0; c < 3; ++c)
    expectNear(ltl["contact_forces"][c]["force"].numbers(), pv["contact_forces"][c]["force"].numbers(), 1e-8,
               "force " + std::to_string(c));
  expectNear(resultOf(with({"--method", "ltl-soft", "--compliance", "1e-3"})),
             resultOf(with({"--method", "pv-soft", "--compliance", "1e-3"})), 1e-10, "ltl-soft vs pv-soft");
}

TEST(CliLtl, OsimMethodLtlMatchesCluster) {
  const Args base = {"osim", modelFile("mit_humanoid.urdf"), "--point", "right_foot:0.05,0,0", "--point",
                     "left_hand"};
  auto with = [&](Args extra) {
    Args a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  expectNear(flat(grbdaJson(with({"--method", "ltl"}))["result"]), flat(grbdaJson(base)["result"]), 1e-10, "6-D");
  expectNear(flat(grbdaJson(with({"--method", "ltl", "--linear"}))["result"]),
             flat(grbdaJson(with({"--linear"}))["result"]), 1e-10, "linear");
}

#endif  // GRBDA_CLI_PATH
