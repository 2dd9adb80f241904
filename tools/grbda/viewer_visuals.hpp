#pragma once
// `grbda view`: the URDF `<visual>` shapes of the model files as the page draws them (on the bodies
// of the model), and the mesh files they name (.stl, .obj, .dae) with three.js' loaders.
#include <string>
#include <vector>

#include "grbda/model.hpp"
#include "viewer_scene.hpp"

namespace grbda::cli {

/// Adds the visuals of `files` to extras.visuals (placed on the model's bodies through their link
/// frames) and the mesh files found to extras.meshes; returns the loader scripts the meshes need
/// (three.js' examples next to `threePath`). What cannot be drawn — an unknown link, a missing mesh
/// file, a format or loader that is not there — is a line in `warnings`, not an error.
std::string addVisuals(const std::vector<std::string>& files, const Model& model, const std::string& threePath,
                       ViewerExtras& extras, std::vector<std::string>& warnings);

}  // namespace grbda::cli
