#pragma once
// Internal: URDF <mimic joint="a" multiplier="m" offset="o"/> inside joint b, i.e.
// q_b = m q_a + o. It becomes a linear implicit constraint φ = q_b − m q_a − o over (q_a, q_b),
// so b is dependent and the offset is honoured (couplings have no offsets). The two joints form
// one cluster like any other constraint; the cluster's type is reported as "Mimic".
#include <tinyxml2.h>

#include <memory>
#include <string>

#include "grbda/builder.hpp"
#include "urdf/xml_values.hpp"

namespace grbda::urdf_detail {

/// φ = q_follower − multiplier q_leader − offset over (q_leader, q_follower) (also MJCF's linear
/// `<equality joint>`).
std::shared_ptr<const ImplicitConstraint> linearJointConstraint(double multiplier, double offset);

/// The constraint for joint `follower` carrying `mimic` (a <mimic> element).
ConstraintSpec readMimic(const ElementContext& at, const tinyxml2::XMLElement& mimic, const std::string& follower);

}  // namespace grbda::urdf_detail
