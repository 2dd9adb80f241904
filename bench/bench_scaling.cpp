// Scaling studies (spec §8.1 serial chains, §8.2 A and B), on the generated URDF+ systems:
//   Chain:    C-ABA, projection, Lagrange, proximal (1 iteration), approximate ABA and C-EFPA vs
//             projected OSIM on geared (revolute_rotor_chain_N) and belt-pair
//             (revolute_belt_pair_chain_N) serial chains, N = 2..24;
//   Branch:   C-ABA, Lagrange, proximal (1 and 5 iterations), approximate ABA on b branches x d
//             sub-mechanisms of link+rotor, belt pair and four-bar on a floating base;
//   Locality: the same methods on two parallel branches of depth 5/10/20/40 closed by an explicit
//             transmission or an implicit connecting rod between their d_l-th links.
// Names: <Method>/<system file stem>, e.g. ClusterABA/revolute_rotor_chain_24. A system missing
// from the build directory's benchmark set and from models/generated is skipped with a note.
#include <iostream>

#include "grbda/errors.hpp"
#include "grbda/logging.hpp"
#include "support.hpp"

namespace {
using grbda::bench::generatedModelPath;
using grbda::bench::registerSystem;

const std::vector<std::string> kChainMethods = {"cluster_aba", "projection_fd", "lagrange_fd", "proximal_fd_1",
                                                "approximate_aba", "cluster_efpa", "projected_osim"};
const std::vector<std::string> kStudyMethods = {"cluster_aba", "lagrange_fd", "proximal_fd_1", "proximal_fd_5",
                                                "approximate_aba"};
int missing = 0;

void add(const std::string& stem, const std::vector<std::string>& methods) {
  const std::string path = generatedModelPath(stem);
  if (path.empty()) {
    ++missing;
    return;
  }
  // Fewer states for the many study systems: they cycle, and the cost per call is what counts.
  registerSystem(stem, grbda::loadUrdf(path), methods, 200, 0.1);
}
}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  // The approximate models warn once per implicit-loop cluster they leave unconstrained.
  grbda::setLogLevel(grbda::LogLevel::Error);
  try {
    for (int n : {2, 4, 6, 8, 12, 16, 20, 24}) {
      add("revolute_rotor_chain_" + std::to_string(n), kChainMethods);
      add("revolute_belt_pair_chain_" + std::to_string(n), kChainMethods);
    }
    for (int b : {1, 2, 4, 6}) {
      const std::string bs = std::to_string(b) + "_";
      for (int d = 1; d <= 10; ++d) add("revolute_rotor_branch_" + bs + std::to_string(d), kStudyMethods);
      for (int d = 1; d <= 7; ++d) add("revolute_rotor_pair_branch_" + bs + std::to_string(d), kStudyMethods);
      for (int d = 1; d <= 7; ++d) add("four_bar_branch_" + bs + std::to_string(d), kStudyMethods);
    }
    const std::vector<std::pair<int, std::vector<int>>> explicitSizes = {
        {5, {2, 4, 6, 8, 10}}, {10, {2, 4, 8, 12, 16}}, {20, {2, 6, 12, 20, 30}}, {40, {2, 8, 16, 28, 40}}};
    const std::vector<std::pair<int, std::vector<int>>> implicitSizes = {
        {5, {3, 5, 7, 9, 11}}, {10, {3, 5, 9, 13, 17}}, {20, {3, 7, 13, 21, 31}}, {40, {3, 9, 17, 29, 41}}};
    for (const auto& [depth, sizes] : explicitSizes)
      for (int l : sizes)
        add("parallel_chain_explicit_d" + std::to_string(depth) + "_l" + std::to_string(l), kStudyMethods);
    for (const auto& [depth, sizes] : implicitSizes)
      for (int l : sizes)
        add("parallel_chain_implicit_d" + std::to_string(depth) + "_l" + std::to_string(l), kStudyMethods);
  } catch (const std::exception& e) {
    std::cerr << "bench_scaling: " << e.what() << '\n';
    return 1;
  }
  if (missing > 0)
    std::cerr << "bench_scaling: " << missing
              << " systems not found (run tools/make_models.py --out <build>/bench/models benchmark-set)\n";
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
