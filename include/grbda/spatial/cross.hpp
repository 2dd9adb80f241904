#pragma once
// Spatial cross products (spec §1.3), as vector operations (no 6x6 matrices formed).
#include "grbda/spatial/types.hpp"

namespace grbda {

/// v × m  (motion cross product, crm(v) m).
inline Vec6 crossMotion(const Vec6& v, const Vec6& m) {
  const Vec3 w = v.head<3>(), u = v.tail<3>();
  const Vec3 mw = m.head<3>(), mu = m.tail<3>();
  Vec6 out;
  out.head<3>() = w.cross(mw);
  out.tail<3>() = w.cross(mu) + u.cross(mw);
  return out;
}

/// v ×* f  (force cross product, crf(v) f = -crm(v)^T f).
inline Vec6 crossForce(const Vec6& v, const Vec6& f) {
  const Vec3 w = v.head<3>(), u = v.tail<3>();
  const Vec3 n = f.head<3>(), fl = f.tail<3>();
  Vec6 out;
  out.head<3>() = w.cross(n) + u.cross(fl);
  out.tail<3>() = w.cross(fl);
  return out;
}

/// crm(v) as a 6x6 matrix (for tests and non-hot code).
inline Mat6 crmMatrix(const Vec6& v) {
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = skew(v.head<3>());
  X.bottomRightCorner<3, 3>() = skew(v.head<3>());
  X.bottomLeftCorner<3, 3>() = skew(v.tail<3>());
  return X;
}

/// crf(v) = -crm(v)^T as a 6x6 matrix.
inline Mat6 crfMatrix(const Vec6& v) { return -crmMatrix(v).transpose(); }

}  // namespace grbda
