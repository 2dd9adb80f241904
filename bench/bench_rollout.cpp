// Rollout scaling (Google Benchmark, real time): N = 8 rollouts of T = 500 steps of the Mini Cheetah
// standing on four frictional feet (bench/sim_scenarios.hpp: settled after a drop from 0.30 m
// under kp = 50, kd = 0.4, 1 ms steps, ADMM), each from the standing state with its own small
// velocity kick, on 1, 2 and 4 threads. The speed-up on T threads is time(1) / time(T); counters
// give simulator steps per second. The CPU column is the whole process's (every thread): equal CPU
// on 1 and T threads means the pool adds no work, so on T free cores the speed-up is T. A run on a
// busy machine measures the machine, not the pool.
#include <benchmark/benchmark.h>

#include "grbda/sim/rollout.hpp"
#include "sim_scenarios.hpp"

namespace {

constexpr int kRollouts = 8, kSteps = 500;

void standingRollouts(benchmark::State& state) {
  const grbda::Model model = grbda::loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  const grbda::Simulator sim = grbda::bench::cheetahScenario(model, "standing", grbda::ContactSolverType::ADMM);
  grbda::MatX q0(kRollouts, model.nq()), v0 = grbda::MatX::Zero(kRollouts, model.nv());
  for (int i = 0; i < kRollouts; ++i) {
    q0.row(i) = sim.q().transpose();
    v0.row(i) = sim.v().transpose();
    v0(i, 3) += 0.02 * i;  // a sideways kick of its own (body-frame x velocity)
  }
  grbda::RolloutSettings settings;
  settings.threads = static_cast<int>(state.range(0));
  std::vector<double> positions(size_t(kRollouts) * (kSteps + 1) * size_t(model.nq()));
  std::vector<double> velocities(size_t(kRollouts) * (kSteps + 1) * size_t(model.nv()));
  for (auto _ : state) {
    grbda::rollout(sim, q0, v0, kSteps, positions.data(), velocities.data(), {}, settings);
    benchmark::DoNotOptimize(positions.data());
  }
  state.counters["steps_per_s"] =
      benchmark::Counter(double(kRollouts) * kSteps * double(state.iterations()), benchmark::Counter::kIsRate);
}

BENCHMARK(standingRollouts)->Name("RolloutMiniCheetahStanding/threads")->Arg(1)->Arg(2)->Arg(4)->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
