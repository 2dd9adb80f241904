#include "commands.hpp"

#include "inputs.hpp"

namespace grbda::cli {

namespace {
std::vector<OptionSpec> concat(std::vector<std::vector<OptionSpec>> groups) {
  std::vector<OptionSpec> all;
  for (auto& g : groups) all.insert(all.end(), g.begin(), g.end());
  return all;
}

const OptionSpec kQ{"--q", "VALUES", "positions, comma-separated, nq values (default: the neutral configuration)"};
const OptionSpec kV{"--v", "VALUES", "velocities, nv values (default: zeros)"};
const OptionSpec kTau{"--tau", "VALUES", "generalized forces, nv values (default: zeros)"};
const OptionSpec kA{"--a", "VALUES", "accelerations qdd, nv values (default: zeros)"};

const char* kVectorNote =
    "Vectors are comma-separated numbers in the order of the model's coordinate names (see "
    "`grbda info MODEL`), e.g. --q 0.1,0.2,-1e-3. The neutral configuration is all zeros with unit "
    "quaternions (qw = 1) for floating joints.";
}  // namespace

const std::vector<Command>& commandTable() {
  static const std::vector<Command> table = {
      {"info", "MODEL... [options]", "bodies, joints, frames and coordinate names of a model",
       "Prints the robot name, source file, nq, nv, whether the base floats, every body with its "
       "joint, joint type, axis and parent, the frames, and the position and velocity names. Several "
       "files are loaded as one robot.",
       outputOptions(), runInfo},
      {"fd", "MODEL... [--q Q] [--v V] [--tau TAU] [options]", "forward dynamics: accelerations qdd",
       std::string("Solves H(q) qdd = tau - C(q, v) for qdd. ") + kVectorNote,
       concat({{kQ, kV, kTau}, dynamicsOptions(), outputOptions()}), runForwardDynamics},
      {"id", "MODEL... [--q Q] [--v V] [--a QDD] [options]", "inverse dynamics: generalized forces tau",
       std::string("Computes tau = H(q) qdd + C(q, v). ") + kVectorNote,
       concat({{kQ, kV, kA}, dynamicsOptions(), outputOptions()}), runInverseDynamics},
      {"mass-matrix", "MODEL... [--q Q] [options]", "joint-space mass matrix H(q)",
       std::string("Computes the symmetric nv x nv mass matrix H(q); JSON gives it as an array of "
                   "rows. ") + kVectorNote,
       concat({{kQ}, dynamicsOptions(), outputOptions()}), runMassMatrix},
  };
  return table;
}

const Command* findCommand(const std::string& name) {
  for (const auto& c : commandTable())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace grbda::cli
