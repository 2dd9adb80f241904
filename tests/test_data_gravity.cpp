// Per-Data gravity (Data::setGravity): the thread-safe way to vary gravity while one Model is
// shared. A Data with an override gives exactly what a model with that gravity gives; a Data
// without one follows Model::setGravity (the old behaviour); two threads with different
// gravities on one Model each get their own answer.
#include <gtest/gtest.h>

#include <thread>

#include "cluster_support/constrained_models.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

struct Answers {
  VecX qdd, tau, C, qddTree, qddProjection;
  double potential = 0;
};

Answers solve(const Model& m, Data& d, const VecX& q, const VecX& v, const VecX& x) {
  Answers a;
  a.qdd = forwardDynamics(m, d, q, v, x);
  a.tau = inverseDynamics(m, d, q, v, x);
  a.C = biasForces(m, d, q, v);
  a.qddProjection = projectionForwardDynamics(m, d, q, v, x);
  const VecX qSpan = completeConfiguration(m, d, q);
  a.qddTree = tree::aba(m, d, qSpan, VecX::Zero(m.nvSpanning()), VecX::Zero(m.nvSpanning()));
  a.potential = potentialEnergy(m, d, q);
  return a;
}

void expectSame(const Answers& a, const Answers& b) {
  EXPECT_TRUE(a.qdd == b.qdd);
  EXPECT_TRUE(a.tau == b.tau);
  EXPECT_TRUE(a.C == b.C);
  EXPECT_TRUE(a.qddTree == b.qddTree);
  EXPECT_TRUE(a.qddProjection == b.qddProjection);
  EXPECT_EQ(a.potential, b.potential);
}

}  // namespace

TEST(DataGravity, OverrideEqualsAModelWithThatGravity) {
  Rng rng(91);
  const Model shared = rotorChain(rng, 3, true);
  const Vec3 moon(0.3, 0.0, -1.62);
  Model onTheMoon = shared;  // a copy: same id, so Data made for either works with both
  onTheMoon.setGravity(moon);
  const VecX q = randomIndependentConfiguration(rng, shared), v = randomVector(rng, shared.nv()),
             x = randomVector(rng, shared.nv());
  Data overridden(shared), reference(onTheMoon);
  overridden.setGravity(moon);
  EXPECT_TRUE(overridden.overridesGravity());
  EXPECT_EQ(overridden.gravity(shared), moon);
  expectSame(solve(shared, overridden, q, v, x), solve(onTheMoon, reference, q, v, x));
  // Back to the model's gravity.
  overridden.useModelGravity();
  EXPECT_FALSE(overridden.overridesGravity());
  Data plain(shared);
  expectSame(solve(shared, overridden, q, v, x), solve(shared, plain, q, v, x));
}

TEST(DataGravity, WithoutOverrideDataFollowsModelSetGravity) {
  Rng rng(92);
  Model m = fourBarChain(rng, 1, false);
  Data d(m);
  const VecX q = randomIndependentConfiguration(rng, m);
  const VecX earth = biasForces(m, d, q, VecX::Zero(m.nv()));
  m.setGravity(Vec3::Zero());
  EXPECT_EQ(biasForces(m, d, q, VecX::Zero(m.nv())).norm(), 0.0);  // no gravity, no velocity: C = 0
  m.setGravity(Vec3(0.0, 0.0, -9.81));
  EXPECT_TRUE(biasForces(m, d, q, VecX::Zero(m.nv())) == earth);
}

TEST(DataGravity, NonFiniteGravityIsAnInputError) {
  Rng rng(93);
  const Model m = rotorChain(rng, 1, false);
  Data d(m);
  EXPECT_THROW(d.setGravity(Vec3(0.0, std::nan(""), -9.81)), InputError);
  EXPECT_FALSE(d.overridesGravity());
}

TEST(DataGravity, TwoThreadsWithDifferentGravitiesOnOneModelGetTheirOwn) {
  Rng rng(94);
  const Model shared = beltChain(rng, 2, true);
  const Vec3 g1(0.0, 0.0, -9.81), g2(1.0, -2.0, -3.7);
  Model copy1 = shared, copy2 = shared;
  copy1.setGravity(g1);
  copy2.setGravity(g2);
  std::vector<VecX> qs, vs, xs;
  for (int s = 0; s < 50; ++s) {
    qs.push_back(randomIndependentConfiguration(rng, shared));
    vs.push_back(randomVector(rng, shared.nv()));
    xs.push_back(randomVector(rng, shared.nv()));
  }
  auto run = [&](const Model& m, const Vec3* gravity, std::vector<VecX>& out) {
    Data d(m);
    if (gravity) d.setGravity(*gravity);
    for (size_t s = 0; s < qs.size(); ++s) out.push_back(forwardDynamics(m, d, qs[s], vs[s], xs[s]));
  };
  std::vector<VecX> ref1, ref2, got1, got2;
  run(copy1, nullptr, ref1);
  run(copy2, nullptr, ref2);
  std::thread t1(run, std::cref(shared), &g1, std::ref(got1));
  std::thread t2(run, std::cref(shared), &g2, std::ref(got2));
  t1.join();
  t2.join();
  for (size_t s = 0; s < qs.size(); ++s) {
    EXPECT_TRUE(got1[s] == ref1[s]) << s;
    EXPECT_TRUE(got2[s] == ref2[s]) << s;
    EXPECT_FALSE(got1[s] == got2[s]) << s;
  }
}
