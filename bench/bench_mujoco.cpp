// grbda beside MuJoCo 2.2.2 on the Mini Cheetah (issue #23 §5). The MJCF files are written from
// models/mini_cheetah.urdf by tools/make_mjcf.py in two variants (rotors as armature N²·I, rotors
// as bodies tied by joint equalities); both engines run the same drop (torso at 0.30 m, legs
// (abad, hip, knee) = (0, −1, 2) rad, joint PD kp = 50, kd = 0.4 toward that pose, 1 ms steps,
// 0.02 m foot spheres, μ = 1) and then stand.
//
//   bench_mujoco report [--duration S] [--csv OUT.csv]   the table of bench/RESULTS.md
//   bench_mujoco count grbda|armature|rotors standing|falling N   N steps, for callgrind
//   bench_mujoco check                                    exit 1 unless MuJoCo's rotor-body model,
//                                                         solved exactly, has grbda's q̈ to 1e-7
//                                                         relative (ctest)
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "mujoco_engine.hpp"
#include "sim_scenarios.hpp"

namespace {

using grbda::MatX;
using grbda::VecX;
using grbda::bench::MujocoCheetah;

constexpr double kKp = 50.0, kKd = 0.4, kDropHeight = 0.30;

std::string urdfPath() { return std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf"; }
/// The URDF with the hip links' inertias as the MJCF has them (MuJoCo rejects the originals:
/// their principal moments break A + B ≥ C; tools/make_mjcf.py --balanced-urdf).
std::string balancedUrdfPath() { return std::string(GRBDA_MJCF_DIR) + "/mini_cheetah_balanced.urdf"; }
std::string mjcfPath(const std::string& variant) {
  return std::string(GRBDA_MJCF_DIR) + "/mini_cheetah_" + variant + ".xml";
}

/// One engine behind one interface: grbda's Simulator or MuJoCo with a PD toward the start pose.
struct Engine {
  std::string name;
  std::function<void(const VecX& q)> reset;          // state q at rest, time 0
  std::function<void()> step;
  std::function<double()> torsoHeight, normalForceSum, gearSlip, penetration;
};

Engine grbdaEngine(const grbda::Model& model, std::unique_ptr<grbda::Simulator>& sim) {
  sim = std::make_unique<grbda::Simulator>(model, grbda::World());
  grbda::Simulator* s = sim.get();
  Engine e;
  e.name = "grbda (ADMM, exact cone)";
  e.reset = [s, &model](const VecX& q) {
    s->setTime(0.0);
    s->setState(q, VecX::Zero(model.nv()));
    s->setPd(kKp, kKd);  // the target: the state it is switched on at
  };
  e.step = [s] { s->step(); };
  e.torsoHeight = [s] { return s->q()[2]; };
  e.normalForceSum = [s] { return s->lastStep().normalForceSum(); };
  e.gearSlip = [] { return 0.0; };  // rotor coordinates are N · q by construction (the cluster's G)
  e.penetration = [s] {
    double depth = 0.0;
    for (const grbda::ContactForce& c : s->lastStep().contacts) depth = std::max(depth, -c.contact.distance);
    return depth;
  };
  return e;
}

Engine mujocoEngine(const std::string& variant, const grbda::Model& model, std::unique_ptr<MujocoCheetah>& mj,
                    VecX& target) {
  mj = std::make_unique<MujocoCheetah>(mjcfPath(variant), model);
  MujocoCheetah* m = mj.get();
  VecX* t = &target;
  Engine e;
  e.name = "MuJoCo 2.2.2 " + variant;
  e.reset = [m, t, &model](const VecX& q) {
    *t = q;
    m->setState(q, VecX::Zero(model.nv()));
  };
  e.step = [m, t] {
    m->applyPd(*t, kKp, kKd);
    mj_step(m->model(), m->data());
  };
  e.torsoHeight = [m] { return m->torsoHeight(); };
  e.normalForceSum = [m] { return m->normalForceSum(); };
  e.gearSlip = [m] { return m->gearSlip(); };
  e.penetration = [m] {
    double depth = 0.0;
    for (int c = 0; c < m->data()->ncon; ++c) depth = std::max(depth, -m->data()->contact[c].dist);
    return depth;
  };
  return e;
}

struct DropResult {
  double touchdown = -1, peakForce = 0, peakAfterImpact = 0, lowest = 1e9, final = 0, finalForce = 0, meanForce = 0;
  double maxSlip = 0, finalSlip = 0, maxPenetration = 0, finalPenetration = 0;
  std::vector<double> z, fn;
};

DropResult drop(Engine& e, const VecX& q0, int steps, double dt) {
  DropResult r;
  e.reset(q0);
  for (int k = 1; k <= steps; ++k) {
    e.step();
    const double f = e.normalForceSum(), z = e.torsoHeight();
    if (r.touchdown < 0 && f > 0) r.touchdown = k * dt;  // the end of the first step with a contact force
    r.peakForce = std::max(r.peakForce, f);
    if (r.touchdown > 0 && k * dt > r.touchdown + 0.005) r.peakAfterImpact = std::max(r.peakAfterImpact, f);
    r.maxPenetration = std::max(r.maxPenetration, e.penetration());
    r.lowest = std::min(r.lowest, z);
    r.maxSlip = std::max(r.maxSlip, e.gearSlip());
    r.z.push_back(z);
    r.fn.push_back(f);
  }
  r.final = r.z.back();
  r.finalForce = r.fn.back();
  r.finalSlip = e.gearSlip();
  r.finalPenetration = e.penetration();
  const int last = std::min(steps, 200);  // the last 0.2 s: about one period of the PD's bobbing
  for (int k = steps - last; k < steps; ++k) r.meanForce += r.fn[static_cast<size_t>(k)] / last;
  return r;
}

/// This thread's CPU time [s]: a shared, loaded machine does not count against the engine.
double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// Steps per CPU second: best of 7 runs of n steps from the state `prepare` leaves.
double stepsPerSecond(Engine& e, const std::function<void()>& prepare, int n) {
  double best = 0;
  for (int rep = 0; rep < 7; ++rep) {
    prepare();
    const double t0 = cpuSeconds();
    for (int k = 0; k < n; ++k) e.step();
    best = std::max(best, n / (cpuSeconds() - t0));
  }
  return best;
}

/// The states of grbda's drop every `every` steps, with their PD torques.
struct Sample {
  VecX q, v, tau;
};
std::vector<Sample> dropSamples(const grbda::Model& model, const VecX& q0, int steps, int every) {
  grbda::Simulator sim(model, grbda::World());
  sim.setState(q0, VecX::Zero(model.nv()));
  sim.setPd(kKp, kKd);  // toward q0
  std::vector<Sample> out;
  for (int k = 0; k <= steps; ++k) {
    if (k % every == 0) {
      VecX tau = VecX::Zero(model.nv());
      for (int i = 6; i < model.nv(); ++i) tau[i] = kKp * (q0[i + 1] - sim.q()[i + 1]) - kKd * sim.v()[i];
      out.push_back({sim.q(), sim.v(), tau});
    }
    sim.step();
  }
  return out;
}

/// max over the samples of |q̈_MuJoCo − q̈_grbda| on the base (6) and on the joints (12), and the
/// largest |q̈_grbda| on the joints (the scale). `exact`: MuJoCo's M with hard gear rows instead of
/// its soft solve.
struct QddDiff {
  double base = 0, joints = 0, scale = 0;
};
QddDiff compareQdd(const grbda::Model& model, MujocoCheetah& mj, const std::vector<Sample>& samples, bool exact) {
  grbda::Data data(model);
  QddDiff r;
  mjModel* m = const_cast<mjModel*>(mj.model());
  const int flags = m->opt.disableflags;
  m->opt.disableflags |= mjDSBL_CONTACT;  // the dynamics alone: forwardDynamics has no ground
  for (const Sample& s : samples) {
    const VecX& a = grbda::forwardDynamics(model, data, s.q, s.v, s.tau);
    mj.setState(s.q, s.v);
    mj.setTorque(s.tau);
    mj_forward(m, mj.data());
    const VecX b = exact ? mj.toGrbdaAcceleration(mj.exactAcceleration().data()) : mj.toGrbdaAcceleration(mj.data()->qacc);
    r.base = std::max(r.base, (b.head(6) - a.head(6)).cwiseAbs().maxCoeff());
    r.joints = std::max(r.joints, (b.tail(model.nv() - 6) - a.tail(model.nv() - 6)).cwiseAbs().maxCoeff());
    r.scale = std::max(r.scale, a.tail(model.nv() - 6).cwiseAbs().maxCoeff());
  }
  m->opt.disableflags = flags;
  return r;
}

int report(int argc, char** argv) {
  double duration = 1.5;
  std::string csv;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--duration") duration = std::atof(argv[i + 1]);
    else if (flag == "--csv") csv = argv[i + 1];
    else throw std::runtime_error("unknown flag " + flag);
  }
  const grbda::Model model = grbda::loadUrdf(urdfPath());
  const VecX q0 = grbda::bench::crouchedCheetah(model, kDropHeight);
  const double dt = 1e-3;
  const int steps = static_cast<int>(duration / dt + 0.5);

  std::unique_ptr<grbda::Simulator> sim;
  std::unique_ptr<MujocoCheetah> armature, rotors;
  VecX targetA, targetR;
  std::vector<Engine> engines = {grbdaEngine(model, sim), mujocoEngine("armature", model, armature, targetA),
                                 mujocoEngine("rotors", model, rotors, targetR)};
  std::vector<DropResult> drops;
  for (Engine& e : engines) drops.push_back(drop(e, q0, steps, dt));

  std::printf("MuJoCo %s (header %d), %d steps of %g s, drop from %.2f m, kp = %g, kd = %g\n\n", mj_versionString(),
              mjVERSION_HEADER, steps, dt, kDropHeight, kKp, kKd);
  std::printf("| engine | touchdown [s] | peak Σ f_n [N] | peak from 5 ms after touchdown [N] | lowest torso [m] |"
              " final torso [m] | final Σ f_n [N] | mean Σ f_n, last 0.2 s [N] | max / final penetration [mm] |"
              " max / final gear slip [rad] |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (size_t i = 0; i < engines.size(); ++i) {
    const DropResult& r = drops[i];
    std::printf("| %s | %.3f | %.1f | %.1f | %.4f | %.4f | %.2f | %.2f | %.2f / %.2f | %.3g / %.3g |\n",
                engines[i].name.c_str(), r.touchdown, r.peakForce, r.peakAfterImpact, r.lowest, r.final, r.finalForce,
                r.meanForce, 1e3 * r.maxPenetration, 1e3 * r.finalPenetration, r.maxSlip, r.finalSlip);
  }
  double mass = 0;
  for (int b = 0; b < model.numBodies(); ++b) mass += model.body(b).inertia(5, 5);
  std::printf("\nweight m g = %.2f N\n", mass * 9.81);

  // q̈ at grbda's drop states (every 10 ms), contact off, same τ
  const std::vector<Sample> samples = dropSamples(model, q0, steps, 10);
  const QddDiff da = compareQdd(model, *armature, samples, false);
  const QddDiff dr = compareQdd(model, *rotors, samples, false);
  const QddDiff dx = compareQdd(model, *rotors, samples, true);
  const grbda::Model balanced = grbda::loadUrdf(balancedUrdfPath());
  const QddDiff db = compareQdd(balanced, *rotors, samples, true);
  std::printf("\nq̈ of MuJoCo's mj_forward against grbda::forwardDynamics at %zu states of the drop (contact off;"
              " max |q̈_joints| = %.1f rad/s²):\n\n| MuJoCo model | max |Δq̈| base | max |Δq̈| joints | relative |\n"
              "|---|---:|---:|---:|\n",
              samples.size(), da.scale);
  std::printf("| armature N²·I | %.3g | %.3g | %.2g |\n", da.base, da.joints, da.joints / da.scale);
  std::printf("| rotor bodies, soft equality (mj_forward) | %.3g | %.3g | %.2g |\n", dr.base, dr.joints,
              dr.joints / dr.scale);
  std::printf("| rotor bodies, MuJoCo's M with hard gear rows (KKT) | %.3g | %.3g | %.2g |\n", dx.base, dx.joints,
              dx.joints / dx.scale);
  std::printf("| the same, grbda on the MJCF's balanced hip inertias | %.3g | %.3g | %.2g |\n", db.base, db.joints,
              db.joints / db.scale);

  // speed: standing (after the drop) and falling (10 m up, no contact)
  const VecX qHigh = grbda::bench::crouchedCheetah(model, 10.0);
  std::printf("\n| engine | standing steps per CPU second | falling steps per CPU second |\n|---|---:|---:|\n");
  for (Engine& e : engines) {
    const double standing = stepsPerSecond(e, [&] { drop(e, q0, 1500, dt); }, 2000);
    const double falling = stepsPerSecond(e, [&] { e.reset(qHigh); }, 1000);
    std::printf("| %s | %.0f | %.0f |\n", e.name.c_str(), standing, falling);
  }

  if (!csv.empty()) {
    std::ofstream out(csv);
    out << "time";
    for (const char* n : {"grbda", "mujoco_armature", "mujoco_rotors"}) out << ",z_" << n << ",fn_" << n;
    out << "\n";
    for (int k = 0; k < steps; ++k) {
      out << (k + 1) * dt;
      for (const DropResult& r : drops) out << "," << r.z[static_cast<size_t>(k)] << "," << r.fn[static_cast<size_t>(k)];
      out << "\n";
    }
    std::printf("\ntime series: %s\n", csv.c_str());
  }
  return 0;
}

int count(int argc, char** argv) {
  if (argc != 5) throw std::runtime_error("usage: bench_mujoco count grbda|armature|rotors standing|falling N");
  const std::string engine = argv[2], scenario = argv[3];
  const int n = std::atoi(argv[4]);
  const grbda::Model model = grbda::loadUrdf(urdfPath());
  const VecX q0 = grbda::bench::crouchedCheetah(model, scenario == "standing" ? kDropHeight : 10.0);
  std::unique_ptr<grbda::Simulator> sim;
  std::unique_ptr<MujocoCheetah> mj;
  VecX target;
  Engine e = engine == "grbda" ? grbdaEngine(model, sim) : mujocoEngine(engine, model, mj, target);
  e.reset(q0);
  if (scenario == "standing")
    for (int k = 0; k < 1500; ++k) e.step();  // land and settle
  for (int k = 0; k < n; ++k) e.step();
  std::printf("%s %s: %d steps, torso z %.4f, Σ f_n %.2f N\n", e.name.c_str(), scenario.c_str(), n, e.torsoHeight(),
              e.normalForceSum());
  return 0;
}

int check() {
  const grbda::Model model = grbda::loadUrdf(balancedUrdfPath());
  MujocoCheetah rotors(mjcfPath("rotors"), model);
  const VecX q0 = grbda::bench::crouchedCheetah(model, kDropHeight);
  const std::vector<Sample> samples = dropSamples(model, q0, 300, 10);
  const QddDiff d = compareQdd(model, rotors, samples, true);
  std::printf("MuJoCo rotor-body model, hard gear rows, against grbda: max |Δq̈| base %.3g, joints %.3g (scale %.3g)\n",
              d.base, d.joints, d.scale);
  // not to rounding: MuJoCo keeps each body's inertia in its principal axes (an iterative 3x3
  // eigensolver at compile time), which the light knee links' large q̈ (~2.5e3 rad/s²) amplify
  return d.base < 1e-7 * d.scale && d.joints < 1e-7 * d.scale ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "report";
    if (mode == "report") return report(argc, argv);
    if (mode == "count") return count(argc, argv);
    if (mode == "check") return check();
    std::fprintf(stderr, "usage: bench_mujoco report|count|check ...\n");
    return 2;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "bench_mujoco: %s\n", ex.what());
    return 1;
  }
}
