#pragma once
// Internal: ^iX_λ(i) = X_J(q) X_T of one body, with what Joint::transformAfter decides on every
// call (joint type, is the axis ±x, ±y or ±z) decided once when the cluster joint is built, and
// the result written in place. About a coordinate axis k the rotation only turns rows i = k+1 and
// j = k+2 (mod 3) of E_T; the kinematics of every cluster joint spends about a third of its
// instructions here, mostly on that decision and on copying the temporary.
#include <cmath>

#include "grbda/model.hpp"

namespace grbda::detail {

class BodyJointTransform {
 public:
  BodyJointTransform() = default;
  explicit BodyJointTransform(const Body& b) {
    if (b.joint.type != JointType::Revolute) return;
    const int k = b.joint.alignedAxis();
    if (k < 0) return;
    k_ = k;
    i_ = (k + 1) % 3;
    j_ = (k + 2) % 3;
    negative_ = b.joint.axis[k] < 0.0;
  }

  /// X = ^iX_λ(i) at the body's joint position q (q: its first coordinate).
  void operator()(const Body& b, const double* q, Transform& X) const {
    if (k_ < 0) {
      X = b.joint.transformAfter(q, b.Xtree);
      return;
    }
    const Mat3& ET = b.Xtree.E;
    const double c = std::cos(q[0]), s = negative_ ? -std::sin(q[0]) : std::sin(q[0]);
    X.r = b.Xtree.r;
    for (int col = 0; col < 3; ++col) {
      X.E(k_, col) = ET(k_, col);
      X.E(i_, col) = c * ET(i_, col) + s * ET(j_, col);
      X.E(j_, col) = c * ET(j_, col) - s * ET(i_, col);
    }
  }

 private:
  int k_ = -1, i_ = 0, j_ = 0;  ///< k: the coordinate axis (−1: the general Joint::transformAfter)
  bool negative_ = false;
};

/// v × m for a motion m with no linear part (a revolute joint's vJ = s q̇): [ω × m_ω; v_O × m_ω],
/// one cross product fewer than crossMotion.
inline Vec6 crossMotionAngular(const Vec6& v, const Vec6& m) {
  const Vec3 mw = m.head<3>();
  Vec6 out;
  out.head<3>() = v.head<3>().cross(mw);
  out.tail<3>() = v.tail<3>().cross(mw);
  return out;
}

}  // namespace grbda::detail
