#pragma once
// A Simulator as bytes and back (Python pickle, a distributed worker): its model (by its source,
// model_source.hpp), world, options and the whole state a step depends on — q, v, time, held
// torque, PD gains and targets, the previous step's contact impulses (the solver's warm start),
// the closed spanning pose position completion starts from, the last step's result and any
// recording — so a restored simulator steps to the same bits as the original would have.
// Not saved: the controller (code; set it again after restoring).
#include <string>

#include "grbda/sim/simulator.hpp"

namespace grbda {

/// The simulator as bytes. ModelError if its model cannot be serialised (serializeModel).
std::string serializeSimulator(const Simulator& sim);
/// A simulator restored from serializeSimulator's bytes, without a controller. InputError for
/// bytes that are not such an archive.
Simulator deserializeSimulator(const std::string& bytes);

}  // namespace grbda
