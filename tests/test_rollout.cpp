// rollout (sim/rollout.hpp): N Mini Cheetah drops on 1, 2 and 4 threads give bitwise the same
// arrays, and each rollout equals stepping a copy of the prototype by hand (the independent
// reference); per-rollout friction and PD gains reach their rollouts; the prototype does not move;
// controllers come one per rollout; bad input and failing rollouts are typed errors naming the
// lowest failing rollout, whatever the thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "grbda/grbda.hpp"
#include "grbda/sim/rollout.hpp"
#include "grbda/sim/simulator.hpp"
#include "support/cheetah_poses.hpp"

namespace grbda {

using testsupport::crouched;

namespace {

const Model& cheetah() {
  static const Model model = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  return model;
}

/// N initial states: drops from different heights, with different sideways velocities.
void initialStates(const Model& model, int n, MatX& q0, MatX& v0) {
  q0.resize(n, model.nq());
  v0.setZero(n, model.nv());
  for (int i = 0; i < n; ++i) {
    q0.row(i) = crouched(model, 0.26 + 0.01 * i).transpose();
    v0(i, 3) = 0.1 * (i % 3);  // body-frame linear velocity x
    v0(i, 2) = 0.05 * i;       // yaw rate
  }
}

Simulator prototype(const Model& model) {
  Simulator sim(model, World());
  sim.setState(crouched(model, 0.30), VecX::Zero(model.nv()));
  sim.setPd(50.0, 0.4);  // holds the crouched pose
  return sim;
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

TEST(Rollout, ResultsAreBitwiseTheSameOnOneTwoAndFourThreads) {
  const Model& model = cheetah();
  const Simulator sim = prototype(model);
  MatX q0, v0;
  initialStates(model, 7, q0, v0);
  RolloutParameters p;
  p.friction = VecX::LinSpaced(7, 0.3, 1.2);
  p.kp = VecX::LinSpaced(7, 30.0, 70.0);
  p.kd = MatX::Constant(7, 1, 0.4);
  RolloutSettings settings;
  settings.threads = 1;
  const Rollouts one = rollout(sim, q0, v0, 250, p, settings);
  settings.threads = 2;
  const Rollouts two = rollout(sim, q0, v0, 250, p, settings);
  settings.threads = 4;
  const Rollouts four = rollout(sim, q0, v0, 250, p, settings);
  EXPECT_TRUE(sameBits(one.positions, two.positions));
  EXPECT_TRUE(sameBits(one.velocities, two.velocities));
  EXPECT_TRUE(sameBits(one.positions, four.positions));
  EXPECT_TRUE(sameBits(one.velocities, four.velocities));
  // the runs differ from one another (the test would pass trivially otherwise) and they landed
  EXPECT_GT((one.q(0, 250) - one.q(6, 250)).norm(), 1e-3);
  for (int i = 0; i < 7; ++i) EXPECT_LT(one.q(i, 250)[2], 0.25) << "rollout " << i << " torso height";
}

TEST(Rollout, EachRolloutIsTheRunOfAPrototypeCopySteppedByHand) {
  const Model& model = cheetah();
  const Simulator sim = prototype(model);
  MatX q0, v0;
  initialStates(model, 4, q0, v0);
  RolloutParameters p;
  p.friction = VecX::LinSpaced(4, 0.2, 1.0);
  p.kp = MatX::Constant(4, model.nv(), 40.0);
  p.kd = MatX::Constant(4, model.nv(), 0.5);
  p.kp(2, 6) = 10.0;  // one leg joint of one rollout softer
  RolloutSettings settings;
  settings.threads = 2;
  const int steps = 200;
  const Rollouts r = rollout(sim, q0, v0, steps, p, settings);
  ASSERT_EQ(r.positions.size(), size_t(4) * (steps + 1) * size_t(model.nq()));
  for (int i = 0; i < 4; ++i) {
    World w;  // built from the parts, not copied from the prototype
    w.friction = p.friction[i];
    Simulator byHand(model, w);
    byHand.setState(crouched(model, 0.30), VecX::Zero(model.nv()));
    byHand.setPd(p.kp.row(i).transpose(), p.kd.row(i).transpose());  // target: the prototype's pose
    byHand.setState(q0.row(i).transpose(), v0.row(i).transpose());
    EXPECT_EQ(r.q(i, 0), q0.row(i).transpose());
    for (int t = 1; t <= steps; ++t) {
      byHand.step();
      ASSERT_EQ(r.q(i, t), byHand.q()) << "rollout " << i << " step " << t;
      ASSERT_EQ(r.v(i, t), byHand.v()) << "rollout " << i << " step " << t;
    }
  }
  // friction reached its rollout: the friction forces differ between rollouts 0 and 3
  EXPECT_NE(r.q(0, steps), r.q(3, steps));
  // the prototype did not move
  EXPECT_EQ(sim.q(), crouched(model, 0.30));
  EXPECT_EQ(sim.time(), 0.0);
}

/// Pushes the torso sideways with a force growing in time: a controller with state.
class Push : public Controller {
 public:
  explicit Push(double gain) : gain_(gain) {}
  void compute(const Simulator& sim, VecX& tau) override {
    ++calls;
    tau[3] = gain_ * calls;  // body-frame x force
    (void)sim;
  }
  int calls = 0;

 private:
  double gain_;
};

TEST(Rollout, ControllersAreMadeOnePerRollout) {
  const Model& model = cheetah();
  Simulator sim = prototype(model);
  Push shared(0.0);
  sim.setController(&shared);
  MatX q0, v0;
  initialStates(model, 3, q0, v0);
  EXPECT_THROW(rollout(sim, q0, v0, 10), InputError);  // one controller cannot serve every thread
  std::vector<Push*> made(3, nullptr);
  RolloutSettings settings;
  settings.threads = 2;
  settings.makeController = [&](int i) {
    auto c = std::make_unique<Push>(0.01 * i);
    made[static_cast<size_t>(i)] = c.get();
    return c;
  };
  const Rollouts pushed = rollout(sim, q0, v0, 50, {}, settings);
  settings.makeController = [](int) { return std::make_unique<Push>(0.0); };
  const Rollouts still = rollout(sim, q0, v0, 50, {}, settings);
  EXPECT_EQ(pushed.q(0, 50), still.q(0, 50));  // gain 0
  EXPECT_NE(pushed.q(2, 50), still.q(2, 50));  // gain 0.02 pushed
  EXPECT_EQ(shared.calls, 0);
}

TEST(Rollout, BadInputIsAnInputError) {
  const Model& model = cheetah();
  const Simulator sim = prototype(model);
  MatX q0, v0;
  initialStates(model, 3, q0, v0);
  EXPECT_THROW(rollout(sim, q0.leftCols(5), v0, 10), InputError);
  EXPECT_THROW(rollout(sim, q0, v0.topRows(2), 10), InputError);
  EXPECT_THROW(rollout(sim, q0, v0, -1), InputError);
  RolloutParameters p;
  p.friction = VecX::Constant(2, 1.0);
  EXPECT_THROW(rollout(sim, q0, v0, 10, p), InputError);
  p.friction = VecX::Constant(3, -1.0);
  EXPECT_THROW(rollout(sim, q0, v0, 10, p), InputError);
  p = RolloutParameters();
  p.kp = MatX::Constant(3, 1, 1.0);
  EXPECT_THROW(rollout(sim, q0, v0, 10, p), InputError);  // kd missing
  RolloutSettings s;
  s.threads = -1;
  EXPECT_THROW(rollout(sim, q0, v0, 10, {}, s), InputError);
  const Rollouts none = rollout(sim, q0.topRows(0), v0.topRows(0), 10);
  EXPECT_TRUE(none.positions.empty());
  const Rollouts zeroSteps = rollout(sim, q0, v0, 0);
  EXPECT_EQ(zeroSteps.q(2, 0), q0.row(2).transpose());
}

TEST(Rollout, TheLowestFailingRolloutIsReportedWhateverTheThreadCount) {
  const Model& model = cheetah();
  const Simulator sim = prototype(model);
  MatX q0, v0;
  initialStates(model, 6, q0, v0);
  q0(4, 8) = std::numeric_limits<double>::quiet_NaN();
  q0(2, 9) = std::numeric_limits<double>::quiet_NaN();
  for (int threads : {1, 2, 4}) {
    RolloutSettings s;
    s.threads = threads;
    try {
      rollout(sim, q0, v0, 20, {}, s);
      FAIL() << "NaN initial states";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("rollout 2:"), std::string::npos) << threads << " threads: " << e.what();
    }
  }
}

}  // namespace
}  // namespace grbda
