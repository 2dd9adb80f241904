// Self-collision (World::selfCollision, collision/self_collision.hpp): a ball on a chain falling
// onto a plate on the same chain stops on it with the forces statics predicts on both bodies (the
// relative contact row: +λ on one body, −λ on the other), and passes through with it off; adjacent
// and same-cluster bodies (a rotor and its link) are never tested; the output is the same bit for
// bit on every run.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "grbda/collision/self_collision.hpp"
#include "grbda/grbda.hpp"
#include "grbda/sim/serialize.hpp"
#include "grbda/sim/simulator.hpp"
#include "support/allocation_counter.hpp"
#include "support/gravity.hpp"

namespace grbda {
namespace {

using testsupport::kG;
constexpr double kPlateMass = 1.0, kSliderMass = 0.1, kBallMass = 0.5;
constexpr double kPlateHalfHeight = 0.025, kBallRadius = 0.05;

JointSpec prismatic(const std::string& name, const std::string& parent, const std::string& child, const Vec3& axis) {
  JointSpec j;
  j.name = name;
  j.kind = JointKind::Prismatic;
  j.parent = parent;
  j.child = child;
  j.axis = axis;
  return j;
}

/// world →(z) plate (a box on the ground) →(x) slider →(z) ball: the ball and the plate are links
/// of one chain, two joints apart (not adjacent), and both move vertically.
Model plateAndBall() {
  ModelBuilder b("plate_and_ball");
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  b.addLink(LinkSpec{"plate", kPlateMass, Vec3::Zero(), 0.01 * Mat3::Identity(), {}});
  b.addLink(LinkSpec{"slider", kSliderMass, Vec3::Zero(), 0.001 * Mat3::Identity(), {}});
  b.addLink(LinkSpec{"ball", kBallMass, Vec3::Zero(), 0.001 * Mat3::Identity(), {}});
  b.addJoint(prismatic("lift", "world", "plate", Vec3::UnitZ()));
  b.addJoint(prismatic("slide", "plate", "slider", Vec3::UnitX()));
  b.addJoint(prismatic("drop", "slider", "ball", Vec3::UnitZ()));
  CollisionSpec plate, ball;
  plate.link = "plate";
  plate.shape = CollisionShape::box(Vec3(0.4, 0.4, 2.0 * kPlateHalfHeight));
  ball.link = "ball";
  ball.shape = CollisionShape::sphere(kBallRadius);
  b.addCollision(plate);
  b.addCollision(ball);
  return b.build();
}

/// q = [plate height, slide, ball above the plate]: the plate 2 cm above the ground, the ball 0.3 m
/// above the plate's centre.
VecX start() { return Vec3(kPlateHalfHeight + 0.02, 0.0, 0.3); }

TEST(SelfCollision, ABallFallingOntoAPlateOfItsOwnChainStopsOnItWithTheStaticForces) {
  const Model model = plateAndBall();
  World world;
  world.selfCollision = true;
  Simulator sim(model, world);
  ASSERT_EQ(SelfCollision(model).pairs().size(), 1u);  // plate–ball only
  sim.setState(start(), VecX::Zero(3));
  const double restingGap = kPlateHalfHeight + kBallRadius;  // ball above the plate's centre at rest
  double deepest = 0.0;
  for (int step = 0; step < 2000; ++step) {
    sim.step();
    deepest = std::max(deepest, restingGap - sim.q()[2]);
  }
  // the stated bound (docs/simulation.md): a row exists from distance ≤ margin, so the first step
  // of contact can carry the ball at most one step's travel at its impact speed into the plate
  const double impact = std::sqrt(2.0 * kG * (start()[2] - restingGap));
  EXPECT_LT(deepest, impact * sim.options().dt) << "the ball sank into the plate";
  EXPECT_NEAR(sim.q()[2], restingGap, 1e-6);  // pushed back out and resting on the plate
  EXPECT_LT(std::abs(sim.v()[2]), 1e-6);
  // the forces statics predicts: the ball's weight on the plate; everything's weight on the ground
  double ground = 0.0, self = 0.0;
  for (const ContactForce& f : sim.lastStep().contacts) {
    if (f.contact.obstacle == kSelfObstacle) {
      self += f.normalForce;
      // body is the plate (the pair's first shape): pushed down, the ball (body2) up
      EXPECT_EQ(model.body(f.contact.body).name, "plate");
      EXPECT_EQ(model.body(f.contact.body2).name, "ball");
      EXPECT_LT((f.contact.normal + Vec3::UnitZ()).norm(), 1e-9);
    } else {
      ground += f.normalForce;
    }
  }
  EXPECT_NEAR(self, kBallMass * kG, 1e-6 * kBallMass * kG);
  EXPECT_NEAR(ground, (kPlateMass + kSliderMass + kBallMass) * kG, 1e-6 * (kPlateMass + kSliderMass + kBallMass) * kG);
}

TEST(SelfCollision, OffByDefaultTheBallPassesThroughThePlate) {
  const Model model = plateAndBall();
  Simulator sim(model, World());  // selfCollision = false
  sim.setState(start(), VecX::Zero(3));
  sim.step(1000);
  // through the plate, down to the ground: its centre rests one radius above the ground
  EXPECT_LT(sim.q()[2], kPlateHalfHeight + 1e-3);  // the ball's centre at the plate's top face or below
  EXPECT_NEAR(sim.q()[0] + sim.q()[2], kBallRadius, 1e-3);
  for (const ContactForce& f : sim.lastStep().contacts) EXPECT_NE(f.contact.obstacle, kSelfObstacle);
}

TEST(SelfCollision, TheSameRunGivesBitwiseTheSameSteps) {
  const Model model = plateAndBall();
  World world;
  world.selfCollision = true;
  std::vector<VecX> first;
  for (int run = 0; run < 2; ++run) {
    Simulator sim(model, world);
    sim.setState(start(), VecX::Zero(3));
    for (int step = 0; step < 400; ++step) {
      sim.step();
      if (run == 0) first.push_back(sim.q());
      else ASSERT_EQ(sim.q(), first[static_cast<size_t>(step)]) << "step " << step;
    }
  }
}

/// The Mini Cheetah with big overlapping spheres on the trunk, a leg's links and two of its rotors.
Model cheetahWithSpheres() {
  std::ifstream in(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  std::stringstream text;
  text << in.rdbuf();
  std::string xml = text.str();
  for (const char* link : {"Floating Base", "FR_abad_link", "FR_abad_rotor", "FR_hip_link", "FR_hip_rotor", "FR_knee_link"}) {
    const std::string open = std::string("<link name=\"") + link + "\">";
    const size_t at = xml.find(open);
    EXPECT_NE(at, std::string::npos) << link;
    xml.insert(at + open.size(), "<collision><geometry><sphere radius=\"0.3\"/></geometry></collision>");
  }
  return loadUrdfString(xml, "mini_cheetah_spheres.urdf");
}

TEST(SelfCollision, AdjacentAndSameClusterBodiesAreNeverTested) {
  const Model model = cheetahWithSpheres();
  const auto& g = model.collisionGeometries();
  std::set<std::pair<std::string, std::string>> pairs;
  const SelfCollision self(model);
  for (const auto& [a, b] : self.pairs())
    pairs.insert({g[static_cast<size_t>(a)].link, g[static_cast<size_t>(b)].link});
  const auto has = [&](const std::string& a, const std::string& b) { return pairs.count({a, b}) + pairs.count({b, a}) > 0; };
  // a rotor and the link it drives are one cluster; a link and its parent are adjacent
  EXPECT_FALSE(has("FR_hip_rotor", "FR_hip_link"));
  EXPECT_FALSE(has("FR_abad_rotor", "FR_abad_link"));
  EXPECT_FALSE(has("Floating Base", "FR_abad_link"));
  EXPECT_FALSE(has("FR_abad_link", "FR_hip_link"));
  EXPECT_FALSE(has("FR_hip_link", "FR_knee_link"));
  // two joints apart: tested
  EXPECT_TRUE(has("Floating Base", "FR_hip_link"));
  EXPECT_TRUE(has("FR_abad_link", "FR_knee_link"));
  // and in a simulation every overlapping pair reports a contact only where it is tested
  World world = World::empty();
  world.selfCollision = true;
  Simulator sim(model, world);
  sim.step();
  std::set<std::pair<std::string, std::string>> touched;
  for (const ContactForce& f : sim.lastStep().contacts) {
    ASSERT_EQ(f.contact.obstacle, kSelfObstacle);
    const std::string a = g[static_cast<size_t>(f.contact.geometry)].link, b = g[static_cast<size_t>(f.contact.geometry2)].link;
    EXPECT_TRUE(has(a, b)) << a << " / " << b;
    touched.insert({a, b});
  }
  EXPECT_FALSE(touched.empty());
}

TEST(SelfCollision, TheBroadPhaseAllocatesNothingWhileNoPairIsWithinReach) {
  // FCL's narrow phase allocates (libccd); the AABB pass in front of it must not, so a robot whose
  // links are apart steps allocation-free with self-collision on
  if (!testsupport::allocationCounterLinked()) GTEST_SKIP() << "no counting allocator in this binary";
  World world;
  world.selfCollision = true;
  Simulator sim(plateAndBall(), world);
  sim.setState(Vec3(kPlateHalfHeight, 0.0, 0.5), VecX::Zero(3));  // resting plate, ball high above
  sim.step(5);
  testsupport::AllocationScope scope;
  sim.step(20);
  EXPECT_EQ(scope.count(), 0);
  EXPECT_GT(sim.q()[2], 0.45);  // still apart: the pair was never within reach
}

TEST(SelfCollision, TheFlagRoundTripsThroughTheSimulatorArchive) {
  World world;
  world.selfCollision = true;
  Simulator sim(plateAndBall(), world);
  sim.setState(start(), VecX::Zero(3));
  sim.step(300);
  const Simulator copy = deserializeSimulator(serializeSimulator(sim));
  EXPECT_TRUE(copy.world().selfCollision);
}

}  // namespace
}  // namespace grbda
