// Model and Simulator serialisation (model_source.hpp, sim/serialize.hpp): a model rebuilt from its
// bytes has bitwise the same forward dynamics as the original (every bundled robot, with and
// without a floating base, loops kept as constraints, a URDF <mimic>, a model built in code); a
// restored simulator steps to bitwise the same trajectory as the original (contact warm start,
// loop position completion and PD included); what cannot be serialised is refused by name.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>

#include "grbda/grbda.hpp"
#include "grbda/model_source.hpp"
#include "grbda/robots/tello.hpp"
#include "grbda/sim/serialize.hpp"
#include "grbda/sim/simulator.hpp"
#include "sim/simulator_access.hpp"
#include "support/cheetah_poses.hpp"

namespace grbda {

using testsupport::crouched;

namespace {

std::string modelPath(const std::string& name) { return std::string(GRBDA_SOURCE_DIR) + "/models/" + name; }

bool sameBits(const VecX& a, const VecX& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

/// A random state of `model` (quaternions normalised) with random torques.
void randomState(const Model& model, std::mt19937& rng, VecX& q, VecX& v, VecX& tau) {
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  q = model.neutralConfiguration();
  for (int i = 0; i < q.size(); ++i) q[i] += u(rng);
  for (const Body& b : model.bodies())
    if (b.joint.type == JointType::Free && b.independent) {
      const int at = model.cluster(b.cluster).qIndex;
      q.segment<4>(at + 3).normalize();
    }
  v = VecX::NullaryExpr(model.nv(), [&] { return u(rng); });
  tau = VecX::NullaryExpr(model.nv(), [&] { return 10.0 * u(rng); });
}

/// The rebuilt model's q̈ equals the original's bit for bit at a few random states, and it has
/// the same coordinates and the same source file.
/// q̈ of the model: C-ABA, or PV on the kept loops' rows for a model that keeps loops as rows
/// (forwardDynamics refuses those).
VecX modelForwardDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau) {
  if (model.keptLoopGroups().empty()) return forwardDynamics(model, data, q, v, tau);
  const ConstraintModel rows(model);
  ConstraintData cd(model, rows);
  return constrainedForwardDynamics(model, data, rows, cd, q, v, tau);
}

void expectSameDynamics(const Model& original) {
  const Model copy = deserializeModel(serializeModel(original));
  EXPECT_NE(copy.id(), original.id());
  ASSERT_EQ(copy.nq(), original.nq());
  ASSERT_EQ(copy.nv(), original.nv());
  EXPECT_EQ(copy.positionNames(), original.positionNames());
  EXPECT_EQ(copy.sourceFile(), original.sourceFile());
  EXPECT_EQ(copy.numClusters(), original.numClusters());
  EXPECT_EQ(copy.collisionGeometries().size(), original.collisionGeometries().size());
  Data d1(original), d2(copy);
  std::mt19937 rng(7);
  for (int k = 0; k < 3; ++k) {
    VecX q, v, tau;
    randomState(original, rng, q, v, tau);
    VecX a1, a2;
    try {
      a1 = modelForwardDynamics(original, d1, q, v, tau);
    } catch (const InputError&) {  // a loop that does not close there: the copy agrees, and both go on
      EXPECT_THROW(modelForwardDynamics(copy, d2, q, v, tau), InputError);
      q = original.neutralConfiguration();
      a1 = modelForwardDynamics(original, d1, q, v, tau);
    }
    a2 = modelForwardDynamics(copy, d2, q, v, tau);
    EXPECT_TRUE(sameBits(a1, a2)) << original.name() << ": max |Δq̈| = " << (a1 - a2).cwiseAbs().maxCoeff();
  }
}

TEST(ModelSerialization, EveryBundledRobotRebuildsToBitwiseTheSameDynamics) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(GRBDA_SOURCE_DIR) + "/models")) {
    if (entry.path().extension() != ".urdf") continue;
    SCOPED_TRACE(entry.path().filename().string());
    expectSameDynamics(loadUrdf(entry.path().string()));
    ++count;
  }
  EXPECT_GE(count, 10);
}

TEST(ModelSerialization, LoadOptionsTravel) {
  LoadOptions floating;
  floating.floatingBase = true;
  // a fixed-base file whose root link has mass (a floating massless root would be singular)
  const Model arm = loadUrdfString(R"(<robot name="arm"><link name="base"><inertial><mass value="2"/>
<inertia ixx="0.02" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
<link name="upper"><inertial><origin xyz="0 0 0.2"/><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><axis xyz="0 1 0"/>
<limit lower="-2" upper="2" effort="10" velocity="5"/></joint></robot>)", "arm.urdf", floating);
  ASSERT_TRUE(arm.isFloatingBase());
  EXPECT_TRUE(deserializeModel(serializeModel(arm)).isFloatingBase());
  expectSameDynamics(arm);

  LoadOptions constrain;
  constrain.loops = LoopTreatment::Constrain;
  const Model fourBar = loadUrdf(modelPath("four_bar.urdf"), constrain);
  ASSERT_FALSE(fourBar.keptLoopGroups().empty());
  EXPECT_EQ(deserializeModel(serializeModel(fourBar)).keptLoopGroups().size(), fourBar.keptLoopGroups().size());
  expectSameDynamics(fourBar);
}

TEST(ModelSerialization, AUrdfMimicTravelsAsText) {
  const std::string urdf = R"(<robot name="gripper">
  <link name="world"/>
  <link name="palm"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="f1"><inertial><origin xyz="0.05 0 0"/><mass value="0.2"/><inertia ixx="0.001" iyy="0.002" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="f2"><inertial><origin xyz="0.05 0 0"/><mass value="0.2"/><inertia ixx="0.001" iyy="0.002" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="wrist" type="continuous"><parent link="world"/><child link="palm"/><axis xyz="0 0 1"/></joint>
  <joint name="finger1" type="continuous"><parent link="palm"/><child link="f1"/><origin xyz="0.1 0.02 0"/><axis xyz="0 1 0"/></joint>
  <joint name="finger2" type="continuous"><parent link="palm"/><child link="f2"/><origin xyz="0.1 -0.02 0"/><axis xyz="0 1 0"/>
    <mimic joint="finger1" multiplier="-1.5" offset="0.1"/></joint>
</robot>)";
  const Model model = loadUrdfString(urdf, "gripper.urdf");
  ASSERT_EQ(model.nv(), 2);  // finger2 follows finger1
  ASSERT_FALSE(model.constraints().empty());
  expectSameDynamics(model);
}

/// A two-link arm whose second joint drives a rotor through a 6:1 coupling, with a frame and a
/// collision sphere, built in code.
ModelBuilder codeBuilder() {
  ModelBuilder b("coded");
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  b.addLink(LinkSpec{"upper", 1.3, Vec3(0.1, 0.0, 0.0), Vec3(0.01, 0.02, 0.025).asDiagonal(), {}});
  b.addLink(LinkSpec{"lower", 0.7, Vec3(0.12, 0.01, 0.0), Vec3(0.004, 0.01, 0.011).asDiagonal(), {}});
  b.addLink(LinkSpec{"rotor", 0.1, Vec3::Zero(), Vec3(1e-4, 1e-4, 2e-4).asDiagonal(), {}});
  const auto joint = [&](const std::string& name, const std::string& parent, const std::string& child, const Vec3& at,
                         const Vec3& axis) {
    JointSpec j;
    j.name = name;
    j.parent = parent;
    j.child = child;
    j.origin = Transform::translation(at);
    j.axis = axis;
    j.limits.effort = 20.0;
    j.dynamics.damping = 0.01;
    b.addJoint(j);
  };
  joint("shoulder", "world", "upper", Vec3(0, 0, 0.5), Vec3::UnitY());
  joint("elbow", "upper", "lower", Vec3(0.25, 0, 0), Vec3::UnitY());
  joint("rotor_joint", "upper", "rotor", Vec3(0.2, 0, 0), Vec3::UnitY());
  b.addCoupling(CouplingSpec{"gear", "lower", "rotor", 6.0, {}});
  b.addFrame(FrameSpec{"tip", "lower", Transform::translation(Vec3(0.3, 0, 0)), {}});
  CollisionSpec c;
  c.link = "lower";
  c.shape = CollisionShape::sphere(0.03);
  c.origin = Transform::translation(Vec3(0.3, 0, 0));
  b.addCollision(c);
  b.setGravity(Vec3(0.0, 0.0, -9.0));
  return b;
}

TEST(ModelSerialization, AModelBuiltInCodeTravelsAsItsSpecs) {
  const Model model = codeBuilder().build();
  ASSERT_EQ(model.nv(), 2);  // the rotor follows the elbow
  const Model copy = deserializeModel(serializeModel(model));
  EXPECT_EQ(copy.gravity(), Vec3(0.0, 0.0, -9.0));
  EXPECT_EQ(copy.frame(copy.frameIndex("tip")).body, model.frame(model.frameIndex("tip")).body);
  EXPECT_EQ(copy.body(1).dynamics.damping, 0.01);
  expectSameDynamics(model);
}

TEST(ModelSerialization, GravitySetAfterBuildTravels) {
  Model model = loadUrdf(modelPath("double_pendulum.urdf"));
  model.setGravity(Vec3(1.0, 2.0, -3.0));
  EXPECT_EQ(deserializeModel(serializeModel(model)).gravity(), Vec3(1.0, 2.0, -3.0));
}

TEST(ModelSerialization, ACodeConstraintIsRefusedByName) {
  try {
    serializeModel(robots::tello());
    FAIL() << "Tello's differentials are C++ code";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("ImplicitConstraint"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("constraint '"), std::string::npos) << e.what();
  }
  EXPECT_THROW(serializeModel(Model()), ModelError);  // an empty model has no source
}

TEST(ModelSerialization, BytesThatAreNotAModelAreAnInputError) {
  const std::string bytes = serializeModel(loadUrdf(modelPath("double_pendulum.urdf")));
  EXPECT_THROW(deserializeModel(""), InputError);
  EXPECT_THROW(deserializeModel("not a model"), InputError);
  EXPECT_THROW(deserializeModel(bytes.substr(0, bytes.size() / 2)), InputError);
  EXPECT_THROW(deserializeModel(bytes + "x"), InputError);
  std::string wrongVersion = bytes;
  wrongVersion[8 + 11] = 9;  // the version after the magic's length and text
  EXPECT_THROW(deserializeModel(wrongVersion), InputError);
}

// ---- the simulator ----

/// `sim` after `more` steps and a restored copy after the same steps agree bit for bit.
void expectSameContinuation(Simulator& sim, int more) {
  Simulator restored = deserializeSimulator(serializeSimulator(sim));
  EXPECT_TRUE(sameBits(restored.q(), sim.q()));
  EXPECT_EQ(restored.time(), sim.time());
  // the passive-energy watch keeps its baseline (a restored passive run stops where the original would)
  using Access = detail::SimulatorAccess;
  EXPECT_EQ(std::memcmp(&Access::passiveEnergyStart(restored), &Access::passiveEnergyStart(sim), sizeof(double)), 0);
  for (int k = 0; k < more; ++k) {
    sim.step();
    restored.step();
    ASSERT_TRUE(sameBits(restored.q(), sim.q()) && sameBits(restored.v(), sim.v())) << "diverged at step " << k;
    ASSERT_EQ(restored.lastStep().solver.iterations, sim.lastStep().solver.iterations);
  }
  EXPECT_EQ(restored.time(), sim.time());
}

TEST(SimulatorSerialization, TheMiniCheetahLandingResumesToTheSameTrajectory) {
  const Model model = loadUrdf(modelPath("mini_cheetah.urdf"));
  World world;
  world.friction = 0.8;
  world.boxes.push_back(StaticBox{Vec3(0.5, 0.0, 0.02), Mat3::Identity(), Vec3(0.1, 0.1, 0.02), 0.6, 0.0});
  SimulatorOptions options;
  options.dt = 2e-3;
  Simulator sim(model, world, options);
  sim.setState(crouched(model, 0.30), VecX::Zero(model.nv()));
  sim.setPd(50.0, 0.4);
  sim.step(130);  // in contact: the warm start is live
  ASSERT_GT(sim.lastStep().contacts.size(), 0u);
  const Simulator restored = deserializeSimulator(serializeSimulator(sim));
  EXPECT_EQ(restored.world().boxes.size(), 1u);
  EXPECT_EQ(restored.world().friction, 0.8);
  EXPECT_EQ(restored.options().dt, 2e-3);
  EXPECT_TRUE(restored.pdEnabled());
  EXPECT_EQ(restored.lastStep().contacts.size(), sim.lastStep().contacts.size());
  expectSameContinuation(sim, 200);
}

TEST(SimulatorSerialization, ALoopModelResumesFromTheSameClosedPose) {
  // the four-bar's position completion starts from the previous closed pose (the Data's)
  const Model model = loadUrdf(modelPath("four_bar.urdf"));
  Simulator sim(model, World::empty());
  sim.setState(model.neutralConfiguration(), VecX::Constant(model.nv(), 0.5));
  sim.step(50);
  expectSameContinuation(sim, 100);
}

TEST(SimulatorSerialization, TheRecordingAndHeldTorqueTravel) {
  const Model model = loadUrdf(modelPath("double_pendulum.urdf"));
  Simulator sim(model, World::empty());
  sim.setTorque(VecX::Constant(model.nv(), 0.3));
  sim.startRecording();
  sim.step(10);
  const Simulator restored = deserializeSimulator(serializeSimulator(sim));
  ASSERT_EQ(restored.trajectory().q.size(), 11u);
  EXPECT_TRUE(sameBits(restored.trajectory().q[5], sim.trajectory().q[5]));
  expectSameContinuation(sim, 20);
  EXPECT_THROW(deserializeSimulator(serializeModel(model)), InputError);  // a model is not a simulator
}

}  // namespace
}  // namespace grbda
