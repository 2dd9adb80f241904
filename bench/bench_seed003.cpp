// Seed 003's experiments (issue #12, bench/RESULTS.md "Seed 003"), on the robots of
// seed003_models.hpp built in code. Names:
//   Table/<robot>/<set>/<method>   Table II: iiwa (0, H3, H), go1 (0, F3 … 4F3), atlas and talos
//                                  (0, F, 2F, 2F+H, 2F+2H), and the bundled mini_cheetah,
//                                  mit_humanoid, jvrc1_humanoid with exact rotors
//   Chain/<method>/<N>             chains of N = 6 … 100 revolute joints (z/y axes), 6-D tip weld
//                                  (TreeABA, CABA without it; KDL = KDL's Vereshchagin solver)
//   Ladder/<method>/<M>            the ladder with M rungs, every rung tip welded
//   Stem/<method>/<S>/<B>          the stem of S links with B branches of 7 links per end, welded
// Methods: CABA (forwardDynamics, no constraints), every constrained solver of the paper's table
// this build has (PV, PV-e, LTL, PV-s, LTL-s — by name, so solvers of other branches appear once
// merged), KKT (ours, dense), EFPA (Λ⁻¹ of the welded links by C-EFPA, stem only). Each
// benchmark cycles through 16 pseudo-random states.
#include <benchmark/benchmark.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "seed003_models.hpp"
#ifdef GRBDA_HAVE_KDL
#include "seed003_kdl.hpp"
#endif

namespace {

using namespace grbda;
using namespace grbda::seed003;

using Shared = std::shared_ptr<const Problem>;

std::size_t next(std::size_t s, const Problem& p) { return (s + 1) % p.q.size(); }

void registerAba(const std::string& name, const Shared& p) {
  benchmark::RegisterBenchmark(name.c_str(), [p](benchmark::State& st) {
    Data data(*p->model);
    std::size_t s = 0;
    for (auto _ : st) {
      benchmark::DoNotOptimize(forwardDynamics(*p->model, data, p->q[s], p->v[s], p->tau[s]).data());
      s = next(s, *p);
    }
  });
}

/// Registers `name` for `solver` unless the solver rejects the problem (then says why once).
void registerSolver(const std::string& name, const Shared& p, ConstraintSolver solver) {
  ConstraintSolverSettings settings;
  settings.solver = solver;
  try {
    Data data(*p->model);
    ConstraintData cd(*p->model, *p->constraints);
    constrainedForwardDynamics(*p->model, data, *p->constraints, cd, p->q[0], p->v[0], p->tau[0], settings);
  } catch (const std::exception& e) {
    std::cerr << "bench_seed003: skipping " << name << ": " << e.what() << '\n';
    return;
  }
  benchmark::RegisterBenchmark(name.c_str(), [p, settings](benchmark::State& st) {
    Data data(*p->model);
    ConstraintData cd(*p->model, *p->constraints);
    std::size_t s = 0;
    for (auto _ : st) {
      benchmark::DoNotOptimize(
          constrainedForwardDynamics(*p->model, data, *p->constraints, cd, p->q[s], p->v[s], p->tau[s], settings)
              .data());
      s = next(s, *p);
    }
  });
}

/// Every solver column this build has (soft ones only with rows), plus KKT; name = prefix +
/// label + suffix.
void registerSolvers(const std::string& prefix, const std::string& suffix, const Shared& p) {
  for (const SolverColumn& c : solverColumns()) {
    const std::optional<ConstraintSolver> solver = availableSolver(c.name);
    if (solver) registerSolver(prefix + c.label + suffix, p, *solver);
  }
}

void registerTable(const std::string& modelsDir) {
  for (const TableCase& c : tableIICases(true)) {
    const Shared p = std::make_shared<Problem>(
        makeProblem(buildModel(c.robot, modelsDir), constraintSet(c.robot, c.set)));
    const std::string prefix = "Table/" + c.robot + "/" + c.set + "/";
    registerAba(prefix + "CABA", p);
    registerSolvers(prefix, "", p);
  }
}

const int kChainSizes[] = {6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100};

void registerChains() {
  for (const int n : kChainSizes) {
    const std::string name = "chain:" + std::to_string(n), suffix = "/" + std::to_string(n);
    const Shared p = std::make_shared<Problem>(makeProblem(zyChain(n), constraintSet(name, "W")));
    registerAba("Chain/CABA" + suffix, p);
    benchmark::RegisterBenchmark(("Chain/TreeABA" + suffix).c_str(), [p](benchmark::State& st) {
      Data data(*p->model);
      std::size_t s = 0;
      for (auto _ : st) {
        benchmark::DoNotOptimize(tree::aba(*p->model, data, p->q[s], p->v[s], p->tau[s]).data());
        s = next(s, *p);
      }
    });
    registerSolvers("Chain/", suffix, p);
#ifdef GRBDA_HAVE_KDL
    for (const bool constrained : {true, false}) {
      benchmark::RegisterBenchmark(((constrained ? "Chain/KDL" : "Chain/KDLFree") + suffix).c_str(),
                                   [p, n, constrained](benchmark::State& st) {
                                     KdlChain kdl(n, constrained, p->model->gravity());
                                     std::size_t s = 0;
                                     for (auto _ : st) {
                                       benchmark::DoNotOptimize(kdl.solve(p->q[s], p->v[s], p->tau[s]));
                                       s = next(s, *p);
                                     }
                                   });
    }
#endif
  }
}

void registerLadders() {
  for (int m = 1; m <= 10; ++m) {
    const std::string name = "ladder:" + std::to_string(m);
    const Shared p = std::make_shared<Problem>(makeProblem(ladder(m), constraintSet(name, "W")));
    registerAba("Ladder/CABA/" + std::to_string(m), p);
    registerSolvers("Ladder/", "/" + std::to_string(m), p);
  }
}

void registerStems() {
  for (const int branches : {4, 8, 10})
    for (const int stem : {7, 20, 54, 100}) {
      const std::string name = "stem:" + std::to_string(stem) + ":" + std::to_string(branches);
      const std::string suffix = "/" + std::to_string(stem) + "/" + std::to_string(branches);
      const ConstraintSet set = constraintSet(name, "W");
      const Shared p = std::make_shared<Problem>(makeProblem(stemAndBranches(stem, branches), set));
      std::vector<EndEffector> ends;
      for (const ConstraintItem& c : set.items) ends.push_back({p->model->frameIndex(c.link), Vec3::Zero()});
      const auto osim = std::make_shared<const OsimSet>(*p->model, ends);
      benchmark::RegisterBenchmark(("Stem/EFPA" + suffix).c_str(), [p, osim](benchmark::State& st) {
        Data data(*p->model);
        std::size_t s = 0;
        for (auto _ : st) {
          benchmark::DoNotOptimize(inverseOperationalSpaceInertia(*p->model, data, *osim, p->q[s]).data());
          s = next(s, *p);
        }
      });
      registerSolvers("Stem/", suffix, p);
    }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  setLogLevel(LogLevel::Error);
  try {
    registerTable(std::string(GRBDA_SOURCE_DIR) + "/models");
    registerChains();
    registerLadders();
    registerStems();
  } catch (const std::exception& e) {
    std::cerr << "bench_seed003: " << e.what() << '\n';
    return 1;
  }
#ifndef GRBDA_HAVE_KDL
  std::cerr << "bench_seed003: built without KDL (liborocos-kdl-dev): no Chain/KDL benchmarks\n";
#endif
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
