// integration.hpp: moving q along v, the rate of q, the energies and the loop-closure error,
// each against an independent route (finite differences, the mass matrix, the bias forces).
#include <gtest/gtest.h>

#include <limits>

#include "grbda/grbda.hpp"
#include "support/model_files.hpp"

using namespace grbda;
using grbda::testsupport::modelFile;

namespace {

/// A tumbling Mini Cheetah state: base rotated and away from the origin, legs bent, all moving.
struct CheetahState {
  Model model = loadUrdf(modelFile("mini_cheetah.urdf"));
  VecX q, v;
  CheetahState() {
    q = model.neutralConfiguration();
    q.head<3>() << 0.1, -0.2, 0.3;
    q.segment<4>(3) = Eigen::Vector4d(0.9, 0.1, -0.3, 0.2).normalized();
    for (int i = 7; i < model.nq(); ++i) q[i] = 0.1 * (i % 5) - 0.2;
    v = VecX::LinSpaced(model.nv(), -1.5, 2.0);
  }
};
}  // namespace

TEST(Integration, IntegrateMovesAtThePositionRate) {
  CheetahState s;
  const double h = 1e-6;
  const VecX fd = (integrate(s.model, s.q, s.v, h) - integrate(s.model, s.q, s.v, -h)) / (2 * h);
  EXPECT_LT((fd - positionRate(s.model, s.q, s.v)).cwiseAbs().maxCoeff(), 1e-8);
  const VecX q1 = integrate(s.model, s.q, s.v, 0.3);
  EXPECT_NEAR(q1.segment<4>(3).norm(), 1.0, 1e-14);
  EXPECT_TRUE(q1.tail(12).isApprox(s.q.tail(12) + 0.3 * s.v.tail(12), 1e-14));
}

TEST(Integration, KineticEnergyIsHalfVHV) {
  CheetahState s;
  Data data(s.model);
  const double expected = 0.5 * s.v.dot(massMatrix(s.model, data, s.q) * s.v);
  EXPECT_NEAR(kineticEnergy(s.model, data, s.q, s.v), expected, 1e-12 * expected);
  const Model fourBar = loadUrdf(modelFile("four_bar.urdf"));
  Data fb(fourBar);
  const VecX q = VecX::Constant(1, 0.5), v = VecX::Constant(1, 1.3);
  EXPECT_NEAR(kineticEnergy(fourBar, fb, q, v), 0.5 * v.dot(massMatrix(fourBar, fb, q) * v), 1e-12);
}

TEST(Integration, PotentialEnergyChangesByTheGravityForce) {
  // d/de V(integrate(q, d, e)) at e = 0 is the generalised gravity force C(q, 0) . d
  CheetahState s;
  Data data(s.model);
  const VecX gravityForce = biasForces(s.model, data, s.q, VecX::Zero(s.model.nv()));
  const double h = 1e-6;
  const double dV = (potentialEnergy(s.model, data, integrate(s.model, s.q, s.v, h)) -
                     potentialEnergy(s.model, data, integrate(s.model, s.q, s.v, -h))) / (2 * h);
  EXPECT_NEAR(dV, gravityForce.dot(s.v), 1e-6 * gravityForce.norm());
  EXPECT_GT(std::abs(dV), 1.0);  // not vacuous
}

TEST(Integration, LoopsOfACompletedConfigurationAreClosed) {
  const Model fourBar = loadUrdf(modelFile("four_bar.urdf"));
  Data data(fourBar);
  forwardKinematics(fourBar, data, VecX::Constant(1, 0.7));
  ASSERT_EQ(fourBar.loops().size(), 1u);
  EXPECT_LT(loopClosureError(fourBar, data), 1e-12);
  const CheetahState s;
  EXPECT_THROW(loopClosureError(s.model, data), InputError);  // a Data of another model
}

TEST(Integration, BadArgumentsAreInputErrors) {
  CheetahState s;
  EXPECT_THROW(integrate(s.model, s.q, s.v.head(3), 0.1), InputError);
  EXPECT_THROW(integrate(s.model, s.q, s.v, std::numeric_limits<double>::quiet_NaN()), InputError);
  EXPECT_THROW(positionRate(s.model, s.q.head(5), s.v), InputError);
  VecX zero = s.q;
  zero.segment<4>(3).setZero();
  EXPECT_THROW(normalizeConfiguration(s.model, zero), InputError);
  VecX scaled = s.q;
  scaled.segment<4>(3) *= 3.0;
  normalizeConfiguration(s.model, scaled);
  EXPECT_TRUE(scaled.isApprox(s.q, 1e-15));
}
