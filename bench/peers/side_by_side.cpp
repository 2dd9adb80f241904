// grbda beside the 2026 peers in one process: Pinocchio 4.1 (`aba`, `rnea`) and MuJoCo 4.0
// (`mj_step` on the Mini Cheetah's two MJCF variants of tools/make_mjcf.py: rotors as armature,
// rotors as bodies tied by joint equalities), as their wheels ship them (bench/compare_peers.sh).
//
//   side_by_side count MEASURE N       N steady-state calls of one measure, for callgrind
//   side_by_side time [--rounds R]     medians of R interleaved rounds, ns per call, one line each
//   side_by_side list                  the measures
//
// Pinocchio loads models/mini_cheetah.urdf as the tree it describes (25 bodies, rotors as bodies,
// the gears ignored: its plain ABA); grbda solves the exact 18-DoF cluster tree. The simulation
// scenarios are those of bench/sim_scenarios.hpp (joint PD kp = 50, kd = 0.4, 1 ms steps, 0.02 m
// foot spheres): standing after landing from 0.30 m, falling from 10 m.
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/joint-configuration.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/parsers/urdf.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mujoco_engine.hpp"
#include "sim_scenarios.hpp"

namespace {

using grbda::VecX;
using grbda::bench::MujocoCheetah;

constexpr double kKp = 50.0, kKd = 0.4;

std::string modelPath() { return std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf"; }
std::string mjcfPath(const std::string& variant) {
  return std::string(GRBDA_MJCF_DIR) + "/mini_cheetah_" + variant + ".xml";
}

/// A deterministic state away from singular poses: the same numbers every run.
VecX spread(int n, double offset, double slope) {
  VecX x(n);
  for (int i = 0; i < n; ++i) x[i] = offset + slope * ((i * 7) % 11 - 5);
  return x;
}

/// One measure: `prepare` puts it in its steady state (outside the count and the clock), `call`
/// is one call.
struct Measure {
  std::string name;
  std::function<void()> prepare;
  std::function<void()> call;
  int batch;  // calls per timed round
};

struct Peers {
  grbda::Model model = grbda::loadUrdf(modelPath());
  grbda::Data data{model};
  VecX q, v, u;
  pinocchio::Model pin;
  std::unique_ptr<pinocchio::Data> pinData;
  Eigen::VectorXd pq, pv, pu;
  std::unique_ptr<grbda::Simulator> standing, falling;
  std::unique_ptr<MujocoCheetah> mjArmatureStanding, mjArmatureFalling, mjRotorsStanding, mjRotorsFalling;
  VecX target = grbda::bench::crouchedCheetah(model, 0.30), targetHigh = grbda::bench::crouchedCheetah(model, 10.0);

  Peers() {
    q = model.neutralConfiguration();
    q.tail(model.nq() - 7) = spread(model.nq() - 7, 0.2, 0.1);
    v = spread(model.nv(), -0.3, 0.2);
    u = spread(model.nv(), 0.5, -0.3);
    pinocchio::urdf::buildModel(modelPath(), pin);
    pinData = std::make_unique<pinocchio::Data>(pin);
    pq = pinocchio::neutral(pin);
    pq.tail(pin.nq - 7) = spread(pin.nq - 7, 0.2, 0.1);
    pv = spread(pin.nv, -0.3, 0.2);
    pu = spread(pin.nv, 0.5, -0.3);
  }

  void settleGrbda() {
    standing = std::make_unique<grbda::Simulator>(
        grbda::bench::cheetahScenario(model, "standing", grbda::ContactSolverType::ADMM));
  }
  void dropGrbda() {
    falling = std::make_unique<grbda::Simulator>(
        grbda::bench::cheetahScenario(model, "falling", grbda::ContactSolverType::ADMM));
  }
  static void stepMujoco(MujocoCheetah& m, const VecX& target) {
    m.applyPd(target, kKp, kKd);
    mj_step(m.model(), m.data());
  }
  void settleMujoco(std::unique_ptr<MujocoCheetah>& m, const std::string& variant) {
    m = std::make_unique<MujocoCheetah>(mjcfPath(variant), model);
    m->setState(target, VecX::Zero(model.nv()));
    for (int k = 0; k < 1500; ++k) stepMujoco(*m, target);  // land and settle, as grbda's scenario
  }
  void dropMujoco(std::unique_ptr<MujocoCheetah>& m, const std::string& variant) {
    if (!m) m = std::make_unique<MujocoCheetah>(mjcfPath(variant), model);
    m->setState(targetHigh, VecX::Zero(model.nv()));
  }

  std::vector<Measure> measures() {
    return {
        {"grbda C-ABA", [] {}, [this] { grbda::forwardDynamics(model, data, q, v, u); }, 2000},
        {"Pinocchio aba", [] {}, [this] { pinocchio::aba(pin, *pinData, pq, pv, pu); }, 2000},
        {"grbda C-RNEA", [] {}, [this] { grbda::inverseDynamics(model, data, q, v, u); }, 4000},
        {"Pinocchio rnea", [] {}, [this] { pinocchio::rnea(pin, *pinData, pq, pv, pu); }, 4000},
        {"grbda step standing", [this] { if (!standing) settleGrbda(); }, [this] { standing->step(); }, 500},
        {"MuJoCo armature standing", [this] { if (!mjArmatureStanding) settleMujoco(mjArmatureStanding, "armature"); },
         [this] { stepMujoco(*mjArmatureStanding, target); }, 500},
        {"MuJoCo rotors standing", [this] { if (!mjRotorsStanding) settleMujoco(mjRotorsStanding, "rotors"); },
         [this] { stepMujoco(*mjRotorsStanding, target); }, 500},
        {"grbda step falling", [this] { dropGrbda(); }, [this] { falling->step(); }, 500},
        {"MuJoCo armature falling", [this] { dropMujoco(mjArmatureFalling, "armature"); },
         [this] { stepMujoco(*mjArmatureFalling, targetHigh); }, 500},
        {"MuJoCo rotors falling", [this] { dropMujoco(mjRotorsFalling, "rotors"); },
         [this] { stepMujoco(*mjRotorsFalling, targetHigh); }, 500},
    };
  }
};

Measure find(std::vector<Measure> measures, const std::string& name) {
  for (Measure& m : measures)
    if (m.name == name) return m;
  throw std::runtime_error("no measure '" + name + "' (side_by_side list)");
}

/// This thread's CPU time [ns]: a shared, loaded machine does not count against the engine.
double cpuNanoseconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1e9 * static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return x[x.size() / 2];
}

int time(int rounds) {
  Peers peers;
  std::vector<Measure> measures = peers.measures();
  std::vector<std::vector<double>> ns(measures.size());
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < measures.size(); ++i) {  // one batch of each measure per round: interleaved
      Measure& m = measures[i];
      m.prepare();
      const double t0 = cpuNanoseconds();
      for (int k = 0; k < m.batch; ++k) m.call();
      ns[i].push_back((cpuNanoseconds() - t0) / m.batch);
    }
  std::printf("# medians of %d interleaved rounds, ns per call (MuJoCo %s, CPU time of this thread)\n", rounds,
              mj_versionString());
  for (size_t i = 0; i < measures.size(); ++i) std::printf("%s\t%.1f\n", measures[i].name.c_str(), median(ns[i]));
  return 0;
}

/// The measured calls and nothing else: bench/step_stages.py collects only inside this function
/// (callgrind --toggle-collect), so loading and settling stay out of its stage table.
__attribute__((noinline)) void measuredCalls(Measure& m, int n) {
  for (int k = 0; k < n; ++k) m.call();
}

int count(const std::string& name, int n) {
  Peers peers;
  Measure m = find(peers.measures(), name);
  m.prepare();
  measuredCalls(m, n);
  std::printf("%s: %d calls\n", name.c_str(), n);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "count" && argc == 4) return count(argv[2], std::atoi(argv[3]));
    if (mode == "time") return time(argc == 4 && std::string(argv[2]) == "--rounds" ? std::atoi(argv[3]) : 15);
    if (mode == "list") {
      Peers peers;
      for (const Measure& m : peers.measures()) std::printf("%s\n", m.name.c_str());
      return 0;
    }
    std::fprintf(stderr, "usage: side_by_side count MEASURE N | time [--rounds R] | list\n");
    return 2;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "side_by_side: %s\n", ex.what());
    return 1;
  }
}
