// The proximal-and-sparse solver with the rows of a ConstraintModel (contacts, welds, relative
// constraints, loops kept as rows) in its sparse KKT factorisation — the Pinocchio-style
// baseline of the contacts issue. Checked against the dense KKT reference (cluster CRBA, body
// Jacobians, Schur complement: an independent computation in independent coordinates), for q̈
// and the forces, with Baumgarte on, through the command, and for the sparsity it promises.
#include <gtest/gtest.h>

#include "cli/mini_json.hpp"
#include "cluster_support/constrained_models.hpp"
#include "cluster_support/constraint_problems.hpp"
#include "support/allocation_counter.hpp"
#include "support/cli_runner.hpp"
#include "support/dense_contacts.hpp"

namespace {

using namespace grbda;
using namespace grbda::testsupport;

ProximalSettings converging() {
  ProximalSettings s;
  s.maxIterations = 50;
  s.tolerance = 1e-9;  // absolute, on rows of accelerations ~ 10 m/s²: round-off is 1e-11
  return s;
}


void expectAgreesWithKkt(const Model& m, const ConstraintModel& cm, Rng& rng) {
  Data kktData(m), proxData(m);
  ConstraintData kkt(m, cm);
  ProximalData pd(m, cm);
  ConstraintSolverSettings dense;
  dense.solver = ConstraintSolver::KKT;
  for (int trial = 0; trial < 3; ++trial) {
    const VecX q = randomIndependentPositions(rng, m, -0.3, 0.3);
    const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv(), -3.0, 3.0);
    const VecX reference = constrainedForwardDynamics(m, kktData, cm, kkt, q, v, tau, dense);
    const ProximalResult& r = proximalSparseForwardDynamics(m, proxData, pd, q, v, tau, converging());
    EXPECT_TRUE(r.converged) << "trial " << trial << ": residual " << r.primalResidual;
    EXPECT_LT(relDiff(r.qdd, reference), 1e-8) << "trial " << trial;
    EXPECT_LT(relDiff(pd.constraintData->lambda, kkt.lambda), 1e-7) << "trial " << trial;
    EXPECT_LT(pd.constraintData->residual, 1e-9) << "trial " << trial;
  }
}

TEST(ProximalContacts, EqualsTheDenseKktOnTheBundledProblems) {
  Rng rng(31);
  for (const Problem& p : bundledProblems()) {
    SCOPED_TRACE(p.label);
    expectAgreesWithKkt(p.model, makeConstraints(p.model, p.constraints, Vec3(0.01, -0.02, 0.03)), rng);
  }
}

TEST(ProximalContacts, RelativeConstraintsBaumgarteAndKeptLoops) {
  Rng rng(32);
  const Model cheetah = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel joined(cheetah);  // two feet held together, a hand-like weld across the body
  joined.addRelativePoint("FR_foot", Vec3::Zero(), "FL_foot", Vec3::Zero());
  joined.addRelativeWeld("HR_foot", Vec3(0.0, 0.0, 0.01), "HL_foot", Vec3::Zero());
  joined.addPointContact("FR_foot");
  joined.setBaumgarte(0.1);
  {
    SCOPED_TRACE("relative point + relative weld + contact, Baumgarte");
    expectAgreesWithKkt(cheetah, joined, rng);
  }
  for (const char* file : {"four_bar.urdf", "six_bar.urdf", "planar_leg_linkage.urdf"}) {
    SCOPED_TRACE(file);
    const Model kept = loadUrdf(modelFile(file), LoadOptions{LoopTreatment::Constrain});
    ASSERT_FALSE(kept.keptLoopGroups().empty());
    const ConstraintModel rows(kept);  // the kept loops' rows come first
    expectAgreesWithKkt(kept, rows, rng);
  }
}

TEST(ProximalContacts, TheRowsKeepTheTreeSparsity) {
  // Each row is eliminated after its whole support path: the factor has the tree's pattern plus
  // the rows' own dense block and each coordinate's rows below it — far from a dense (n+m)² LDLᵀ.
  const Model cheetah = loadUrdf(modelFile("mini_cheetah.urdf"));
  const ConstraintModel feet = makeConstraints(cheetah, bundledProblems()[0].constraints);
  const ProximalData plain(cheetah), withFeet(cheetah, feet);
  EXPECT_EQ(withFeet.numRows, plain.numRows + 12);
  const long n = withFeet.numNodes;
  EXPECT_LT(withFeet.factorizationUpdates(), n * (n + 1) * (n + 2) / 6 / 4);
  // a leg's coordinates see only that leg's three rows below them; the base's all twelve
  int legWithThree = 0;
  for (int e = 12; e < withFeet.numNodes; ++e) {
    int rowsInSupp = 0;
    for (int p = withFeet.suppStart[static_cast<size_t>(e)]; p < withFeet.suppStart[static_cast<size_t>(e) + 1]; ++p)
      rowsInSupp += withFeet.supp[static_cast<size_t>(p)] < 12;
    EXPECT_TRUE(rowsInSupp == 3 || rowsInSupp == 12) << "node " << e << ": " << rowsInSupp;
    legWithThree += rowsInSupp == 3;
  }
  EXPECT_EQ(legWithThree, 36);  // four legs x 3 clusters x (joint + rotor coordinates + coupling row)
}

TEST(ProximalContacts, ForeignConstraintsAreRefusedAndCallsDoNotAllocate) {
  const Model cheetah = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel feet = makeConstraints(cheetah, bundledProblems()[0].constraints);
  ProximalData pd(cheetah, feet);
  Data data(cheetah);
  Rng rng(33);
  const VecX q = randomIndependentPositions(rng, cheetah, -0.3, 0.3), v = randomVector(rng, cheetah.nv()),
             tau = randomVector(rng, cheetah.nv());
  proximalSparseForwardDynamics(cheetah, data, pd, q, v, tau);
  if (allocationCounterLinked()) {
    AllocationScope scope;
    proximalSparseForwardDynamics(cheetah, data, pd, q, v, tau);
    EXPECT_EQ(scope.count(), 0);
  }
  feet.addPointContact("FR_foot");  // the set changed since the workspace was made
  try {
    proximalSparseForwardDynamics(cheetah, data, pd, q, v, tau);
    FAIL() << "a workspace of an older constraint set";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("has changed since the workspace was made"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ProximalData(model, constraints)"), std::string::npos) << e.what();
  }
}

#ifdef GRBDA_CLI_PATH
TEST(ProximalContacts, CommandMethodProximalSparse) {
  using grbda::testing::grbdaJson;
  using grbda::testing::Json;
  const std::vector<std::string> base = {"fd", modelFile("mini_cheetah.urdf"), "--contact", "FR_foot", "--contact",
                                         "HL_foot", "--weld", "FL_foot", "--v", "0.1,0.2,-0.3,0.1,0,0.2,0.1,0,0,0,0,0,0,0,0,0,0,0"};
  std::vector<std::string> sparse = base, pv = base;
  sparse.insert(sparse.end(), {"--method", "proximal-sparse", "--prox-iters", "50"});
  pv.insert(pv.end(), {"--method", "pv"});
  const Json a = grbdaJson(sparse), b = grbdaJson(pv);
  EXPECT_EQ(a["method"].text, "proximal-sparse");
  ASSERT_EQ(a["contact_forces"].size(), 3u);
  const std::vector<double> qa = a["result"].numbers(), qb = b["result"].numbers();
  for (size_t i = 0; i < qb.size(); ++i) EXPECT_NEAR(qa[i], qb[i], 1e-7 * (1.0 + std::abs(qb[i]))) << i;
  for (size_t c = 0; c < 3; ++c) {
    const std::vector<double> fa = a["contact_forces"][c]["force"].numbers(), fb = b["contact_forces"][c]["force"].numbers();
    for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(fa[i], fb[i], 1e-6 * (1.0 + std::abs(fb[i]))) << c << ", " << i;
  }
  EXPECT_GE(a["iterations"].number, 1.0);
}
#endif

}  // namespace
