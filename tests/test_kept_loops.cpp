// A model that keeps loops as constraint rows (LoopTreatment::Constrain / Auto, issue #26 §1):
// what nq() counts, which calls solve the rows, which refuse, which stay the open tree; and which
// clusters `auto` keeps (decided from the compiler's joint selection and constraint kinds, never
// from a type name). Cross-checked against the embedded model of the same robot.
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
  ASSERT_EQ(kept.keptLoopGroups().size(), 1u);
  // the kept group's three joints are all coordinates; the reduced ones are the embedded model's
  EXPECT_EQ(kept.nq(), embedded.nqSpanning());
  EXPECT_EQ(kept.nv(), embedded.nvSpanning());
  EXPECT_EQ(kept.nq(), embedded.nq() + static_cast<int>(kept.keptLoopGroups()[0].dependent.size()));
  EXPECT_EQ(reducedNq(kept), embedded.nq());
  EXPECT_EQ(reducedPositionNames(kept), embedded.positionNames());
}

TEST(KeptLoops, UnconstrainedForwardCallsRefuseNamingWhatSolvesTheRows) {
  const Model kept = withLoops(fourBarBuilder(), LoopTreatment::Constrain);
  Data data(kept);
  const VecX q = kept.neutralConfiguration(), v = VecX::Zero(kept.nv()), tau = VecX::Zero(kept.nv());
  const std::string fd = inputErrorOf([&] { forwardDynamics(kept, data, q, v, tau); });
  EXPECT_NE(fd.find("constrainedForwardDynamics"), std::string::npos) << fd;
  EXPECT_NE(fd.find(kept.keptLoopGroups()[0].name), std::string::npos) << fd;
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

TEST(KeptLoops, AutoEmbedsUserConstraintClustersWhateverTheirTypeName) {
  // `auto`'s cost estimate was fitted on loops and couplings; a cluster tied by a user constraint
  // (Tello's differentials, a mimic, any ImplicitConstraint) is embedded by that rule, not because
  // of its type name: with the type hint removed (the cluster is then "Generic"), it stays
  // embedded too, while `constrain` still keeps it as rows.
  setLogLevel(LogLevel::Error);  // the Tello builder warns about its code-built differentials
  const Model embedded = robots::tello();
  ModelBuilder b = robots::telloBuilder();
  b.setLoopTreatment(LoopTreatment::Auto);
  EXPECT_TRUE(b.build().keptLoopGroups().empty());
  ModelBuilder unnamed("unnamed_differentials");
  for (const LinkSpec& l : b.links()) unnamed.addLink(l);
  for (const JointSpec& j : b.joints()) unnamed.addJoint(j);
  for (const LoopSpec& l : b.loops()) unnamed.addLoop(l);
  for (const CouplingSpec& c : b.couplings()) unnamed.addCoupling(c);
  for (ConstraintSpec c : b.constraints()) {
    c.typeHint.clear();
    unnamed.addConstraint(c);
  }
  unnamed.setLoopTreatment(LoopTreatment::Auto);
  const Model autoUnnamed = unnamed.build();
  int generic = 0;
  for (const Cluster& cl : autoUnnamed.clusters()) generic += std::string(cl.typeName()) == "Generic";
  EXPECT_EQ(generic, 4);  // the four differentials, embedded, under the general name
  EXPECT_TRUE(autoUnnamed.keptLoopGroups().empty());
  EXPECT_EQ(autoUnnamed.nv(), embedded.nv());
  unnamed.setLoopTreatment(LoopTreatment::Constrain);
  const Model kept = unnamed.build();
  int keptDifferentials = 0;  // (and every rotor coupling: `constrain` keeps every group)
  for (const KeptLoopGroup& lc : kept.keptLoopGroups())
    if (lc.name.find("differential") != std::string::npos) {
      ++keptDifferentials;
      EXPECT_EQ(lc.numRows, 2);
    }
  EXPECT_EQ(keptDifferentials, 4);
  // and kept as rows they give the embedded robot's motion
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
