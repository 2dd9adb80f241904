#pragma once
// Internal: the calls that read C-RNEA's transmitted forces (data.f) after inverseDynamics check
// that f belongs to the Data's current state, not to an earlier call's or to another algorithm's.
#include <string>

#include "grbda/data.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

inline void checkRneaForces(const Data& data, const char* algorithm) {
  const DataWorkspace& ws = data.work();
  if (ws.rneaForcesVersion == 0 || ws.rneaForcesVersion != ws.kinematicsVersion)
    throw InputError(std::string(algorithm) +
                     ": call inverseDynamics first with this Data (it holds no C-RNEA forces for its current "
                     "state: another call has run since, or none yet)");
}

}  // namespace grbda::detail
