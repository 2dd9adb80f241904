// The ten-parameter inertia kernel of the centroidal pass (src/spatial/rigid_params.hpp) against
// the dense 6 x 6 forms written here: I s as a matrix product, Xᵀ I X with X's 6 x 6 matrix.
#include <gtest/gtest.h>

#include <random>

#include "grbda/spatial/inertia.hpp"
#include "grbda/spatial/transform.hpp"
#include "spatial/rigid_params.hpp"

using namespace grbda;

namespace {

Mat6 randomInertia(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Mat3 A = Mat3::NullaryExpr([&] { return u(rng); });
  const Mat3 Ic = A * A.transpose() + 0.1 * Mat3::Identity();
  return spatialInertia(0.5 + 2.0 * std::abs(u(rng)), Vec3(u(rng), u(rng), u(rng)), Ic);
}

Transform randomTransform(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Mat3 E = Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized().toRotationMatrix();
  return Transform(E, Vec3(u(rng), u(rng), u(rng)));
}

/// The 6 x 6 matrix of X = ^B X_A (motion, angular first): [E 0; −E r̂ E].
Mat6 motionMatrix(const Transform& X) {
  Mat6 M = Mat6::Zero();
  M.topLeftCorner<3, 3>() = X.E;
  M.bottomRightCorner<3, 3>() = X.E;
  M.bottomLeftCorner<3, 3>() = -X.E * skew(X.r);
  return M;
}

}  // namespace

TEST(RigidParams, ProductEqualsTheDenseInertiaTimesTheMotion) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    const Mat6 I = randomInertia(rng);
    const Vec6 s = Vec6::Random();
    EXPECT_LT((detail::rigidTimes(detail::rigidParams(I), s) - I * s).norm(), 1e-13);
  }
}

TEST(RigidParams, FoldEqualsTheDenseCongruence) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 50; ++trial) {
    const Mat6 I = randomInertia(rng), start = randomInertia(rng);
    const Transform X = randomTransform(rng);
    const Mat6 M = motionMatrix(X);
    const Mat6 expected = start + M.transpose() * I * M;
    detail::RigidParams out = detail::rigidParams(start);
    detail::addRigidTransformed(X, detail::rigidParams(I), out);
    EXPECT_LT((out - detail::rigidParams(expected)).norm(), 1e-12) << "trial " << trial;
    // the dense result is a rigid inertia: its ten parameters say all of it
    EXPECT_LT((expected - expected.transpose()).norm(), 1e-12);
    EXPECT_LT((expected.bottomRightCorner<3, 3>() - expected(5, 5) * Mat3::Identity()).norm(), 1e-12);
  }
}

TEST(RigidParams, MasslessBodyFoldsItsRotationalInertiaOnly) {
  Mat6 I = Mat6::Zero();
  I.topLeftCorner<3, 3>() = Vec3(1.0, 2.0, 3.0).asDiagonal();
  const Transform X(Eigen::AngleAxisd(0.7, Vec3::UnitZ()).toRotationMatrix(), Vec3(1.0, -2.0, 0.5));
  detail::RigidParams out = detail::RigidParams::Zero();
  detail::addRigidTransformed(X, detail::rigidParams(I), out);
  EXPECT_EQ(out(0), 0.0);
  EXPECT_EQ(out.segment<3>(1).norm(), 0.0);
  const Mat3 expected = X.E.transpose() * I.topLeftCorner<3, 3>() * X.E;  // no parallel-axis term
  EXPECT_NEAR(out(4), expected(0, 0), 1e-14);
  EXPECT_NEAR(out(7), expected(0, 1), 1e-14);
  EXPECT_NEAR(out(9), expected(1, 2), 1e-14);
}
