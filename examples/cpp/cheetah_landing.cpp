// The Mini Cheetah dropped on the ground: torso at 0.30 m, legs (abad, hip, knee) = (0, -1, 2) rad
// held by a joint PD (kp = 50 N·m/rad, kd = 0.4 N·m·s/rad), 1 ms steps, 0.02 m foot spheres, μ = 1.
// It lands and stands (the example fails otherwise). --csv FILE writes time, torso height and Σ
// normal force per step (examples/python/cheetah_landing.py plots the same run).
//
//   example_cheetah_landing [--short] [--csv FILE]
#include "example_support.hpp"

int main(int argc, char** argv) {
  const example::Args args = example::parseArgs(argc, argv, "example_cheetah_landing [--short] [--csv FILE]");
  const grbda::Model model = grbda::loadUrdf(example::model("mini_cheetah.urdf"));
  grbda::Simulator sim(model, grbda::World());  // a ground at z = 0, μ = 1
  sim.setState(example::legPose(model, 0.30, 0.0, -1.0, 2.0), grbda::VecX::Zero(model.nv()));
  sim.setPd(50.0, 0.4);  // holds the pose it is switched on at

  const int steps = args.isShort ? 1000 : 1500;
  double touchdown = -1.0, peak = 0.0, lowest = 1e9;
  std::vector<std::vector<double>> rows;
  for (int k = 0; k < steps; ++k) {
    const double force = sim.step().normalForceSum();
    if (touchdown < 0 && force > 0) touchdown = sim.time();
    peak = std::max(peak, force);
    lowest = std::min(lowest, sim.q()[2]);
    rows.push_back({sim.time(), sim.q()[2], force});
  }
  const double weight = example::mass(model) * 9.81, force = sim.lastStep().normalForceSum();
  std::printf("%d steps: touchdown %.3f s, peak Σ normal force %.1f N, lowest torso %.4f m, final torso %.4f m, "
              "final Σ normal force %.2f N (weight %.2f N)\n",
              steps, touchdown, peak, lowest, sim.q()[2], force, weight);
  for (const grbda::ContactForce& c : sim.lastStep().contacts)
    std::printf("  %-8s normal %6.2f N  friction (%+.3f, %+.3f) N\n",
                model.collisionGeometries()[static_cast<size_t>(c.contact.geometry)].link.c_str(), c.normalForce,
                c.frictionForce.x(), c.frictionForce.y());
  example::writeCsv(args.csv, "time,torso_z,normal_force_sum", rows);
  example::require(touchdown > 0 && lowest > 0.15 && sim.q()[2] > 0.15, "the cheetah did not land on its feet");
  // the weakly damped PD (kd = 0.4) lets the torso bob at ~5 Hz for a while: over the last 0.2 s
  // (one period) the feet carry the weight on average
  double mean = 0.0;
  for (int k = steps - 200; k < steps; ++k) mean += rows[static_cast<size_t>(k)][2] / 200;
  std::printf("mean Σ normal force over the last 0.2 s: %.2f N\n", mean);
  example::require(sim.lastStep().contacts.size() == 4, "not on four feet");
  example::require(std::abs(mean - weight) < 0.05 * weight, "the feet do not carry the weight");
  return 0;
}
