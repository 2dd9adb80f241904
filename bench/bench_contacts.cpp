// Constrained forward dynamics timings (bench/RESULTS.md "Contacts"): C-ABA without constraints
// against PV, PV-soft, KKT, proximal (1 iteration) and Featherstone's LTL / LTL-soft with 0-4 feet of the Mini Cheetah, and the
// humanoids' foot/hand sets. Names: <Solver>/<robot>/<set>, e.g. PV/mini_cheetah/4F3. Each
// benchmark cycles through 100 random states (joint angles, velocities, torques in [-0.5, 0.5]).
#include <benchmark/benchmark.h>

#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "grbda/grbda.hpp"

namespace {

using namespace grbda;

struct Case {
  std::string robot, set;
  std::vector<std::pair<ConstraintKind, std::string>> constraints;
};

struct Prepared {
  std::unique_ptr<Model> model;
  std::unique_ptr<ConstraintModel> constraints;
  std::vector<VecX> q, v, tau;
};

Prepared prepare(const Case& c) {
  Prepared p;
  p.model = std::make_unique<Model>(loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/" + c.robot + ".urdf"));
  p.constraints = std::make_unique<ConstraintModel>(*p.model);
  for (const auto& [kind, link] : c.constraints) {
    if (kind == ConstraintKind::Weld) p.constraints->addWeld(link);
    else p.constraints->addPointContact(link);
  }
  if (p.constraints->numRows() > 0) p.constraints->setCompliance(1e-6);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  const Model& m = *p.model;
  for (int s = 0; s < 100; ++s) {
    VecX q = m.neutralConfiguration();
    q[2] = 0.3;
    for (int i = 7; i < m.nq(); ++i) q[i] = u(rng);
    VecX v(m.nv()), tau(m.nv());
    for (int i = 0; i < m.nv(); ++i) v[i] = u(rng), tau[i] = u(rng);
    p.q.push_back(q), p.v.push_back(v), p.tau.push_back(tau);
  }
  return p;
}

void registerCase(const Case& c) {
  auto p = std::make_shared<Prepared>(prepare(c));
  const std::string suffix = "/" + c.robot + "/" + c.set;
  benchmark::RegisterBenchmark(("ClusterABA" + suffix).c_str(), [p](benchmark::State& st) {
    Data data(*p->model);
    size_t s = 0;
    for (auto _ : st) {
      benchmark::DoNotOptimize(forwardDynamics(*p->model, data, p->q[s], p->v[s], p->tau[s]).data());
      s = (s + 1) % p->q.size();
    }
  });
  const std::pair<const char*, ConstraintSolver> solvers[] = {{"PV", ConstraintSolver::PV},
                                                              {"PVSoft", ConstraintSolver::PVSoft},
                                                              {"KKT", ConstraintSolver::KKT},
                                                              {"Proximal1", ConstraintSolver::ProximalDelassus},
                                                              {"LTL", ConstraintSolver::LTL},
                                                              {"LTLSoft", ConstraintSolver::LTLSoft}};
  for (const auto& [name, solver] : solvers) {
    const bool soft = solver == ConstraintSolver::PVSoft || solver == ConstraintSolver::LTLSoft;
    if (soft && p->constraints->numRows() == 0) continue;
    benchmark::RegisterBenchmark((std::string(name) + suffix).c_str(), [p, solver = solver](benchmark::State& st) {
      Data data(*p->model);
      ConstraintData cd(*p->model, *p->constraints);
      ConstraintSolverSettings settings;
      settings.solver = solver;
      settings.maxIterations = 1;
      size_t s = 0;
      for (auto _ : st) {
        benchmark::DoNotOptimize(
            constrainedForwardDynamics(*p->model, data, *p->constraints, cd, p->q[s], p->v[s], p->tau[s], settings)
                .data());
        s = (s + 1) % p->q.size();
      }
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  setLogLevel(LogLevel::Error);
  using K = ConstraintKind;
  const std::vector<std::string> feet = {"FR_foot", "FL_foot", "HR_foot", "HL_foot"};
  try {
    for (int n = 0; n <= 4; ++n) {
      Case c{"mini_cheetah", std::to_string(n) + "F3", {}};
      for (int f = 0; f < n; ++f) c.constraints.push_back({K::PointContact, feet[static_cast<size_t>(f)]});
      registerCase(c);
    }
    registerCase({"mit_humanoid", "2F6+2H3",
                  {{K::Weld, "right_foot"}, {K::Weld, "left_foot"}, {K::PointContact, "right_hand"},
                   {K::PointContact, "left_hand"}}});
    registerCase({"jvrc1_humanoid", "2F6+2H6",
                  {{K::Weld, "right-foot"}, {K::Weld, "left-foot"}, {K::Weld, "right-hand"}, {K::Weld, "left-hand"}}});
  } catch (const std::exception& e) {
    std::cerr << "bench_contacts: " << e.what() << '\n';
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
