// Derivatives of the cluster dynamics on the six benchmark robots: C-ABA and C-RNEA (the unit),
// the analytic ∂C-RNEA and ∂C-ABA (algorithms/derivatives.hpp), and what they replace, central
// finite differences of C-ABA over q (on the manifold) and v: 4 nv + 1 calls. Names:
// <Method>/<robot>, e.g. ABADerivatives/mini_cheetah. Each benchmark cycles through 100 states.
#include <benchmark/benchmark.h>

#include <iostream>
#include <random>

#include "bench_suite.hpp"
#include "grbda/grbda.hpp"

namespace {

using namespace grbda;

struct Robot {
  Model model;
  std::vector<bench::State> states;
};

/// ∂ÿ/∂y, ∂ÿ/∂ẏ by central differences of forwardDynamics (the baseline the analytic pass replaces).
void finiteDifferenceAba(const Model& model, Data& data, const bench::State& s, MatX& dq, MatX& dv, VecX& e) {
  const double h = 1e-6;
  forwardDynamics(model, data, s.q, s.v, s.tau);
  for (int j = 0; j < model.nv(); ++j) {
    e.setZero();
    e[j] = h;
    dq.col(j) = forwardDynamics(model, data, integrate(model, s.q, e, 1.0), s.v, s.tau);
    dq.col(j) -= forwardDynamics(model, data, integrate(model, s.q, e, -1.0), s.v, s.tau);
    dv.col(j) = forwardDynamics(model, data, s.q, s.v + e, s.tau);
    dv.col(j) -= forwardDynamics(model, data, s.q, s.v - e, s.tau);
  }
  dq /= 2 * h;
  dv /= 2 * h;
}

template <class F>
void add(const std::string& name, Robot* r, F f) {
  benchmark::RegisterBenchmark(name.c_str(), [r, f](benchmark::State& st) {
    Data data(r->model);
    size_t i = 0;
    for (auto _ : st) {
      f(r->model, data, r->states[i]);
      if (++i == r->states.size()) i = 0;
    }
    st.counters["nv"] = r->model.nv();
  })->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  setLogLevel(LogLevel::Error);
  std::vector<std::unique_ptr<Robot>> robots;
  try {
    const std::string dir = bench::findModelsDir(std::string(GRBDA_SOURCE_DIR) + "/models");
    for (const std::string& name : bench::defaultRobotNames()) {
      auto r = std::make_unique<Robot>(Robot{bench::loadRobot(name, dir), {}});
      std::mt19937 rng(12345u);
      r->states = bench::randomStates(r->model, 100, rng);
      Robot* p = r.get();
      robots.push_back(std::move(r));
      add("ClusterABA/" + name, p, [](const Model& m, Data& d, const bench::State& s) {
        benchmark::DoNotOptimize(forwardDynamics(m, d, s.q, s.v, s.tau).data());
      });
      add("ClusterRNEA/" + name, p, [](const Model& m, Data& d, const bench::State& s) {
        benchmark::DoNotOptimize(inverseDynamics(m, d, s.q, s.v, s.qdd).data());
      });
      add("RNEADerivatives/" + name, p, [](const Model& m, Data& d, const bench::State& s) {
        computeRNEADerivatives(m, d, s.q, s.v, s.qdd);
        benchmark::DoNotOptimize(d.derivatives.dtau_dq.data());
      });
      add("ABADerivatives/" + name, p, [](const Model& m, Data& d, const bench::State& s) {
        computeABADerivatives(m, d, s.q, s.v, s.tau);
        benchmark::DoNotOptimize(d.derivatives.ddq_dq.data());
      });
      add("FiniteDifferenceABA/" + name, p, [](const Model& m, Data& d, const bench::State& s) {
        thread_local MatX dq, dv;
        thread_local VecX e;
        dq.resize(m.nv(), m.nv());
        dv.resize(m.nv(), m.nv());
        e.resize(m.nv());
        finiteDifferenceAba(m, d, s, dq, dv, e);
        benchmark::DoNotOptimize(dq.data());
      });
    }
  } catch (const std::exception& e) {
    std::cerr << "bench_derivatives: " << e.what() << '\n';
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
