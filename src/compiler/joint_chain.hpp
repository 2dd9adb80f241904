#pragma once
// Internal: one builder joint written as a chain of 1-DoF joints through massless links — how
// grbda states the joints whose motion subspace is not constant (URDF universal and planar joints,
// urdf/compound_joints.hpp) and balls inside loop clusters (compiler/expand_balls.cpp). Joint `n`
// gives joints `n::1` … `n::k`, one per coordinate in order, and links `n::1` … `n::k−1`: the
// first joint at n's origin from n's parent, each next one at the previous link's origin, the
// last ending at n's child. Every part keeps n's flags, limits and dynamics.
#include <set>
#include <string>
#include <vector>

#include "grbda/builder.hpp"

namespace grbda::detail {

/// Separator between the joint's name and the coordinate number ("::", SDFormat's reserved scope
/// separator, so no SDFormat-compatible name contains it).
inline constexpr const char* kChainSeparator = "::";

/// The kind and axis (joint frame) of one coordinate of the chain.
struct ChainCoordinate {
  JointKind kind;
  Vec3 axis;
};

/// The parts of a chain: its 1-DoF joints, parent first, and its massless links.
struct JointChain {
  std::vector<JointSpec> joints;
  std::vector<LinkSpec> links;
};

/// Joint `j` as the chain above. `linkNames`, `jointNames`: the names in use, extended by the
/// generated ones; a generated name already in use is a ModelError at j's line naming it.
JointChain jointChain(const JointSpec& j, const std::vector<ChainCoordinate>& coordinates,
                      std::set<std::string>& linkNames, std::set<std::string>& jointNames);

}  // namespace grbda::detail
