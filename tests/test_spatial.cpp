#include <gtest/gtest.h>

#include "grbda/grbda.hpp"
#include "grbda/spatial/cross.hpp"

using namespace grbda;

namespace {
Transform randomTransform() {
  return Transform(Eigen::Quaterniond::UnitRandom().toRotationMatrix(), Vec3::Random());
}
}  // namespace

TEST(Spatial, TransformOperationsMatchSixBySixMatrices) {
  for (int k = 0; k < 20; ++k) {
    const Transform X = randomTransform(), Y = randomTransform();
    const Vec6 m = Vec6::Random(), f = Vec6::Random();
    const Mat6 A = Mat6::Random();
    const Mat6 Xm = X.toMatrix();
    EXPECT_TRUE(X.apply(m).isApprox(Xm * m, 1e-12));
    EXPECT_TRUE(X.applyForce(f).isApprox(X.toForceMatrix() * f, 1e-12));
    EXPECT_TRUE(X.applyTranspose(f).isApprox(Xm.transpose() * f, 1e-12));
    EXPECT_TRUE(X.applyInverse(m).isApprox(Xm.inverse() * m, 1e-12));
    EXPECT_TRUE((X * Y).toMatrix().isApprox(Xm * Y.toMatrix(), 1e-12));
    EXPECT_TRUE(X.inverse().toMatrix().isApprox(Xm.inverse(), 1e-12));
    EXPECT_TRUE(X.toForceMatrix().isApprox(Xm.inverse().transpose(), 1e-12));
    const Mat6 S = A + A.transpose();
    EXPECT_TRUE(X.transformInertia(S).isApprox(Xm.transpose() * S * Xm, 1e-12));
    EXPECT_TRUE(X.transposeTimes(A).isApprox(Xm.transpose() * A, 1e-12));
    EXPECT_TRUE(X.timesThis(A).isApprox(A * Xm, 1e-12));
    const Vec3 p = Vec3::Random();
    EXPECT_TRUE(X.inverseTransformPoint(X.transformPoint(p)).isApprox(p, 1e-12));
  }
}

TEST(Spatial, RigidInertiaTransformMatchesTheMatrixProduct) {
  // The rigid-body shortcut must equal X^T I X for any mass, centre of mass and rotational
  // inertia, including a massless body (pure rotational inertia) and a non-zero accumulator.
  for (int k = 0; k < 20; ++k) {
    const Transform X = randomTransform();
    const Mat3 R = Mat3::Random();
    const Mat3 Ic = R * R.transpose() + 0.1 * Mat3::Identity();
    const double m = k == 0 ? 0.0 : 0.1 + std::abs(Vec3::Random().x()) * 5.0;
    const Vec3 c = k == 0 ? Vec3::Zero() : Vec3(Vec3::Random());
    const Mat6 I = spatialInertia(m, c, Ic);
    const Mat6 start = Mat6::Random();
    Mat6 out = start;
    X.addTransformedRigidInertia(I, out);
    const Mat6 Xm = X.toMatrix();
    EXPECT_TRUE((out - start).isApprox(Xm.transpose() * I * Xm, 1e-12)) << "k = " << k;
    Mat6 general = start;
    X.addTransformedInertia(I, general);
    EXPECT_TRUE(general.isApprox(out, 1e-12));
  }
}

TEST(Spatial, JointTransformAfterTreeEqualsTheProduct) {
  // The closed form of X_J(q) X_T against the explicit product, for every joint type.
  for (int k = 0; k < 30; ++k) {
    const Transform XT = randomTransform();
    Joint j;
    j.type = k % 3 == 0 ? JointType::Revolute : k % 3 == 1 ? JointType::Prismatic : JointType::Free;
    j.axis = Vec3::Random().normalized();
    Eigen::Matrix<double, 7, 1> q = Eigen::Matrix<double, 7, 1>::Random() * 3.0;
    q.segment<4>(3).normalize();
    const Transform expected = j.transform(q.data()) * XT, got = j.transformAfter(q.data(), XT);
    EXPECT_TRUE(got.isApprox(expected, 1e-13)) << "joint type " << static_cast<int>(j.type);
  }
}

TEST(Spatial, RevoluteAboutACoordinateAxisEqualsTheProduct) {
  // The plane-rotation shortcut for ±x, ±y, ±z axes against X_J(q) X_T from the Rodrigues rotation.
  for (int k = 0; k < 6; ++k) {
    Joint j;
    j.axis = Vec3::Unit(k % 3) * (k < 3 ? 1.0 : -1.0);
    ASSERT_EQ(j.alignedAxis(), k % 3);
    for (double angle : {0.0, 0.3, -2.1, 3.0}) {
      const Transform XT = randomTransform();
      const Transform expected = j.transform(&angle) * XT, got = j.transformAfter(&angle, XT);
      EXPECT_TRUE(got.isApprox(expected, 1e-14)) << "axis " << j.axis.transpose() << ", q = " << angle;
    }
  }
  Joint tilted;
  tilted.axis = Vec3(0.0, 1e-9, 1.0).normalized();
  EXPECT_EQ(tilted.alignedAxis(), -1);
}

TEST(Spatial, CrossProductsMatchMatrices) {
  const Vec6 v = Vec6::Random(), m = Vec6::Random();
  EXPECT_TRUE(crossMotion(v, m).isApprox(crmMatrix(v) * m, 1e-14));
  EXPECT_TRUE(crossForce(v, m).isApprox(crfMatrix(v) * m, 1e-14));
}

TEST(Spatial, RigidBodyInertiaShiftEqualsParallelAxisTheorem) {
  // A body whose COM sits at c in its own frame equals a body with COM at the origin, moved by c.
  const double m = 2.5;
  const Vec3 c(0.1, -0.2, 0.3);
  Mat3 Ic;
  Ic << 0.3, 0.01, 0.02, 0.01, 0.4, 0.03, 0.02, 0.03, 0.5;
  const Mat6 direct = spatialInertia(m, c, Ic);
  const Transform toCom = Transform::translation(c);  // body frame -> COM frame
  EXPECT_TRUE(toCom.transformInertia(spatialInertia(m, Vec3::Zero(), Ic)).isApprox(direct, 1e-12));
  EXPECT_NEAR(inertiaMass(direct), m, 1e-15);
  EXPECT_TRUE(inertiaCom(direct).isApprox(c, 1e-14));
  EXPECT_TRUE(inertiaAboutCom(direct).isApprox(Ic, 1e-12));
}

TEST(Spatial, CoordinateRotationsHaveFeatherstoneSigns) {
  const double t = 0.3, c = std::cos(t), s = std::sin(t);
  Mat3 rz;
  rz << c, s, 0, -s, c, 0, 0, 0, 1;
  EXPECT_TRUE(coordinateRotation(Vec3::UnitZ(), t).isApprox(rz, 1e-15));
  EXPECT_TRUE(coordinateRotation(-Vec3::UnitZ(), t).isApprox(rz.transpose(), 1e-15));
}
