// One name per concept (issue #26, docs/architecture.md "Names"): the old public names are kept
// as aliases of the new ones and must give the new ones' answers bit for bit; the old method
// spelling "proximal" keeps meaning proximal-sparse without rows and proximal-delassus with them,
// and the renamed proximal-delassus is checked against the dense KKT method.
#include <gtest/gtest.h>

#include <cmath>
#include <type_traits>
#include <string>
#include <vector>

#include "grbda/baselines/osim_baselines.hpp"
#include "grbda/baselines/projection.hpp"
#include "grbda/grbda.hpp"
#include "grbda/methods.hpp"
#include "cli/mini_json.hpp"
#include "support/cli_runner.hpp"
#include "support/compare.hpp"
#include "support/model_files.hpp"
#include "support/random_model.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

struct NamedState {
  VecX q, v, w;  // w: an acceleration or a torque
};

NamedState randomState(Rng& rng, const Model& m) {
  return {integrate(m, m.neutralConfiguration(), randomVector(rng, m.nv(), -0.3, 0.3), 1.0), randomVector(rng, m.nv()),
          randomVector(rng, m.nv(), -5.0, 5.0)};
}

ConstraintModel feet(const Model& m) {
  ConstraintModel cm(m);
  cm.addPointContact("FR_foot");
  cm.addPointContact("HL_foot");
  return cm;
}

}  // namespace

TEST(Names, OldProjectionNamesGiveTheProjectionMethodsAnswers) {
  Rng rng(2661);
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));  // rotors: G is not the identity
  Data a(m), b(m);
  const NamedState s = randomState(rng, m);
  EXPECT_EQ(projectedInverseDynamics(m, a, s.q, s.v, s.w), projectionInverseDynamics(m, b, s.q, s.v, s.w));
  EXPECT_EQ(projectedMassMatrix(m, a, s.q), projectionMassMatrix(m, b, s.q));
  EXPECT_EQ(projectedBiasForces(m, a, s.q, s.v), projectionBiasForces(m, b, s.q, s.v));
  const std::vector<EndEffector> ee = {{m.frameIndex("FR_foot"), Vec3::Zero()}};
  EXPECT_EQ(projectedInverseOperationalSpaceInertia(m, a, ee, s.q),
            projectionInverseOperationalSpaceInertia(m, b, ee, s.q));
  // and the projection method's H is the cluster CRBA's (an independent algorithm)
  EXPECT_LT(relErr(projectionMassMatrix(m, b, s.q), MatX(massMatrix(m, a, s.q))), 1e-12);
}

TEST(Names, OldOsimNamesGiveTheNewNamesAnswers) {
  Rng rng(2662);
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  const ConstraintModel cm = feet(m);
  Data a(m), b(m);
  ConstraintData ca(m, cm), cb(m, cm);
  const NamedState s = randomState(rng, m);
  EXPECT_EQ(MatX(pvInverseOsim(m, a, cm, ca, s.q)), MatX(pvInverseOperationalSpaceInertia(m, b, cm, cb, s.q)));
  EXPECT_EQ(MatX(pvOsim(m, a, cm, ca, s.q)), MatX(pvOperationalSpaceInertia(m, b, cm, cb, s.q)));
  const MatX dense = denseInverseOsim(m, a, cm, ca, s.q);
  EXPECT_EQ(dense, MatX(denseInverseOperationalSpaceInertia(m, b, cm, cb, s.q)));
  // PV-OSIM against the dense J H⁻¹ Jᵀ (another algorithm)
  EXPECT_LT(relErr(MatX(pvInverseOperationalSpaceInertia(m, b, cm, cb, s.q)), dense), 1e-10);
}

TEST(Names, OldProximalNamesKeepTheirMeaning) {
  Rng rng(2663);
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  const NamedState s = randomState(rng, m);
  // the sparse KKT solver under its old and new function names
  Data a(m), b(m);
  ProximalData pa(m), pb(m);
  EXPECT_EQ(forwardDynamicsProximal(m, a, pa, s.q, s.v, s.w).qdd,
            proximalSparseForwardDynamics(m, b, pb, s.q, s.v, s.w).qdd);
  EXPECT_EQ(forwardDynamicsProximal(m, a, s.q, s.v, s.w).qdd, proximalSparseForwardDynamics(m, b, s.q, s.v, s.w).qdd);
  // the Delassus solver: one enumerator under two names, and "proximal" still parses to it
  EXPECT_EQ(ConstraintSolver::Proximal, ConstraintSolver::ProximalDelassus);
  EXPECT_EQ(constraintSolverFromName("proximal"), ConstraintSolver::ProximalDelassus);
  EXPECT_EQ(constraintSolverFromName("proximal-delassus"), ConstraintSolver::ProximalDelassus);
  EXPECT_STREQ(constraintSolverName(ConstraintSolver::ProximalDelassus), "proximal-delassus");
}

TEST(Names, TheMethodProximalIsProximalSparseWithoutRowsAndProximalDelassusWithThem) {
  Rng rng(2664);
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ASSERT_NE(lookupMethod("proximal-delassus"), nullptr);
  EXPECT_EQ(lookupMethod("proximal_delassus"), lookupMethod("proximal-delassus"));
  EXPECT_TRUE(lookupMethod("proximal-delassus")->solvesRows);
  const ConstraintModel cm = feet(m);
  Solver oldFree(m, "proximal"), sparse(m, "proximal-sparse");
  Solver oldRows(m, "proximal", cm), delassus(m, "proximal-delassus", cm), kkt(m, "kkt", cm);
  for (int trial = 0; trial < 3; ++trial) {
    const NamedState s = randomState(rng, m);
    EXPECT_EQ(VecX(oldFree.compute(s.q, s.v, s.w)), VecX(sparse.compute(s.q, s.v, s.w)));
    const VecX qdd = delassus.compute(s.q, s.v, s.w);
    EXPECT_EQ(VecX(oldRows.compute(s.q, s.v, s.w)), qdd);
    EXPECT_EQ(oldRows.lambda(), delassus.lambda());
    EXPECT_LT(relErr(qdd, VecX(kkt.compute(s.q, s.v, s.w))), 1e-6);  // the dense KKT reference
    EXPECT_LT(relErr(delassus.lambda(), kkt.lambda()), 1e-4);
  }
}

TEST(Names, ReducedCoordinatesKeepTheirMeaning) {
  // expandPositions / expandVelocities take reduced q and v (formerly y, ẏ): the model that
  // keeps its loop as rows, expanded from the embedded model's q, closes the loop.
  LoadOptions keep;
  keep.loops = LoopTreatment::Constrain;
  const Model kept = loadUrdf(modelFile("four_bar.urdf"), keep);
  ASSERT_FALSE(kept.keptLoopGroups().empty());
  const Model embedded = loadUrdf(modelFile("four_bar.urdf"));
  const VecX qReduced = embedded.neutralConfiguration();  // a closed pose of the embedded model
  ASSERT_EQ(qReduced.size(), reducedNq(kept));
  const VecX q = expandPositions(kept, qReduced);
  EXPECT_LT(relErr(reducePositions(kept, q), qReduced), 1e-14);
  Data d(kept);
  forwardKinematics(kept, d, q);
  EXPECT_LT(loopClosureError(kept, d), 1e-8);
  const VecX v = expandVelocities(kept, q, VecX::Ones(reducedNv(kept)));
  EXPECT_LT(relErr(reduceVelocities(kept, v), VecX(VecX::Ones(reducedNv(kept)))), 1e-14);
}

#ifdef GRBDA_CLI_PATH
TEST(Names, TheCommandTakesProximalDelassusAndStillTakesProximal) {
  const std::vector<std::string> base = {"fd", std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf",
                                         "--contact", "FR_foot", "--contact", "HL_foot", "--method"};
  std::vector<std::string> oldName = base, newName = base, kkt = base;
  oldName.push_back("proximal");
  newName.push_back("proximal-delassus");
  kkt.push_back("kkt");
  const grbda::testing::Json a = grbda::testing::grbdaJson(oldName), b = grbda::testing::grbdaJson(newName),
                             c = grbda::testing::grbdaJson(kkt);
  EXPECT_EQ(a["method"].text, "proximal");  // the JSON names the method as given
  EXPECT_EQ(b["method"].text, "proximal-delassus");
  EXPECT_EQ(a["result"].numbers(), b["result"].numbers());
  const std::vector<double> x = b["result"].numbers(), y = c["result"].numbers();
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], y[i], 1e-6 * (1.0 + std::abs(y[i]))) << i;
}
#endif

// The constraint-like types renamed by issue #26 §3 keep their old names as aliases.
static_assert(std::is_same_v<LoopConstraint, KeptLoopGroup>);
static_assert(std::is_same_v<ConstraintInfo, ConstraintListing>);
static_assert(std::is_same_v<ConstraintMatrices, ProjectionMatrices>);

TEST(Names, KeptLoopGroupsAndProjectionMatricesUnderBothNames) {
  ModelBuilder b = parseUrdfFile(std::string(GRBDA_SOURCE_DIR) + "/models/four_bar.urdf");
  b.setLoopTreatment(LoopTreatment::Constrain);
  const Model kept = b.build();
  ASSERT_EQ(kept.keptLoopGroups().size(), 1u);
  EXPECT_EQ(&kept.loopConstraints(), &kept.keptLoopGroups());
  const ConstraintModel cm(kept);
  EXPECT_EQ(cm.numLoopConstraints(), cm.numKeptLoopGroups());
  EXPECT_EQ(cm.numKeptLoopGroups(), 1);
  // the projection matrices under both names, at a closed state of the embedded four-bar
  const Model embedded = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/four_bar.urdf");
  Data data(embedded);
  const VecX q = embedded.neutralConfiguration(), v = VecX::Constant(embedded.nv(), 0.3);
  ProjectionMatrices now, old;
  projectionMatrices(embedded, data, q, v, now);
  constraintMatrices(embedded, data, q, v, old);
  EXPECT_TRUE(now.G == old.G && now.g == old.g && now.K == old.K && now.k == old.k);
  EXPECT_NEAR((now.K * now.G).norm(), 0.0, 1e-12);  // G spans the null space of K
}
