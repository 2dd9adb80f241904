#pragma once
// `grbda simulate` in a world (cmd_simulate_world.cpp): the options that switch it on and the run.
#include <ostream>
#include <vector>

#include "args.hpp"

namespace grbda::cli {

/// --ground, --ground-height, --friction, --restitution, --contact-solver, --pd, --q-target.
std::vector<OptionSpec> worldOptions();
/// Any of worldOptions() given: simulate runs the library's Simulator.
bool usesWorld(const ParsedArgs& args);
/// `steps` steps of `dt` with the Simulator; prints the summary (text or --json).
int runWorldSimulation(const ParsedArgs& args, std::ostream& out, long steps, double dt);

}  // namespace grbda::cli
