#pragma once
// The simulator's benchmark scenarios (bench_simulator, sim_step_count): the Mini Cheetah with its
// four 0.02 m foot spheres under a joint PD (kp = 50, kd = 0.4), standing on the ground after a
// drop from 0.30 m, or falling from 10 m (no contact), 1 ms steps.
#include <string>

#include "grbda/grbda.hpp"
#include "grbda/sim/simulator.hpp"

namespace grbda::bench {

inline VecX crouchedCheetah(const Model& model, double height) {
  VecX q = model.neutralConfiguration();
  q[2] = height;
  const auto& names = model.positionNames();
  for (int i = 0; i < model.nq(); ++i) {
    if (names[static_cast<size_t>(i)].find("abad_to_hip") != std::string::npos) q[i] = -1.0;
    if (names[static_cast<size_t>(i)].find("hip_to_knee") != std::string::npos) q[i] = 2.0;
  }
  return q;
}

/// A simulator in the named scenario ("standing": settled on four feet; "falling": in the air),
/// ready for steady-state steps.
inline Simulator cheetahScenario(const Model& model, const std::string& scenario, ContactSolverType solver) {
  SimulatorOptions options;
  options.solver.type = solver;
  Simulator sim(model, World(), options);
  const bool standing = scenario == "standing";
  sim.setState(crouchedCheetah(model, standing ? 0.30 : 10.0), VecX::Zero(model.nv()));
  sim.setPd(50.0, 0.4);
  if (standing) sim.step(1500);  // land and settle
  return sim;
}

}  // namespace grbda::bench
