// Simulators on several threads at once, each its own copy made from one shared Simulator (so the
// copies share the Model's immutable cluster joints): every thread's trajectory must equal, bit for
// bit, the same run done alone. Small enough for ThreadSanitizer (.ci/run, GRBDA_TSAN_THREADS).
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "grbda/builder.hpp"
#include "grbda/sim/simulator.hpp"

using namespace grbda;

namespace {

/// A box on a free joint with a box collision shape and one geared wheel spinning on it (a rotor
/// cluster), dropped on a tilted ground with friction.
Model boxWithRotor() {
  ModelBuilder b("box");
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  b.addLink(LinkSpec{"box", 2.0, Vec3::Zero(), Vec3(0.02, 0.03, 0.04).asDiagonal(), {}});
  b.addLink(LinkSpec{"wheel", 0.2, Vec3::Zero(), Vec3(1e-3, 1e-3, 2e-3).asDiagonal(), {}});
  b.addLink(LinkSpec{"rotor", 0.05, Vec3::Zero(), Vec3(1e-5, 1e-5, 2e-5).asDiagonal(), {}});
  JointSpec free;
  free.name = "float";
  free.kind = JointKind::Floating;
  free.parent = "world";
  free.child = "box";
  b.addJoint(free);
  JointSpec wheel;
  wheel.name = "wheel_joint";
  wheel.parent = "box";
  wheel.child = "wheel";
  wheel.axis = Vec3::UnitZ();
  wheel.origin = Transform::translation(Vec3(0, 0, 0.1));
  wheel.dynamics.damping = 0.01;
  wheel.dynamics.friction = 0.02;
  b.addJoint(wheel);
  JointSpec rotor = wheel;
  rotor.name = "rotor_joint";
  rotor.child = "rotor";
  rotor.independent = false;
  b.addJoint(rotor);
  b.addCoupling(CouplingSpec{"gear", "wheel", "rotor", 5.0, {}});
  CollisionSpec c;
  c.link = "box";
  c.shape = CollisionShape::box(Vec3(0.3, 0.2, 0.1));
  b.addCollision(c);
  return b.build();
}

std::vector<VecX> run(Simulator sim, int seed) {
  VecX q = sim.q();
  q[2] = 0.1 + 0.01 * seed;
  VecX v = VecX::Zero(sim.model().nv());
  v[6] = 3.0 + seed;  // the wheel spins
  sim.setState(q, v);
  std::vector<VecX> out;
  for (int i = 0; i < 150; ++i) {
    sim.step();
    out.push_back(sim.q());
  }
  return out;
}

}  // namespace

TEST(ThreadsSimulator, CopiesSteppedOnThreadsGiveTheSerialTrajectories) {
  World world;
  world.groundNormal = Vec3(-0.2, 0.0, 1.0).normalized();
  world.friction = 0.4;
  const Simulator shared(boxWithRotor(), world);
  constexpr int kThreads = 4;
  std::vector<std::vector<VecX>> serial, parallel(kThreads);
  for (int t = 0; t < kThreads; ++t) serial.push_back(run(shared, t));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([&, t] { parallel[static_cast<size_t>(t)] = run(shared, t); });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t)
    for (size_t i = 0; i < serial[static_cast<size_t>(t)].size(); ++i)
      ASSERT_EQ(serial[static_cast<size_t>(t)][i], parallel[static_cast<size_t>(t)][i]) << "thread " << t << " step " << i;
}
