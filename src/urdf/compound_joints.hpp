#pragma once
// Internal: URDF+ joints with more than one coordinate that grbda builds from its 1-DoF joints
// (docs/urdf-plus.md, "Universal and planar joints"):
//   type="universal" (SDFormat): `<axis>`, `<axis2>` in the joint frame, q = [q1, q2],
//       child = X_T · Rot(axis, q1) · Rot(axis2, q2)      (axis2 turns with the first angle)
//   type="planar" (URDF): motion in the plane normal to `<axis>`, q = [x, y, θ],
//       child = X_T · Trans(x e1 + y e2) · Rot(axis, θ)
// A library joint has a constant motion subspace and these do not, so the reader expands each
// into a chain of revolute/prismatic joints joined by massless, inertia-free links at the joint
// origin (compiler/joint_chain.hpp): joint `n` gives joints `n::1`, `n::2`(, `n::3`) — one per
// coordinate, in the order of q — and intermediate links `n::1`(, `n::2`).
#include <tinyxml2.h>

#include <utility>

#include "urdf/merge.hpp"
#include "urdf/xml_values.hpp"

namespace grbda::urdf_detail {

/// Reads what a universal or planar joint adds to a 1-DoF joint (`<axis2>`) and checks its axes
/// and elements; ModelError naming the file, the line of the offending element and the joint for a
/// missing `<axis2>`, a zero or parallel axis, a `<limit lower/upper>` on a planar joint or a `<mimic>`.
void readCompoundJoint(const ElementContext& at, const tinyxml2::XMLElement& e, UrdfJoint& joint);

/// The in-plane unit directions (e1, e2) of a planar joint with unit normal n: e1 = the joint
/// frame's x axis projected into the plane (its y axis when x is parallel to n), e2 = n × e1.
std::pair<Vec3, Vec3> planarDirections(const Vec3& n);

/// The merged robot with every universal and planar joint replaced by its chain (see above).
/// ModelError at the joint's line when a generated name is already a link or joint of the robot.
MergedUrdf expandCompoundJoints(const MergedUrdf& merged);

}  // namespace grbda::urdf_detail
