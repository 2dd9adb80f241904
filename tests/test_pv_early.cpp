// PV-early (seed 003 §VIII) against the dense KKT reference and PV: random trees fixed and
// floating with contacts and welds on random links, a long chain with an end-effector weld (rows
// eliminated one per joint, never more than six passed on), redundant rows (the least-norm
// force), an infeasible set (a typed error) and relative rows (solved by PV).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cluster_support/constrained_models.hpp"
#include "grbda/grbda.hpp"
#include "support/compare.hpp"
#include "support/model_files.hpp"
#include "support/random_model.hpp"
#include "constraints/constraint_workspace.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

struct Solution {
  VecX qdd, lambda;
  int rank = 0;
  bool redundant = false;
};

Solution solve(const Model& m, const ConstraintModel& cm, const VecX& q, const VecX& v, const VecX& tau,
               ConstraintSolver solver) {
  Data data(m);
  ConstraintData cd(m, cm);
  ConstraintSolverSettings s;
  s.solver = solver;
  Solution out;
  out.qdd = constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
  out.lambda = cd.lambda;
  out.rank = cd.rank;
  out.redundant = cd.redundant;
  return out;
}

void expectEarlyMatchesKkt(const Model& m, const ConstraintModel& cm, const VecX& q, const VecX& v, const VecX& tau) {
  const Solution kkt = solve(m, cm, q, v, tau, ConstraintSolver::KKT);
  const Solution early = solve(m, cm, q, v, tau, ConstraintSolver::PVEarly);
  EXPECT_LT(relErr(early.qdd, kkt.qdd), 1e-10);
  EXPECT_LT((early.lambda - kkt.lambda).norm() / (1.0 + kkt.lambda.norm()), 1e-8);
  EXPECT_EQ(early.rank, kkt.rank);
}

/// Largest number of rows any cluster passed to its parent in the last solve.
int mostRowsPassed(const ConstraintData& cd) {
  int most = 0;
  for (const ConstraintWorkspace::EarlyCluster& ec : cd.work().early) most = std::max(most, ec.passed);
  return most;
}

/// The Mini Cheetah's front-right foot welded at two points of its lower leg: 12 rows of rank 6.
ConstraintModel twoWeldsOnOneLink(const Model& m) {
  ConstraintModel cm(m);
  cm.addWeld("FR_foot");
  cm.addWeld("FR_knee_link", Vec3(0.0, 0.0, -0.1));
  return cm;
}

}  // namespace

TEST(PvEarly, WithoutConstraintsIsCaba) {
  Rng rng(2);
  for (const char* file : {"mini_cheetah.urdf", "revolute_rotor_chain.urdf"}) {
    const Model m = loadUrdf(modelFile(file));
    const ConstraintModel none(m);
    const VecX q = randomIndependentConfiguration(rng, m), v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
    Data ref(m);
    const VecX qddAba = forwardDynamics(m, ref, q, v, tau);
    const Solution early = solve(m, none, q, v, tau, ConstraintSolver::PVEarly);
    EXPECT_LT((early.qdd - qddAba).cwiseAbs().maxCoeff(), 1e-14 * (1.0 + qddAba.cwiseAbs().maxCoeff())) << file;
  }
}

TEST(PvEarly, RandomTreesWithContactsAndWeldsMatchKkt) {
  Rng rng(17);
  int compared = 0, infeasible = 0;
  for (int trial = 0; trial < 60; ++trial) {
    TreeOptions opt;
    opt.numLinks = uniformInt(rng, 6, 14);
    opt.floatingBase = trial % 2 == 1;
    const Model m = randomTree(rng, opt);
    ConstraintModel cm(m);
    const int count = uniformInt(rng, 1, 3);
    for (int c = 0; c < count; ++c) {
      const std::string link = "link_" + std::to_string(uniformInt(rng, 1, opt.numLinks));
      if (m.frame(m.frameIndex(link)).body < 0) continue;  // fixed to the world
      if (uniformInt(rng, 0, 2) == 0) cm.addWeld(link, randomVec3(rng, -0.2, 0.2));
      else cm.addPointContact(link, randomVec3(rng, -0.2, 0.2));
    }
    const VecX q = randomConfiguration(rng, m), v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
    SCOPED_TRACE("trial " + std::to_string(trial));
    Solution kkt;
    try {
      kkt = solve(m, cm, q, v, tau, ConstraintSolver::KKT);
    } catch (const NumericalError&) {  // more rows than the tree can meet: PV-early must say so too
      EXPECT_THROW(solve(m, cm, q, v, tau, ConstraintSolver::PVEarly), NumericalError);
      ++infeasible;
      continue;
    }
    if (kkt.redundant) continue;  // λ is unique only for independent rows (redundant sets below)
    expectEarlyMatchesKkt(m, cm, q, v, tau);
    ++compared;
  }
  EXPECT_GE(compared, 20);
  EXPECT_GE(infeasible, 1);
}

TEST(PvEarly, ClusterMembersAndFloatingMechanismsMatchKkt) {
  Rng rng(23);
  int compared = 0;
  for (auto& [name, m] : constrainedModels(rng)) {
    ConstraintModel cm(m);
    cm.addPointContact(m.body(m.numBodies() - 1).name, randomVec3(rng, -0.1, 0.1));
    const VecX q = randomIndependentConfiguration(rng, m), v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
    if (solve(m, cm, q, v, tau, ConstraintSolver::KKT).redundant) continue;
    SCOPED_TRACE(name);
    expectEarlyMatchesKkt(m, cm, q, v, tau);
    ++compared;
  }
  EXPECT_GE(compared, 4);
}

TEST(PvEarly, ChainWithEndEffectorWeldPassesAtMostSixRows) {
  // Seed 003's scaling chain: each 1-DoF joint eliminates one of the weld's rows on its way to
  // the root (one Householder reflection): the tip passes five on, the sixth joint from the tip
  // none, so nothing is left for the root and no m x m matrix is ever formed.
  Rng rng(29);
  const Model m = randomChain(rng, 24, false, 0, 1, 0.0);
  ConstraintModel cm(m);
  cm.addWeld("link_24", Vec3(0.1, 0.0, 0.0));
  const VecX q = randomConfiguration(rng, m), v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  expectEarlyMatchesKkt(m, cm, q, v, tau);
  Data data(m);
  ConstraintData cd(m, cm);
  ConstraintSolverSettings s;
  s.solver = ConstraintSolver::PVEarly;
  constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
  EXPECT_EQ(mostRowsPassed(cd), 5);
  EXPECT_EQ(cd.work().early.back().rank, 1);  // the tip joint eliminates one row
  EXPECT_EQ(cd.work().early[cd.work().early.size() - 7].m, 0);
  EXPECT_LT(cd.residual, 1e-9);
}

TEST(PvEarly, RedundantRowsGetTheLeastNormForce) {
  // Two welds on one link at rest: 12 rows of rank 6. The proximal iteration from λ = 0
  // converges to the least-norm λ; PV-early's λ̂ = 0 on the combinations no joint meets is it.
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  const ConstraintModel cm = twoWeldsOnOneLink(m);
  Rng rng(31);
  const VecX q = randomIndependentConfiguration(rng, m), rest = VecX::Zero(m.nv()), tau = randomVector(rng, m.nv());
  const Solution early = solve(m, cm, q, rest, tau, ConstraintSolver::PVEarly);
  const Solution prox = solve(m, cm, q, rest, tau, ConstraintSolver::ProximalDelassus);
  EXPECT_TRUE(early.redundant);
  EXPECT_EQ(early.rank, 6);
  EXPECT_LT(relErr(early.qdd, prox.qdd), 1e-8);
  EXPECT_LT((early.lambda - prox.lambda).norm() / (1.0 + prox.lambda.norm()), 1e-6);
}

TEST(PvEarly, PlanarArmWithA3dContactIgnoresTheOutOfPlaneRow) {
  const Model m = loadUrdf(modelFile("planar_arm_3dof.urdf"));
  ConstraintModel cm(m);
  const std::string tip = m.frames().back().name;
  cm.addPointContact(tip, Vec3(0.05, 0.0, 0.0));
  Rng rng(37);
  const VecX q = randomVector(rng, m.nv(), -1.0, 1.0), v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  const Solution early = solve(m, cm, q, v, tau, ConstraintSolver::PVEarly);
  const Solution kkt = solve(m, cm, q, v, tau, ConstraintSolver::KKT);
  EXPECT_EQ(early.rank, 2);
  EXPECT_TRUE(early.redundant);
  EXPECT_LT(relErr(early.qdd, kkt.qdd), 1e-8);
  EXPECT_LT((early.lambda - kkt.lambda).norm() / (1.0 + kkt.lambda.norm()), 1e-6);
}

TEST(PvEarly, InfeasibleRowsAreATypedError) {
  // Two welds on one turning link: zero acceleration at two points and ω̇ = 0 contradict ω × (ω × r).
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  const ConstraintModel cm = twoWeldsOnOneLink(m);
  Rng rng(41);
  const VecX q = randomIndependentConfiguration(rng, m), v = randomVector(rng, m.nv(), 1.0, 2.0),
             tau = randomVector(rng, m.nv());
  Data data(m);
  ConstraintData cd(m, cm);
  ConstraintSolverSettings s;
  s.solver = ConstraintSolver::PVEarly;
  try {
    constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
    ADD_FAILURE() << "an infeasible set was solved";
  } catch (const NumericalError& e) {  // names the problem and how much of it is unmet
    EXPECT_NE(std::string(e.what()).find("the constraint rows are inconsistent"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot be met by any constraint force"), std::string::npos) << e.what();
  }
}

TEST(PvEarly, RelativeRowsAreSolvedByPv) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  cm.addRelativePoint("FR_foot", Vec3::Zero(), "FL_foot", Vec3::Zero());
  cm.addPointContact("HR_foot");
  Rng rng(43);
  const VecX q = randomIndependentConfiguration(rng, m), v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  expectEarlyMatchesKkt(m, cm, q, v, tau);
}

TEST(PvEarly, LeavesAPassThatApplyTestForceRefuses) {
  // The eliminated rows' inertias sit in the output bodies' IA: not the plain articulated pass
  // that applyTestForce reads, so it must refuse it rather than answer for another mechanism.
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  cm.addPointContact("FR_foot");
  Rng rng(47);
  const VecX q = randomIndependentConfiguration(rng, m), v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  Data data(m);
  ConstraintData cd(m, cm);
  ConstraintSolverSettings s;
  s.solver = ConstraintSolver::PVEarly;
  constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
  VecX dydd(m.nv());
  EXPECT_THROW(applyTestForce(m, data, m.frameIndex("HL_foot"), Vec3::Zero(), Vec3::UnitX(), dydd), InputError);
}
