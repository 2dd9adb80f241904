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
  // I holds mass m, first moment h (as h^ in the upper-right block) and rotational inertia Ī
  // about B's origin, which sits at r in A. In A: h_A = m r + h' with h' = Eᵀ h, and by the
  // parallel axes (â b̂ = b aᵀ − (a·b) 1)
  //   Ī_A = Eᵀ Ī E − m r̂ r̂ − (r̂ ĥ' + ĥ' r̂) = Eᵀ Ī E − h_A rᵀ − r h'ᵀ + (m r·r + 2 r·h') 1,
  // symmetric: six entries, and no division (a massless body needs no special case).
  const double m = I(3, 3);
  const Vec3 hPrime = E.transpose() * Vec3(I(2, 4), I(0, 5), I(1, 3));
  const Vec3 hA = m * r + hPrime;
  const Mat3 IE = I.topLeftCorner<3, 3>() * E;  // Ī E; Eᵀ (Ī E) is symmetric
  const double diagonal = m * r.squaredNorm() + 2.0 * r.dot(hPrime);
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i <= j; ++i) {
      double entry = E.col(i).dot(IE.col(j)) - hA[i] * r[j] - r[i] * hPrime[j];
      if (i == j) {
        out(i, i) += entry + diagonal;
      } else {
        out(i, j) += entry;
        out(j, i) += entry;
      }
    }
  }
  // [h_A]^ in the upper-right block, its transpose −[h_A]^ in the lower-left
  out(0, 4) -= hA.z(); out(0, 5) += hA.y(); out(1, 3) += hA.z(); out(1, 5) -= hA.x(); out(2, 3) -= hA.y(); out(2, 4) += hA.x();
  out(4, 0) -= hA.z(); out(5, 0) += hA.y(); out(3, 1) += hA.z(); out(5, 1) -= hA.x(); out(3, 2) -= hA.y(); out(4, 2) += hA.x();
  out(3, 3) += m; out(4, 4) += m; out(5, 5) += m;
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
