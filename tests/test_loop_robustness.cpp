// Loop closure as real files write it (issue 15): constraint rows counted by rank (a loop or
// coupling written twice, a pantograph), axes parallel only to the rounding of an exporter, the
// assembly mode fixed at build time and kept by every completion (fresh Data or warm, any jump),
// revolute results in (−π, π], and tolerances that do not depend on the length unit or the
// world origin. Cross-checks are against independent models or closed-form mechanics.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "grbda/grbda.hpp"
#include "support/compare.hpp"
#include "support/model_files.hpp"
#include "support/random_model.hpp"

using namespace grbda;
using grbda::testsupport::modelFile;
using grbda::testsupport::modelsDir;
using grbda::testsupport::kPi;
using grbda::testsupport::relErr;

namespace {


std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string replaceOnce(std::string text, const std::string& from, const std::string& to, size_t occurrence = 0) {
  size_t pos = text.find(from);
  for (size_t k = 0; k < occurrence && pos != std::string::npos; ++k) pos = text.find(from, pos + 1);
  EXPECT_NE(pos, std::string::npos) << "'" << from << "' not found";
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

VecX forwardAt(const Model& m, const VecX& q, const VecX& tau) {
  Data d(m);
  return forwardDynamics(m, d, q, VecX::Zero(m.nv()), tau);
}

}  // namespace

// --- rank-based counting -------------------------------------------------------------------------

TEST(LoopRobustness, NearlyParallelAxesWithinTheToleranceAreAPlanarLoop) {
  const std::string exact = readText(modelFile("four_bar.urdf"));
  const Model reference = loadUrdfString(exact, "four_bar.urdf");
  const VecX q = (VecX(1) << 0.5).finished(), tau = (VecX(1) << 0.7).finished();
  const VecX qddExact = forwardAt(reference, q, tau);
  // joint3's axis tilted as rpy="-1.5708 0 0" is off (3.7e-6 rad), and by 1e-7 rad; the loop
  // axis tilted by 5e-5 rad (rpy rounded to 4 decimals)
  for (const auto& [joint, tilted] : std::vector<std::pair<size_t, std::string>>{
           {2, "0 3.67e-6 1"}, {2, "1e-7 0 1"}, {3, "0 -5e-5 1"}}) {
    SCOPED_TRACE(tilted);
    const std::string text = replaceOnce(exact, "<axis xyz=\"0 0 1\"/>", "<axis xyz=\"" + tilted + "\"/>", joint);
    const Model m = loadUrdfString(text, "rounded.urdf");
    EXPECT_EQ(m.nv(), 1);
    EXPECT_LT(relErr(forwardAt(m, q, tau), qddExact), 1e-3);
  }
  // a real tilt (0.01 rad) is a spatial loop: no longer 1 DoF as marked, and the message says so
  const std::string spatial = replaceOnce(exact, "<axis xyz=\"0 0 1\"/>", "<axis xyz=\"0 0.01 1\"/>", 2);
  try {
    loadUrdfString(spatial, "tilted.urdf");
    ADD_FAILURE() << "a loop tilted by 0.01 rad must not count as planar";
  } catch (const ModelError& e) {
    EXPECT_EQ(std::string(e.what()).find("mark exactly -"), std::string::npos) << e.what();
  }
}

TEST(LoopRobustness, LoopWrittenTwiceIsConsistentRedundancy) {
  const std::string once = readText(modelFile("four_bar.urdf"));
  const size_t start = once.find("  <loop name=\"loop1\"");
  const size_t end = once.find("</loop>", start) + std::string("</loop>\n").size();
  std::string loop = once.substr(start, end - start);
  loop = replaceOnce(loop, "loop1", "loop1_again");
  const std::string twice = once.substr(0, end) + loop + once.substr(end);
  const Model a = loadUrdfString(once, "once.urdf"), b = loadUrdfString(twice, "twice.urdf");
  EXPECT_EQ(b.nv(), 1);
  const VecX q = (VecX(1) << 0.8).finished(), tau = (VecX(1) << -0.3).finished();
  EXPECT_LT(relErr(forwardAt(b, q, tau), forwardAt(a, q, tau)), 1e-9);
  Data da(a), db(b);
  EXPECT_LT((massMatrix(b, db, q) - massMatrix(a, da, q)).norm(), 1e-9);
}

TEST(LoopRobustness, CouplingWrittenTwiceIsConsistentRedundancy) {
  const std::string pair = R"(<robot name="r">
  <link name="world"/>
  <link name="a"><inertial><mass value="1"/><origin xyz="0.1 0 0"/><inertia ixx="0.01" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="rotor"><inertial><mass value="0.2"/><inertia ixx="0.001" iyy="0.001" izz="0.0015" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="ja" type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/></joint>
  <joint name="jr" type="continuous" independent="false"><parent link="world"/><child link="rotor"/><axis xyz="0 0 1"/></joint>
  <coupling name="gear"><predecessor link="a"/><successor link="rotor"/><ratio value="6"/></coupling>
)";
  const Model once = loadUrdfString(pair + "</robot>\n");
  const Model twice = loadUrdfString(
      pair + "  <coupling name=\"gear_again\"><predecessor link=\"a\"/><successor link=\"rotor\"/><ratio value=\"6\"/></coupling>\n</robot>\n");
  EXPECT_EQ(twice.nv(), 1);
  const VecX q = (VecX(1) << 0.3).finished();
  Data d1(once), d2(twice);
  const double H = massMatrix(once, d1, q)(0, 0);
  EXPECT_NEAR(H, 0.02 + 1.0 * 0.01 + 36.0 * 0.0015, 1e-12);  // izz + m d² + N² I_rotor
  EXPECT_NEAR(massMatrix(twice, d2, q)(0, 0), H, 1e-12);
}

namespace {
/// A bar carried by three equal parallel cranks (a pantograph): cranks of length 0.5 at x = 0,
/// 1, 2 on the ground, all about z; the bar hangs on crank1's tip and two loops pin it to the
/// tips of crank2 and crank3. Two loops, four rows, rank three: 1 DoF. Gravity is along the
/// axes, so only inertia acts.
std::string pantograph() {
  auto link = [](const std::string& name, double mass, const std::string& com, double izz) {
    return "  <link name=\"" + name + "\"><inertial><mass value=\"" + std::to_string(mass) + "\"/><origin xyz=\"" + com +
           "\"/><inertia ixx=\"" + std::to_string(izz) + "\" iyy=\"" + std::to_string(izz) + "\" izz=\"" +
           std::to_string(izz) + "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n";
  };
  auto joint = [](const std::string& name, const std::string& parent, const std::string& child, const std::string& xyz,
                  const std::string& flag) {
    return "  <joint name=\"" + name + "\" type=\"continuous\" independent=\"" + flag + "\"><parent link=\"" + parent +
           "\"/><child link=\"" + child + "\"/><origin xyz=\"" + xyz + "\"/><axis xyz=\"0 0 1\"/></joint>\n";
  };
  auto loop = [](const std::string& name, const std::string& barPoint, const std::string& crank) {
    return "  <loop name=\"" + name + "\" type=\"revolute\"><predecessor link=\"bar\"><origin xyz=\"" + barPoint +
           "\"/></predecessor><successor link=\"" + crank +
           "\"><origin xyz=\"0 0.5 0\"/></successor><axis xyz=\"0 0 1\"/></loop>\n";
  };
  return "<robot name=\"pantograph\">\n  <link name=\"ground\"/>\n" + link("crank1", 1.0, "0 0.25 0", 0.03) +
         link("crank2", 1.0, "0 0.25 0", 0.03) + link("crank3", 1.0, "0 0.25 0", 0.03) +
         link("bar", 2.0, "1 0 0", 0.7) + joint("c1", "ground", "crank1", "0 0 0", "true") +
         joint("c2", "ground", "crank2", "1 0 0", "false") + joint("c3", "ground", "crank3", "2 0 0", "false") +
         joint("b", "crank1", "bar", "0 0.5 0", "false") + loop("pin2", "1 0 0", "crank2") +
         loop("pin3", "2 0 0", "crank3") + "</robot>\n";
}
}  // namespace

TEST(LoopRobustness, PantographHasOneDegreeOfFreedom) {
  Model m = loadUrdfString(pantograph(), "pantograph.urdf");
  m.setGravity(Vec3(0, 0, -9.81));
  ASSERT_EQ(m.nv(), 1);
  // The bar translates on a circle of radius 0.5 and each crank turns about its pivot:
  // H = 3 (izz + m 0.25²) + m_bar 0.5², the same at every angle.
  const double H = 3.0 * (0.03 + 1.0 * 0.0625) + 2.0 * 0.25;
  Data d(m);
  for (double theta : {0.3, 1.2, -1.0, 0.6}) {  // the cranks lie along the bar (a toggle) at ±π/2
    const VecX q = (VecX(1) << theta).finished();
    EXPECT_NEAR(massMatrix(m, d, q)(0, 0), H, 1e-9) << theta;
    EXPECT_NEAR(forwardDynamics(m, d, q, VecX::Zero(1), (VecX(1) << 1.0).finished())[0], 1.0 / H, 1e-9) << theta;
    const VecX qs = completeConfiguration(m, d, q);  // the parallelogram: every crank at θ, the bar at −θ
    for (const char* crank : {"crank2", "crank3"}) EXPECT_NEAR(std::remainder(qs[m.body(m.bodyIndex(crank)).qIndex] - theta, 2 * kPi), 0.0, 1e-9);
    EXPECT_NEAR(std::remainder(qs[m.body(m.bodyIndex("bar")).qIndex] + theta, 2 * kPi), 0.0, 1e-9);
  }
}

// --- assembly mode -------------------------------------------------------------------------------

TEST(LoopRobustness, FreshCompletionsStayInTheAssemblyModeOfContinuousMotion) {
  for (const char* file : {"six_bar.urdf", "planar_leg_linkage.urdf"}) {
    SCOPED_TRACE(file);
    const Model m = loadUrdf(modelFile(file));
    std::mt19937 rng(99);
    std::uniform_real_distribution<double> U(-0.8, 0.8);
    Data warm(m);
    VecX y = m.neutralConfiguration();
    completeConfiguration(m, warm, y);
    int compared = 0;
    for (int sample = 0; sample < 30; ++sample) {
      VecX target = m.neutralConfiguration();
      for (Eigen::Index i = 0; i < target.size(); ++i) target[i] += U(rng);
      // continuous motion: tiny steps on a warm Data from the previous target
      VecX continuous;
      bool reachable = true;
      for (int s = 1; s <= 200 && reachable; ++s) {
        try {
          continuous = completeConfiguration(m, warm, VecX(y + (target - y) * (s / 200.0)));
        } catch (const NumericalError&) {
          reachable = false;  // a singular pose lies on the way: that target is not in this mode
        }
      }
      if (!reachable) {
        warm = Data(m);
        y = m.neutralConfiguration();
        completeConfiguration(m, warm, y);
        continue;
      }
      y = target;
      Data fresh(m);  // what every CLI call does
      const VecX jumped = completeConfiguration(m, fresh, target);
      for (Eigen::Index i = 0; i < jumped.size(); ++i) {
        EXPECT_NEAR(std::remainder(jumped[i] - continuous[i], 2 * kPi), 0.0, 1e-8) << "sample " << sample << " coordinate " << i;
        EXPECT_GT(jumped[i], -kPi - 1e-12);
        EXPECT_LE(jumped[i], kPi + 1e-12);
      }
      ++compared;
    }
    EXPECT_GE(compared, 15);
  }
}

TEST(LoopRobustness, UnreachableStateInTheAssemblyModeIsANumericalError) {
  // the Generic four-bar (not the closed form) at its toggle: the links on one line
  ModelBuilder b = parseUrdfFile(modelFile("four_bar.urdf"));
  b.setSpecialisedJoints(false);
  const Model m = b.build();
  Data d(m);
  // issue #27: a parallelogram's as-built branch is smooth through its toggle, so completion may
  // now continue there; whatever it returns must close the loop, or it must refuse — never a wrong
  // pose
  try {
    completeConfiguration(m, d, VecX::Zero(1));
    forwardKinematics(m, d, VecX::Zero(1));
    EXPECT_LT(loopClosureError(m, d), 1e-9);
  } catch (const NumericalError&) {
  }
  EXPECT_NO_THROW(completeConfiguration(m, d, (VecX(1) << 0.4).finished()));
}

// --- units and origin ------------------------------------------------------------------------------

namespace {
/// The same robot with every length multiplied by `s` and the fixed base moved by `origin`.
Model rescaled(const std::string& file, double s, const Vec3& origin) {
  ModelBuilder src = parseUrdfFile(modelFile(file)), out(src.name());
  std::string root;
  for (const LinkSpec& l : src.links()) {
    bool isChild = false;
    for (const JointSpec& j : src.joints()) isChild |= j.child == l.name;
    if (!isChild) root = l.name;
    LinkSpec c = l;
    c.com *= s;
    c.inertia *= s * s;
    out.addLink(c);
  }
  for (JointSpec j : src.joints()) {
    j.origin.r *= s;
    if (j.parent == root) j.origin.r += origin;  // r: the child origin in parent coordinates
    out.addJoint(j);
  }
  for (LoopSpec l : src.loops()) {
    l.predecessorOrigin.r *= s;
    l.successorOrigin.r *= s;
    out.addLoop(l);
  }
  out.setGravity(Vec3(0, -9.81 * s, 0));  // in the plane of the mechanism, so it does work
  return out.build();
}
}  // namespace

TEST(LoopRobustness, ResultsDoNotDependOnTheLengthUnitOrTheWorldOrigin) {
  for (const char* file : {"six_bar.urdf", "planar_leg_linkage.urdf", "four_bar.urdf"}) {
    SCOPED_TRACE(file);
    const Model metres = rescaled(file, 1.0, Vec3::Zero());
    const Model millimetres = rescaled(file, 1000.0, Vec3::Zero());
    const Model moved = rescaled(file, 1.0, Vec3(120.0, -75.0, 30.0));
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> U(-0.4, 0.4);
    for (int sample = 0; sample < 5; ++sample) {
      VecX q = metres.neutralConfiguration(), tau(metres.nv());
      for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += U(rng);
      for (Eigen::Index i = 0; i < tau.size(); ++i) tau[i] = U(rng);
      Data d1(metres), d2(millimetres), d3(moved);
      // angles are unit-free; torques scale with length² (mass × length² / s²)
      const VecX qdd = forwardDynamics(metres, d1, q, VecX::Zero(q.size()), tau);
      EXPECT_LT(relErr(forwardDynamics(millimetres, d2, q, VecX::Zero(q.size()), VecX(1e6 * tau)), qdd), 1e-8);
      EXPECT_LT(relErr(forwardDynamics(moved, d3, q, VecX::Zero(q.size()), tau), qdd), 1e-8);
      const VecX closed = completeConfiguration(metres, d1, q);
      EXPECT_LT((completeConfiguration(millimetres, d2, q) - closed).cwiseAbs().maxCoeff(), 1e-9);
      EXPECT_LT((completeConfiguration(moved, d3, q) - closed).cwiseAbs().maxCoeff(), 1e-9);
    }
  }
}
