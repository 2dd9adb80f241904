// MJCF import (include/grbda/mjcf/mjcf.hpp): MJCF files load into the same clusters and the same
// dynamics as the URDF+ files they describe (the MJCF written by tools/make_mjcf.py, a four-bar
// written by hand), and MJCF's frame conventions agree with URDF's written independently.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "mjcf_support.hpp"
#include "support/exact_text.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {


}  // namespace

// models/mjcf/mini_cheetah_rotors.xml: tools/make_mjcf.py --variant rotors (rotors as bodies tied by
// <equality joint polycoef="0 N 0 0 0">). The script also wrote mini_cheetah_balanced.urdf: the
// URDF+ with the hip inertias MuJoCo's A + B >= C check forced on the MJCF.
TEST(Mjcf, MiniCheetahRotorsAsBodiesAreTheExactRotorClusters) {
  setLogLevel(LogLevel::Error);
  const Model mj = loadMjcf(modelFile("mjcf/mini_cheetah_rotors.xml"));
  const Model urdf = loadUrdf(modelFile("mjcf/mini_cheetah_balanced.urdf"));
  EXPECT_EQ(clusterTypes(mj), clusterTypes(urdf));
  EXPECT_EQ(mj.numClusters(), 13);
  EXPECT_EQ(mj.nv(), 18);
  Rng rng(7);
  const Agreement a = compareModels(mj, urdf, rng, 20);
  EXPECT_LT(a.qdd, 1e-10);
  EXPECT_LT(a.mass, 1e-10);
  std::cout << "[ measured ] Mini Cheetah MJCF (rotors as bodies) vs URDF+: qdd " << a.qdd << ", H " << a.mass
            << " over " << a.samples << " states\n";
  // the comparison sees a difference of 1e-4 kg m² in four links: the unbalanced URDF+ differs
  const Agreement unbalanced = compareModels(mj, loadUrdf(modelFile("mini_cheetah.urdf")), rng, 3);
  EXPECT_GT(unbalanced.mass, 1e-6);
  std::cout << "[ measured ] ... vs the URDF+ before MuJoCo's inertia balancing: H differs by " << unbalanced.mass << "\n";
}

TEST(Mjcf, MiniCheetahFeetAndMotorsCarryOver) {
  setLogLevel(LogLevel::Error);
  const MjcfDescription d = parseMjcfFile(modelFile("mjcf/mini_cheetah_rotors.xml"));
  const Model mj = d.builder.build();
  const Model urdf = loadUrdf(modelFile("mini_cheetah.urdf"));
  // the foot spheres: same body, same place, same radius
  ASSERT_EQ(mj.collisionGeometries().size(), urdf.collisionGeometries().size());
  for (const CollisionGeometry& g : urdf.collisionGeometries()) {
    bool found = false;
    for (const CollisionGeometry& h : mj.collisionGeometries())
      found = found || (mj.bodies()[static_cast<size_t>(h.body)].name == urdf.bodies()[static_cast<size_t>(g.body)].name &&
                        h.placement.isApprox(g.placement, 1e-12) && h.shape.radius == g.shape.radius);
    EXPECT_TRUE(found) << g.link;
  }
  // the feet as named frames (sites in MJCF, fixed links in URDF)
  for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) {
    const Frame* a = nullptr;
    const Frame* b = nullptr;
    for (const Frame& f : mj.frames()) a = f.name == foot ? &f : a;
    for (const Frame& f : urdf.frames()) b = f.name == foot ? &f : b;
    ASSERT_TRUE(a && b) << foot;
    EXPECT_EQ(mj.bodies()[static_cast<size_t>(a->body)].name, urdf.bodies()[static_cast<size_t>(b->body)].name);
    EXPECT_TRUE(a->placement.isApprox(b->placement, 1e-12)) << foot;
  }
  // motors on the rotor joints, gear 1/N (the generator's convention)
  ASSERT_EQ(d.motors.size(), 12u);
  for (const MjcfMotor& m : d.motors) {
    EXPECT_NE(m.joint.find("rotor"), std::string::npos) << m.joint;
    const double n = m.joint.find("knee") != std::string::npos ? 9.33 : 6.0;
    EXPECT_NEAR(m.gear, 1.0 / n, 1e-15) << m.name;
  }
}

// mini_cheetah_approximate.xml: the rotor-free URDF written by the same generator.
TEST(Mjcf, RotorFreeMiniCheetahEqualsTheApproximateUrdf) {
  setLogLevel(LogLevel::Error);
  const Model mj = loadMjcf(modelFile("mjcf/mini_cheetah_approximate.xml"));
  const Model urdf = loadUrdf(modelFile("mjcf/mini_cheetah_approximate_balanced.urdf"));
  EXPECT_EQ(clusterTypes(mj), clusterTypes(urdf));
  Rng rng(8);
  const Agreement a = compareModels(mj, urdf, rng, 20);
  EXPECT_LT(a.qdd, 1e-10);
  EXPECT_LT(a.mass, 1e-10);
  std::cout << "[ measured ] rotor-free Mini Cheetah MJCF vs URDF: qdd " << a.qdd << ", H " << a.mass << "\n";
}

// models/mjcf/four_bar.xml (hand-written, <equality connect>) against models/four_bar.urdf (<loop>).
TEST(Mjcf, FourBarConnectEqualsTheUrdfLoop) {
  setLogLevel(LogLevel::Error);
  const Model mj = loadMjcf(modelFile("mjcf/four_bar.xml"));
  const Model urdf = loadUrdf(modelFile("four_bar.urdf"));
  EXPECT_EQ(clusterTypes(mj), clusterTypes(urdf));
  ASSERT_EQ(mj.positionNames(), std::vector<std::string>{"joint1"});
  Rng rng(9);
  const Agreement a = compareModels(mj, urdf, rng, 20);
  EXPECT_LT(a.qdd, 1e-10);
  EXPECT_LT(a.mass, 1e-10);
  std::cout << "[ measured ] four-bar MJCF connect vs URDF+ loop: qdd " << a.qdd << ", H " << a.mass << "\n";
}

// The parallelogram four-bar has a closed form: joint2 = -joint1, joint3 = joint1, so the crank,
// coupler (translating) and rocker give H = I1 + I3 + m2 l1² (l1 = 0.5, the coupler's centre moves
// on a circle of radius l1 and it does not rotate).
TEST(Mjcf, FourBarMassMatrixHasTheParallelogramClosedForm) {
  setLogLevel(LogLevel::Error);
  const Model mj = loadMjcf(modelFile("mjcf/four_bar.xml"));
  Data d(mj);
  VecX q(1);
  q << 0.7;
  const double H = massMatrix(mj, d, q)(0, 0);
  EXPECT_NEAR(H, 0.042673 + 0.042673 + 3.3 * 0.25, 1e-12);
}

// One orientation written five ways, against the URDF joint origin that says it with rpy.
TEST(Mjcf, OrientationAttributesMatchUrdfRpy) {
  setLogLevel(LogLevel::Error);
  const double t = 0.6;
  const std::string c = exactNumber(std::cos(t / 2)), s = exactNumber(std::sin(t / 2));
  const auto mjcf = [&](const std::string& orientation, const std::string& compiler) {
    return "<mujoco><compiler " + compiler + "/><worldbody>\n<body name=\"a\" pos=\"0.1 0.2 0.3\" " + orientation +
           ">\n<joint name=\"j1\" axis=\"1 0 0\"/>\n<inertial pos=\"0.1 0.05 -0.2\" mass=\"1\" diaginertia=\"0.01 0.02 0.025\"/>\n"
           "<body name=\"b\" pos=\"0.2 0 -0.4\"><joint name=\"j2\" axis=\"0 1 0\"/>\n"
           "<inertial pos=\"0 0.1 -0.2\" mass=\"0.5\" diaginertia=\"0.003 0.004 0.005\"/></body></body></worldbody></mujoco>";
  };
  const auto urdf = [&](const std::string& rpy) {
    return "<robot name=\"r\"><link name=\"world\"/>"
           "<link name=\"a\"><inertial><origin xyz=\"0.1 0.05 -0.2\"/><mass value=\"1\"/>"
           "<inertia ixx=\"0.01\" iyy=\"0.02\" izz=\"0.025\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
           "<link name=\"b\"><inertial><origin xyz=\"0 0.1 -0.2\"/><mass value=\"0.5\"/>"
           "<inertia ixx=\"0.003\" iyy=\"0.004\" izz=\"0.005\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
           "<joint name=\"j1\" type=\"continuous\"><parent link=\"world\"/><child link=\"a\"/>"
           "<origin xyz=\"0.1 0.2 0.3\" rpy=\"" + rpy + "\"/><axis xyz=\"1 0 0\"/></joint>"
           "<joint name=\"j2\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/>"
           "<origin xyz=\"0.2 0 -0.4\"/><axis xyz=\"0 1 0\"/></joint></robot>";
  };
  const std::string yaw = "0 0 " + exactNumber(t);
  const std::string r = "angle=\"radian\"";
  struct Case {
    std::string orientation, compiler, rpy;
  };
  const std::vector<Case> cases = {
      {"quat=\"" + c + " 0 0 " + s + "\"", r, yaw},                                  // w x y z
      {"axisangle=\"0 0 2 " + exactNumber(t) + "\"", r, yaw},                                // axis need not be unit
      {"axisangle=\"0 0 1 " + exactNumber(t * 180 / kPi) + "\"", "", yaw},                    // degrees by default
      {"xyaxes=\"" + exactNumber(std::cos(t)) + " " + exactNumber(std::sin(t)) + " 0 " + exactNumber(-std::sin(t)) + " " + exactNumber(std::cos(t)) + " 0\"", r, yaw},
      {"zaxis=\"1 0 0\"", r, "0 " + exactNumber(kPi / 2) + " 0"},                           // shortest arc z -> x
      {"euler=\"0.3 -0.2 0.5\"", r + " eulerseq=\"XYZ\"", "0.3 -0.2 0.5"},           // fixed axes = URDF rpy
      {"euler=\"0.5 -0.2 0.3\"", r + " eulerseq=\"zyx\"", "0.3 -0.2 0.5"},           // rotating z, y, x = URDF rpy
      {"euler=\"0.3 -0.2 0.5\"", r + " eulerseq=\"xyz\"", ""},                        // default: rotating x, y, z
  };
  Rng rng(10);
  for (const Case& k : cases) {
    SCOPED_TRACE(k.orientation + " " + k.compiler);
    const Model a = loadMjcfString(mjcf(k.orientation, k.compiler), "probe.xml");
    if (k.rpy.empty()) {
      // rotating x, y, z: R = Rx(a) Ry(b) Rz(c); URDF has no such rpy, so compare with the matrix
      // written as the quaternion Eigen gives for it
      const Eigen::Quaterniond qe(Eigen::AngleAxisd(0.3, Vec3::UnitX()) * Eigen::AngleAxisd(-0.2, Vec3::UnitY()) *
                                  Eigen::AngleAxisd(0.5, Vec3::UnitZ()));
      const Model b = loadMjcfString(mjcf("quat=\"" + exactNumber(qe.w()) + " " + exactNumber(qe.x()) + " " + exactNumber(qe.y()) + " " +
                                              exactNumber(qe.z()) + "\"", r),
                                     "probe.xml");
      EXPECT_LT(compareModels(a, b, rng, 5).mass, 1e-13);
      continue;
    }
    const Model b = loadUrdfString(urdf(k.rpy), "probe.urdf");
    const Agreement ag = compareModels(a, b, rng, 5);
    EXPECT_LT(ag.mass, 1e-13);
    EXPECT_LT(ag.qdd, 1e-12);  // gravity: the orientation relative to the world matters
  }
}

// The same robot with angles written in degrees and in radians: the same model.
TEST(Mjcf, DegreesAndRadiansGiveTheSameModel) {
  setLogLevel(LogLevel::Error);
  const auto text = [](bool degrees) {
    const double k = degrees ? 180.0 / kPi : 1.0;
    return std::string("<mujoco><compiler angle=\"") + (degrees ? "degree" : "radian") + "\"/><worldbody>"
           "<body name=\"a\" euler=\"" + exactNumber(0.3 * k) + " " + exactNumber(0.1 * k) + " " + exactNumber(-0.2 * k) + "\" pos=\"0 0 1\">"
           "<joint name=\"j1\" axis=\"0 1 0\" range=\"" + exactNumber(-0.5 * k) + " " + exactNumber(1.0 * k) + "\" ref=\"" + exactNumber(0.1 * k) + "\"/>"
           "<inertial pos=\"0.1 0 0\" mass=\"1\" diaginertia=\"0.01 0.02 0.025\"/>"
           "<body name=\"b\" axisangle=\"1 1 0 " + exactNumber(0.8 * k) + "\" pos=\"0.3 0 0\"><joint name=\"j2\" axis=\"1 0 0\"/>"
           "<joint name=\"j3\" type=\"slide\" axis=\"0 0 1\" range=\"-0.1 0.2\"/>"
           "<inertial pos=\"0 0 -0.2\" mass=\"0.5\" diaginertia=\"0.003 0.004 0.005\"/></body></body></worldbody></mujoco>";
  };
  const ModelBuilder deg = parseMjcfString(text(true), "deg.xml").builder;
  const ModelBuilder rad = parseMjcfString(text(false), "rad.xml").builder;
  Rng rng(11);
  const Agreement a = compareModels(deg.build(), rad.build(), rng, 5);
  EXPECT_LT(a.mass, 1e-13);
  EXPECT_LT(a.qdd, 1e-12);
  // hinge ranges are angles (shifted by ref: grbda's q = qpos - ref); slide ranges are lengths
  for (const ModelBuilder* b : {&deg, &rad}) {
    const JointSpec& j1 = b->joints()[0];
    ASSERT_EQ(j1.name, "j1");
    EXPECT_TRUE(j1.limits.hasPositionLimits);
    EXPECT_NEAR(j1.limits.lower, -0.6, 1e-14);
    EXPECT_NEAR(j1.limits.upper, 0.9, 1e-14);
    const JointSpec& j3 = b->joints()[2];
    ASSERT_EQ(j3.name, "j3");
    EXPECT_EQ(j3.kind, JointKind::Prismatic);
    EXPECT_DOUBLE_EQ(j3.limits.lower, -0.1);
    EXPECT_DOUBLE_EQ(j3.limits.upper, 0.2);
  }
}

// A joint away from the body origin (<joint pos>) and two joints in one body, against the URDF
// chain that says the same with the joint frames at the anchors and a massless middle link.
TEST(Mjcf, JointAnchorsAndSeveralJointsPerBodyMatchAUrdfChain) {
  setLogLevel(LogLevel::Error);
  const std::string mj =
      "<mujoco><compiler angle=\"radian\"/><worldbody>"
      "<body name=\"a\" pos=\"0 0 1\"><joint name=\"j1\" axis=\"0 1 0\" pos=\"0.5 0 0\"/>"
      "<inertial pos=\"0.2 0 0\" mass=\"1\" diaginertia=\"0.01 0.02 0.025\"/>"
      "<body name=\"b\" pos=\"0.8 0 0\"><joint name=\"j2\" axis=\"1 0 0\" pos=\"0 0.1 0\"/>"
      "<joint name=\"j3\" axis=\"0 0 1\" pos=\"0 0.1 0.2\"/>"
      "<inertial pos=\"0.1 0.1 0\" mass=\"0.7\" diaginertia=\"0.003 0.004 0.005\"/></body></body></worldbody></mujoco>";
  const std::string urdf =
      "<robot name=\"r\"><link name=\"world\"/>"
      "<link name=\"a\"><inertial><origin xyz=\"-0.3 0 0\"/><mass value=\"1\"/>"
      "<inertia ixx=\"0.01\" iyy=\"0.02\" izz=\"0.025\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
      "<link name=\"mid\"/>"
      "<link name=\"b\"><inertial><origin xyz=\"0.1 0 -0.2\"/><mass value=\"0.7\"/>"
      "<inertia ixx=\"0.003\" iyy=\"0.004\" izz=\"0.005\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
      "<joint name=\"j1\" type=\"continuous\"><parent link=\"world\"/><child link=\"a\"/>"
      "<origin xyz=\"0.5 0 1\"/><axis xyz=\"0 1 0\"/></joint>"
      // b's frame at (0.8, 0, 0) in a's body frame = (0.3, 0, 0) from j1's anchor; j2 at b + (0, 0.1, 0)
      "<joint name=\"j2\" type=\"continuous\"><parent link=\"a\"/><child link=\"mid\"/>"
      "<origin xyz=\"0.3 0.1 0\"/><axis xyz=\"1 0 0\"/></joint>"
      "<joint name=\"j3\" type=\"continuous\"><parent link=\"mid\"/><child link=\"b\"/>"
      "<origin xyz=\"0 0 0.2\"/><axis xyz=\"0 0 1\"/></joint></robot>";
  Rng rng(12);
  const Agreement a = compareModels(loadMjcfString(mj, "probe.xml"), loadUrdfString(urdf, "probe.urdf"), rng, 10);
  EXPECT_LT(a.mass, 1e-13);
  EXPECT_LT(a.qdd, 1e-12);
}

// MuJoCo's free joint: q = [x y z qw qx qy qz] in the world (the body's pos/quat are only its
// initial value), v = [ω; v] in the body frame — grbda's URDF floating joint.
TEST(Mjcf, FreeJointIsGrbdasFloatingJoint) {
  setLogLevel(LogLevel::Error);
  const std::string mj =
      "<mujoco><worldbody><body name=\"trunk\" pos=\"0 0 0.5\" quat=\"0 1 0 0\"><freejoint name=\"root\"/>"
      "<inertial pos=\"0.05 0 0\" mass=\"3\" diaginertia=\"0.1 0.2 0.25\"/>"
      "<body name=\"leg\" pos=\"0.2 0 0\"><joint name=\"hip\" axis=\"0 1 0\"/>"
      "<inertial pos=\"0 0 -0.1\" mass=\"0.5\" diaginertia=\"0.003 0.004 0.005\"/></body></body></worldbody></mujoco>";
  const std::string urdf =
      "<robot name=\"r\"><link name=\"world\"/>"
      "<link name=\"trunk\"><inertial><origin xyz=\"0.05 0 0\"/><mass value=\"3\"/>"
      "<inertia ixx=\"0.1\" iyy=\"0.2\" izz=\"0.25\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
      "<link name=\"leg\"><inertial><origin xyz=\"0 0 -0.1\"/><mass value=\"0.5\"/>"
      "<inertia ixx=\"0.003\" iyy=\"0.004\" izz=\"0.005\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
      "<joint name=\"root\" type=\"floating\"><parent link=\"world\"/><child link=\"trunk\"/></joint>"
      "<joint name=\"hip\" type=\"continuous\"><parent link=\"trunk\"/><child link=\"leg\"/>"
      "<origin xyz=\"0.2 0 0\"/><axis xyz=\"0 1 0\"/></joint></robot>";
  const Model a = loadMjcfString(mj, "probe.xml");
  EXPECT_EQ(a.nq(), 8);
  EXPECT_EQ(a.nv(), 7);
  Rng rng(13);
  const Agreement ag = compareModels(a, loadUrdfString(urdf, "probe.urdf"), rng, 10);
  EXPECT_LT(ag.mass, 1e-13);
  EXPECT_LT(ag.qdd, 1e-12);
}

TEST(Mjcf, FloatingBaseOptionFreesTheWorldbody) {
  setLogLevel(LogLevel::Error);
  LoadOptions o;
  o.floatingBase = true;
  const Model fixed = loadMjcf(modelFile("mjcf/four_bar.xml"));
  const Model floating = loadMjcf(modelFile("mjcf/four_bar.xml"), o);
  EXPECT_EQ(floating.nv(), fixed.nv() + 6);
  EXPECT_EQ(floating.nq(), fixed.nq() + 7);
}

// A spatial <connect>: the R-U-S-R crank–rocker (crank about z, the coupler on a universal of two
// hinges, a rocker about y) closed by a point the coupler and rocker share. Read as a ball loop
// (`<loop type="spherical">`), it equals the URDF+ file of the same mechanism written by hand.
TEST(Mjcf, SpatialConnectEqualsTheUrdfBallLoop) {
  setLogLevel(LogLevel::Error);
  const std::string mjcf = R"(<mujoco model="rusr">
  <worldbody>
    <body name="crank">
      <joint name="crank_joint" type="hinge" axis="0 0 1"/>
      <inertial pos="0.05 0 0" mass="0.75" diaginertia="0.004 0.005 0.003"/>
      <body name="cross" pos="0.1 0 0">
        <joint name="u1" type="hinge" axis="0 0 1"/>
        <inertial pos="0 0 0" mass="0.1" diaginertia="0.0002 0.0002 0.0002"/>
        <body name="coupler">
          <joint name="u2" type="hinge" axis="0 1 0"/>
          <inertial pos="0.12 0 0.05" mass="1" diaginertia="0.006 0.004 0.005"/>
        </body>
      </body>
    </body>
    <body name="rocker" pos="0.35 0 0.2">
      <joint name="rocker_joint" type="hinge" axis="0 1 0"/>
      <inertial pos="0 0 -0.05" mass="1.25" diaginertia="0.003 0.004 0.002"/>
    </body>
  </worldbody>
  <equality><connect name="closure" body1="coupler" body2="rocker" anchor="0.25 0 0.1"/></equality>
</mujoco>)";
  auto inertial = [](const char* xyz, const char* mass, const char* ixx, const char* iyy, const char* izz) {
    return std::string("<inertial><origin xyz=\"") + xyz + "\"/><mass value=\"" + mass + "\"/><inertia ixx=\"" + ixx +
           "\" iyy=\"" + iyy + "\" izz=\"" + izz + "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>";
  };
  auto hinge = [](const char* name, const char* parent, const char* child, const char* xyz, const char* axis,
                  bool independent) {
    return std::string("<joint name=\"") + name + "\" type=\"continuous\"" +
           (independent ? "" : " independent=\"false\"") + "><parent link=\"" + parent + "\"/><child link=\"" + child +
           "\"/><origin xyz=\"" + xyz + "\"/><axis xyz=\"" + axis + "\"/></joint>\n";
  };
  const std::string urdf =
      "<robot name=\"rusr\"><link name=\"world\"/>\n<link name=\"crank\">" +
      inertial("0.05 0 0", "0.75", "0.004", "0.005", "0.003") + "</link>\n<link name=\"cross\">" +
      inertial("0 0 0", "0.1", "0.0002", "0.0002", "0.0002") + "</link>\n<link name=\"coupler\">" +
      inertial("0.12 0 0.05", "1", "0.006", "0.004", "0.005") + "</link>\n<link name=\"rocker\">" +
      inertial("0 0 -0.05", "1.25", "0.003", "0.004", "0.002") + "</link>\n" +
      hinge("crank_joint", "world", "crank", "0 0 0", "0 0 1", true) +
      hinge("u1", "crank", "cross", "0.1 0 0", "0 0 1", false) + hinge("u2", "cross", "coupler", "0 0 0", "0 1 0", false) +
      hinge("rocker_joint", "world", "rocker", "0.35 0 0.2", "0 1 0", false) +
      "<loop name=\"closure\" type=\"spherical\"><predecessor link=\"coupler\"><origin xyz=\"0.25 0 0.1\"/>"
      "</predecessor><successor link=\"rocker\"><origin xyz=\"0 0 -0.1\"/></successor></loop>\n</robot>\n";
  const Model mj = loadMjcfString(mjcf, "rusr.xml");
  const Model ur = loadUrdfString(urdf, "rusr.urdf");
  ASSERT_EQ(mj.positionNames(), std::vector<std::string>{"crank_joint"});
  ASSERT_EQ(mj.loops().size(), 1u);
  EXPECT_EQ(mj.loops()[0].type, LoopKind::Spherical);
  Data dm(mj), du(ur);
  double worst = 0.0;
  for (double crank : {0.05, -0.2, -0.45}) {  // crank angles the rocker follows (test_loop_types' poses)
    const VecX q = VecX::Constant(1, crank), v = VecX::Constant(1, 0.8 - crank), tau = VecX::Constant(1, 0.3);
    worst = std::max(worst, relErr(forwardDynamics(mj, dm, q, v, tau), forwardDynamics(ur, du, q, v, tau)));
    worst = std::max(worst, relErr(massMatrix(mj, dm, q), massMatrix(ur, du, q)));
  }
  EXPECT_LT(worst, 1e-10);
  std::cout << "[ measured ] spatial R-U-S-R MJCF connect vs URDF+ ball loop: qdd and H within " << worst << "\n";
}
