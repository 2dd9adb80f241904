#pragma once
// Internal: per-joint helpers of the tree algorithms. A tree joint has either one coordinate
// (S a single column) or is free or spherical (S = the first nv columns of 1_6, body coordinates).
#include "gravity_bias.hpp"
#include "grbda/model.hpp"

namespace grbda::detail {

/// Column c of the joint's S_i in world coordinates, ^0X_i S_i e_c (Xa = ^iX_0): a free joint's
/// c-th unit motion, a 1-DoF joint's axis (c = 0).
inline Vec6 worldSubspaceColumn(const Body& b, const Transform& Xa, int c) {
  return Xa.applyInverse(b.joint.subspaceColumn(c));
}

/// S_i x_i for the joint's slice of a velocity-sized vector x.
inline Vec6 jointVelocity(const Body& b, const VecRef& x) {
  if (b.joint.type == JointType::Free) return x.segment<6>(b.vIndex);
  if (b.joint.type == JointType::Spherical) return (Vec6() << x.segment<3>(b.vIndex), Vec3::Zero()).finished();
  return b.joint.subspace() * x[b.vIndex];
}

}  // namespace grbda::detail
