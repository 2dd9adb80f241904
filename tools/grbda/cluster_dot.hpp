#pragma once
// `grbda info --dot`: the cluster tree as a Graphviz graph (pipe it to `dot -Tsvg`).
#include <ostream>
#include <string>

#include "grbda/model.hpp"

namespace grbda::cli {

/// The root link of the URDF: the first frame attached to the ground (body -1), or "world".
std::string groundName(const Model& model);

/// Clusters as boxes (`subgraph cluster_k`) holding their bodies; one thick edge per cluster joint
/// from the output body (or the ground) to the cluster's box, labelled with its type; the other
/// spanning-tree joints of the cluster's bodies as thin edges; every loop (URDF+ <loop>) as a
/// dashed edge between the bodies it joins. Dependent bodies (rotors, passive links) are grey.
void writeClusterTreeDot(std::ostream& out, const Model& model);

}  // namespace grbda::cli
