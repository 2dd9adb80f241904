#pragma once
// Shared by the Google Benchmark programs: where the models are, and one benchmark per
// (method, system) over a fixed set of random valid states (bench/bench_suite.hpp), so the
// numbers match `grbda bench` method for method.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_suite.hpp"
#include "grbda/urdf/urdf.hpp"

namespace grbda::bench {

/// The repository's models/ ($GRBDA_MODELS_DIR overrides).
inline std::string repoModelsDir() {
  if (const char* env = std::getenv("GRBDA_MODELS_DIR"); env && *env) return env;
  return std::string(GRBDA_SOURCE_DIR) + "/models";
}

/// A generated system by file stem: the build directory's benchmark set first, then the
/// committed models/generated/. "" when neither has it.
inline std::string generatedModelPath(const std::string& stem) {
  namespace fs = std::filesystem;
  for (const std::string& dir : {std::string(GRBDA_BENCH_MODELS_DIR), repoModelsDir() + "/generated"}) {
    const std::string path = dir + "/" + stem + ".urdf";
    if (fs::is_regular_file(path)) return path;
  }
  return "";
}

/// Google Benchmark name of a method key: cluster_aba -> ClusterABA, proximal_fd_5 -> Proximal5FD.
inline std::string benchmarkName(const std::string& key) {
  static const std::vector<std::pair<std::string, std::string>> names = {
      {"cluster_rnea", "ClusterRNEA"},     {"projected_rnea", "ProjectedRNEA"},
      {"approximate_rnea", "ApproximateRNEA"}, {"cluster_aba", "ClusterABA"},
      {"projection_fd", "ProjectionFD"},   {"lagrange_fd", "LagrangeFD"},
      {"proximal_fd_1", "Proximal1FD"},    {"proximal_fd_5", "Proximal5FD"},
      {"approximate_aba", "ApproximateABA"}, {"cluster_efpa", "ClusterEFPA"},
      {"projected_osim", "ProjectedOSIM"}, {"approximate_osim", "ApproximateOSIM"},
      {"mass_matrix", "ClusterCRBA"},      {"projected_mass_matrix", "ProjectedCRBA"},
      {"approximate_mass_matrix", "ApproximateCRBA"}};
  for (const auto& [k, n] : names)
    if (k == key) return n;
  return key;
}

/// A system under benchmark and its states; kept alive for the whole run.
struct System {
  std::unique_ptr<RobotBench> robot;
  std::vector<State> states;
};

inline std::vector<std::unique_ptr<System>>& systems() {
  static std::vector<std::unique_ptr<System>> all;
  return all;
}

/// Registers "<Method>/<label>" for every method in `keys` (all methods when empty). Every
/// iteration is one call on the next state, cycling through `numStates` random states. Each
/// benchmark reports nv and the cost per call; the label of the system is in the name.
inline void registerSystem(const std::string& label, Model model, const std::vector<std::string>& keys = {},
                           int numStates = 1000, double minTime = 0.0) {
  auto sys = std::make_unique<System>();
  sys->robot = std::make_unique<RobotBench>(label, std::move(model));
  std::mt19937 rng(12345u);
  sys->states = randomStates(sys->robot->model(), numStates, rng);
  System* s = sys.get();
  systems().push_back(std::move(sys));
  for (const Method& m : s->robot->methods()) {
    if (!keys.empty() && std::find(keys.begin(), keys.end(), m.key) == keys.end()) continue;
    const Method* method = &m;
    auto* b = benchmark::RegisterBenchmark((benchmarkName(m.key) + "/" + label).c_str(),
                                           [s, method](benchmark::State& st) {
                                             size_t i = 0;
                                             for (auto _ : st) {
                                               method->run(s->states[i]);
                                               if (++i == s->states.size()) i = 0;
                                             }
                                             st.counters["nv"] = s->robot->model().nv();
                                           });
    b->Unit(benchmark::kMicrosecond);
    if (minTime > 0) b->MinTime(minTime);
  }
}

}  // namespace grbda::bench
