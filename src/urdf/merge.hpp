#pragma once
// Internal: one robot described by several URDF files (e.g. a trunk file and one file per leg).
#include <string>
#include <vector>

#include "urdf/urdf_file.hpp"

namespace grbda::urdf_detail {

struct MergedUrdf {
  std::string robotName;   ///< the first file's <robot name>
  std::string sourceFile;  ///< the first file (the builder's file for whole-model messages)
  std::vector<UrdfLink> links;
  std::vector<UrdfJoint> joints;
};

/// Union of the links and joints of all files. URDF wants every link a joint mentions declared
/// in the same file, so split files declare the links they attach to as bare `<link name="x"/>`
/// placeholders: a link may appear in several files as long as at most one of them gives it an
/// <inertial>. Any other repeated link name, and any repeated joint name, is a ModelError naming
/// both files and lines.
MergedUrdf mergeUrdfFiles(const std::vector<UrdfFile>& files);

/// True if following joints from parent to child can lead back to a link (urdfdom accepts some
/// such graphs and then leaks the cyclic tree it built, so they must not reach it).
bool jointsFormACycle(const MergedUrdf& merged);

/// One URDF document holding the merged links and joints (and the files' <material>s), for urdfdom.
std::string mergedXml(const std::vector<UrdfFile>& files, const MergedUrdf& merged);

}  // namespace grbda::urdf_detail
