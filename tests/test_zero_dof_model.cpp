// A model with no degree of freedom (every joint fixed: the links merge into the ground) is
// valid; every algorithm returns empty results instead of failing. The random-model test found
// lagrangeForwardDynamics crashing on one (Eigen's decompositions of an empty matrix).
#include <gtest/gtest.h>

#include "grbda/grbda.hpp"

using namespace grbda;

TEST(ZeroDofModel, EveryAlgorithmReturnsEmptyResults) {
  ModelBuilder b("welded");
  LinkSpec world, link;
  world.name = "world";
  link.name = "link";
  link.mass = 1e-3;
  link.inertia = Mat3::Identity() * 1e-6;
  b.addLink(world);
  b.addLink(link);
  JointSpec weld;
  weld.name = "weld";
  weld.kind = JointKind::Fixed;
  weld.parent = "world";
  weld.child = "link";
  b.addJoint(weld);
  const Model m = b.build();
  ASSERT_EQ(m.nv(), 0);
  Data d(m);
  const VecX none(0);
  EXPECT_EQ(forwardDynamics(m, d, none, none, none).size(), 0);
  EXPECT_EQ(inverseDynamics(m, d, none, none, none).size(), 0);
  EXPECT_EQ(massMatrix(m, d, none).size(), 0);
  EXPECT_EQ(inverseMassMatrix(m, d, none).size(), 0);
  EXPECT_EQ(logDetMassMatrix(m, d, none), 0.0);
  EXPECT_EQ(projectionForwardDynamics(m, d, none, none, none).size(), 0);
  EXPECT_EQ(lagrangeForwardDynamics(m, d, none, none, none).size(), 0);
  EXPECT_EQ(projectionInverseDynamics(m, d, none, none, none).size(), 0);
  EXPECT_EQ(proximalSparseForwardDynamics(m, d, none, none, none).qdd.size(), 0);
}
