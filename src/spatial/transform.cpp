#include "grbda/spatial/transform.hpp"

#include <cmath>

namespace grbda {

Mat6 Transform::transformInertia(const Mat6& M) const {
  // X = diag(E,E) T with T = [1 0; -r^ 1]; X^T M X = T^T (R^T M R) T  (spec §1.2, inertia).
  const Mat3 Et = E.transpose();
  const Mat3 A = Et * M.topLeftCorner<3, 3>() * E;
  const Mat3 B = Et * M.topRightCorner<3, 3>() * E;
  const Mat3 C = Et * M.bottomRightCorner<3, 3>() * E;
  const Mat3 rx = skew(r);
  const Mat3 Bn = B + rx * C;  // upper-right block after the shift
  Mat6 out;
  out.topLeftCorner<3, 3>() = A - B * rx + rx * B.transpose() - rx * C * rx;
  out.topRightCorner<3, 3>() = Bn;
  out.bottomLeftCorner<3, 3>() = Bn.transpose();
  out.bottomRightCorner<3, 3>() = C;
  return out;
}

Mat6 Transform::transposeTimes(const Mat6& M) const {
  Mat6 out;
  for (int c = 0; c < 6; ++c) out.col(c) = applyTranspose(M.col(c));
  return out;
}

Mat6 Transform::timesThis(const Mat6& M) const {
  // (M X)^T = X^T M^T
  Mat6 out;
  for (int rr = 0; rr < 6; ++rr) out.row(rr) = applyTranspose(M.row(rr).transpose()).transpose();
  return out;
}

Mat6 Transform::toMatrix() const {
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = E;
  X.bottomRightCorner<3, 3>() = E;
  X.bottomLeftCorner<3, 3>() = -E * skew(r);
  return X;
}

Mat6 Transform::toForceMatrix() const {
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = E;
  X.bottomRightCorner<3, 3>() = E;
  X.topRightCorner<3, 3>() = -E * skew(r);
  return X;
}

Mat3 coordinateRotation(const Vec3& u, double angle) {
  return Eigen::AngleAxisd(angle, u).toRotationMatrix().transpose();
}

Mat3 rpyToRotation(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

Transform urdfOriginToTransform(const Vec3& xyz, const Vec3& rpy) {
  return Transform(rpyToRotation(rpy).transpose(), xyz);
}

}  // namespace grbda
