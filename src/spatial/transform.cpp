#include "grbda/spatial/transform.hpp"

#include <cmath>

namespace grbda {

Mat6 Transform::transformInertia(const Mat6& M) const {
  Mat6 out = Mat6::Zero();
  addTransformedInertia(M, out);
  return out;
}

void Transform::addTransformedInertia(const Mat6& M, Mat6& out) const {
  // X = diag(E,E) T with T = [1 0; -r^ 1], so X^T M X = T^T (R^T M R) T (spec §1.2, inertia).
  // With the rotated blocks A, B, C of R^T M R and Bn = B + r^ C, the shifted blocks are
  //   [A - B r^ + r^ B^T - r^ C r^,  Bn;  Bn^T,  C] = [A + (r^ B^T)^T + r^ Bn^T,  Bn;  Bn^T,  C];
  // the r^ products are taken as cross products column by column (no skew matrices).
  const Mat3 Et = E.transpose();
  const Mat3 A = Et * (M.topLeftCorner<3, 3>() * E);
  const Mat3 B = Et * (M.topRightCorner<3, 3>() * E);
  const Mat3 C = Et * (M.bottomRightCorner<3, 3>() * E);
  Mat3 Bn;
  for (int j = 0; j < 3; ++j) Bn.col(j) = B.col(j) + r.cross(C.col(j));
  Mat3 TL = A;
  for (int j = 0; j < 3; ++j) {
    TL.row(j) += r.cross(B.row(j).transpose()).transpose();  // (r^ B^T)^T, row j
    TL.col(j) += r.cross(Bn.row(j).transpose());            // r^ Bn^T, column j
  }
  out.topLeftCorner<3, 3>() += TL;
  out.topRightCorner<3, 3>() += Bn;
  out.bottomLeftCorner<3, 3>() += Bn.transpose();
  out.bottomRightCorner<3, 3>() += C;
}

void Transform::addTransformedRigidInertia(const Mat6& I, Mat6& out) const {
  // I holds mass m, first moment h = m c (as h^ in the upper-right block) and rotational inertia
  // Ī about the origin of B. In A: h_A = m r + E^T h, and Ī moves to A's origin by the parallel
  // axis theorem, Ī_A = E^T Ī E + m [(c_A·c_A − c'·c') 1 − c_A c_A^T + c' c'^T] with c' = E^T c
  // the centre of mass relative to B's origin and c_A = r + c' (both in A coordinates).
  const double m = I(3, 3);
  const Vec3 h(I(2, 4), I(0, 5), I(1, 3));
  const Mat3 Et = E.transpose();
  Mat3 IbarA = Et * (I.topLeftCorner<3, 3>() * E);
  const Vec3 hPrime = Et * h;  // m c'
  const Vec3 hA = m * r + hPrime;
  if (m > 0.0) {
    const double invM = 1.0 / m;
    IbarA += invM * (hPrime * hPrime.transpose() - hA * hA.transpose());
    IbarA.diagonal().array() += invM * (hA.squaredNorm() - hPrime.squaredNorm());
  }
  out.topLeftCorner<3, 3>() += IbarA;
  const Mat3 hx = skew(hA);
  out.topRightCorner<3, 3>() += hx;
  out.bottomLeftCorner<3, 3>() -= hx;
  out.bottomRightCorner<3, 3>().diagonal().array() += m;
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
