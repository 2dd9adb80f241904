#pragma once
// What the commands share between parsing and computing: the common option tables, the model
// named on the command line, and the state vectors (q, v, tau, qdd) with their defaults.
#include <string>
#include <vector>

#include "args.hpp"
#include "grbda/model.hpp"

namespace grbda::cli {

/// --json and --log-level: every command that loads a model has them.
std::vector<OptionSpec> outputOptions();
/// --gravity and --repeat: every dynamics command has them.
std::vector<OptionSpec> dynamicsOptions();

/// Applies --log-level, then loads the model file(s) given as positional arguments (several files
/// describe one robot), then applies --gravity. A missing or unreadable file is a ModelError
/// naming it (exit code 3); no model argument is a UsageError. Loops and couplings are treated
/// as `loops` says (loop_coordinates.hpp).
Model loadModelFromArgs(const ParsedArgs& args, LoopTreatment loops = LoopTreatment::Embed);
/// --loops, or `fallback` when it is not given.
LoopTreatment loopTreatmentFromArgs(const ParsedArgs& args, LoopTreatment fallback);

/// --loops embed|constrain|auto (fd, simulate): how the model's loops and couplings are solved.
OptionSpec loopsOption();

/// --q and --q-spanning: the positions, independent or of the spanning tree (one of the two).
std::vector<OptionSpec> configurationOptions();
/// --v, --tau, --a.
OptionSpec velocityVectorOption(const std::string& option);

/// Positions as given: independent (--q, nq values) or spanning (--q-spanning, nqSpanning values,
/// checked against the loops by the algorithms); the algorithms take either.
struct Configuration {
  VecX q;
  std::string key;  ///< "q" or "q_spanning": the JSON member that echoes it
};
/// --q, --q-spanning, or the neutral configuration when both are omitted (both given is a
/// UsageError); checked against nq / nqSpanning.
Configuration configurationFromArgs(const ParsedArgs& args, const Model& model);
/// A velocity-sized vector (--v, --tau, --a): zeros when omitted; checked against nv (or the
/// reduced nv of a model that keeps loops as constraint rows, see loop_coordinates.hpp).
VecX velocityVectorFromArgs(const ParsedArgs& args, const std::string& option, const Model& model);

/// A model that keeps loops as constraint rows (--loops constrain|auto) takes and reports
/// reduced coordinates — those of the embedded model — so that --loops never changes what the
/// numbers mean. These give the model's own vectors from what was typed (either size).
/// The model's positions (nq) from spanning ones (nqSpanning), picked by name; a position that
/// is not a spanning coordinate is a UsageError naming it and `context` ("with --method X").
VecX positionsFromSpanning(const Model& model, const VecX& qSpanning, const std::string& context);
VecX modelPositions(const Model& model, const VecX& q);
VecX modelVelocities(const Model& model, const VecX& q, const VecX& v);
VecX modelForces(const Model& model, const VecX& tau);
/// --repeat N (default 1).
long repeatCountFromArgs(const ParsedArgs& args);

}  // namespace grbda::cli
