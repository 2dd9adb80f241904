// Simulator steps per second (Google Benchmark): the Mini Cheetah standing on four frictional feet
// and falling, with each contact solver. Instruction counts: tools/count_sim_instructions.sh.
#include <benchmark/benchmark.h>

#include "sim_scenarios.hpp"

namespace {

void step(benchmark::State& state, const std::string& scenario, grbda::ContactSolverType solver) {
  const grbda::Model model = grbda::loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  grbda::Simulator sim = grbda::bench::cheetahScenario(model, scenario, solver);
  for (auto _ : state) benchmark::DoNotOptimize(sim.step().solver.iterations);
}

BENCHMARK_CAPTURE(step, MiniCheetahStanding_admm, "standing", grbda::ContactSolverType::ADMM);
BENCHMARK_CAPTURE(step, MiniCheetahStanding_pgs, "standing", grbda::ContactSolverType::PGS);
BENCHMARK_CAPTURE(step, MiniCheetahStanding_compliant, "standing", grbda::ContactSolverType::Compliant);
BENCHMARK_CAPTURE(step, MiniCheetahFalling, "falling", grbda::ContactSolverType::ADMM);

}  // namespace

BENCHMARK_MAIN();
