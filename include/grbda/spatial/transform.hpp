#pragma once
// Plücker coordinate transform stored as the pair (E, r) (spec §1.2):
//   E  coordinate rotation A -> B  (x_B = E x_A),
//   r  position of B's origin in A coordinates.
// All operations act on vectors/blocks directly; the 6x6 matrix is formed only on request.
#include "grbda/spatial/types.hpp"

namespace grbda {

/// A Plücker transform ^B X_A: rotation E (A to B coordinates) and translation r (B's origin in A).
struct Transform {
  Mat3 E = Mat3::Identity();  ///< rotation: A coordinates -> B coordinates
  Vec3 r = Vec3::Zero();  ///< B's origin in A coordinates

  Transform() = default;  ///< the identity
  Transform(const Mat3& E_, const Vec3& r_) : E(E_), r(r_) {}  ///< from rotation and translation
  static Transform identity() { return Transform(); }  ///< the identity
  static Transform translation(const Vec3& r) { return Transform(Mat3::Identity(), r); }  ///< a pure translation by r
  static Transform rotation(const Mat3& E) { return Transform(E, Vec3::Zero()); }  ///< a pure rotation E

  /// ^B X_A m : motion from A to B coordinates.
  Vec6 apply(const Vec6& m) const {
    Vec6 out;
    out.head<3>() = E * m.head<3>();
    out.tail<3>() = E * (m.tail<3>() - r.cross(m.head<3>()));
    return out;
  }
  /// ^B X*_A f : force from A to B coordinates.
  Vec6 applyForce(const Vec6& f) const {
    Vec6 out;
    out.head<3>() = E * (f.head<3>() - r.cross(f.tail<3>()));
    out.tail<3>() = E * f.tail<3>();
    return out;
  }
  /// (^B X_A)^T f = ^A X*_B f : force from B back to A coordinates.
  Vec6 applyTranspose(const Vec6& f) const {
    Vec6 out;
    const Vec3 fl = E.transpose() * f.tail<3>();
    out.head<3>() = E.transpose() * f.head<3>() + r.cross(fl);
    out.tail<3>() = fl;
    return out;
  }
  /// (^B X_A)^{-1} m = ^A X_B m : motion from B back to A coordinates.
  Vec6 applyInverse(const Vec6& m) const {
    Vec6 out;
    const Vec3 w = E.transpose() * m.head<3>();
    out.head<3>() = w;
    out.tail<3>() = E.transpose() * m.tail<3>() + r.cross(w);
    return out;
  }

  /// Column-wise versions for 6 x n blocks (motion subspaces, force propagators).
  template <typename Derived>
  void applyInPlace(Eigen::MatrixBase<Derived>& M) const {
    for (Eigen::Index c = 0; c < M.cols(); ++c) M.col(c) = apply(M.col(c));
  }
  /// applyTranspose on every column of a 6 x n block.
  template <typename Derived>
  void applyTransposeInPlace(Eigen::MatrixBase<Derived>& M) const {
    for (Eigen::Index c = 0; c < M.cols(); ++c) M.col(c) = applyTranspose(M.col(c));
  }

  /// Composition: (*this) * X2 means "apply X2 first, then *this".
  Transform operator*(const Transform& X2) const { return Transform(E * X2.E, X2.r + X2.E.transpose() * r); }
  Transform inverse() const { return Transform(E.transpose(), -(E * r)); }  ///< ^A X_B

  /// Points: p_B = E (p_A - r),  p_A = E^T p_B + r.
  Vec3 transformPoint(const Vec3& pA) const { return E * (pA - r); }
  Vec3 inverseTransformPoint(const Vec3& pB) const { return E.transpose() * pB + r; }  ///< p_A from p_B

  /// X^T M X for a symmetric 6x6 M expressed in B: the same inertia expressed in A.
  Mat6 transformInertia(const Mat6& M) const;
  /// out += X^T M X (the hot form: no 6x6 temporary).
  void addTransformedInertia(const Mat6& M, Mat6& out) const;
  /// out += X^T I X for a rigid-body inertia I = [Ī, h^; h^T, m 1] (any sum of body inertias,
  /// e.g. composite inertias): about a third of the work of the general form.
  void addTransformedRigidInertia(const Mat6& I, Mat6& out) const;
  /// X^T M for a 6x6 block (used for cluster transforms with several output bodies).
  Mat6 transposeTimes(const Mat6& M) const;
  /// M X for a 6x6 block.
  Mat6 timesThis(const Mat6& M) const;

  Mat6 toMatrix() const;       ///< motion transform ^B X_A
  Mat6 toForceMatrix() const;  ///< force transform ^B X*_A
  /// Equal to `o` within `tol` (relative, rotation and translation).
  bool isApprox(const Transform& o, double tol = 1e-12) const {
    return E.isApprox(o.E, tol) && (r - o.r).norm() <= tol * (1.0 + r.norm());
  }
};

/// Featherstone's coordinate rotations rx, ry, rz (note the signs, spec §1.2).
Mat3 coordinateRotation(const Vec3& unitAxis, double angle);  ///< Rot(u, angle)^T
/// URDF rpy (fixed-axis roll-pitch-yaw): active rotation R = Rz(y) Ry(p) Rx(r).
Mat3 rpyToRotation(const Vec3& rpy);
/// Transform for a URDF <origin xyz rpy>: (R^T, xyz).
Transform urdfOriginToTransform(const Vec3& xyz, const Vec3& rpy);

}  // namespace grbda
