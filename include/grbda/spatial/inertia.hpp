#pragma once
// Rigid-body spatial inertia (spec §1.4), stored as a symmetric 6x6 matrix:
//   I = [ Ic + m c^ c^T   m c^ ]
//       [ m c^T           m 1  ]
#include "grbda/spatial/types.hpp"

namespace grbda {

/// Spatial inertia from mass m, centre of mass c (body frame) and rotational inertia Ic about
/// the COM in body-aligned axes.
inline Mat6 spatialInertia(double m, const Vec3& c, const Mat3& Ic) {
  const Mat3 cx = skew(c);
  Mat6 I;
  I.topLeftCorner<3, 3>() = Ic + m * cx * cx.transpose();
  I.topRightCorner<3, 3>() = m * cx;
  I.bottomLeftCorner<3, 3>() = m * cx.transpose();
  I.bottomRightCorner<3, 3>() = m * Mat3::Identity();
  return I;
}

/// Mass of a spatial inertia.
inline double inertiaMass(const Mat6& I) { return I(5, 5); }

/// Centre of mass (body frame) of a spatial inertia with positive mass.
inline Vec3 inertiaCom(const Mat6& I) {
  const double m = I(5, 5);
  return Vec3(I(2, 4), I(0, 5), I(1, 3)) / m;  // m c^ = [0 -mcz mcy; mcz 0 -mcx; -mcy mcx 0]
}

/// Rotational inertia about the COM, body-aligned axes.
inline Mat3 inertiaAboutCom(const Mat6& I) {
  const double m = I(5, 5);
  if (m <= 0.0) return I.topLeftCorner<3, 3>();
  const Mat3 cx = skew(inertiaCom(I));
  return I.topLeftCorner<3, 3>() - m * cx * cx.transpose();
}

}  // namespace grbda
