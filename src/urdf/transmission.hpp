#pragma once
// Internal: `<transmission>` elements (ROS, ros_control, Drake) turned into exact rotors.
//
// A transmission that carries a rotor inertia (Drake's `<drake:rotor_inertia value="..."/>`)
// becomes what a URDF+ author writes by hand for a geared motor: a rotor link spinning about the
// joint axis, attached to the joint's parent link at the joint's origin by a dependent
// continuous joint, and a `<coupling>` rotor = ratio · joint. The rotor is a thin disc: the rotor
// inertia about its axis, half of it about the two transverse axes, centred on the axis, massless
// unless `<rotor_mass value="..."/>` (a grbda extension) gives a mass. The ratio is
// `drake:gear_ratio` where given, else `mechanicalReduction` (under the actuator as ros_control
// writes it, or directly under the transmission as the old pr2 format does), else 1.
// Transmissions without a rotor inertia change nothing, and are not checked beyond the XML.
#include <tinyxml2.h>

#include <string>
#include <vector>

#include "urdf/merge.hpp"

namespace grbda::urdf_detail {

/// One transmission with a rotor inertia, as read from the file (values checked, joint not resolved).
struct RotorTransmission {
  std::string name;    ///< the transmission's name
  std::string joint;   ///< the joint it drives
  double ratio = 1.0;  ///< q_rotor = ratio · q_joint
  double rotorInertia = 0.0;  ///< about the rotor's spin axis (> 0)
  double rotorMass = 0.0;     ///< 0 unless given
  SourceLocation where;       ///< the `<transmission>` element
  SourceLocation jointWhere;  ///< its `<joint>` element
};

/// The transmissions of a file that carry a rotor inertia. ModelError (file, line, element) for a
/// negative rotor inertia or mass, a zero ratio, an unreadable number, or a rotor transmission that
/// does not name exactly one joint.
std::vector<RotorTransmission> readRotorTransmissions(const UrdfFile& file);

/// Adds each rotor (link, dependent joint and coupling) to the builder. ModelError for a joint
/// that does not exist or gets two rotors; a fixed or floating joint's rotor is ignored with a
/// warning naming the joint.
void addRotors(ModelBuilder& builder, const MergedUrdf& merged, const std::vector<RotorTransmission>& rotors);

}  // namespace grbda::urdf_detail
