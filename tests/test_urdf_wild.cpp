// URDF as found in the wild (issue #25): a <mimic> left on a fixed joint, massless moving links
// that make ℳ singular, and ROS / ros_control / Drake <transmission>s with rotor inertia read as
// exact rotor clusters. Every accepted file is cross-checked against an independent model: the
// same robot written by hand in URDF+ (rotor links, joints and couplings), closed-form mass
// matrices of a planar arm with rotors, or the file with the element removed.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "grbda/grbda.hpp"
#include "grbda/model_source.hpp"
#include "support/model_error.hpp"
#include "support/temp_dir.hpp"
#include "support/text_lines.hpp"
#include "support/compare.hpp"

using namespace grbda;
using grbda::testsupport::maxAbs;
using grbda::testsupport::lineOf;
using grbda::testsupport::modelErrorOf;

namespace {

int occurrences(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

void expectMentions(const std::string& what, const std::vector<std::string>& fragments) {
  for (const auto& f : fragments) EXPECT_NE(what.find(f), std::string::npos) << "'" << f << "' not in: " << what;
}

/// Loads with the logger's warnings captured: returns the model, `log` gets stderr.
Model loadLogged(const std::string& text, std::string& log, const LoadOptions& options = {}) {
  setLogLevel(LogLevel::Warn);
  ::testing::internal::CaptureStderr();
  try {
    Model m = loadUrdfString(text, "probe.urdf", options);
    log = ::testing::internal::GetCapturedStderr();
    return m;
  } catch (...) {
    log = ::testing::internal::GetCapturedStderr();
    throw;
  }
}

std::string inertial(double mass, const std::string& com, const std::string& moments) {
  return "<inertial><mass value=\"" + std::to_string(mass) + "\"/><origin xyz=\"" + com + "\"/><inertia " + moments +
         "/></inertial>";
}

const std::string kDiag = "ixx=\"0.02\" iyy=\"0.03\" izz=\"0.025\" ixy=\"0\" ixz=\"0\" iyz=\"0\"";

std::string massive(const std::string& name) {
  return "  <link name=\"" + name + "\">" + inertial(1.0, "0.1 0 0", kDiag) + "</link>\n";
}
std::string bare(const std::string& name) { return "  <link name=\"" + name + "\"/>\n"; }

std::string jointXml(const std::string& name, const std::string& type, const std::string& parent,
                  const std::string& child, const std::string& inner = "  <axis xyz=\"0 0 1\"/>\n") {
  std::string limit = type == "revolute" || type == "prismatic" ? "    <limit effort=\"10\" velocity=\"10\"/>\n" : "";
  return "  <joint name=\"" + name + "\" type=\"" + type + "\">\n    <parent link=\"" + parent +
         "\"/>\n    <child link=\"" + child + "\"/>\n  " + inner + limit + "  </joint>\n";
}

std::string robot(const std::string& body) {
  return "<robot name=\"r\" xmlns:drake=\"http://drake.mit.edu\">\n  <link name=\"world\"/>\n" + body + "</robot>\n";
}

std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

/// The robot with a massive root link: a free-flyer root on a massless one spinning against its
/// only revolute child moves no mass (ℳ singular, and the load warning says so).
std::string withMassiveRoot(std::string text) {
  const std::string bareWorld = "  <link name=\"world\"/>\n";
  return text.replace(text.find(bareWorld), bareWorld.size(), massive("world"));
}

struct WildState {
  VecX q, v, tau;
};

std::vector<WildState> randomStates(const Model& m, int count) {
  std::mt19937 rng(25);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<WildState> out;
  for (int k = 0; k < count; ++k) {
    WildState s{m.neutralConfiguration(), VecX(m.nv()), VecX(m.nv())};
    for (int i = 0; i < m.nq(); ++i) s.q[i] += u(rng);
    if (m.isFloatingBase()) s.q.segment<4>(3) = Eigen::Vector4d(0.9, 0.1, -0.3, 0.2).normalized();
    for (int i = 0; i < m.nv(); ++i) s.v[i] = u(rng), s.tau[i] = 3.0 * u(rng);
    out.push_back(s);
  }
  return out;
}

/// Largest difference of ℳ and of q̈ between two models with the same coordinates.
std::pair<double, double> dynamicsDifference(const Model& a, const Model& b) {
  EXPECT_EQ(a.nv(), b.nv());
  EXPECT_EQ(a.velocityNames(), b.velocityNames());
  Data da(a), db(b);
  double dH = 0.0, dqdd = 0.0;
  for (const WildState& s : randomStates(a, 6)) {
    dH = std::max(dH, maxAbs(massMatrix(a, da, s.q) - massMatrix(b, db, s.q)));
    const VecX qa = forwardDynamics(a, da, s.q, s.v, s.tau);
    dqdd = std::max(dqdd, maxAbs(qa - forwardDynamics(b, db, s.q, s.v, s.tau)));
  }
  return {dH, dqdd};
}

}  // namespace

// --- <mimic> on a fixed joint ----------------------------------------------------------------------

namespace {
/// A wrist with a finger; the two gripper joints of a reduced model were made fixed but kept their
/// <mimic> (Talos's talos_reduced.urdf does this), the second one following the first.
std::string reducedGripper(bool withMimics) {
  const std::string mimic1 = withMimics ? "    <mimic joint=\"finger\" multiplier=\"-1\" offset=\"0.1\"/>\n" : "";
  const std::string mimic2 = withMimics ? "    <mimic joint=\"grip_a\" multiplier=\"2\"/>\n" : "";
  return robot(massive("palm") + massive("f") + massive("ga") + massive("gb") +
               jointXml("wrist", "revolute", "world", "palm") +
               jointXml("finger", "continuous", "palm", "f", "  <origin xyz=\"0.2 0 0\"/><axis xyz=\"0 1 0\"/>\n") +
               jointXml("grip_a", "fixed", "palm", "ga", "  <origin xyz=\"0.1 0.05 0\"/>\n" + mimic1) +
               jointXml("grip_b", "fixed", "palm", "gb", "  <origin xyz=\"0.1 -0.05 0\"/>\n" + mimic2));
}
}  // namespace

TEST(UrdfWildMimic, MimicOnAFixedJointIsIgnoredWithOneWarningNamingIt) {
  std::string log, cleanLog;
  const std::string text = reducedGripper(true);
  const Model m = loadLogged(text, log);
  const Model clean = loadLogged(reducedGripper(false), cleanLog);
  EXPECT_EQ(occurrences(log, "<mimic> is ignored"), 2) << log;
  EXPECT_EQ(occurrences(log, "joint 'grip_a': the joint is fixed"), 1) << log;
  EXPECT_EQ(occurrences(log, "joint 'grip_b': the joint is fixed"), 1) << log;
  EXPECT_NE(log.find("probe.urdf:" + std::to_string(lineOf(text, "<mimic joint=\"finger\""))), std::string::npos) << log;
  EXPECT_EQ(cleanLog.find("mimic"), std::string::npos) << cleanLog;
  // the same robot as the file without the <mimic> elements: the same bits
  EXPECT_EQ(m.nv(), 2);
  EXPECT_TRUE(m.constraints().empty());
  const auto [dH, dqdd] = dynamicsDifference(m, clean);
  EXPECT_EQ(dH, 0.0);
  EXPECT_EQ(dqdd, 0.0);
  // and with a free-flyer root
  LoadOptions floating;
  floating.floatingBase = true;
  const auto [dHf, dqddf] = dynamicsDifference(loadLogged(withMassiveRoot(text), log, floating),
                                               loadLogged(withMassiveRoot(reducedGripper(false)), cleanLog, floating));
  EXPECT_EQ(dHf, 0.0);
  EXPECT_EQ(dqddf, 0.0);
}

TEST(UrdfWildMimic, OtherMimicRefusalsStay) {
  // a fixed joint's <mimic> naming a joint that does not exist
  std::string text = reducedGripper(true);
  text.replace(text.find("mimic joint=\"finger\""), 20, "mimic joint=\"fingr\" ");
  expectMentions(modelErrorOf([&] { loadUrdfString(text, "probe.urdf"); }),
                 {"probe.urdf:" + std::to_string(lineOf(text, "<mimic joint=\"fingr\"")) + ":", "joint 'grip_a'",
                  "unknown joint 'fingr'"});
  // a moving joint that mimics a fixed one is still refused (it has nothing to follow)
  const std::string moving = robot(massive("palm") + massive("f") + massive("g") + jointXml("wrist", "revolute", "world", "palm") +
                                   jointXml("fixed_one", "fixed", "palm", "f") +
                                   jointXml("follower", "continuous", "palm", "g",
                                         "  <axis xyz=\"0 1 0\"/>\n    <mimic joint=\"fixed_one\"/>\n"));
  expectMentions(modelErrorOf([&] { loadUrdfString(moving, "probe.urdf"); }),
                 {"probe.urdf:" + std::to_string(lineOf(moving, "<mimic joint=\"fixed_one\"")) + ":",
                  "unknown or fixed joint 'fixed_one'"});
  // a malformed <mimic> on a fixed joint is still a syntax error
  std::string malformed = reducedGripper(true);
  malformed.replace(malformed.find("multiplier=\"2\""), 14, "multiplier=\"x\"");
  expectMentions(modelErrorOf([&] { loadUrdfString(malformed, "probe.urdf"); }),
                 {"probe.urdf:" + std::to_string(lineOf(malformed, "multiplier=\"x\"")) + ":", "not a number"});
}

// --- massless moving links -------------------------------------------------------------------------

TEST(UrdfWildMassless, MasslessLeafMakesMSingularAndIsNamed) {
  // a sensor link on a continuous joint with no <inertial>: its row of ℳ is zero
  const std::string text = robot(massive("arm") + bare("sensor") + jointXml("shoulder", "continuous", "world", "arm") +
                                 jointXml("spin", "continuous", "arm", "sensor",
                                       "  <origin xyz=\"0.3 0 0\"/><axis xyz=\"1 0 0\"/>\n"));
  std::string log;
  const Model m = loadLogged(text, log);
  EXPECT_EQ(occurrences(log, "the mass matrix is singular"), 1) << log;
  expectMentions(log, {"probe.urdf", "link 'sensor' (joint 'spin')"});
  EXPECT_EQ(log.find("link 'arm'"), std::string::npos) << log;
  // independently: ℳ has a zero row, and forward dynamics refuses
  Data d(m);
  const MatX& H = massMatrix(m, d, VecX::Constant(2, 0.4));
  EXPECT_EQ(maxAbs(H.row(m.velocityNames()[0] == "spin" ? 0 : 1)), 0.0);
  EXPECT_THROW(forwardDynamics(m, d, VecX::Zero(2), VecX::Zero(2), VecX::Zero(2)), NumericalError);
  // a free-flyer root changes nothing about it
  LoadOptions floating;
  floating.floatingBase = true;
  loadLogged(withMassiveRoot(text), log, floating);
  EXPECT_EQ(occurrences(log, "the mass matrix is singular"), 1) << log;
  expectMentions(log, {"link 'sensor' (joint 'spin')"});
  EXPECT_EQ(log.find("root_joint"), std::string::npos) << log;
}

TEST(UrdfWildMassless, MasslessIntermediateLinkWithMassiveChildIsFine) {
  // a massless link between two joints with different axes (a URDF "universal joint"): the child's
  // mass moves with both joints, so ℳ is positive definite and nothing is said
  const std::string text = robot(bare("cross") + massive("foot") + jointXml("pitch", "continuous", "world", "cross",
                                                                          "  <axis xyz=\"0 1 0\"/>\n") +
                                 jointXml("roll", "continuous", "cross", "foot",
                                       "  <origin xyz=\"0 0 -0.05\"/><axis xyz=\"1 0 0\"/>\n"));
  std::string log;
  const Model m = loadLogged(text, log);
  EXPECT_EQ(log.find("singular"), std::string::npos) << log;
  Data d(m);
  for (const WildState& s : randomStates(m, 4)) {
    const Eigen::LLT<MatX> llt(massMatrix(m, d, s.q));
    EXPECT_EQ(llt.info(), Eigen::Success);
    EXPECT_TRUE(forwardDynamics(m, d, s.q, s.v, s.tau).allFinite());
  }
}

TEST(UrdfWildMassless, MasslessLinkWhoseChildTurnsAboutTheSameAxisIsNamedWithIt) {
  // the child spins about the massless link's own axis through the same point: q̇ = (1, −1)
  // moves nothing, although the child is massive
  const std::string text = robot(bare("hub") + massive("wheel") + jointXml("j1", "continuous", "world", "hub") +
                                 jointXml("j2", "continuous", "hub", "wheel", "  <axis xyz=\"0 0 -1\"/>\n"));
  std::string log;
  const Model m = loadLogged(text, log);
  EXPECT_EQ(occurrences(log, "the mass matrix is singular"), 1) << log;
  expectMentions(log, {"link 'hub' (joint 'j1')", "link 'wheel' (joint 'j2')"});
  Data d(m);
  const VecX nullMotion = VecX::Ones(2);  // axes opposite: equal rates cancel
  EXPECT_LT((massMatrix(m, d, VecX::Constant(2, 0.7)) * nullMotion).norm(), 1e-14);
}

TEST(UrdfWildMassless, SingularOnlyAtTheNeutralPoseIsNotReported) {
  // the child's point mass lies on the first joint's axis only when q2 = 0
  const std::string pointMass = "  <link name=\"bob\">" +
                                inertial(1.0, "0 0 0.3", "ixx=\"0\" iyy=\"0\" izz=\"0\" ixy=\"0\" ixz=\"0\" iyz=\"0\"") +
                                "</link>\n";
  const std::string text = robot(bare("hub") + pointMass + jointXml("j1", "continuous", "world", "hub") +
                                 jointXml("j2", "continuous", "hub", "bob", "  <axis xyz=\"1 0 0\"/>\n"));
  std::string log;
  const Model m = loadLogged(text, log);
  EXPECT_EQ(log.find("singular"), std::string::npos) << log;
  Data d(m);
  EXPECT_NEAR(massMatrix(m, d, VecX::Zero(2))(0, 0), 0.0, 1e-15);  // singular at the neutral pose
  EXPECT_EQ(Eigen::LLT<MatX>(massMatrix(m, d, Eigen::Vector2d(0.0, 0.5))).info(), Eigen::Success);
}

// --- transmissions ---------------------------------------------------------------------------------

namespace {

const std::string kArmLinks =
    "  <link name=\"l1\">" +
    inertial(2.0, "0.1 0.02 0.3", "ixx=\"0.02\" iyy=\"0.03\" izz=\"0.025\" ixy=\"0.001\" ixz=\"-0.002\" iyz=\"0.0015\"") +
    "</link>\n  <link name=\"l2\">" +
    inertial(1.5, "0.2 0 -0.05", "ixx=\"0.01\" iyy=\"0.04\" izz=\"0.035\" ixy=\"0\" ixz=\"0.003\" iyz=\"0\"") +
    "</link>\n  <link name=\"l3\">" +
    inertial(0.7, "0.05 0.01 0", "ixx=\"0.004\" iyy=\"0.005\" izz=\"0.006\" ixy=\"0\" ixz=\"0\" iyz=\"0.0002\"") +
    "</link>\n";

const std::string kArmJoints =
    jointXml("j1", "revolute", "world", "l1", "  <origin xyz=\"0 0 0.1\"/><axis xyz=\"0 0 1\"/>\n") +
    jointXml("j2", "continuous", "l1", "l2", "  <origin xyz=\"0.05 0.1 0.4\" rpy=\"0.3 -0.2 0.1\"/><axis xyz=\"0 1 0\"/>\n") +
    jointXml("j3", "prismatic", "l2", "l3", "  <origin xyz=\"0.3 0 0\"/><axis xyz=\"1 0 0\"/>\n");

/// The three transmission spellings: Drake's (gear_ratio wins over mechanicalReduction),
/// ros_control's (mechanicalReduction in the actuator, with a rotor mass), the old pr2 one
/// (mechanicalReduction directly under the transmission; a ball screw: 200 rad per metre), and a
/// plain ROS transmission without rotor inertia, which changes nothing.
const std::string kTransmissions = R"(  <transmission name="t1">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j1"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
    <actuator name="m1">
      <mechanicalReduction>50</mechanicalReduction>
      <drake:rotor_inertia value="2e-4"/>
      <drake:gear_ratio value="6"/>
    </actuator>
  </transmission>
  <transmission name="t2">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j2"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
    <actuator name="m2">
      <mechanicalReduction>-9</mechanicalReduction>
      <drake:rotor_inertia value="5e-4"/>
      <rotor_mass value="0.3"/>
    </actuator>
  </transmission>
  <transmission name="t3" type="pr2_mechanism_model/SimpleTransmission">
    <actuator name="m3"/>
    <joint name="j3"/>
    <mechanicalReduction>200</mechanicalReduction>
    <drake:rotor_inertia value="1e-5"/>
  </transmission>
  <transmission name="plain">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j2"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
    <actuator name="m4"><mechanicalReduction>100</mechanicalReduction></actuator>
  </transmission>
)";

/// The same rotors written by hand in URDF+: thin discs (axial I, transverse I/2) on the joint's
/// parent at the joint's origin, dependent joints about the joint axis, couplings with the ratios.
const std::string kHandRotors = R"(  <link name="r1"><inertial><mass value="0"/>
    <inertia ixx="1e-4" iyy="1e-4" izz="2e-4" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="r2"><inertial><mass value="0.3"/>
    <inertia ixx="2.5e-4" iyy="5e-4" izz="2.5e-4" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="r3"><inertial><mass value="0"/>
    <inertia ixx="1e-5" iyy="5e-6" izz="5e-6" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="r1j" type="continuous" independent="false"><parent link="world"/><child link="r1"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/></joint>
  <joint name="r2j" type="continuous" independent="false"><parent link="l1"/><child link="r2"/>
    <origin xyz="0.05 0.1 0.4" rpy="0.3 -0.2 0.1"/><axis xyz="0 1 0"/></joint>
  <joint name="r3j" type="continuous" independent="false"><parent link="l2"/><child link="r3"/>
    <origin xyz="0.3 0 0"/><axis xyz="1 0 0"/></joint>
  <coupling name="g1"><predecessor link="l1"/><successor link="r1"/><ratio value="6"/></coupling>
  <coupling name="g2"><predecessor link="l2"/><successor link="r2"/><ratio value="-9"/></coupling>
  <coupling name="g3"><predecessor link="l3"/><successor link="r3"/><ratio value="200"/></coupling>
)";

std::vector<std::string> clusterTypes(const Model& m) {
  std::vector<std::string> t;
  for (const Cluster& c : m.clusters()) t.push_back(c.typeName());
  return t;
}

}  // namespace

TEST(UrdfWildTransmission, DrakeAndRosRotorsEqualTheHandWrittenUrdfPlusRotors) {
  const std::string text = robot(kArmLinks + kArmJoints + kTransmissions);
  const Model fromTransmissions = loadUrdfString(text, "probe.urdf");
  const Model handWritten = loadUrdfString(robot(kArmLinks + kArmJoints + kHandRotors), "hand.urdf");
  EXPECT_EQ(fromTransmissions.numBodies(), 6);
  EXPECT_EQ(fromTransmissions.nv(), 3);
  EXPECT_EQ(clusterTypes(fromTransmissions), clusterTypes(handWritten));
  EXPECT_EQ(clusterTypes(fromTransmissions), (std::vector<std::string>(3, "RevoluteWithRotor")));
  const auto [dH, dqdd] = dynamicsDifference(fromTransmissions, handWritten);
  EXPECT_LT(dH, 1e-12);
  EXPECT_LT(dqdd, 1e-12);
  RecordProperty("max_dH", sci(dH));
  RecordProperty("max_dqdd", sci(dqdd));
  // with a free-flyer root (LoadOptions::floatingBase) the rotor on the ground joint rides the base
  LoadOptions floating;
  floating.floatingBase = true;
  const auto [dHf, dqddf] = dynamicsDifference(loadUrdfString(text, "probe.urdf", floating),
                                               loadUrdfString(robot(kArmLinks + kArmJoints + kHandRotors), "h", floating));
  EXPECT_LT(dHf, 1e-12);
  EXPECT_LT(dqddf, 1e-11);
}

TEST(UrdfWildTransmission, PlanarArmMassMatrixMatchesTheClosedForm) {
  // two links turning about z; rotor 1 on the ground (ratio N1), rotor 2 (mass mr) on link 1 at the
  // elbow (ratio N2). Kinetic energy by hand: the elbow rotor spins at q̇1 + N2 q̇2 and its centre
  // moves with link 1 at distance l1.
  const double m1 = 2.0, c1 = 0.25, I1 = 0.05, m2 = 1.0, c2 = 0.2, I2 = 0.03, l1 = 0.5;
  const double N1 = 8.0, Ir1 = 3e-4, N2 = 5.0, Ir2 = 2e-4, mr = 0.4;
  const std::string text = robot(
      "  <link name=\"a\">" + inertial(m1, "0.25 0 0", "ixx=\"0.01\" iyy=\"0.05\" izz=\"0.05\" ixy=\"0\" ixz=\"0\" iyz=\"0\"") +
      "</link>\n  <link name=\"b\">" +
      inertial(m2, "0.2 0 0", "ixx=\"0.01\" iyy=\"0.03\" izz=\"0.03\" ixy=\"0\" ixz=\"0\" iyz=\"0\"") + "</link>\n" +
      jointXml("shoulder", "continuous", "world", "a") +
      jointXml("elbow", "continuous", "a", "b", "  <origin xyz=\"0.5 0 0\"/><axis xyz=\"0 0 1\"/>\n") +
      "  <transmission name=\"ts\"><joint name=\"shoulder\"/><actuator name=\"ms\">"
      "<drake:rotor_inertia value=\"3e-4\"/><drake:gear_ratio value=\"8\"/></actuator></transmission>\n"
      "  <transmission name=\"te\"><joint name=\"elbow\"/><actuator name=\"me\"><mechanicalReduction>5"
      "</mechanicalReduction><drake:rotor_inertia value=\"2e-4\"/><rotor_mass value=\"0.4\"/></actuator></transmission>\n");
  const Model m = loadUrdfString(text, "planar.urdf");
  Data d(m);
  for (double q2 : {0.0, 0.7, -2.1, 3.0}) {
    const double cs = std::cos(q2);
    Eigen::Matrix2d H;
    H(0, 0) = I1 + m1 * c1 * c1 + I2 + m2 * (l1 * l1 + c2 * c2 + 2 * l1 * c2 * cs) + N1 * N1 * Ir1 + Ir2 + mr * l1 * l1;
    H(0, 1) = H(1, 0) = I2 + m2 * (c2 * c2 + l1 * c2 * cs) + N2 * Ir2;
    H(1, 1) = I2 + m2 * c2 * c2 + N2 * N2 * Ir2;
    EXPECT_LT(maxAbs(massMatrix(m, d, Eigen::Vector2d(-0.4, q2)) - H), 1e-12) << "q2 = " << q2;
  }
  // a single joint: the effective inertia about it is I_link + N² I_rotor
  const Model one = loadUrdfString(robot("  <link name=\"a\">" + inertial(m1, "0.25 0 0", "ixx=\"0.01\" iyy=\"0.05\" "
                                                                            "izz=\"0.05\" ixy=\"0\" ixz=\"0\" iyz=\"0\"") +
                                         "</link>\n" + jointXml("shoulder", "continuous", "world", "a") +
                                         "  <transmission name=\"ts\"><joint name=\"shoulder\"/><actuator name=\"ms\">"
                                         "<drake:rotor_inertia value=\"3e-4\"/><drake:gear_ratio value=\"8\"/></actuator>"
                                         "</transmission>\n"),
                                   "one.urdf");
  Data d1(one);
  EXPECT_NEAR(massMatrix(one, d1, VecX::Constant(1, 0.3))(0, 0), I1 + m1 * c1 * c1 + N1 * N1 * Ir1, 1e-14);
}

TEST(UrdfWildTransmission, IgnoreGivesTodaysModel) {
  const std::string withTransmissions = robot(kArmLinks + kArmJoints + kTransmissions);
  const std::string without = robot(kArmLinks + kArmJoints);
  LoadOptions ignore;
  ignore.transmissions = TransmissionTreatment::Ignore;
  const Model ignored = loadUrdfString(withTransmissions, "probe.urdf", ignore);
  const Model stripped = loadUrdfString(without, "probe.urdf");
  EXPECT_EQ(ignored.numBodies(), 3);
  const auto [dH, dqdd] = dynamicsDifference(ignored, stripped);
  EXPECT_EQ(dH, 0.0);
  EXPECT_EQ(dqdd, 0.0);
  // transmissions without a rotor inertia change nothing under the default either
  const std::string plainOnly =
      robot(kArmLinks + kArmJoints + kTransmissions.substr(kTransmissions.find("  <transmission name=\"plain\">")));
  const Model plain = loadUrdfString(plainOnly, "probe.urdf");
  EXPECT_EQ(plain.numBodies(), 3);
  const auto [dHp, dqddp] = dynamicsDifference(plain, stripped);
  EXPECT_EQ(dHp, 0.0);
  EXPECT_EQ(dqddp, 0.0);
  // the option travels with a serialised model
  const Model back = deserializeModel(serializeModel(ignored));
  EXPECT_EQ(back.numBodies(), 3);
  EXPECT_EQ(deserializeModel(serializeModel(loadUrdfString(withTransmissions, "probe.urdf"))).numBodies(), 6);
}

TEST(UrdfWildTransmission, ReflectedInertiaIsTheArmatureApproximationOfTheExactRotors) {
  // the comparison the issue asks for: the reflected-inertia (armature) model of the exact rotors
  // is the transmission-free tree plus diag(N² I_rotor), N² I_rotor computed here by hand
  const std::string arm = kArmLinks + kArmJoints;
  std::string massless = kTransmissions;
  const std::string rotorMass = "      <rotor_mass value=\"0.3\"/>\n";
  massless.replace(massless.find(rotorMass), rotorMass.size(), "");
  const Model exact = loadUrdfString(robot(arm + massless), "probe.urdf");
  LoadOptions ignore;
  ignore.transmissions = TransmissionTreatment::Ignore;
  const Model tree = loadUrdfString(robot(arm + massless), "probe.urdf", ignore);
  const ApproximateModel approx = makeApproximateModel(exact, RotorApproximation::Diagonal);
  const Vec3 reflected(36.0 * 2e-4, 81.0 * 5e-4, 40000.0 * 1e-5);
  EXPECT_LT(maxAbs(approx.armature - reflected), 1e-15);
  Data da(approx.tree), dt(tree), de(exact);
  double gap = 0.0;
  for (const WildState& s : randomStates(exact, 4)) {
    const MatX H = massMatrix(tree, dt, s.q) + MatX(reflected.asDiagonal());
    EXPECT_LT(maxAbs(approximateMassMatrix(approx, da, s.q) - H), 1e-12);
    gap = std::max(gap, maxAbs(massMatrix(exact, de, s.q) - H));  // what the approximation drops
  }
  EXPECT_GT(gap, 1e-6);  // the rotors' gyroscopic/transverse coupling: the approximation is not exact
  RecordProperty("exact_vs_reflected_max_dH", sci(gap));
}

TEST(UrdfWildTransmission, BadValuesAreModelErrorsWithFileAndLine) {
  const std::string arm = kArmLinks + kArmJoints;
  auto variant = [&](const std::string& from, const std::string& to) {
    std::string t = kTransmissions;
    const size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    t.replace(at, from.size(), to);
    return robot(arm + t);
  };
  struct Case {
    std::string from, to, lineOfNeedle;
    std::vector<std::string> says;
  };
  const std::vector<Case> cases = {
      {"<drake:rotor_inertia value=\"2e-4\"/>", "<drake:rotor_inertia value=\"-2e-4\"/>", "value=\"-2e-4\"",
       {"transmission 't1'", "must be >= 0"}},
      {"<drake:gear_ratio value=\"6\"/>", "<drake:gear_ratio value=\"0\"/>", "<drake:gear_ratio value=\"0\"",
       {"transmission 't1'", "gear ratio must be non-zero"}},
      {"<mechanicalReduction>-9</mechanicalReduction>", "<mechanicalReduction>0</mechanicalReduction>",
       "<mechanicalReduction>0<", {"transmission 't2'", "non-zero"}},
      {"<mechanicalReduction>200</mechanicalReduction>", "<mechanicalReduction>lots</mechanicalReduction>",
       "<mechanicalReduction>lots", {"transmission 't3'", "not a number"}},
      {"<rotor_mass value=\"0.3\"/>", "<rotor_mass value=\"-1\"/>", "<rotor_mass", {"transmission 't2'", ">= 0"}},
      {"<joint name=\"j3\"/>", "<joint name=\"j9\"/>", "<joint name=\"j9\"", {"transmission 't3'", "unknown joint 'j9'"}},
      {"<joint name=\"j3\"/>", "<joint name=\"j3\"/><joint name=\"j2\"/>", "<transmission name=\"t3\"",
       {"transmission 't3'", "exactly one <joint> (found 2)"}},
      {"<drake:gear_ratio value=\"6\"/>", "<drake:gear_ratio value=\"1e12\"/>", "<transmission name=\"t1\"",
       {"coupling 'transmission:t1'", "outside the range"}},
  };
  for (const Case& c : cases) {
    const std::string text = variant(c.from, c.to);
    const std::string what = modelErrorOf([&] { loadUrdfString(text, "probe.urdf"); });
    expectMentions(what, {"probe.urdf:" + std::to_string(lineOf(text, c.lineOfNeedle)) + ":"});
    expectMentions(what, c.says);
    // Ignore reads no transmission: the same file loads as it did before
    LoadOptions ignore;
    ignore.transmissions = TransmissionTreatment::Ignore;
    EXPECT_EQ(loadUrdfString(text, "probe.urdf", ignore).nv(), 3) << c.to;
  }
  // two rotors on one joint
  const std::string twice = robot(arm + kTransmissions + R"(  <transmission name="again"><joint name="j1"/>
    <actuator name="m9"><drake:rotor_inertia value="1e-4"/></actuator></transmission>
)");
  expectMentions(modelErrorOf([&] { loadUrdfString(twice, "probe.urdf"); }),
                 {"probe.urdf:" + std::to_string(lineOf(twice, "<transmission name=\"again\"")) + ":",
                  "joint 'j1' already has a rotor (transmission at probe.urdf:" +
                      std::to_string(lineOf(twice, "<transmission name=\"t1\"")) + ")"});
}

TEST(UrdfWildTransmission, RotorOnAFixedJointIsIgnoredWithAWarning) {
  const std::string text = robot(massive("a") + massive("b") + jointXml("ja", "continuous", "world", "a") +
                                 jointXml("weld", "fixed", "a", "b", "  <origin xyz=\"0.2 0 0\"/>\n") +
                                 "  <transmission name=\"tw\"><joint name=\"weld\"/><actuator name=\"m\">"
                                 "<drake:rotor_inertia value=\"1e-4\"/></actuator></transmission>\n");
  std::string log;
  const Model m = loadLogged(text, log);
  EXPECT_EQ(m.numBodies(), 1);
  EXPECT_EQ(occurrences(log, "transmission 'tw': joint 'weld' is fixed: its rotor is ignored"), 1) << log;
}

TEST(UrdfWildTransmission, SplitFilesGetOneRotorPerJoint) {
  // a trunk file with the arm and a second file that only adds the transmissions (and declares
  // nothing else): the rotors are those of the one-file robot; the same rotor twice is refused
  grbda::testing::TempDir dir;
  const std::string trunk = dir.write("trunk.urdf", robot(kArmLinks + kArmJoints));
  const std::string extra = dir.write("motors.urdf", robot(kTransmissions));
  const Model split = loadUrdf(std::vector<std::string>{trunk, extra});
  const Model whole = loadUrdfString(robot(kArmLinks + kArmJoints + kTransmissions), "probe.urdf");
  EXPECT_EQ(split.numBodies(), 6);
  const auto [dH, dqdd] = dynamicsDifference(split, whole);
  EXPECT_EQ(dH, 0.0);
  EXPECT_EQ(dqdd, 0.0);
  const std::string again = dir.write("again.urdf", robot(kTransmissions));
  expectMentions(modelErrorOf([&] { loadUrdf(std::vector<std::string>{trunk, extra, again}); }),
                 {"again.urdf:" + std::to_string(lineOf(robot(kTransmissions), "<transmission name=\"t1\"")) + ":",
                  "joint 'j1' already has a rotor (transmission at " + extra + ":"});
}

TEST(UrdfWildMassless, FreeFlyerOnAMasslessRootLinkIsReported) {
  // Pinocchio's FreeFlyer on a file whose root link is a bare "world": the floating world can spin
  // about the shoulder axis while the shoulder turns back, and nothing with mass moves
  const std::string text = robot(massive("arm") + jointXml("shoulder", "continuous", "world", "arm"));
  LoadOptions floating;
  floating.floatingBase = true;
  std::string log;
  const Model m = loadLogged(text, log, floating);
  EXPECT_EQ(occurrences(log, "the mass matrix is singular"), 1) << log;
  expectMentions(log, {"link 'world' (joint 'root_joint')", "link 'arm' (joint 'shoulder')"});
  Data d(m);
  VecX spinBack = VecX::Zero(7);  // [ω; v] of the base in its frame, then the shoulder rate
  spinBack[2] = 1.0;
  spinBack[6] = -1.0;
  EXPECT_LT((massMatrix(m, d, m.neutralConfiguration()) * spinBack).norm(), 1e-15);
  // a massive root link floats without complaint
  loadLogged(withMassiveRoot(text), log, floating);
  EXPECT_EQ(log.find("singular"), std::string::npos) << log;
}
