// Operational-space inertia timings (bench/RESULTS.md "OSIM"): C-EFPA, PV-OSIM (Λ⁻¹, and Λ by
// factorising it), PV-OSIM-fast (the operator, and the operator plus one Λ x) and the dense
// J H⁻¹ Jᵀ, for the Mini Cheetah's four feet as 3-D points and the humanoids' feet and hands as
// 6-D points (each point in its link's axes, as `grbda osim` has them). Names
// <Method>/<robot>/<set>, e.g. PVOSIMFast/mini_cheetah/4F3. Each benchmark cycles through 100
// random states; PV-OSIM-fast counts the states where L_b^A was singular (fallback).
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
  std::vector<std::string> links;
  bool linear;
};

struct Prepared {
  std::unique_ptr<Model> model;
  std::unique_ptr<OsimSet> set;
  std::unique_ptr<ConstraintModel> rows;  ///< the points as custom rows (C-EFPA's layout)
  bool linear = false;
  std::vector<VecX> q;
};

Prepared prepare(const Case& c) {
  Prepared p;
  p.model = std::make_unique<Model>(loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/" + c.robot + ".urdf"));
  const Model& m = *p.model;
  std::vector<EndEffector> ees;
  p.rows = std::make_unique<ConstraintModel>(m);
  p.linear = c.linear;
  for (const std::string& link : c.links) {
    ees.push_back({m.frameIndex(link), Vec3::Zero()});
    const Mat6 X = Mat6::Identity();  // a_P = a_link at the link's origin
    const MatX K = c.linear ? MatX(X.bottomRows<3>()) : MatX(X);
    p.rows->addCustomRows(link, K, VecX::Zero(K.rows()));
  }
  p.set = std::make_unique<OsimSet>(m, ees);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  for (int s = 0; s < 100; ++s) {
    VecX q = m.neutralConfiguration();
    for (int i = 7; i < m.nq(); ++i) q[i] = u(rng);
    if (c.robot == "mini_cheetah")  // bent legs: a straight leg's foot block is singular
      for (int leg = 0; leg < 4; ++leg) q[7 + 3 * leg + 1] -= 0.8, q[7 + 3 * leg + 2] += 1.5;
    p.q.push_back(q);
  }
  return p;
}

template <class Call>
void registerMethod(const std::string& name, const std::shared_ptr<Prepared>& p, Call call) {
  benchmark::RegisterBenchmark(name.c_str(), [p, call](benchmark::State& st) {
    Data data(*p->model);
    ConstraintData cd(*p->model, *p->rows);
    PvOsimFast op(*p->model, *p->rows);
    VecX x = VecX::Ones(p->rows->numRows()), y(p->rows->numRows());
    size_t s = 0;
    int fallbacks = 0;
    for (auto _ : st) {
      call(*p, data, cd, op, p->q[s], x, y);
      if (op.fellBack()) ++fallbacks;
      s = (s + 1) % p->q.size();
    }
    st.counters["fallback"] = benchmark::Counter(fallbacks, benchmark::Counter::kAvgIterations);
  });
}

void registerCase(const Case& c) {
  auto p = std::make_shared<Prepared>(prepare(c));
  const std::string suffix = "/" + c.robot + "/" + c.set;
  registerMethod("CEFPA" + suffix, p, [](Prepared& p, Data& data, ConstraintData&, PvOsimFast&, const VecX& q, VecX&, VecX&) {
    benchmark::DoNotOptimize(inverseOperationalSpaceInertia(*p.model, data, *p.set, q, p.linear).data());
  });
  registerMethod("PVOSIM" + suffix, p, [](Prepared& p, Data& data, ConstraintData& cd, PvOsimFast&, const VecX& q, VecX&, VecX&) {
    benchmark::DoNotOptimize(pvInverseOperationalSpaceInertia(*p.model, data, *p.rows, cd, q).data());
  });
  registerMethod("PVOSIMLambda" + suffix, p, [](Prepared& p, Data& data, ConstraintData& cd, PvOsimFast&, const VecX& q, VecX&, VecX&) {
    benchmark::DoNotOptimize(pvOperationalSpaceInertia(*p.model, data, *p.rows, cd, q).data());
  });
  registerMethod("PVOSIMFast" + suffix, p, [](Prepared& p, Data& data, ConstraintData& cd, PvOsimFast& op, const VecX& q, VecX&, VecX&) {
    op.compute(*p.model, data, *p.rows, cd, q);
  });
  registerMethod("PVOSIMFastSolve" + suffix, p, [](Prepared& p, Data& data, ConstraintData& cd, PvOsimFast& op, const VecX& q, VecX& x, VecX& y) {
    op.compute(*p.model, data, *p.rows, cd, q);
    op.applyLambda(x, y);
    benchmark::DoNotOptimize(y.data());
  });
  registerMethod("DenseOSIM" + suffix, p, [](Prepared& p, Data& data, ConstraintData& cd, PvOsimFast&, const VecX& q, VecX&, VecX&) {
    benchmark::DoNotOptimize(denseInverseOperationalSpaceInertia(*p.model, data, *p.rows, cd, q).data());
  });
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  setLogLevel(LogLevel::Error);
  try {
    registerCase({"mini_cheetah", "4F3", {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}, true});
    registerCase({"mit_humanoid", "2F6+2H6", {"right_foot", "left_foot", "right_hand", "left_hand"}, false});
    registerCase({"mit_humanoid", "2F3+2H3", {"right_foot", "left_foot", "right_hand", "left_hand"}, true});
    registerCase({"jvrc1_humanoid", "2F6+2H6", {"right-foot", "left-foot", "right-hand", "left-hand"}, false});
  } catch (const std::exception& e) {
    std::cerr << "bench_osim: " << e.what() << '\n';
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
