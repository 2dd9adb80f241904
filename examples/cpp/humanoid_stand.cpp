// The MIT Humanoid (floating base; geared hips, shoulders and elbows; knee and ankle driven by belts
// from rotors on the thigh) standing for 5 s on its two sole boxes (0.15 × 0.07 × 0.01 m, μ = 1)
// under a joint PD holding a slight crouch, contacts solved by PGS. It starts with the soles 5 mm
// up; the example fails if the torso sags by more than 5 cm, the soles do not carry the weight, or
// a sole slides.
//
//   example_humanoid_stand [--short] [--csv FILE]
#include "example_support.hpp"

namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The crouch (hip pitch −0.2, knee 0.4, ankle −0.2 rad), the lower sole 5 mm above z = 0. A sole
/// box spans z ∈ [0, 0.01] of its foot frame, so the frame's origin is the sole's bottom.
grbda::VecX crouch(const grbda::Model& model) {
  grbda::VecX q = model.neutralConfiguration();
  for (int i = 0; i < model.nq(); ++i) {
    const std::string& name = model.positionNames()[static_cast<size_t>(i)];
    if (endsWith(name, "hipy_link")) q[i] = -0.2;
    if (endsWith(name, "knee_link")) q[i] = 0.4;
    if (endsWith(name, "knee_to_ankle")) q[i] = -0.2;
  }
  grbda::Data data(model);
  grbda::forwardKinematics(model, data, q);
  const double lowest = std::min(grbda::framePosition(model, data, model.frameIndex("right_foot")).z(),
                                 grbda::framePosition(model, data, model.frameIndex("left_foot")).z());
  q[2] = 0.005 - lowest;
  return q;
}

}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parseArgs(argc, argv, "example_humanoid_stand [--short] [--csv FILE]");
  const grbda::Model model = grbda::loadUrdf(example::model("mit_humanoid.urdf"));
  grbda::SimulatorOptions options;
  options.solver.type = grbda::ContactSolverType::PGS;  // ADMM diverges at this touchdown (examples/README.md)
  grbda::Simulator sim(model, grbda::World(), options);
  sim.setState(crouch(model), grbda::VecX::Zero(model.nv()));
  sim.setPd(300.0, 3.0);

  const int steps = args.isShort ? 1000 : 5000;
  grbda::Data data(model);
  const int soles[2] = {model.frameIndex("right_foot"), model.frameIndex("left_foot")};
  auto solePositions = [&] {
    grbda::forwardKinematics(model, data, sim.q());
    return std::vector<grbda::Vec3>{grbda::framePosition(model, data, soles[0]), grbda::framePosition(model, data, soles[1])};
  };
  const double start = sim.q()[2];
  double lowest = 1e9, slide = 0.0;
  std::vector<grbda::Vec3> landed;
  std::vector<std::vector<double>> rows;
  for (int k = 0; k < steps; ++k) {
    const double force = sim.step().normalForceSum();
    lowest = std::min(lowest, sim.q()[2]);
    if (k == 500) landed = solePositions();
    rows.push_back({sim.time(), sim.q()[2], force});
  }
  const std::vector<grbda::Vec3> end = solePositions();
  for (int s = 0; s < 2; ++s) slide = std::max(slide, (end[s] - landed[s]).head<2>().cwiseAbs().maxCoeff());
  const double weight = example::mass(model) * 9.81, force = sim.lastStep().normalForceSum();
  std::printf("%d steps: torso %.4f -> %.4f m (lowest %.4f), final Σ normal force %.2f N (weight %.2f N), "
              "%zu contacts, soles slid %.2e m\n",
              steps, start, sim.q()[2], lowest, force, weight, sim.lastStep().contacts.size(), slide);
  example::writeCsv(args.csv, "time,torso_z,normal_force_sum", rows);
  example::require(lowest > start - 0.05, "the humanoid sagged or fell");
  example::require(std::abs(force - weight) < 0.01 * weight, "the soles do not carry the weight");
  example::require(slide < 1e-3, "a sole slid");
  return 0;
}
