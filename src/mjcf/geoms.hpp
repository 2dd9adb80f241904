#pragma once
// Internal: MJCF `<geom>`: collision shapes for the simulator and, where a body has no
// `<inertial>`, its mass as MuJoCo's inertiafromgeom computes it.
#include <tinyxml2.h>

#include <string>
#include <vector>

#include "mjcf/attributes.hpp"
#include "mjcf/reader.hpp"

namespace grbda::mjcf_detail {

/// Masses with their centres and rotational inertias, summed into one rigid body.
struct MassSum {
  struct Part {
    double m;
    Vec3 c;  ///< centre of mass
    Mat3 I;  ///< about c, in the summing frame's axes
  };
  std::vector<Part> parts;
  /// A part whose centre sits at pose.p, with inertiaAboutCentre in the pose's rotated axes.
  void add(double m, const Pose& pose, const Mat3& inertiaAboutCentre);
  /// The total mass, its centre and the inertia about it (parallel axis theorem).
  void result(double& mass, Vec3& com, Mat3& inertia) const;
};

/// pos and orientation of a geom or site, from the element or its default class.
Pose readPoseWithDefaults(const Attributes& a, const Compiler& c);

/// One `<geom>` of the body whose link is `link` (the body frame sits at bodyInLink in it): its
/// collision shape into r.collisions, its mass into `mass` (null: not counted).
void readGeom(Reader& r, const tinyxml2::XMLElement& e, const Defaults::Class* cls, const std::string& link,
              const Pose& bodyInLink, MassSum* mass);

}  // namespace grbda::mjcf_detail
