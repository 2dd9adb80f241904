#include "commands.hpp"

#include "inputs.hpp"

namespace grbda::cli {

namespace {
const char* kVectorNote =
    "Vectors are comma-separated numbers in the order of the model's coordinate names (see "
    "`grbda info MODEL`), e.g. --q 0.1,0.2,-1e-3. The neutral configuration is all zeros with unit "
    "quaternions (qw = 1) for floating joints, except in a loop cluster whose zero pose does not close "
    "or is singular, which takes a closed pose found when the model was loaded. --q-spanning gives "
    "every joint of the spanning tree instead (the output of `grbda complete`). --method picks the "
    "algorithm; the approximate ones take the independent positions of the tree without the "
    "dependent bodies (rotors, belts, driven loop links).";
}  // namespace

const std::vector<Command>& commandTable() {
  static const std::vector<Command> table = {
      {"info", "MODEL... [options]", "bodies, joints, frames and coordinate names of a model",
       "Prints the robot name, source file, nq, nv, whether the base floats, every body with its "
       "joint, joint type, axis and parent, the frames, and the position and velocity names. Several "
       "files are loaded as one robot.",
       outputOptions(), runInfo},
      {"fd", "MODEL... [--q Q] [--v V] [--tau TAU] [--method M] [options]", "forward dynamics: accelerations qdd",
       std::string("Solves H(q) qdd = tau - C(q, v) for qdd. With --method proximal the JSON also "
                   "gives the solver's \"iterations\" and \"residual\" (max constraint violation). ") + kVectorNote,
       dynamicsCommandOptions("fd"), runForwardDynamics},
      {"id", "MODEL... [--q Q] [--v V] [--a QDD] [--method M] [options]", "inverse dynamics: generalized forces tau",
       std::string("Computes tau = H(q) qdd + C(q, v). ") + kVectorNote,
       dynamicsCommandOptions("id"), runInverseDynamics},
      {"mass-matrix", "MODEL... [--q Q] [--method M] [options]", "joint-space mass matrix H(q)",
       std::string("Computes the symmetric nv x nv mass matrix H(q); JSON gives it as an array of "
                   "rows. ") + kVectorNote,
       dynamicsCommandOptions("mass-matrix"), runMassMatrix},
      {"osim", "MODEL... [--q Q] --point LINK:X,Y,Z [--point ...] [--linear] [--method M] [options]",
       "inverse operational-space inertia of points on links",
       std::string("Computes Lambda^-1 = J H(q)^-1 J^T for the stacked Jacobians J of the points: per "
                   "point a 6-D block (angular rows first, axes of the link, reference point at the "
                   "point), or with --linear the 3-D block of the point's linear velocity. JSON gives "
                   "the matrix as an array of rows and names them in \"result_labels\" (LINK:wx ... "
                   "LINK:vz). ") + kVectorNote,
       dynamicsCommandOptions("osim"), runOsim},
      {"complete", "MODEL... [--q Q] [options]", "spanning-tree positions that close the loops",
       "Completes the independent positions --q to the positions of every joint of the spanning tree "
       "(Newton on the loop constraints, couplings applied) and prints them with their names (JSON: "
       "\"spanning_position_names\", \"result\"), ready for --q-spanning. Given --q-spanning, checks "
       "it and prints it back. Exit code 4 when the loops cannot be closed at this configuration.",
       completeOptions(), runComplete},
      {"bench", "[--robots R1,R2,...] [--quick] [options]", "time C-ABA, C-RNEA, C-EFPA against the baselines",
       "Times the cluster algorithms and the baselines of the papers (projection, Lagrange multipliers, "
       "proximal with 1 and 5 iterations, approximate rotor-free models, projected OSIM) on random valid "
       "states and prints median microseconds per call and the percentage relative to the cluster "
       "algorithm. Default robots: revolute_rotor_chain_12, revolute_belt_pair_chain_12, mini_cheetah, "
       "mit_humanoid, tello, jvrc1_humanoid. The OSIM end-effector is the deepest leaf link (one 6-D end-effector, as in the papers).",
       benchOptions(), runBench},
  };
  return table;
}

const Command* findCommand(const std::string& name) {
  for (const auto& c : commandTable())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace grbda::cli
