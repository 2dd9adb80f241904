#pragma once
// Internal: the standard URDF parser (urdfdom) reads the same robot. We accept only files it
// accepts, and its reading of the tree (links, joints, parents, types, origins, axes, inertias)
// must agree with ours.
#include <string>

#include "urdf/merge.hpp"

namespace grbda::urdf_detail {

/// Parses `xml` with urdfdom. On success compares its model with `merged` (ModelError naming the
/// element on disagreement) and returns true. On failure returns false and sets `messages` to
/// urdfdom's error messages, which are captured instead of being printed to the console.
bool checkWithUrdfdom(const std::string& xml, const MergedUrdf& merged, std::string& messages);

}  // namespace grbda::urdf_detail
