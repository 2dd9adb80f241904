// The callgrind driver of tools/count_seed003.sh: runs one method on one seed-003 case R times
// inside seed003_measured_calls (valgrind --toggle-collect=seed003_measured_calls counts only
// those calls), after one warm-up call that sizes every buffer.
//
//   seed003_counts MODEL SET METHOD [REPEAT]    e.g.  seed003_counts go1 2F3 pv 10
//     MODEL   iiwa, go1, atlas, talos, chain:N, ladder:M, stem:S:B, mini_cheetah, mit_humanoid,
//             jvrc1_humanoid (seed003_models.hpp)
//     SET     a constraint set of the model (0, H3, H, F3 … 4F3, F, 2F, 2F+H, 2F+2H, W)
//     METHOD  c-aba (forwardDynamics, the constraints ignored), tree-aba, any constrained solver
//             name (pv, pv-soft, kkt, proximal, pv-early, ltl, ltl-soft when built), efpa (Λ⁻¹
//             of the set's links by C-EFPA), pv-osim (Λ⁻¹ = J H⁻¹ Jᵀ of the set's rows by
//             PV-OSIM, pvInverseOperationalSpaceInertia), pv-osim-fast (PvOsimFast::compute), kdl (KDL's
//             Vereshchagin; chains only: set W = 6-D tip constraint, 0 = none)
//   seed003_counts --check-kdl    KDL's q̈ against ours on a 7-link chain (exit 0 when they agree)
//
// Exit codes: 0 done, 3 the method is not in this build (a solver of another branch, or kdl
// without KDL), 1 error. stdout: "MODEL SET METHOD nv rows".
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>

#include "seed003_models.hpp"
#ifdef GRBDA_HAVE_KDL
#include "seed003_kdl.hpp"
#endif

using namespace grbda;
using namespace grbda::seed003;

extern "C" __attribute__((noinline)) void seed003_measured_calls(const std::function<void(int)>& call, int repeat) {
  for (int i = 0; i < repeat; ++i) call(i);
}

namespace {

constexpr int kUnavailable = 3;

#ifdef GRBDA_HAVE_KDL
/// Relative difference of two q̈.
double relativeDifference(const VecX& a, const VecX& b) { return (a - b).norm() / (1.0 + b.norm()); }

/// KDL's q̈ against ours on a 7-link chain at a state with velocities, with and without gravity:
/// unconstrained (KDL with alpha = 0 vs C-ABA) and with the 6-D tip constraint (vs our PV and KKT
/// with custom rows K = I₆, k = 0 on the last link's spatial acceleration: KDL constrains the
/// spatial acceleration, which is zero at every point once it is zero at one, and, at q̇ ≠ 0,
/// differs from our weld's classical p̈ = 0 by ω × v).
int checkKdl() {
  const int n = 7;
  bool ok = true;
  for (const double g : {0.0, -9.81}) {
    Problem p = makeProblem(zyChain(n), ConstraintSet{"0", {}}, 3, 11);
    Model& model = *p.model;
    model.setGravity(Vec3(0, 0, g));
    ConstraintModel rows(model);
    rows.addCustomRows("link_" + std::to_string(n), Mat6::Identity(), VecX::Zero(6));
    ConstraintModel weld(model);
    weld.addWeld("link_" + std::to_string(n));
    Data data(model);
    ConstraintData cdRows(model, rows), cdWeld(model, weld);
    KdlChain kdlFree(n, false, model.gravity()), kdlTip(n, true, model.gravity());
    for (std::size_t s = 0; s < p.q.size(); ++s) {
      const VecX aba = forwardDynamics(model, data, p.q[s], p.v[s], p.tau[s]);
      ConstraintSolverSettings pv, kkt;
      kkt.solver = ConstraintSolver::KKT;
      const VecX ours = constrainedForwardDynamics(model, data, rows, cdRows, p.q[s], p.v[s], p.tau[s], pv);
      const VecX oursKkt = constrainedForwardDynamics(model, data, rows, cdRows, p.q[s], p.v[s], p.tau[s], kkt);
      const VecX oursWeld = constrainedForwardDynamics(model, data, weld, cdWeld, p.q[s], p.v[s], p.tau[s], pv);
      if (kdlFree.solve(p.q[s], p.v[s], p.tau[s]) != 0 || kdlTip.solve(p.q[s], p.v[s], p.tau[s]) != 0) {
        std::cerr << "check-kdl: KDL's solver failed\n";
        return 1;
      }
      const double dFree = relativeDifference(kdlFree.qdd.data, aba);
      const double dPv = relativeDifference(kdlTip.qdd.data, ours), dKkt = relativeDifference(kdlTip.qdd.data, oursKkt);
      const double dWeld = relativeDifference(kdlTip.qdd.data, oursWeld);
      std::printf("g = %5.2f state %zu: |KDL - C-ABA| %.1e   |KDL - PV (K = I6)| %.1e   |KDL - KKT (K = I6)| %.1e"
                  "   (|KDL - PV weld| %.1e: classical vs spatial)\n",
                  g, s, dFree, dPv, dKkt, dWeld);
      ok = ok && dFree < 1e-9 && dPv < 1e-9 && dKkt < 1e-9;
    }
  }
  std::printf("check-kdl: %s\n", ok ? "KDL and grbda agree" : "KDL and grbda DISAGREE");
  return ok ? 0 : 1;
}
#endif

int run(const std::string& modelName, const std::string& setName, const std::string& method, int repeat,
        const std::string& modelsDir) {
  const ConstraintSet set = constraintSet(modelName, setName);
  Problem p = makeProblem(buildModel(modelName, modelsDir), set, 4);
  const Model& model = *p.model;
  Data data(model);
  const auto at = [&p](int i) { return static_cast<std::size_t>(i) % p.q.size(); };
  std::function<void(int)> call;
  std::unique_ptr<ConstraintData> cdata;
  ConstraintSolverSettings settings;
  std::unique_ptr<OsimSet> osim;
  std::unique_ptr<PvOsimFast> fast;
#ifdef GRBDA_HAVE_KDL
  std::unique_ptr<KdlChain> kdl;
#endif
  if (method == "c-aba") {
    call = [&](int i) { forwardDynamics(model, data, p.q[at(i)], p.v[at(i)], p.tau[at(i)]); };
  } else if (method == "tree-aba") {
    call = [&](int i) { tree::aba(model, data, p.q[at(i)], p.v[at(i)], p.tau[at(i)]); };
  } else if (method == "efpa") {
    std::vector<EndEffector> ends;
    for (const ConstraintItem& c : set.items) ends.push_back({model.frameIndex(c.link), Vec3::Zero()});
    osim = std::make_unique<OsimSet>(model, ends);
    call = [&](int i) { inverseOperationalSpaceInertia(model, data, *osim, p.q[at(i)]); };
  } else if (method == "pv-osim" || method == "pv-osim-fast") {
    cdata = std::make_unique<ConstraintData>(model, *p.constraints);
    if (method == "pv-osim") {
      call = [&](int i) { pvInverseOperationalSpaceInertia(model, data, *p.constraints, *cdata, p.q[at(i)]); };
    } else {
      fast = std::make_unique<PvOsimFast>(model, *p.constraints);
      call = [&](int i) { fast->compute(model, data, *p.constraints, *cdata, p.q[at(i)]); };
    }
  } else if (method == "kdl") {
#ifdef GRBDA_HAVE_KDL
    if (modelName.rfind("chain:", 0) != 0) throw InputError("seed003_counts: kdl runs on chain:N only");
    kdl = std::make_unique<KdlChain>(model.nv(), set.rows() > 0, model.gravity());
    call = [&](int i) { kdl->solve(p.q[at(i)], p.v[at(i)], p.tau[at(i)]); };
#else
    std::cerr << "seed003_counts: built without KDL (liborocos-kdl-dev)\n";
    return kUnavailable;
#endif
  } else {
    const std::optional<ConstraintSolver> solver = availableSolver(method);
    if (!solver) {
      std::cerr << "seed003_counts: this build has no solver '" << method << "'\n";
      return kUnavailable;
    }
    settings.solver = *solver;
    settings.maxIterations = 1;  // proximal: one iteration, as bench_contacts
    cdata = std::make_unique<ConstraintData>(model, *p.constraints);
    call = [&](int i) {
      constrainedForwardDynamics(model, data, *p.constraints, *cdata, p.q[at(i)], p.v[at(i)], p.tau[at(i)], settings);
    };
  }
  call(0);  // warm-up: sizes the buffers
  seed003_measured_calls(call, repeat);
  std::printf("%s %s %s %d %d\n", modelName.c_str(), setName.c_str(), method.c_str(), model.nv(), set.rows());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  setLogLevel(LogLevel::Error);
  try {
    if (argc == 2 && std::string(argv[1]) == "--check-kdl") {
#ifdef GRBDA_HAVE_KDL
      return checkKdl();
#else
      std::cout << "check-kdl: built without KDL (liborocos-kdl-dev), skipped\n";
      return 77;
#endif
    }
    if (argc < 4 || argc > 5) {
      std::cerr << "usage: seed003_counts MODEL SET METHOD [REPEAT] | seed003_counts --check-kdl\n";
      return 1;
    }
    const int repeat = argc == 5 ? std::stoi(argv[4]) : 10;
    return run(argv[1], argv[2], argv[3], repeat, GRBDA_SOURCE_DIR "/models");
  } catch (const std::exception& e) {
    std::cerr << "seed003_counts: " << e.what() << '\n';
    return 1;
  }
}
