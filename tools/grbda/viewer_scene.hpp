#pragma once
// The scene of `grbda view`: the robot's structure (bodies with their cluster, rotors, frames,
// the link segments to draw) and, per configuration, the world placement of every body, frame,
// loop point and contact point, as JSON. The page only draws what this computes.
#include <string>
#include <vector>

#include "grbda/model.hpp"
#include "method.hpp"

namespace grbda::cli {

struct ViewerPose {
  double t = 0.0;
  VecX q;             ///< independent or spanning positions
  std::string where;  ///< names the configuration in errors ("--q", "traj.csv:7")
};

/// The scene JSON. Unknown contact links are InputErrors; a configuration whose loops cannot be
/// closed is a NumericalError naming its `where`.
std::string viewerSceneJson(const Model& model, const std::vector<ViewerPose>& poses,
                            const std::vector<NamedPoint>& contacts);

}  // namespace grbda::cli
