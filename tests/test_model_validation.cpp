// Silent paths closed at load time (issue 15): `independent` spellings, flags the model
// contradicts, URDF <mimic>, impossible inertias, non-rotation origins, out-of-range gear ratios
// and the over-constrained message. Each bad input is fed and its ModelError checked for the file,
// line and element; each accepted input is cross-checked against an independently built model.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "grbda/grbda.hpp"
#include "support/model_error.hpp"
#include "support/text_lines.hpp"

using namespace grbda;
using grbda::testsupport::lineOf;
using grbda::testsupport::modelErrorOf;

namespace {

const char* kInertial =
    "<inertial><mass value=\"1\"/><origin xyz=\"0.1 0 0\"/>"
    "<inertia ixx=\"0.01\" iyy=\"0.02\" izz=\"0.02\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>";

std::string link(const std::string& name) { return "  <link name=\"" + name + "\">" + kInertial + "</link>\n"; }

std::string joint(const std::string& name, const std::string& parent, const std::string& child,
                  const std::string& extraAttributes = "", const std::string& body = "") {
  return "  <joint name=\"" + name + "\" type=\"continuous\"" + extraAttributes + ">\n    <parent link=\"" + parent +
         "\"/>\n    <child link=\"" + child + "\"/>\n    <axis xyz=\"0 0 1\"/>\n" + body + "  </joint>\n";
}

std::string robot(const std::string& body) { return "<robot name=\"r\">\n  <link name=\"world\"/>\n" + body + "</robot>\n"; }

void expectMentions(const std::string& what, const std::vector<std::string>& fragments) {
  for (const auto& f : fragments) EXPECT_NE(what.find(f), std::string::npos) << "'" << f << "' not in: " << what;
}

/// A geared pair: link a on the world, rotor r on the world turning `ratio` times as fast.
std::string gearedPair(const std::string& rotorAttributes, const std::string& extra = "") {
  return robot(link("a") + link("rotor") + joint("ja", "world", "a") + joint("jr", "world", "rotor", rotorAttributes) +
               "  <coupling name=\"gear\"><predecessor link=\"a\"/><successor link=\"rotor\"/><ratio value=\"6\"/></coupling>\n" +
               extra);
}

}  // namespace

// --- independent="..." ---------------------------------------------------------------------------

TEST(ModelValidation, IndependentAcceptsTheUsualBooleanSpellings) {
  const std::vector<std::pair<std::string, bool>> cases = {
      {"true", true},  {"True", true},   {"TRUE", true},  {" true ", true}, {"1", true},  {"yes", true},
      {"Yes", true},   {"false", false}, {"False", false}, {"FALSE", false}, {"0", false}, {"no", false},
      {" NO\t", false}};
  for (const auto& [spelling, expected] : cases) {
    const ModelBuilder b = parseUrdfString(robot(link("a") + joint("ja", "world", "a", " independent=\"" + spelling + "\"")));
    ASSERT_EQ(b.joints().size(), 1u);
    EXPECT_EQ(b.joints()[0].independent, expected) << "independent=\"" << spelling << "\"";
    EXPECT_TRUE(b.joints()[0].independentGiven);
  }
  const ModelBuilder absent = parseUrdfString(robot(link("a") + joint("ja", "world", "a")));
  EXPECT_TRUE(absent.joints()[0].independent);
  EXPECT_FALSE(absent.joints()[0].independentGiven);
}

TEST(ModelValidation, IndependentRejectsAnythingElseNamingJointFileAndLine) {
  for (const std::string spelling : {"flase", "", "2", "t", "on", "true false"}) {
    const std::string text = robot(link("a") + joint("ja", "world", "a", " independent=\"" + spelling + "\""));
    const std::string what = modelErrorOf([&] { parseUrdfString(text, "flags.urdf"); });
    expectMentions(what, {"flags.urdf:" + std::to_string(lineOf(text, "<joint name=\"ja\"")) + ":", "joint 'ja'",
                          "independent=\"" + spelling + "\"", "not a boolean"});
  }
}

TEST(ModelValidation, ExplicitTrueOverriddenByACouplingIsAnError) {
  const std::string text = gearedPair(" independent=\"true\"");
  const std::string what = modelErrorOf([&] { loadUrdfString(text, "gear.urdf"); });
  expectMentions(what, {"gear.urdf:" + std::to_string(lineOf(text, "<joint name=\"jr\"")) + ":", "joint 'jr'",
                        "coupling 'gear'", "independent=\"true\""});
  // Without a flag the legacy default still applies: the rotor is made dependent.
  const Model legacy = loadUrdfString(gearedPair(""));
  EXPECT_EQ(legacy.nv(), 1);
  EXPECT_EQ(legacy.positionNames(), std::vector<std::string>{"ja"});
}

TEST(ModelValidation, FalseOnAnUnconstrainedJointIsAnErrorWhenTheModelHasConstraints) {
  const std::string stray = joint("jb", "a", "b", " independent=\"false\"");
  const std::string text = gearedPair(" independent=\"false\"", link("b") + stray);
  const std::string what = modelErrorOf([&] { loadUrdfString(text, "stray.urdf"); });
  expectMentions(what, {"stray.urdf:" + std::to_string(lineOf(text, "<joint name=\"jb\"")) + ":", "joint 'jb'",
                        "independent=\"false\"", "no loop, coupling or constraint"});
  // A file with no constraint element at all (constraints added in code, like Tello's
  // differentials) keeps loading: the flag is ignored with a warning.
  const Model tree = loadUrdfString(robot(link("a") + joint("ja", "world", "a", " independent=\"false\"")));
  EXPECT_EQ(tree.nv(), 1);
}

// --- <mimic> -------------------------------------------------------------------------------------

namespace {
/// A palm on a revolute wrist with two fingers; finger2 follows finger1 as q2 = m q1 + o.
std::string gripper(const std::string& mimicAttributes, const std::string& finger2Attributes = "") {
  return robot(link("palm") + link("f1") + link("f2") + joint("wrist", "world", "palm") +
               "  <joint name=\"finger1\" type=\"revolute\"><parent link=\"palm\"/><child link=\"f1\"/>"
               "<origin xyz=\"0.1 0.02 0\"/><axis xyz=\"0 1 0\"/><limit effort=\"1\" velocity=\"1\"/></joint>\n"
               "  <joint name=\"finger2\" type=\"revolute\"" + finger2Attributes +
               "><parent link=\"palm\"/><child link=\"f2\"/>"
               "<origin xyz=\"0.1 -0.02 0\"/><axis xyz=\"0 1 0\"/><limit effort=\"1\" velocity=\"1\"/>\n" +
               "    <mimic " + mimicAttributes + "/>\n  </joint>\n");
}

/// The same gripper built in code with a <coupling>-style ratio and the offset folded into
/// finger2's origin (a rotation about its axis): the physics a mimic with offset must give.
Model gripperWithCoupling(double multiplier, double offset) {
  ModelBuilder b("r");
  auto addLink = [&](const std::string& name) {
    LinkSpec l;
    l.name = name;
    if (name != "world") {
      l.mass = 1.0;
      l.com = Vec3(0.1, 0, 0);
      l.inertia = Vec3(0.01, 0.02, 0.02).asDiagonal();
    }
    b.addLink(l);
  };
  for (const char* n : {"world", "palm", "f1", "f2"}) addLink(n);
  auto addJoint = [&](const std::string& name, const std::string& parent, const std::string& child, const Transform& X,
                      const Vec3& axis) {
    JointSpec j;
    j.name = name;
    j.parent = parent;
    j.child = child;
    j.origin = X;
    j.axis = axis;
    b.addJoint(j);
  };
  addJoint("wrist", "world", "palm", Transform(), Vec3::UnitZ());
  addJoint("finger1", "palm", "f1", Transform::translation(Vec3(0.1, 0.02, 0)), Vec3::UnitY());
  // child frame turned by `offset` about y: E maps parent to child coordinates
  const Mat3 E = Eigen::AngleAxisd(offset, Vec3::UnitY()).toRotationMatrix().transpose();
  addJoint("finger2", "palm", "f2", Transform(E, Vec3(0.1, -0.02, 0)), Vec3::UnitY());
  CouplingSpec c;
  c.name = "gear";
  c.predecessor = "f1";
  c.successor = "f2";
  c.ratio = multiplier;
  b.addCoupling(c);
  return b.build();
}
}  // namespace

TEST(ModelValidation, MimicBecomesAConstraintWithMultiplierAndOffset) {
  const double m = -0.8, o = 0.15;
  const Model mimic = loadUrdfString(gripper("joint=\"finger1\" multiplier=\"-0.8\" offset=\"0.15\""));
  EXPECT_EQ(mimic.nv(), 2);  // wrist and finger1; finger2 follows
  EXPECT_EQ(mimic.positionNames(), (std::vector<std::string>{"wrist", "finger1"}));
  const Model coupled = gripperWithCoupling(m, o);
  Data dm(mimic), dc(coupled);
  const VecX q = (VecX(2) << 0.3, -0.4).finished(), v = (VecX(2) << 0.7, 1.1).finished();
  const VecX tau = (VecX(2) << 0.2, -0.1).finished();
  const VecX qSpan = completeConfiguration(mimic, dm, q);
  const int f2 = mimic.bodyIndex("f2");
  EXPECT_NEAR(qSpan[mimic.body(f2).qIndex], m * q[1] + o, 1e-12);
  const VecX qddMimic = forwardDynamics(mimic, dm, q, v, tau);
  const VecX qddCoupled = forwardDynamics(coupled, dc, q, v, tau);
  EXPECT_LT((qddMimic - qddCoupled).norm(), 1e-10 * (1.0 + qddCoupled.norm()));
  EXPECT_LT((massMatrix(mimic, dm, q) - massMatrix(coupled, dc, q)).norm(), 1e-12);
  bool listed = false;
  for (const auto& c : mimic.constraints()) listed |= c.name == "mimic:finger2";
  EXPECT_TRUE(listed);
}

TEST(ModelValidation, MimicErrorsNameTheJoint) {
  {
    const std::string text = gripper("joint=\"finger9\"");
    expectMentions(modelErrorOf([&] { loadUrdfString(text, "g.urdf"); }), {"g.urdf:", "finger9", "mimic:finger2"});
  }
  {
    const std::string text = gripper("joint=\"finger1\"", " independent=\"true\"");
    expectMentions(modelErrorOf([&] { loadUrdfString(text, "g.urdf"); }),
                   {"g.urdf:" + std::to_string(lineOf(text, "<joint name=\"finger2\"")) + ":", "joint 'finger2'", "<mimic>",
                    "independent=\"true\""});
  }
  {
    const std::string text = gripper("joint=\"finger2\"");
    expectMentions(modelErrorOf([&] { loadUrdfString(text, "g.urdf"); }), {"joint 'finger2'", "names the joint itself"});
  }
  {
    const std::string text = gripper("joint=\"finger1\" multiplier=\"x\"");
    expectMentions(modelErrorOf([&] { loadUrdfString(text, "g.urdf"); }), {"joint 'finger2'", "multiplier", "not a number"});
  }
}

// --- physics of the parts ----------------------------------------------------------------------

namespace {
ModelBuilder pendulumBuilder(const LinkSpec& body, const Transform& origin) {
  ModelBuilder b("p", "p.urdf");
  LinkSpec world;
  world.name = "world";
  b.addLink(world);
  b.addLink(body);
  JointSpec j;
  j.name = "hinge";
  j.parent = "world";
  j.child = body.name;
  j.origin = origin;
  j.where = SourceLocation{"p.urdf", 7};
  b.addJoint(j);
  return b;
}

LinkSpec bob(const Vec3& principal) {
  LinkSpec l;
  l.name = "bob";
  l.mass = 1.0;
  l.inertia = principal.asDiagonal();
  l.where = SourceLocation{"p.urdf", 3};
  return l;
}
}  // namespace

TEST(ModelValidation, InertiaViolatingTheTriangleInequalityIsRejectedWhenStrict) {
  ModelBuilder strict = pendulumBuilder(bob(Vec3(0.1, 0.1, 0.3)), Transform());
  strict.setStrictInertias(true);
  expectMentions(modelErrorOf([&] { strict.build(); }), {"p.urdf:3:", "link 'bob'", "triangle inequality", "0.3"});
  // by default it loads (published models have such inertias) with a warning
  EXPECT_EQ(pendulumBuilder(bob(Vec3(0.1, 0.1, 0.3)), Transform()).build().nv(), 1);
  // a thin rod sits exactly on the bound, and rounding to 6 digits must not reject it
  ModelBuilder rod = pendulumBuilder(bob(Vec3(0.0, 0.083333, 0.083334)), Transform());
  rod.setStrictInertias(true);
  EXPECT_NO_THROW(rod.build());
  // and from URDF: ixx + iyy < izz
  const std::string text = robot("  <link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" "
                                 "izz=\"0.05\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n" +
                                 joint("ja", "world", "a"));
  ModelBuilder parsed = parseUrdfString(text, "t.urdf");
  parsed.setStrictInertias(true);
  expectMentions(modelErrorOf([&] { parsed.build(); }), {"t.urdf:3:", "link 'a'", "triangle"});
}

TEST(ModelValidation, NegativeOrNaNMassIsRejected) {
  for (double mass : {-1.0, std::nan("")}) {
    LinkSpec l = bob(Vec3(0.1, 0.1, 0.1));
    l.mass = mass;
    expectMentions(modelErrorOf([&] { pendulumBuilder(l, Transform()).build(); }), {"p.urdf:3:", "link 'bob'", "mass"});
  }
}

TEST(ModelValidation, NonRotationJointOriginIsRejected) {
  Mat3 sheared = Mat3::Identity();
  sheared(0, 1) = 0.2;
  const Mat3 mirrored = Vec3(1.0, 1.0, -1.0).asDiagonal();
  for (const Mat3& E : {sheared, mirrored, Mat3(2.0 * Mat3::Identity())}) {
    const std::string what = modelErrorOf([&] { pendulumBuilder(bob(Vec3(0.1, 0.1, 0.1)), Transform(E, Vec3::Zero())).build(); });
    expectMentions(what, {"p.urdf:7:", "joint 'hinge'", "not a rotation matrix"});
  }
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  EXPECT_NO_THROW(pendulumBuilder(bob(Vec3(0.1, 0.1, 0.1)), Transform(R, Vec3(0.1, 0, 0))).build());
}

TEST(ModelValidation, NonRotationLoopOriginIsRejected) {
  ModelBuilder b = pendulumBuilder(bob(Vec3(0.1, 0.1, 0.1)), Transform());
  LoopSpec l;
  l.name = "closure";
  l.predecessor = "bob";
  l.successor = "world";
  l.predecessorOrigin = Transform(Mat3(Vec3(1.0, 1.0, -1.0).asDiagonal()), Vec3::Zero());
  l.where = SourceLocation{"p.urdf", 11};
  b.addLoop(l);
  expectMentions(modelErrorOf([&] { b.build(); }), {"p.urdf:11:", "loop 'closure'", "predecessor origin", "not a rotation"});
}

// --- couplings -----------------------------------------------------------------------------------

TEST(ModelValidation, HugeGearRatioIsReportedAsOutOfRangeNotSingular) {
  for (const char* ratio : {"1e10", "-3e12", "1e-10"}) {
    std::string text = gearedPair(" independent=\"false\"");
    text.replace(text.find("value=\"6\""), 9, std::string("value=\"") + ratio + "\"");
    const std::string what = modelErrorOf([&] { loadUrdfString(text, "gear.urdf"); });
    expectMentions(what, {"gear.urdf:", "coupling 'gear'", "outside the range"});
    EXPECT_EQ(what.find("singular"), std::string::npos) << what;
  }
  std::string fine = gearedPair(" independent=\"false\"");
  fine.replace(fine.find("value=\"6\""), 9, "value=\"1e8\"");
  EXPECT_EQ(loadUrdfString(fine).nv(), 1);
}

TEST(ModelValidation, OverConstrainedClusterNeverAdvisesANegativeCount) {
  // two different ratios on the same pair: the rotor cannot turn 6 and 7 times as fast
  const std::string text = gearedPair(
      " independent=\"false\"",
      "  <coupling name=\"gear7\"><predecessor link=\"a\"/><successor link=\"rotor\"/><ratio value=\"7\"/></coupling>\n");
  const std::string what = modelErrorOf([&] { loadUrdfString(text, "two.urdf"); });
  expectMentions(what, {"two.urdf:", "over-constrained"});
  EXPECT_EQ(what.find("mark exactly -"), std::string::npos) << what;
  EXPECT_EQ(what.find("exactly 0"), std::string::npos) << what;
}

// Found by fuzz_urdf (docs/reliability.md): revolute_rotor_chain.urdf with transmission3 driven
// from link-1 instead of link-2 leaves a cluster whose coupling rows fix every coordinate (no
// joint independent, zero degrees of freedom); it reached an Eigen solve with zero columns.
TEST(ModelValidation, LoopWhoseRowsVanishIsRefusedWithoutReadingAnEmptyMatrix) {
  // fuzz_urdf: a mutated four-bar whose loop leaves no constraint row on two coordinates; the
  // rank test ran Eigen's pivoted QR on an empty matrix (UBSan: null reference), now a count of 0
  std::ifstream in(std::string(GRBDA_SOURCE_DIR) + "/fuzz/corpus/urdf/regression_empty_rank_matrix.urdf");
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty());
  const std::string what = modelErrorOf([&] { loadUrdfString(text.str(), "mutated.urdf"); });
  expectMentions(what, {"mutated.urdf:", "loop1", "0 independent constraint rows", "mark 1 more"});
}

TEST(ModelValidation, ClusterWithoutDegreesOfFreedomIsOverConstrained) {
  std::ifstream in(std::string(GRBDA_SOURCE_DIR) + "/models/revolute_rotor_chain.urdf");
  std::stringstream text;
  text << in.rdbuf();
  std::string mutated = text.str();
  const std::string from = "<predecessor link=\"link-2\"/>";
  ASSERT_NE(mutated.find(from), std::string::npos);
  mutated.replace(mutated.find(from), from.size(), "<predecessor link=\"link-1\"/>");
  const std::string what = modelErrorOf([&] { loadUrdfString(mutated, "chain.urdf"); });
  expectMentions(what, {"chain.urdf:", "over-constrained", "no degree of freedom"});
}
