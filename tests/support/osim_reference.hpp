#pragma once
// Test support for the operational-space inertia tests (exact and approximate models): the
// pieces of the independent answer J H⁻¹ Jᵀ that do not depend on which H is used.
#include <string>
#include <vector>

#include "grbda/algorithms/osim.hpp"
#include "grbda/grbda.hpp"

namespace grbda::testsupport {

struct NamedModel {
  std::string name;
  Model model;
};

/// Frames attached to a moving body.
inline std::vector<int> movingFrames(const Model& model) {
  std::vector<int> frames;
  for (int f = 0; f < static_cast<int>(model.frames().size()); ++f)
    if (model.frame(f).body >= 0) frames.push_back(f);
  return frames;
}

/// The end-effectors' frame Jacobians (Local axes at each point) stacked, the linear rows only
/// when `rows` = 3; the kinematics of `data` must be up to date.
inline MatX stackedJacobian(const Model& model, Data& data, const std::vector<EndEffector>& ees, int rows) {
  MatX J(rows * static_cast<int>(ees.size()), model.nv());
  Mat6X Je;
  for (size_t e = 0; e < ees.size(); ++e) {
    frameJacobian(model, data, ees[e].frame, ees[e].point, ReferenceFrame::Local, Je);
    J.middleRows(rows * static_cast<int>(e), rows) = Je.bottomRows(rows);
  }
  return J;
}

}  // namespace grbda::testsupport
