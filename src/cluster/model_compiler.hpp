#pragma once
// Internal: the second half of ModelBuilder::build() — from the spanning tree and the loop
// constraints to clusters (spec §3): union of the bodies on both branches of every constraint
// below its nearest common ancestor, validity checks, regular renumbering (cluster bodies
// contiguous, parents first), independent coordinates, constraint sets and cluster-joint types.
#include <map>
#include <string>
#include <vector>

#include "grbda/builder.hpp"

namespace grbda::detail {

/// The names of body b's joint coordinates (a free joint's seven positions and six velocities,
/// suffixed; otherwise the joint's name), appended to the two lists.
void appendCoordinateNames(const Body& b, std::vector<std::string>& positions, std::vector<std::string>& velocities);

struct ModelCompiler {
  /// `linkBody[l]`: body carrying link l (-1: ground); `linkPlacement[l]`: ^link X_body;
  /// `bodyJoint[i]`: the JointSpec of body i (tree numbering of `model` on entry).
  static void formClusters(Model& model, const ModelBuilder& builder, const std::map<std::string, size_t>& linkIndex,
                           const std::vector<int>& linkBody, const std::vector<Transform>& linkPlacement,
                           const std::vector<const JointSpec*>& bodyJoint);
  /// Splits the clusters `treatment` keeps as constraint rows into their bodies and records them
  /// as Model::loopConstraints (loop_constraints.cpp). `closedSpanning`: a closed spanning pose
  /// (the kept clusters' part of the new neutral configuration).
  static void keepLoopsAsConstraints(Model& model, LoopTreatment treatment, const VecX& closedSpanning);
};

}  // namespace grbda::detail
