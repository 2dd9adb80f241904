#pragma once
// Collision meshes as their convex hulls: the vertices of an STL (binary or ASCII) or Wavefront OBJ
// file, and the hull of a point set (incremental; Preparata–Hong / de Berg et al. §11). The
// simulator takes a mesh as this hull: its vertices meet the ground and static boxes in closed form
// (as a box's corners do), and FCL meets it against other shapes (collision/self_collision.hpp).
#include <memory>
#include <string>
#include <vector>

#include "grbda/physics.hpp"

namespace grbda {

/// The vertices of the mesh file at `path` (STL binary or ASCII, OBJ `v` lines), each scaled per
/// axis by `scale` (URDF `<mesh scale>`; a negative component mirrors the part). InputError naming
/// the file when a scale component is zero or not finite, it cannot be opened, its extension is not
/// .stl or .obj, or it is truncated or has no vertex.
std::vector<Vec3> readMeshVertices(const std::string& path, const Vec3& scale = Vec3::Ones());

/// The convex hull of `points` (duplicates and interior points dropped; coplanar points on a face
/// may stay as vertices). InputError naming `source` when the points are fewer than four, not
/// finite, or all on one plane (a flat mesh has no volume to collide with).
std::shared_ptr<const ConvexHull> convexHull(const std::vector<Vec3>& points, const std::string& source = {});

/// convexHull(readMeshVertices(path, scale), path).
std::shared_ptr<const ConvexHull> loadMeshHull(const std::string& path, const Vec3& scale = Vec3::Ones());

}  // namespace grbda
