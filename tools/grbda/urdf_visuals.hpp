#pragma once
// `grbda view`: the URDF `<visual>` elements of the model files, which the library does not keep
// (the dynamics need none): box, sphere, cylinder and mesh, with their `<origin>`, colour
// (`<material>` inline or named at the top of the file) and, for a mesh, the file it names found
// on disk (package://PKG/..., file://..., or relative to the URDF).
#include <string>
#include <vector>

#include "grbda/spatial/transform.hpp"

namespace grbda::cli {

struct UrdfVisual {
  std::string link;                ///< the link that carries it
  std::string type;                ///< "box", "sphere", "cylinder" or "mesh"
  Vec3 size = Vec3::Ones();        ///< box: full sizes; mesh: scale
  double radius = 0.0, length = 0.0;
  Transform origin;                ///< ^visual X_link
  bool hasColor = false;
  double rgba[4] = {0.7, 0.7, 0.7, 1.0};
  std::string meshFile;            ///< as written in the file (mesh)
  std::string meshPath;            ///< found on disk; empty when not found (mesh)
};

/// Every `<visual>` of every `<link>` of the XML files (files that are not URDF XML give none).
/// Malformed visuals are skipped with a line in `warnings`.
std::vector<UrdfVisual> readUrdfVisuals(const std::vector<std::string>& files, std::vector<std::string>& warnings);

/// Where a mesh file named in `urdfPath` is: package://PKG/REST looks for PKG/REST in the URDF's
/// directory and its ancestors (and for REST below an ancestor named PKG), file:// is a path, and
/// anything else is relative to the URDF's directory. Empty when no file is there.
std::string findMeshFile(const std::string& filename, const std::string& urdfPath);

}  // namespace grbda::cli
