#pragma once
// The scene of `grbda view`: the robot's structure (bodies with their cluster, rotors, frames,
// the link segments to draw) and, per configuration, the world placement of every body, frame,
// loop point and contact point, as JSON. The page only draws what this computes.
#include <optional>
#include <string>
#include <vector>

#include "grbda/model.hpp"
#include "method.hpp"

namespace grbda::cli {

struct ViewerPose {
  double t = 0.0;
  VecX q;             ///< independent or spanning positions
  std::string where;  ///< names the configuration in errors ("--q", "traj.csv:7")
  /// Contact forces of a simulated run: per touching link, 7 numbers (index into
  /// ViewerExtras::forceLinks, point x y z, force x y z; world coordinates).
  std::vector<double> forces = {};
};

/// A shape drawn on a body: a URDF `<visual>` or a collision shape of the model.
struct ViewerShape {
  std::string kind;  ///< "visual" or "collision"
  std::string type;  ///< "box", "sphere", "cylinder", "capsule" or "mesh"
  std::string link;  ///< the link named in the file
  int body = -1;     ///< the body it moves with (-1: the world)
  Transform placement;           ///< ^shape X_body
  Vec3 size = Vec3::Ones();      ///< box: full sizes; mesh: scale
  double radius = 0.0, length = 0.0;
  bool hasColor = false;
  double rgba[4] = {0.7, 0.7, 0.7, 1.0};
  int mesh = -1;  ///< index into ViewerExtras::meshes (type "mesh")
};

/// A mesh file carried by the page (base64), parsed there by three.js' loader for its format.
struct ViewerMesh {
  std::string format;  ///< "stl", "obj" or "dae"
  std::string base64;
};

/// What a page may show besides the robot's structure.
struct ViewerExtras {
  std::optional<double> groundHeight;  ///< a ground plane at this height (z up)
  std::vector<ViewerShape> visuals;     ///< URDF `<visual>` shapes (collision shapes come from the model)
  std::vector<ViewerMesh> meshes;
  std::vector<std::string> forceLinks;  ///< the links of ViewerPose::forces
};

/// The scene JSON. Unknown contact links are InputErrors; a configuration whose loops cannot be
/// closed is a NumericalError naming its `where`.
std::string viewerSceneJson(const Model& model, const std::vector<ViewerPose>& poses,
                            const std::vector<NamedPoint>& contacts, const ViewerExtras& extras = {});

}  // namespace grbda::cli
