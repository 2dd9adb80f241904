// A model that keeps loops as constraint rows (LoopTreatment::Constrain / Auto, issue #26 §1):
// what nq() counts, which calls solve the rows, which refuse, which stay the open tree; and which
// clusters `auto` keeps (the compiler's joint selection, not a type name, says which clusters run
// the general recursion). Cross-checked against the embedded model of the same robot.
#include <gtest/gtest.h>

#include <string>

#include "grbda/grbda.hpp"
#include "grbda/sim/simulator.hpp"
#include "grbda/robots/tello.hpp"
#include "support/compare.hpp"
#include "support/random_model.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

ModelBuilder fourBarBuilder() { return parseUrdfFile(std::string(GRBDA_SOURCE_DIR) + "/models/four_bar.urdf"); }

Model withLoops(ModelBuilder b, LoopTreatment t) {
  b.setLoopTreatment(t);
  return b.build();
}

/// The InputError `call` throws, or a failure when it throws none.
template <class F>
std::string inputErrorOf(F&& call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return {};
}

}  // namespace

TEST(KeptLoops, NqCountsEveryJointOfAKeptGroup) {
  const Model embedded = fourBarBuilder().build();
  const Model kept = withLoops(fourBarBuilder(), LoopTreatment::Constrain);
  ASSERT_EQ(kept.loopConstraints().size(), 1u);
  // the kept group's three joints are all coordinates; the reduced ones are the embedded model's
  EXPECT_EQ(kept.nq(), embedded.nqSpanning());
  EXPECT_EQ(kept.nv(), embedded.nvSpanning());
  EXPECT_EQ(kept.nq(), embedded.nq() + static_cast<int>(kept.loopConstraints()[0].dependent.size()));
  EXPECT_EQ(reducedNq(kept), embedded.nq());
  EXPECT_EQ(reducedPositionNames(kept), embedded.positionNames());
}

TEST(KeptLoops, UnconstrainedForwardCallsRefuseNamingWhatSolvesTheRows) {
  const Model kept = withLoops(fourBarBuilder(), LoopTreatment::Constrain);
  Data data(kept);
  const VecX q = kept.neutralConfiguration(), v = VecX::Zero(kept.nv()), tau = VecX::Zero(kept.nv());
  const std::string fd = inputErrorOf([&] { forwardDynamics(kept, data, q, v, tau); });
  EXPECT_NE(fd.find("constrainedForwardDynamics"), std::string::npos) << fd;
  EXPECT_NE(fd.find(kept.loopConstraints()[0].name), std::string::npos) << fd;
  EXPECT_NE(fd.find("LoopTreatment::Embed"), std::string::npos) << fd;
  const std::string derivatives = inputErrorOf([&] { computeABADerivatives(kept, data, q, v, tau); });
  EXPECT_NE(derivatives.find("computeABADerivatives"), std::string::npos) << derivatives;
  EXPECT_NE(inputErrorOf([&] { CfaData cfa(kept); }).find("constraint rows"), std::string::npos);
  EXPECT_NE(inputErrorOf([&] { ClusterCfaData cfa(kept); }).find("constraint rows"), std::string::npos);
  EXPECT_NE(inputErrorOf([&] { Simulator sim(kept); }).find("LoopTreatment::Embed"), std::string::npos);
  // the same calls on the embedded model are unaffected
  const Model embedded = fourBarBuilder().build();
  Data dataE(embedded);
  EXPECT_NO_THROW(forwardDynamics(embedded, dataE, embedded.neutralConfiguration(), VecX::Zero(embedded.nv()),
                                  VecX::Zero(embedded.nv())));
}

TEST(KeptLoops, SpanningTreeCallsTheSolversUseStayTheOpenTree) {
  // massMatrix and biasForces of the kept model are the open tree's H and C (what the constraint
  // solvers build on): the spanning-tree CRBA and RNEA of the embedded model at the same state.
  Rng rng(3);
  const Model embedded = fourBarBuilder().build();
  const Model kept = withLoops(fourBarBuilder(), LoopTreatment::Constrain);
  ASSERT_EQ(kept.positionNames(), embedded.spanningPositionNames());
  Data dataK(kept), dataE(embedded);
  const VecX y = embedded.neutralConfiguration() + randomVector(rng, embedded.nq(), -0.2, 0.2);
  const VecX q = expandPositions(kept, y), v = randomVector(rng, kept.nv());
  EXPECT_LT(relErr(massMatrix(kept, dataK, q), tree::crba(embedded, dataE, q)), 1e-12);
  EXPECT_LT(relErr(biasForces(kept, dataK, q, v), tree::nonLinearEffects(embedded, dataE, q, v)), 1e-12);
  // and the rows solved give the embedded robot's motion
  ConstraintModel cm(kept);
  ConstraintData cd(kept, cm);
  const VecX yd = randomVector(rng, embedded.nv());
  const VecX tau = randomVector(rng, embedded.nv());
  const VecX reference = forwardDynamics(embedded, dataE, y, yd, tau);
  const VecX qdd = constrainedForwardDynamics(kept, dataK, cm, cd, q, expandVelocities(kept, q, yd),
                                              expandForces(kept, tau));
  EXPECT_LT(relErr(reduceVelocities(kept, qdd), reference), 1e-9);
}

TEST(KeptLoops, AutoKeepsTelloDifferentialsAsRowsLikeEveryGeneralCluster) {
  // Tello's differentials are implicit constraints named by a type hint, so their clusters run the
  // general recursion (GenericJoint) whatever their name: `auto`'s cost model applies to them as to
  // any such 4-body cluster (embedding costs ~19 n³ + 470 n² > 400 m × depth instructions).
  setLogLevel(LogLevel::Error);  // the Tello builder warns about its code-built differentials
  const Model embedded = robots::tello();
  int differentials = 0;
  for (const Cluster& cl : embedded.clusters())
    if (std::string(cl.typeName()).find("Differential") != std::string::npos) ++differentials;
  ASSERT_EQ(differentials, 4);
  ModelBuilder b = robots::telloBuilder();
  b.setLoopTreatment(LoopTreatment::Auto);
  const Model kept = b.build();
  ASSERT_EQ(kept.loopConstraints().size(), 4u);
  for (const LoopConstraint& lc : kept.loopConstraints()) {
    EXPECT_NE(lc.name.find("differential"), std::string::npos) << lc.name;
    EXPECT_EQ(lc.numBodies, 4);
    EXPECT_EQ(lc.numRows, 2);
  }
  EXPECT_EQ(reducedNv(kept), embedded.nv());
  // the rows give the embedded robot's motion
  Rng rng(5);
  Data dataE(embedded), dataK(kept);
  const VecX y = integrate(embedded, embedded.neutralConfiguration(), randomVector(rng, embedded.nv(), -0.2, 0.2), 1.0);
  const VecX yd = randomVector(rng, embedded.nv()), tau = randomVector(rng, embedded.nv());
  const VecX reference = forwardDynamics(embedded, dataE, y, yd, tau);
  ConstraintModel cm(kept);
  ConstraintData cd(kept, cm);
  const VecX q = expandPositions(kept, y);
  const VecX qdd = constrainedForwardDynamics(kept, dataK, cm, cd, q, expandVelocities(kept, q, yd),
                                              expandForces(kept, tau));
  EXPECT_LT(relErr(reduceVelocities(kept, qdd), reference), 1e-8);
}
