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
/// naming it (exit code 3); no model argument is a UsageError.
Model loadModelFromArgs(const ParsedArgs& args);

/// --q, or the neutral configuration when omitted; checked against nq.
VecX configurationFromArgs(const ParsedArgs& args, const Model& model);
/// A velocity-sized vector (--v, --tau, --a): zeros when omitted; checked against nv.
VecX velocityVectorFromArgs(const ParsedArgs& args, const std::string& option, const Model& model);
/// --repeat N (default 1).
long repeatCountFromArgs(const ParsedArgs& args);

}  // namespace grbda::cli
