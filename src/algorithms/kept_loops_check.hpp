#pragma once
// Internal: the refusal shared by the forward calls that do not solve kept loop rows.
#include <string>

#include "grbda/errors.hpp"
#include "grbda/model.hpp"

namespace grbda::detail {

/// A model that keeps loops as constraint rows (LoopTreatment::Constrain or Auto): its
/// coordinates are those of the open tree for the kept groups, so an unconstrained forward call
/// would silently return the open tree's motion. Refused, naming the calls that solve the rows.
inline void refuseKeptLoops(const Model& m, const char* algorithm) {
  if (m.keptLoopGroups().empty()) return;
  throw InputError(std::string(algorithm) + ": model '" + m.name() + "' keeps its loops as constraint rows (" +
                   std::to_string(m.keptLoopGroups().size()) + " group(s), first '" + m.keptLoopGroups().front().name +
                   "'), which " + algorithm + " does not solve; call constrainedForwardDynamics with "
                   "ConstraintModel(model) (the loop rows come first), or build the model with LoopTreatment::Embed");
}

}  // namespace grbda::detail
