#pragma once
// Internal: MJCF frames. A pose is where a child frame sits in a parent frame (MuJoCo's pos and
// orientation attributes); `<compiler angle eulerseq>` say how the angles are written.
#include <tinyxml2.h>

#include <string>

#include "grbda/spatial/transform.hpp"
#include "math_constants.hpp"
#include "urdf/xml_values.hpp"

namespace grbda::mjcf_detail {

/// `<compiler>` settings that change what the numbers mean.
struct Compiler {
  bool degrees = true;           ///< angle="degree" (MuJoCo's default) or "radian"
  std::string eulerseq = "xyz";  ///< lower case: rotating axes; upper case: fixed axes
  enum class FromGeom { False, True, Auto } inertiaFromGeom = FromGeom::Auto;
  bool autolimits = true;        ///< limited="auto" means "limited when a range is given"
  int inertiaGroupLow = 0, inertiaGroupHigh = 5;  ///< `inertiagrouprange`
  double totalMass = -1.0;       ///< `settotalmass` (≤ 0: not set)
  double angleScale() const { return degrees ? detail::kPi / 180.0 : 1.0; }
};

/// A child frame in a parent frame: x_parent = R x_child + p.
struct Pose {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  static Pose translation(const Vec3& p) { return Pose{Mat3::Identity(), p}; }
  /// (*this) then `child`: the child's child in this pose's parent.
  Pose operator*(const Pose& child) const { return Pose{R * child.R, p + R * child.p}; }
  Pose inverse() const { return Pose{R.transpose(), -(R.transpose() * p)}; }
  /// As a joint origin (^child X_parent, spatial_v2's Plücker transform).
  Transform toTransform() const { return Transform(R.transpose(), p); }
};

/// The rotation of an element's frame from whichever of quat (w x y z), axisangle, euler, xyaxes,
/// zaxis it has (identity when none; ModelError when several).
Mat3 readOrientation(const urdf_detail::ElementContext& at, const tinyxml2::XMLElement& e, const Compiler& c);
/// pos and orientation of an element.
Pose readPose(const urdf_detail::ElementContext& at, const tinyxml2::XMLElement& e, const Compiler& c);
/// The rotation taking z onto the unit vector `z` by the shortest arc (MuJoCo's zaxis and fromto).
Mat3 rotationFromZ(const Vec3& z);

}  // namespace grbda::mjcf_detail
