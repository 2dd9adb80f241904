#pragma once
// Tree joints (spec §1.2, §1.6): the joint between a body and its parent in the spanning tree.
#include "grbda/spatial/transform.hpp"

namespace grbda {

enum class JointType { Revolute, Prismatic, Free };

/// A spanning-tree joint. Revolute/prismatic joints have one coordinate about/along an arbitrary
/// unit axis (negative axes included); the free joint has q = [x y z qw qx qy qz] (body origin in
/// the parent frame, unit quaternion of the body orientation) and v = [w; v] in body coordinates.
struct Joint {
  JointType type = JointType::Revolute;
  Vec3 axis = Vec3::UnitX();  ///< unit axis in the joint (child) frame; unused by Free

  int nq() const { return type == JointType::Free ? 7 : 1; }
  int nv() const { return type == JointType::Free ? 6 : 1; }

  /// Motion subspace column of a 1-DoF joint (constant in body coordinates).
  Vec6 subspace() const {
    Vec6 s = Vec6::Zero();
    if (type == JointType::Revolute) s.head<3>() = axis;
    else if (type == JointType::Prismatic) s.tail<3>() = axis;
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
    }
    return Transform();
  }
};

}  // namespace grbda
