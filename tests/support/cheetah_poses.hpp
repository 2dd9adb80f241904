#pragma once
// The Mini Cheetah crouched: torso at `height`, every leg at (abad, hip, knee) = (0, -1, 2) rad,
// found by coordinate name (the simulator tests start from it).
#include <string>

#include "grbda/model.hpp"

namespace grbda::testsupport {

inline VecX crouched(const Model& model, double height) {
  VecX q = model.neutralConfiguration();
  q[2] = height;
  for (int i = 0; i < model.nq(); ++i) {
    const std::string& name = model.positionNames()[static_cast<size_t>(i)];
    if (name.find("abad_to_hip") != std::string::npos) q[i] = -1.0;
    if (name.find("hip_to_knee") != std::string::npos) q[i] = 2.0;
  }
  return q;
}

}  // namespace grbda::testsupport
