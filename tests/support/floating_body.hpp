#pragma once
// Test support: a single free-floating rigid body carrying one collision shape — the simplest
// scene for contact tests (a box on a ramp, a ball dropped, a mesh hull against its box).
#include "grbda/grbda.hpp"

namespace grbda::testsupport {

/// Rotational inertia of a solid box of mass m and edge lengths `size` about its centre.
inline Mat3 boxInertia(double m, const Vec3& size) {
  const Vec3 s2 = size.cwiseProduct(size);
  return (m / 12.0 * Vec3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y())).asDiagonal();
}

/// Link "body" (mass m, `inertia` about its origin = its centre of mass) on a free joint "float"
/// from "world", with `shape` centred at its origin.
inline Model floatingBody(double m, const Mat3& inertia, const CollisionShape& shape) {
  ModelBuilder b("body");
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  b.addLink(LinkSpec{"body", m, Vec3::Zero(), inertia, {}});
  JointSpec j;
  j.name = "float";
  j.kind = JointKind::Floating;
  j.parent = "world";
  j.child = "body";
  b.addJoint(j);
  CollisionSpec c;
  c.link = "body";
  c.shape = shape;
  b.addCollision(c);
  return b.build();
}

}  // namespace grbda::testsupport
