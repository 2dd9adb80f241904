// Per-robot timings of the papers' Tables II-IV: C-RNEA vs projected / approximate RNEA, C-ABA vs
// projection / Lagrange / proximal (1 and 5 iterations) / approximate ABA, C-EFPA vs projected
// OSIM, and the mass matrix, on the six robots. Names: <Method>/<robot>, e.g. ClusterABA/mini_cheetah.
// Each benchmark cycles through 1000 random valid states.
#include <iostream>

#include "grbda/errors.hpp"
#include "grbda/logging.hpp"
#include "support.hpp"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  // The approximate models warn once per implicit-loop cluster they leave unconstrained.
  grbda::setLogLevel(grbda::LogLevel::Error);
  try {
    for (const std::string& name : grbda::bench::defaultRobotNames())
      grbda::bench::registerSystem(name, grbda::bench::loadRobot(name, grbda::bench::repoModelsDir()));
  } catch (const std::exception& e) {
    std::cerr << "bench_robots: " << e.what() << '\n';
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
