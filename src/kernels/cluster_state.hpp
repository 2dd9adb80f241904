#pragma once
// Internal: what every cluster algorithm does first — take the configuration (independent or
// spanning positions), bring data.qSpan up to date, and run the cluster kinematics pass (spec
// §6.1: every cluster joint updates its bodies' transforms, S, v and c).
#include "gravity_bias.hpp"
#include "grbda/data.hpp"

namespace grbda::detail {

/// q has model.nq() (independent) or model.nqSpanning() (spanning) entries. Independent
/// positions are completed (Newton for implicit loops); spanning ones are checked against the
/// constraints (|φ| < 1e-8). Throws InputError / NumericalError.
void setConfiguration(const Model& model, Data& data, const VecRef& q, const char* algorithm);

/// Cluster forward kinematics at data.qSpan; with v (independent velocities) also v, c, vSpan.
void clusterKinematics(const Model& model, Data& data, const VecRef* v, const char* algorithm);

/// Validates (q, v) and runs both steps.
void prepareState(const Model& model, Data& data, const VecRef& q, const VecRef* v, const char* algorithm);

}  // namespace grbda::detail
