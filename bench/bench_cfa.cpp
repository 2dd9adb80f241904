// The Constraint Force Algorithm against ABA on long serial chains (seed 004; spec §3.5): serial
// CFA (block Thomas), parallel CFA (block cyclic reduction + blocked parallel-prefix kinematics)
// on 1 and 2 threads, and our ABA (C-ABA, the library's forwardDynamics, and the spanning-tree
// ABA), N = 8 … 4096 revolute links with random axes, built in code. Wall time (UseRealTime):
// the parallel CFA's work is spread over threads, so CPU time of the calling thread would flatter
// it. Names: <Method>/<N>. The parallel CFA's reduction depth is reported as the counter "levels".
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "grbda/grbda.hpp"

namespace {

grbda::Model chain(int N) {
  std::mt19937 rng(static_cast<unsigned>(N));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  grbda::ModelBuilder b("chain_" + std::to_string(N));
  grbda::LinkSpec world;
  world.name = "world";
  b.addLink(world);
  std::string parent = "world";
  for (int k = 1; k <= N; ++k) {
    grbda::LinkSpec l;
    l.name = "l" + std::to_string(k);
    l.mass = 1.0 + 0.5 * u(rng);
    l.com = grbda::Vec3(0.05 * u(rng), 0.05 * u(rng), 0.1);
    l.inertia = grbda::Vec3(0.02, 0.02, 0.01).asDiagonal();
    b.addLink(l);
    grbda::JointSpec j;
    j.name = "j" + std::to_string(k);
    j.parent = parent;
    j.child = l.name;
    j.origin = grbda::Transform::translation(grbda::Vec3(0.0, 0.0, 0.2));
    j.axis = grbda::Vec3(u(rng), u(rng), u(rng)).normalized();
    b.addJoint(j);
    parent = l.name;
  }
  return b.build();
}

struct State {
  grbda::Model model;
  grbda::VecX q, v, tau;
  explicit State(int N) : model(chain(N)) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    q = grbda::VecX::NullaryExpr(model.nq(), [&] { return u(rng); });
    v = grbda::VecX::NullaryExpr(model.nv(), [&] { return u(rng); });
    tau = grbda::VecX::NullaryExpr(model.nv(), [&] { return u(rng); });
  }
};

void clusterAba(benchmark::State& st) {
  State s(static_cast<int>(st.range(0)));
  grbda::Data data(s.model);
  for (auto _ : st) benchmark::DoNotOptimize(grbda::forwardDynamics(s.model, data, s.q, s.v, s.tau).data());
}

void treeAba(benchmark::State& st) {
  State s(static_cast<int>(st.range(0)));
  grbda::Data data(s.model);
  for (auto _ : st) benchmark::DoNotOptimize(grbda::tree::aba(s.model, data, s.q, s.v, s.tau).data());
}

void cfaSerial(benchmark::State& st) {
  State s(static_cast<int>(st.range(0)));
  grbda::CfaData cfa(s.model);
  for (auto _ : st) benchmark::DoNotOptimize(grbda::cfaForwardDynamics(s.model, cfa, s.q, s.v, s.tau).data());
}

void cfaParallel(benchmark::State& st, int threads) {
  State s(static_cast<int>(st.range(0)));
  grbda::CfaData cfa(s.model, {threads});
  for (auto _ : st) benchmark::DoNotOptimize(grbda::cfaParallelForwardDynamics(s.model, cfa, s.q, s.v, s.tau).data());
  st.counters["levels"] = cfa.reductionLevels();
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int n = 8; n <= 4096; n *= 2) b->Arg(n);
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  sizes(benchmark::RegisterBenchmark("ClusterABA", clusterAba));
  sizes(benchmark::RegisterBenchmark("TreeABA", treeAba));
  sizes(benchmark::RegisterBenchmark("CFA", cfaSerial));
  sizes(benchmark::RegisterBenchmark("ParallelCFA1", [](benchmark::State& st) { cfaParallel(st, 1); }));
  sizes(benchmark::RegisterBenchmark("ParallelCFA2", [](benchmark::State& st) { cfaParallel(st, 2); }));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
