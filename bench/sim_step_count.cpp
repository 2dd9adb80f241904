// Runs N simulator steps of a scenario, for instruction counts (tools/count_sim_instructions.sh):
//   sim_step_count MODEL standing|falling admm|pgs|compliant N
// The per-step count is (count(N) − count(1)) / (N − 1), so loading and settling cancel.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim_scenarios.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: sim_step_count MODEL standing|falling admm|pgs|compliant N\n");
    return 2;
  }
  const grbda::Model model = grbda::loadUrdf(argv[1]);
  grbda::Simulator sim = grbda::bench::cheetahScenario(model, argv[2], grbda::contactSolverFromName(argv[3]));
  const int n = std::atoi(argv[4]);
  long iterations = 0;
  for (int i = 0; i < n; ++i) iterations += sim.step().solver.iterations;
  std::printf("%d steps, %zu contacts, mean solver iterations %.2f, torso z %.4f\n", n, sim.lastStep().contacts.size(),
              static_cast<double>(iterations) / n, sim.q()[2]);
  return 0;
}
