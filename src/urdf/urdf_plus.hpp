#pragma once
// Internal: the URDF+ additions read with tinyxml2 (spec §3.5): top-level <loop> and
// <coupling> elements. Their meaning (and every check that needs the tree) is the builder's.
#include <vector>

#include "urdf/urdf_file.hpp"

namespace grbda::urdf_detail {

struct UrdfConstraints {
  std::vector<LoopSpec> loops;
  std::vector<CouplingSpec> couplings;
  std::vector<ConstraintSpec> mimics;  ///< one per joint with a <mimic> child
};

/// Reads every <loop>, <coupling> and joint <mimic> of a parsed file. Throws ModelError on syntax problems.
UrdfConstraints readUrdfConstraints(const UrdfFile& file);

}  // namespace grbda::urdf_detail
