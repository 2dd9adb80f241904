#pragma once
// Tree joints (spec §1.2, §1.6): the joint between a body and its parent in the spanning tree.
#include <cmath>

#include "grbda/spatial/transform.hpp"

namespace grbda {

/// Tree joint types. Screw (helical): rotation q about the axis with translation `pitch`·q along it.
/// Spherical (ball): the free joint's rotational part, q = unit quaternion (w, x, y, z), v = ω.
enum class JointType { Revolute, Prismatic, Free, Screw, Spherical };

/// A spanning-tree joint. Revolute/prismatic/screw joints have one coordinate about/along an
/// arbitrary unit axis (negative axes included); the free joint has q = [x y z qw qx qy qz] (body
/// origin in the parent frame, unit quaternion of the body orientation) and v = [w; v] in body
/// coordinates; the spherical joint has q = [qw qx qy qz] (the child's orientation in the joint
/// frame) and v = w in child coordinates (S = the first three columns of 1_6).
struct Joint {
  JointType type = JointType::Revolute;  ///< revolute, prismatic, free, screw or spherical
  Vec3 axis = Vec3::UnitX();  ///< unit axis in the joint (child) frame; unused by Free and Spherical
  /// Screw only: metres of travel along `axis` per radian of rotation about it (positive: a
  /// right-handed thread). Featherstone's helical joint (RBDA Table 4.1, h = pitch).
  double pitch = 0.0;

  /// position coordinates (7 for Free, 4 for Spherical, else 1)
  int nq() const { return type == JointType::Free ? 7 : type == JointType::Spherical ? 4 : 1; }
  /// velocity coordinates (6 for Free, 3 for Spherical, else 1)
  int nv() const { return type == JointType::Free ? 6 : type == JointType::Spherical ? 3 : 1; }
  /// Free or spherical: q holds a unit quaternion and S_i is the first nv() columns of 1_6 (body
  /// coordinates), so the algorithms treat both alike.
  bool hasQuaternion() const { return type == JointType::Free || type == JointType::Spherical; }
  /// Where qw sits in the joint's positions (hasQuaternion() only): 3 for Free, 0 for Spherical.
  int quaternionOffset() const { return type == JointType::Free ? 3 : 0; }
  /// Column c of S_i in body coordinates: e_c for Free and Spherical, subspace() otherwise (c = 0).
  Vec6 subspaceColumn(int c) const { return hasQuaternion() ? Vec6(Vec6::Unit(c)) : subspace(); }

  /// Motion subspace column of a 1-DoF joint (constant in body coordinates); a screw's is [a; p a].
  Vec6 subspace() const {
    Vec6 s = Vec6::Zero();
    if (type == JointType::Revolute) s.head<3>() = axis;
    else if (type == JointType::Prismatic) s.tail<3>() = axis;
    else if (type == JointType::Screw) s << axis, pitch * axis;
    return s;
  }

  /// X_J(q): the joint transform, from the joint frame (at q = 0) to the body frame.
  Transform transform(const double* q) const {
    switch (type) {
      case JointType::Revolute: return Transform::rotation(coordinateRotation(axis, q[0]));
      case JointType::Prismatic: return Transform::translation(q[0] * axis);
      case JointType::Free: {
        const Eigen::Quaterniond quat(q[3], q[4], q[5], q[6]);
        return Transform(quat.normalized().toRotationMatrix().transpose(), Vec3(q[0], q[1], q[2]));
      }
      case JointType::Spherical: {
        const Eigen::Quaterniond quat(q[0], q[1], q[2], q[3]);
        return Transform::rotation(quat.normalized().toRotationMatrix().transpose());
      }
      // the translation is along the rotation axis, so rotation and translation commute
      case JointType::Screw: return Transform(coordinateRotation(axis, q[0]), (pitch * q[0]) * axis);
    }
    return Transform();
  }

  /// 0, 1, 2 when the axis is ±x, ±y, ±z exactly (URDF axes nearly always are), otherwise −1.
  int alignedAxis() const {
    if (axis.y() == 0.0 && axis.z() == 0.0) return 0;
    if (axis.x() == 0.0 && axis.z() == 0.0) return 1;
    if (axis.x() == 0.0 && axis.y() == 0.0) return 2;
    return -1;
  }

  /// ^iX_λ(i) = X_J(q) X_T: the joint transform after the tree transform X_T, without forming
  /// X_J. For a revolute joint E = (c 1 − s û + (1 − c) u uᵀ) E_T (Rodrigues, transposed) and the
  /// origin does not move; about a coordinate axis k that is a plane rotation of two rows of E_T
  /// (i = k+1, j = k+2 mod 3). A prismatic joint only moves the origin along the axis.
  Transform transformAfter(const double* q, const Transform& XT) const {
    switch (type) {
      case JointType::Revolute: {
        const double c = std::cos(q[0]), s = std::sin(q[0]);
        if (const int k = alignedAxis(); k >= 0) {
          const double sk = axis[k] > 0.0 ? s : -s;
          const int i = (k + 1) % 3, j = (k + 2) % 3;
          Transform X(XT.E, XT.r);
          X.E.row(i) = c * XT.E.row(i) + sk * XT.E.row(j);
          X.E.row(j) = c * XT.E.row(j) - sk * XT.E.row(i);
          return X;
        }
        const Eigen::Matrix<double, 1, 3> uTE = axis.transpose() * XT.E;
        Mat3 E;
        for (int j = 0; j < 3; ++j) E.col(j) = c * XT.E.col(j) - s * axis.cross(XT.E.col(j)) + (1.0 - c) * uTE[j] * axis;
        return Transform(E, XT.r);
      }
      case JointType::Prismatic: return Transform(XT.E, XT.r + XT.E.transpose() * (q[0] * axis));
      case JointType::Free:
      case JointType::Spherical:
      case JointType::Screw: return transform(q) * XT;
    }
    return Transform();
  }
};

}  // namespace grbda
