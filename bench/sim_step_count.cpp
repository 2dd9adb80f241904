// Runs simulator steps of a scenario, for instruction counts (tools/count_sim_instructions.sh):
//   sim_step_count MODEL standing|falling admm|pgs|compliant N
//       N steady-state steps; per step: (count(N) − count(1)) / (N − 1), so loading and settling cancel
//   sim_step_count MODEL drop admm|pgs|compliant N
//       the drop from 0.30 m, N steps; under callgrind every step dumps its own counts (one file per
//       step: the cost of each step through the fall, touchdown and landing), and a line per step
//       gives the contacts and the solver's iterations
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim_scenarios.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: sim_step_count MODEL standing|falling|drop admm|pgs|compliant N\n");
    return 2;
  }
  const grbda::Model model = grbda::loadUrdf(argv[1]);
  const std::string scenario = argv[2];
  const bool drop = scenario == "drop";
  grbda::Simulator sim =
      grbda::bench::cheetahScenario(model, drop ? "falling" : scenario, grbda::contactSolverFromName(argv[3]));
  if (drop) sim.setState(grbda::bench::crouchedCheetah(model, 0.30), grbda::VecX::Zero(model.nv()));
  const int n = std::atoi(argv[4]);
  long iterations = 0;
  if (drop) CALLGRIND_ZERO_STATS;
  for (int i = 0; i < n; ++i) {
    const grbda::StepResult& r = sim.step();
    iterations += r.solver.iterations;
    if (!drop) continue;
    CALLGRIND_DUMP_STATS;
    std::printf("step %d t %.3f contacts %zu rows %d iterations %d normal_force_sum %.3f torso_z %.5f\n", i, sim.time(),
                r.contacts.size(), r.solver.rows, r.solver.iterations, r.normalForceSum(), sim.q()[2]);
  }
  std::printf("%d steps, %zu contacts, mean solver iterations %.2f, torso z %.4f\n", n, sim.lastStep().contacts.size(),
              static_cast<double>(iterations) / n, sim.q()[2]);
  return 0;
}
