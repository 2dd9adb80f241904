// The Mini Cheetah trotting in place for 10 s on an open-loop gait: the diagonal pairs (FR + HL,
// FL + HR) take turns lifting their feet — hip and knee targets varying in time, sent to the joint
// PD by setPdTarget every step — while the other pair stands. Nothing feeds back the torso's state;
// the example fails if the torso drops below 0.2 m (lying down it is at ~0.05 m), tilts by more
// than 0.26 rad (15°), or the feet hardly leave the ground (two feet or fewer < 20 % of the time).
// examples/python/cheetah_trot.py is the same gait in Python.
//
//   example_cheetah_trot [--short] [--csv FILE]
#include "example_support.hpp"

namespace {

constexpr double kPeriod = 0.36;  // s, one gait cycle; each pair swings for half of it
constexpr double kLift = 0.25;    // rad of hip flexion at mid-swing (the knee flexes twice as much)

struct LegJoint {
  int q;             // index in q (its velocity is q - 1: the base has 7 positions, 6 velocities)
  bool firstPair;    // FR or HL
  double swingScale; // hip -kLift, knee +2 kLift, abad 0
};

std::vector<LegJoint> legJoints(const grbda::Model& model) {
  std::vector<LegJoint> out;
  for (int i = 7; i < model.nq(); ++i) {
    const std::string& name = model.positionNames()[static_cast<size_t>(i)];
    const bool first = name.find("FR_") != std::string::npos || name.find("HL_") != std::string::npos;
    const double scale = name.find("_hip_j") != std::string::npos    ? -kLift
                         : name.find("_knee_j") != std::string::npos ? 2 * kLift
                                                                      : 0.0;
    out.push_back({i, first, scale});
  }
  return out;
}

/// The tilt of the torso's z axis from vertical: R_zz = 1 − 2 (qx² + qy²).
double tilt(const grbda::VecX& q) { return std::acos(std::clamp(1 - 2 * (q[4] * q[4] + q[5] * q[5]), -1.0, 1.0)); }

}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parseArgs(argc, argv, "example_cheetah_trot [--short] [--csv FILE]");
  const grbda::Model model = grbda::loadUrdf(example::model("mini_cheetah.urdf"));
  grbda::VecX stance = example::legPose(model, 0.0, 0.0, -0.8, 1.6);
  grbda::Data data(model);
  grbda::forwardKinematics(model, data, stance);  // the feet (0.02 m spheres) 5 mm above the ground
  double lowestFoot = 0.0;
  for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"})
    lowestFoot = std::min(lowestFoot, grbda::framePosition(model, data, model.frameIndex(foot)).z());
  stance[2] = 0.025 - lowestFoot;
  const std::vector<LegJoint> joints = legJoints(model);
  grbda::Simulator sim(model, grbda::World());
  sim.setState(stance, grbda::VecX::Zero(model.nv()));
  sim.setPd(60.0, 0.8);

  const double settle = 0.5, duration = args.isShort ? 1.5 : 10.0;
  grbda::VecX qTarget = stance, vTarget = grbda::VecX::Zero(model.nv());
  double lowest = 1e9, highest = 0.0, maxTilt = 0.0;
  int gaitSteps = 0, swingSteps = 0;
  std::vector<std::vector<double>> rows;
  while (sim.time() < settle + duration - 1e-9) {
    const double t = sim.time() - settle;
    if (t >= 0) {  // half a sine per pair: 0 → 1 → 0, then the other pair
      const double phase = std::fmod(t, kPeriod) / kPeriod, w = 2 * M_PI / kPeriod;
      const bool firstSwings = phase < 0.5;
      const double sign = firstSwings ? 1.0 : -1.0;
      const double s = sign * std::sin(2 * M_PI * phase), ds = sign * w * std::cos(2 * M_PI * phase);
      for (const LegJoint& j : joints) {
        const bool swings = j.firstPair == firstSwings;
        qTarget[j.q] = stance[j.q] + (swings ? j.swingScale * s : 0.0);
        vTarget[j.q - 1] = swings ? j.swingScale * ds : 0.0;
      }
      sim.setPdTarget(qTarget, vTarget);
    }
    const grbda::StepResult& result = sim.step();
    const double force = result.normalForceSum();
    if (t >= 0) {
      int feet = 0;
      for (const grbda::ContactForce& c : result.contacts) feet += c.normalForce > 0;
      ++gaitSteps;
      swingSteps += feet <= 2;
    }
    lowest = std::min(lowest, sim.q()[2]);
    highest = std::max(highest, sim.q()[2]);
    maxTilt = std::max(maxTilt, tilt(sim.q()));
    rows.push_back({sim.time(), sim.q()[2], tilt(sim.q()), force});
  }
  const double swing = static_cast<double>(swingSteps) / gaitSteps;
  std::printf("%.1f s of trotting (%d steps): torso height %.4f..%.4f m, max tilt %.2f deg, base drift (%.3f, %.3f) m, "
              "two feet or fewer on the ground %.0f %% of the time\n",
              duration, gaitSteps, lowest, highest, maxTilt * 180 / M_PI, sim.q()[0], sim.q()[1], 100 * swing);
  example::writeCsv(args.csv, "time,torso_z,tilt,normal_force_sum", rows);
  example::require(lowest > 0.2, "the torso fell");
  example::require(maxTilt < 0.26, "the torso tipped");
  example::require(swing > 0.2, "the feet hardly leave the ground: this is not a trot");
  return 0;
}
