#pragma once
// Internal: a rigid-body spatial inertia as its ten parameters, for passes that fold and apply
// many inertias (the centroidal pass). The 6 x 6 form (spatial/inertia.hpp)
//   I = [ Ī_O   ĥ ]        Ī_O rotational inertia about the frame's origin,
//       [ ĥᵀ  m 1 ]        h = m c the first moment
// is stored as p = [m, h_x, h_y, h_z, Ī_xx, Ī_yy, Ī_zz, Ī_xy, Ī_xz, Ī_yz]: a product I s is
// 30 multiplications instead of 36, a fold into the parent's frame touches 10 numbers, not 36.
#include "grbda/spatial/transform.hpp"

namespace grbda::detail {

using RigidParams = Eigen::Matrix<double, 10, 1>;

/// The ten parameters of a spatial inertia I (6 x 6, angular first).
inline RigidParams rigidParams(const Mat6& I) {
  RigidParams p;
  p << I(5, 5), I(2, 4), I(0, 5), I(1, 3), I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2);
  return p;
}

/// Ī_O, the rotational inertia about the frame's origin, as a 3 x 3 matrix.
inline Mat3 rotationalInertia(const RigidParams& p) {
  Mat3 Ibar;
  Ibar << p(4), p(7), p(8), p(7), p(5), p(9), p(8), p(9), p(6);
  return Ibar;
}

/// I s for a motion s = [ω; u]: [Ī_O ω + h × u; m u − h × ω].
inline Vec6 rigidTimes(const RigidParams& p, const Vec6& s) {
  const Vec3 h = p.segment<3>(1), w = s.head<3>(), u = s.tail<3>();
  Vec6 f;
  f(0) = p(4) * w(0) + p(7) * w(1) + p(8) * w(2);
  f(1) = p(7) * w(0) + p(5) * w(1) + p(9) * w(2);
  f(2) = p(8) * w(0) + p(9) * w(1) + p(6) * w(2);
  f.head<3>() += h.cross(u);
  f.tail<3>() = p(0) * u - h.cross(w);
  return f;
}

/// out += Xᵀ I X: the inertia p, held in B, expressed in A (X = ^B X_A; r is B's origin in A).
/// With h' = Eᵀ h and h_A = m r + h' (parallel axes, â b̂ = b aᵀ − (a·b) 1):
///   Ī_A = Eᵀ Ī E − h_A rᵀ − r h'ᵀ + (m r·r + 2 r·h') 1   — six entries, no division.
inline void addRigidTransformed(const Transform& X, const RigidParams& p, RigidParams& out) {
  const double m = p(0);
  const Mat3& E = X.E;
  const Vec3& r = X.r;
  const Vec3 hPrime = E.transpose() * p.segment<3>(1);
  const Vec3 hA = m * r + hPrime;
  const Mat3 IE = rotationalInertia(p) * E;  // Eᵀ (Ī E) is symmetric: six dot products
  const double diagonal = m * r.squaredNorm() + 2.0 * r.dot(hPrime);
  out(0) += m;
  out.segment<3>(1) += hA;
  out(4) += E.col(0).dot(IE.col(0)) - r(0) * (hA(0) + hPrime(0)) + diagonal;
  out(5) += E.col(1).dot(IE.col(1)) - r(1) * (hA(1) + hPrime(1)) + diagonal;
  out(6) += E.col(2).dot(IE.col(2)) - r(2) * (hA(2) + hPrime(2)) + diagonal;
  out(7) += E.col(0).dot(IE.col(1)) - hA(0) * r(1) - r(0) * hPrime(1);
  out(8) += E.col(0).dot(IE.col(2)) - hA(0) * r(2) - r(0) * hPrime(2);
  out(9) += E.col(1).dot(IE.col(2)) - hA(1) * r(2) - r(1) * hPrime(2);
}

}  // namespace grbda::detail
