#pragma once
// Internal: the URDF+ additions read with tinyxml2 (spec §3.5): top-level <loop> and
// <coupling> elements. Their meaning (and every check that needs the tree) is the builder's.
#include <vector>

#include "urdf/urdf_file.hpp"

namespace grbda::urdf_detail {

struct UrdfConstraints {
  std::vector<LoopSpec> loops;
  std::vector<CouplingSpec> couplings;
  std::vector<ConstraintSpec> mimics;  ///< one per moving joint with a <mimic> child
  /// `<mimic>`s on fixed joints (left behind when a model was reduced, as in Talos's reduced
  /// files): ignored with a warning; joints[0] is the leader, checked to exist by the loader.
  std::vector<ConstraintSpec> ignoredMimics;
};

/// Reads every <loop>, <coupling> and joint <mimic> of a parsed file (a <mimic> on a fixed joint
/// is syntax-checked, logged and set aside). Throws ModelError on syntax problems.
UrdfConstraints readUrdfConstraints(const UrdfFile& file);

}  // namespace grbda::urdf_detail
