// MJCF reading details: default classes, inertia from geoms (against a quadrature of the solids),
// geoms as collision shapes, joint equalities as mimics, and the errors a bad file gets (file,
// line and element, as for URDF).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "mjcf_support.hpp"
#include "support/model_error.hpp"
#include "support/text_lines.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

#define EXPECT_CONTAINS(haystack, needle) EXPECT_PRED_FORMAT2(::testing::IsSubstring, needle, haystack)

const JointSpec& jointOf(const ModelBuilder& b, const std::string& name) {
  for (const JointSpec& j : b.joints())
    if (j.name == name) return j;
  throw std::runtime_error("no joint " + name);
}

const LinkSpec& linkOf(const ModelBuilder& b, const std::string& name) {
  for (const LinkSpec& l : b.links())
    if (l.name == name) return l;
  throw std::runtime_error("no link " + name);
}

/// Mass, centre and inertia about it of a density field on a box [lo, hi]³, by the midpoint rule.
struct Quadrature {
  double mass = 0.0;
  Vec3 com = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
};
Quadrature integrate(const std::function<double(const Vec3&)>& density, const Vec3& lo, const Vec3& hi, int n) {
  const Vec3 h = (hi - lo) / n;
  const double dv = h.prod();
  Quadrature out;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();  // ∫ p pᵀ dm
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const Vec3 p = lo + Vec3((i + 0.5) * h[0], (j + 0.5) * h[1], (k + 0.5) * h[2]);
        const double rho = density(p);
        if (rho == 0.0) continue;
        out.mass += rho * dv;
        first += rho * dv * p;
        second += rho * dv * p * p.transpose();
      }
  out.com = first / out.mass;
  const Mat3 S = second - out.mass * out.com * out.com.transpose();  // about the centre
  out.inertia = S.trace() * Mat3::Identity() - S;
  return out;
}

}  // namespace

TEST(MjcfDefaults, ClassesNestChildclassAndClassApply) {
  setLogLevel(LogLevel::Error);
  const std::string text = R"(<mujoco>
  <compiler angle="radian"/>
  <default>
    <joint damping="0.5" axis="0 1 0"/>
    <geom type="capsule" size="0.02 0.1"/>
    <default class="leg">
      <joint frictionloss="0.2" range="-1 1"/>
      <default class="knee">
        <joint damping="2" armature="0.01"/>
      </default>
    </default>
  </default>
  <worldbody>
    <body name="a" childclass="leg">
      <joint name="hip"/>
      <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
      <body name="b" pos="0 0 -0.3">
        <joint name="knee" class="knee" axis="1 0 0"/>
        <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
      </body>
    </body>
    <body name="c" pos="1 0 0">
      <joint name="spin" limited="false"/>
      <geom/>
    </body>
  </worldbody>
</mujoco>)";
  const MjcfDescription d = parseMjcfString(text, "defaults.xml");
  const JointSpec& hip = jointOf(d.builder, "hip");  // childclass leg, inheriting main
  EXPECT_EQ(hip.axis, Vec3::UnitY());
  EXPECT_EQ(hip.dynamics.damping, 0.5);
  EXPECT_EQ(hip.dynamics.friction, 0.2);
  EXPECT_TRUE(hip.limits.hasPositionLimits);  // autolimits: a range (from the class) means limited
  EXPECT_EQ(hip.limits.lower, -1.0);
  EXPECT_EQ(hip.limits.upper, 1.0);
  const JointSpec& knee = jointOf(d.builder, "knee");  // class knee < leg < main, own axis
  EXPECT_EQ(knee.axis, Vec3::UnitX());
  EXPECT_EQ(knee.dynamics.damping, 2.0);
  EXPECT_EQ(knee.dynamics.friction, 0.2);
  EXPECT_TRUE(knee.limits.hasPositionLimits);
  const JointSpec& spin = jointOf(d.builder, "spin");  // main only, explicitly unlimited
  EXPECT_EQ(spin.dynamics.damping, 0.5);
  EXPECT_EQ(spin.dynamics.friction, 0.0);
  EXPECT_FALSE(spin.limits.hasPositionLimits);
  EXPECT_EQ(spin.kind, JointKind::Continuous);
  // the default geom is a capsule of radius 0.02 and half-length 0.1: a collision shape and, with
  // no <inertial>, the body's mass (density 1000)
  ASSERT_EQ(d.builder.collisions().size(), 1u);
  EXPECT_EQ(d.builder.collisions()[0].shape.type, ShapeType::Capsule);
  EXPECT_EQ(d.builder.collisions()[0].shape.radius, 0.02);
  EXPECT_NEAR(d.builder.collisions()[0].shape.length, 0.2, 1e-15);
  const double r = 0.02, volume = kPi * r * r * 0.2 + 4.0 / 3.0 * kPi * r * r * r;
  EXPECT_NEAR(linkOf(d.builder, "c").mass, 1000.0 * volume, 1e-12);
}

// inertiafromgeom: each primitive (placed, rotated, fromto) against a quadrature of the solid.
TEST(MjcfGeoms, InertiaFromGeomsMatchesAQuadratureOfTheSolids) {
  setLogLevel(LogLevel::Error);
  const std::string text = R"(<mujoco><compiler angle="radian"/><worldbody>
  <body name="sphere"><joint/><geom type="sphere" size="0.1" pos="0.05 0 0"/></body>
  <body name="box"><joint/><geom type="box" size="0.1 0.2 0.05" quat="0.9 0.1 0.3 0.2"/></body>
  <body name="cylinder"><joint/><geom type="cylinder" size="0.05 0.15" axisangle="1 0 0 0.5"/></body>
  <body name="capsule"><joint/><geom type="capsule" fromto="0 0 0 0.2 0.1 0.3" size="0.05"/></body>
  <body name="two"><joint/><geom type="sphere" size="0.05" pos="0.1 0 0"/>
    <geom type="box" size="0.05 0.05 0.05" pos="-0.1 0 0" density="500"/></body>
</worldbody></mujoco>)";
  const MjcfDescription d = parseMjcfString(text, "geoms.xml");
  const Mat3 Rbox = Eigen::Quaterniond(0.9, 0.1, 0.3, 0.2).normalized().toRotationMatrix();
  const Mat3 Rcyl = Eigen::AngleAxisd(0.5, Vec3::UnitX()).toRotationMatrix();
  const Vec3 a(0, 0, 0), b(0.2, 0.1, 0.3);
  struct Case {
    std::string link;
    std::function<double(const Vec3&)> density;
    Vec3 lo, hi;
  };
  const std::vector<Case> cases = {
      {"sphere", [](const Vec3& p) { return (p - Vec3(0.05, 0, 0)).norm() <= 0.1 ? 1000.0 : 0.0; },
       Vec3(-0.05, -0.1, -0.1), Vec3(0.15, 0.1, 0.1)},
      {"box", [&](const Vec3& p) {
         const Vec3 l = Rbox.transpose() * p;
         return std::abs(l[0]) <= 0.1 && std::abs(l[1]) <= 0.2 && std::abs(l[2]) <= 0.05 ? 1000.0 : 0.0;
       }, Vec3::Constant(-0.23), Vec3::Constant(0.23)},
      {"cylinder", [&](const Vec3& p) {
         const Vec3 l = Rcyl.transpose() * p;
         return std::abs(l[2]) <= 0.15 && l.head<2>().norm() <= 0.05 ? 1000.0 : 0.0;
       }, Vec3::Constant(-0.16), Vec3::Constant(0.16)},
      {"capsule", [&](const Vec3& p) {
         const double t = std::clamp((p - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
         return (p - (a + t * (b - a))).norm() <= 0.05 ? 1000.0 : 0.0;
       }, Vec3::Constant(-0.05), Vec3(0.25, 0.15, 0.35)},
      {"two", [](const Vec3& p) {
         if ((p - Vec3(0.1, 0, 0)).norm() <= 0.05) return 1000.0;
         return (p - Vec3(-0.1, 0, 0)).cwiseAbs().maxCoeff() <= 0.05 ? 500.0 : 0.0;
       }, Vec3(-0.15, -0.05, -0.05), Vec3(0.15, 0.05, 0.05)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.link);
    const Quadrature q = integrate(c.density, c.lo, c.hi, 150);
    const LinkSpec& l = linkOf(d.builder, c.link);
    EXPECT_NEAR(l.mass / q.mass, 1.0, 3e-3);
    EXPECT_LT((l.com - q.com).norm(), 1e-3);
    EXPECT_LT((l.inertia - q.inertia).norm() / q.inertia.norm(), 5e-3);
  }
  // textbook closed forms: solid sphere 2/5 m r², box m (b² + c²) / 3 with half-sizes
  const LinkSpec& s = linkOf(d.builder, "sphere");
  EXPECT_NEAR(s.mass, 1000.0 * 4.0 / 3.0 * kPi * 1e-3, 1e-12);
  EXPECT_LT((s.inertia - 0.4 * s.mass * 0.01 * Mat3::Identity()).norm(), 1e-15);
  const LinkSpec& bx = linkOf(d.builder, "box");
  EXPECT_NEAR(bx.mass, 1000.0 * 0.2 * 0.4 * 0.1, 1e-12);
  const Mat3 Ibox = Rbox * Vec3(0.04 + 0.0025, 0.01 + 0.0025, 0.01 + 0.04).asDiagonal() * Rbox.transpose() * (bx.mass / 3.0);
  EXPECT_LT((bx.inertia - Ibox).norm(), 1e-15);
  // collision shapes: MJCF half-lengths become grbda's full lengths
  ASSERT_EQ(d.builder.collisions().size(), 6u);
  EXPECT_EQ(d.builder.collisions()[1].shape.halfExtents, Vec3(0.1, 0.2, 0.05));
  EXPECT_NEAR(d.builder.collisions()[2].shape.length, 0.3, 1e-15);
  EXPECT_NEAR(d.builder.collisions()[3].shape.length, (b - a).norm(), 1e-15);
}

TEST(MjcfGeoms, InertiaFromGeomModesAndVisualGeoms) {
  setLogLevel(LogLevel::Error);
  const auto text = [](const std::string& mode) {
    return "<mujoco><compiler inertiafromgeom=\"" + mode + "\"/><worldbody><body name=\"a\"><joint/>"
           "<inertial pos=\"0 0 0\" mass=\"2\" diaginertia=\"0.1 0.1 0.1\"/>"
           "<geom type=\"sphere\" size=\"0.1\" contype=\"0\" conaffinity=\"0\"/>"
           "<geom type=\"mesh\" mesh=\"m\"/></body>"
           "<body name=\"b\" pos=\"1 0 0\"><joint/><geom type=\"sphere\" size=\"0.1\" mass=\"3\"/></body>"
           "</worldbody></mujoco>";
  };
  const double sphere = 1000.0 * 4.0 / 3.0 * kPi * 1e-3;
  const MjcfDescription autoMode = parseMjcfString(text("auto"), "m.xml");
  EXPECT_EQ(linkOf(autoMode.builder, "a").mass, 2.0);  // its <inertial>
  EXPECT_EQ(linkOf(autoMode.builder, "b").mass, 3.0);  // geom mass given
  EXPECT_NEAR(linkOf(parseMjcfString(text("true"), "m.xml").builder, "a").mass, sphere, 1e-12);  // mesh not counted
  EXPECT_EQ(linkOf(parseMjcfString(text("false"), "m.xml").builder, "b").mass, 0.0);
  // the visual sphere (contype = conaffinity = 0) and the mesh are no collision shapes
  EXPECT_EQ(autoMode.builder.collisions().size(), 1u);
}

// <equality joint> with an offset, or between joints on different parents: a linear constraint,
// the same as URDF's <mimic> (read by the URDF reader).
TEST(MjcfEquality, LinearJointEqualityEqualsUrdfMimic) {
  setLogLevel(LogLevel::Error);
  const std::string mj = R"(<mujoco><compiler angle="radian"/><worldbody>
    <body name="a"><joint name="j1" axis="0 1 0"/><inertial pos="0.2 0 0" mass="1" diaginertia="0.01 0.02 0.03"/>
      <body name="b" pos="0.4 0 0"><joint name="j2" axis="0 1 0"/><inertial pos="0.2 0 0.1" mass="0.5" diaginertia="0.01 0.02 0.03"/></body>
    </body></worldbody>
    <equality><joint name="e" joint1="j2" joint2="j1" polycoef="0.2 3 0 0 0"/></equality></mujoco>)";
  const std::string urdf =
      "<robot name=\"r\"><link name=\"world\"/>"
      "<link name=\"a\"><inertial><origin xyz=\"0.2 0 0\"/><mass value=\"1\"/>"
      "<inertia ixx=\"0.01\" iyy=\"0.02\" izz=\"0.03\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
      "<link name=\"b\"><inertial><origin xyz=\"0.2 0 0.1\"/><mass value=\"0.5\"/>"
      "<inertia ixx=\"0.01\" iyy=\"0.02\" izz=\"0.03\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
      "<joint name=\"j1\" type=\"continuous\"><parent link=\"world\"/><child link=\"a\"/><axis xyz=\"0 1 0\"/></joint>"
      "<joint name=\"j2\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/><origin xyz=\"0.4 0 0\"/>"
      "<axis xyz=\"0 1 0\"/><mimic joint=\"j1\" multiplier=\"3\" offset=\"0.2\"/></joint></robot>";
  const Model a = loadMjcfString(mj, "probe.xml");
  const Model b = loadUrdfString(urdf, "probe.urdf");
  EXPECT_EQ(clusterTypes(a), clusterTypes(b));
  Rng rng(21);
  const Agreement ag = compareModels(a, b, rng, 10);
  EXPECT_LT(ag.mass, 1e-12);
  EXPECT_LT(ag.qdd, 1e-12);
}

// <equality weld>: a body on its own hinge, welded to a body on a coaxial hinge, moves with it:
// the URDF with the second body fixed to the first. The loop's rank (1: only the relative turn
// about the common axis) decides how many joints become dependent.
TEST(MjcfEquality, WeldEqualsAFixedJoint) {
  setLogLevel(LogLevel::Error);
  const std::string mj = R"(<mujoco><compiler angle="radian"/><worldbody>
    <body name="p" pos="0 0 1"><joint name="jp" axis="0 1 0"/><inertial pos="0.3 0 0" mass="1" diaginertia="0.01 0.02 0.03"/></body>
    <body name="q" pos="0 0 1" euler="0 0.5 0"><joint name="jq" axis="0 1 0"/>
      <inertial pos="0 0.1 -0.2" mass="0.5" diaginertia="0.004 0.005 0.006"/></body>
    </worldbody><equality><weld body1="q" body2="p"/></equality></mujoco>)";
  const std::string urdf =
      "<robot name=\"r\"><link name=\"world\"/>"
      "<link name=\"p\"><inertial><origin xyz=\"0.3 0 0\"/><mass value=\"1\"/>"
      "<inertia ixx=\"0.01\" iyy=\"0.02\" izz=\"0.03\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
      "<link name=\"q\"><inertial><origin xyz=\"0 0.1 -0.2\"/><mass value=\"0.5\"/>"
      "<inertia ixx=\"0.004\" iyy=\"0.005\" izz=\"0.006\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
      "<joint name=\"jp\" type=\"continuous\"><parent link=\"world\"/><child link=\"p\"/><origin xyz=\"0 0 1\"/>"
      "<axis xyz=\"0 1 0\"/></joint>"
      "<joint name=\"fix\" type=\"fixed\"><parent link=\"p\"/><child link=\"q\"/><origin rpy=\"0 0.5 0\"/></joint></robot>";
  const Model a = loadMjcfString(mj, "probe.xml");
  EXPECT_EQ(a.positionNames(), std::vector<std::string>{"jp"});
  Rng rng(22);
  const Agreement ag = compareModels(a, loadUrdfString(urdf, "probe.urdf"), rng, 10);
  EXPECT_LT(ag.mass, 1e-10);
  EXPECT_LT(ag.qdd, 1e-10);
}

namespace {

const std::string kBase = R"(<mujoco model="probe">
  <compiler angle="radian"/>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="ja" type="hinge" axis="0 0 1"/>
      <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
      <body name="b" pos="1 0 0">
        <joint name="jb" type="hinge" axis="0 0 1"/>
        <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
      </body>
    </body>
    <body name="c" pos="2 0 1">
      <joint name="jc" type="hinge" axis="0 0 1"/>
      <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
    </body>
  </worldbody>
  <equality>
    <connect name="loop" body1="b" body2="c" anchor="2 0 0"/>
  </equality>
</mujoco>)";

std::string replaced(const std::string& from, const std::string& to) {
  std::string t = kBase;
  const size_t pos = t.find(from);
  EXPECT_NE(pos, std::string::npos) << "test bug: " << from;
  return t.replace(pos, from.size(), to);
}

/// The file's ModelError names "probe.xml:LINE:" (the line of `needle`), the element and `what`.
void expectError(const std::string& text, const std::string& needle, const std::string& element, const std::string& what) {
  const std::string msg = modelErrorOf([&] { loadMjcfString(text, "probe.xml"); });
  EXPECT_CONTAINS(msg, "probe.xml:" + std::to_string(lineOf(text, needle)) + ":");
  EXPECT_CONTAINS(msg, element);
  EXPECT_CONTAINS(msg, what);
}

}  // namespace

TEST(MjcfErrors, TheBaseFileLoads) {
  setLogLevel(LogLevel::Error);
  const Model m = loadMjcfString(kBase, "probe.xml");
  EXPECT_EQ(m.nv(), 1);
}

TEST(MjcfErrors, NameFileLineAndElement) {
  setLogLevel(LogLevel::Error);
  expectError(replaced("name=\"jb\" type=\"hinge\"", "name=\"jb\" type=\"spherical\""), "type=\"spherical\"",
              "joint 'jb'", "expected one of free, ball, slide, hinge");
  expectError(replaced("name=\"jb\" type=\"hinge\"", "name=\"jb\" type=\"ball\""), "<connect", "equality connect 'loop'",
              "closes a spatial loop (joint 'jb' is a ball joint)");
  expectError(replaced("body2=\"c\"", "body2=\"ghost\""), "<connect", "equality connect 'loop'",
              "body2 'ghost' is not a body of this file");
  expectError(replaced("<body name=\"c\" pos=\"2 0 1\">", "<body name=\"c\" pos=\"2 0 1.0.2\">"), "1.0.2", "body 'c'",
              "component '1.0.2' is not a number");
  expectError(replaced("<joint name=\"jc\" type=\"hinge\"", "<joint name=\"jc\" class=\"nope\" type=\"hinge\""),
              "class=\"nope\"", "joint 'jc'", "unknown default class 'nope'");
  expectError(replaced("<joint name=\"jb\" type=\"hinge\" axis=\"0 0 1\"/>", "<freejoint name=\"jb\"/>"), "<freejoint",
              "joint 'jb'", "a free joint must be on a top-level body");
  expectError(replaced("<connect name=\"loop\" body1=\"b\" body2=\"c\" anchor=\"2 0 0\"/>",
                       "<joint name=\"gear\" joint1=\"jc\" joint2=\"ja\" polycoef=\"0 2 0.5 0 0\"/>"),
              "polycoef", "equality joint 'gear'", "is nonlinear");
  expectError(replaced("<connect name=\"loop\" body1=\"b\" body2=\"c\" anchor=\"2 0 0\"/>",
                       "<joint name=\"gear\" joint1=\"jx\" joint2=\"ja\"/>"),
              "joint1=", "equality joint 'gear'", "joint1 'jx' is not a joint of this file");
  expectError(replaced("<connect name=\"loop\"", "<tendon name=\"loop\""), "<tendon", "equality tendon 'loop'",
              "not supported");
  // a bad number in a default class: the message names the default's line
  expectError(replaced("<compiler angle=\"radian\"/>",
                       "<compiler angle=\"radian\"/>\n  <default><joint damping=\"lots\"/></default>"),
              "damping=\"lots\"", "joint 'ja'", "<joint damping=\"lots\">: not a number");
}

TEST(MjcfErrors, DocumentLevelProblems) {
  setLogLevel(LogLevel::Error);
  std::string msg = modelErrorOf([] { loadMjcfString("<mujoco>\n<worldbody>\n</mujoco>", "probe.xml"); });
  EXPECT_CONTAINS(msg, "malformed XML");
  msg = modelErrorOf([] { loadMjcfString("<robot name=\"r\"/>", "probe.xml"); });
  EXPECT_CONTAINS(msg, "expected <mujoco>");
  msg = modelErrorOf([] { loadMjcf("/nonexistent/robot.xml"); });
  EXPECT_CONTAINS(msg, "cannot open file");
  EXPECT_TRUE(isMjcfPath("robots/a.XML"));
  EXPECT_TRUE(isMjcfPath("a.mjcf"));
  EXPECT_FALSE(isMjcfPath("a.urdf"));
  EXPECT_FALSE(isMjcfPath("dir.xml/robot"));
}

// A file in the style of MuJoCo Menagerie: assets and meshes, classes, cameras, lights, sensors,
// keyframes, contact excludes, position actuators, visual-only geoms with explicit inertials. The
// parts grbda does not need are skipped; the dynamics come from the inertials.
TEST(MjcfFiles, AMenagerieStyleFileLoads) {
  setLogLevel(LogLevel::Error);
  const std::string text = R"(<mujoco model="arm">
  <compiler angle="radian" meshdir="assets" autolimits="true"/>
  <option timestep="0.002" integrator="implicitfast"/>
  <visual><global offwidth="1920"/></visual>
  <asset>
    <mesh name="link_mesh" file="link.stl"/>
    <material name="grey" rgba="0.5 0.5 0.5 1"/>
  </asset>
  <default>
    <default class="arm">
      <joint axis="0 0 1" damping="0.1" armature="0.02"/>
      <default class="visual"><geom type="mesh" contype="0" conaffinity="0" group="2"/></default>
      <default class="collision"><geom group="3" type="capsule"/></default>
      <position kp="100"/>
    </default>
  </default>
  <worldbody>
    <light pos="0 0 3"/>
    <geom name="floor" type="plane" size="0 0 0.05"/>
    <body name="base" childclass="arm" gravcomp="0">
      <inertial pos="0 0 0.05" mass="2" diaginertia="0.01 0.01 0.01"/>
      <geom class="visual" mesh="link_mesh"/>
      <body name="link1" pos="0 0 0.1">
        <inertial pos="0 0 0.1" quat="1 0 0 0" mass="1" diaginertia="0.005 0.005 0.001"/>
        <joint name="j1" range="-3 3"/>
        <geom class="visual" mesh="link_mesh" material="grey"/>
        <geom class="collision" size="0.03" fromto="0 0 0 0 0 0.2"/>
        <camera name="wrist" pos="0 0 0.2"/>
        <body name="link2" pos="0 0 0.2" quat="0.7071068 0.7071068 0 0">
          <inertial pos="0.1 0 0" mass="0.5" diaginertia="0.001 0.002 0.002"/>
          <joint name="j2"/>
          <geom class="visual" mesh="link_mesh"/>
          <site name="tool" pos="0.2 0 0"/>
        </body>
      </body>
    </body>
  </worldbody>
  <contact><exclude body1="base" body2="link1"/></contact>
  <actuator>
    <position name="a1" joint="j1" class="arm"/>
    <motor name="m2" joint="j2" gear="50" ctrlrange="-1 1"/>
  </actuator>
  <sensor><jointpos joint="j1"/></sensor>
  <keyframe><key name="home" qpos="0 0"/></keyframe>
</mujoco>)";
  const MjcfDescription d = parseMjcfString(text, "arm.xml");
  const Model m = d.builder.build();
  EXPECT_EQ(m.nv(), 2);
  EXPECT_EQ(d.builder.collisions().size(), 1u);  // the capsule (visual meshes and the floor plane skipped)
  ASSERT_EQ(d.motors.size(), 1u);
  EXPECT_EQ(d.motors[0].gear, 50.0);
  EXPECT_EQ(d.motors[0].ctrlLower, -1.0);
  EXPECT_EQ(jointOf(d.builder, "j1").dynamics.damping, 0.1);
  EXPECT_NO_THROW(m.frameIndex("tool"));
  // the base is fixed to the world (no joint): its mass is merged and does not move
  EXPECT_EQ(linkOf(d.builder, "base").mass, 2.0);
}

// <equality connect site1 site2>: the four-bar closed at two named sites.
TEST(MjcfEquality, ConnectBetweenSitesEqualsTheUrdfLoop) {
  setLogLevel(LogLevel::Error);
  const std::string text = R"(<mujoco model="four_bar"><compiler angle="radian"/>
  <default><joint axis="0 0 1"/></default>
  <worldbody>
    <body name="link1"><joint name="joint1"/><inertial pos="0 0 0" mass="3.3" diaginertia="0.011253 0.036203 0.042673"/>
      <body name="link2" pos="0.5 0 0"><joint name="joint2"/>
        <inertial pos="0 0 0" mass="3.3" diaginertia="0.011253 0.036203 0.042673"/><site name="s2" pos="1 0 0"/></body>
    </body>
    <body name="link3" pos="1 0 0"><joint name="joint3"/>
      <inertial pos="0 0 0" mass="3.3" diaginertia="0.011253 0.036203 0.042673"/><site name="s3" pos="0.5 0 0"/></body>
  </worldbody>
  <equality><connect site1="s2" site2="s3"/></equality></mujoco>)";
  const Model a = loadMjcfString(text, "sites.xml");
  Rng rng(23);
  const Agreement ag = compareModels(a, loadUrdf(modelFile("four_bar.urdf")), rng, 10);
  EXPECT_LT(ag.mass, 1e-10);
  EXPECT_LT(ag.qdd, 1e-10);
}

// settotalmass scales every mass and inertia by one factor; geom and site poses may come from a class.
TEST(MjcfFiles, SetTotalMassAndPosesFromClasses) {
  setLogLevel(LogLevel::Error);
  const std::string text = R"(<mujoco><compiler angle="radian" settotalmass="8"/>
  <default><geom type="box" size="0.1 0.1 0.1" pos="0 0 0.5" axisangle="0 0 1 0.3"/><site pos="0.2 0 0"/></default>
  <worldbody>
    <body name="a"><joint/><inertial pos="0 0 0" mass="1" diaginertia="0.1 0.2 0.3"/>
      <body name="b" pos="1 0 0"><joint/><inertial pos="0 0 0" mass="3" diaginertia="0.3 0.2 0.1"/><site name="s"/><geom/></body>
    </body>
  </worldbody></mujoco>)";
  const MjcfDescription d = parseMjcfString(text, "total.xml");
  EXPECT_DOUBLE_EQ(linkOf(d.builder, "a").mass, 2.0);
  EXPECT_DOUBLE_EQ(linkOf(d.builder, "b").mass, 6.0);
  EXPECT_DOUBLE_EQ(linkOf(d.builder, "b").inertia(0, 0), 0.6);
  ASSERT_EQ(d.builder.collisions().size(), 1u);
  const Transform expected(Eigen::AngleAxisd(0.3, Vec3::UnitZ()).toRotationMatrix().transpose(), Vec3(0, 0, 0.5));
  EXPECT_TRUE(d.builder.collisions()[0].origin.isApprox(expected, 1e-15));
  ASSERT_EQ(d.builder.frames().size(), 1u);
  EXPECT_TRUE(d.builder.frames()[0].origin.r.isApprox(Vec3(0.2, 0, 0)));
}
