// URDF / URDF+ parser: every bad input raises a ModelError whose message names the problem and
// "FILE:LINE:" of the offending element (lines are looked up in the text, not hard-coded);
// good inputs give the expected structure, and the physics the parser derives (fixed-joint
// merging, rotated inertial frames, negative axes, several files) is cross-checked against
// models whose numbers were prepared by hand in the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <map>
#include <random>
#include <regex>
#include <sstream>

#include "grbda/grbda.hpp"
#include "support/random_model.hpp"
#include "support/model_error.hpp"
#include "support/exact_text.hpp"
#include "support/text_lines.hpp"

using namespace grbda;
using grbda::testsupport::exactNumber;
using grbda::testsupport::lineOf;
using grbda::testsupport::modelErrorOf;
namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(GRBDA_SOURCE_DIR) + "/tests/data/urdf/";
const fs::path kReference = fs::path(GRBDA_SOURCE_DIR) / ".." / "shared" / "reference-models";

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// 1-based line of the first occurrence of `needle` in `text` (0 if absent).
/// "FILE:LINE:" as it must appear in a ModelError message.
std::string located(const std::string& file, int line) { return file + ":" + std::to_string(line) + ":"; }


#define EXPECT_CONTAINS(haystack, needle) EXPECT_PRED_FORMAT2(::testing::IsSubstring, needle, haystack)

/// A two-link test robot with the given link and joint elements in place of the defaults.
std::string robotText(const std::string& body) {
  return "<?xml version=\"1.0\"?>\n<robot name=\"probe\">\n" + body + "</robot>\n";
}

const std::string kBase = "  <link name=\"base\"/>\n";
std::string massiveLink(const std::string& name, const std::string& mass = "1",
                        const std::string& inertia = "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"") {
  return "  <link name=\"" + name + "\">\n    <inertial>\n      <mass value=\"" + mass +
         "\"/>\n      <inertia " + inertia + "/>\n    </inertial>\n  </link>\n";
}
std::string joint(const std::string& name, const std::string& parent, const std::string& child,
                  const std::string& extra = "", const std::string& type = "continuous") {
  return "  <joint name=\"" + name + "\" type=\"" + type + "\">\n    <parent link=\"" + parent +
         "\"/>\n    <child link=\"" + child + "\"/>\n" + extra + "  </joint>\n";
}

/// loadUrdfString on `text` must fail; the message must contain `what` and the location of the
/// line holding `lineNeedle`.
void expectLocatedError(const std::string& text, const std::string& what, const std::string& lineNeedle,
                        size_t occurrence = 0) {
  const std::string msg = modelErrorOf([&] { loadUrdfString(text, "probe.urdf"); });
  EXPECT_CONTAINS(msg, what);
  const int line = lineOf(text, lineNeedle, occurrence);
  ASSERT_GT(line, 0) << "test bug: '" << lineNeedle << "' not in the text";
  EXPECT_CONTAINS(msg, located("probe.urdf", line));
}


std::string inertiaAttributes(const Mat3& I) {
  return "ixx=\"" + exactNumber(I(0, 0)) + "\" ixy=\"" + exactNumber(I(0, 1)) + "\" ixz=\"" + exactNumber(I(0, 2)) + "\" iyy=\"" +
         exactNumber(I(1, 1)) + "\" iyz=\"" + exactNumber(I(1, 2)) + "\" izz=\"" + exactNumber(I(2, 2)) + "\"";
}

/// Spanning-tree mass matrix at spanning positions (the parser tests are about the tree).
MatX massMatrixAt(const Model& model, const VecX& q) {
  Data data(model);
  return tree::crba(model, data, q);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

TEST(UrdfErrors, MissingFile) {
  const std::string path = kData + "no_such_file.urdf";
  const std::string msg = modelErrorOf([&] { loadUrdf(path); });
  EXPECT_CONTAINS(msg, "cannot open file");
  EXPECT_CONTAINS(msg, path);
}

TEST(UrdfErrors, MalformedXmlReportsTheLine) {
  // an element left open: tinyxml2 names the unclosed <inertial> and its line
  const std::string unclosed = robotText(kBase + "  <link name=\"arm\">\n    <inertial>\n  </link>\n");
  std::string msg = modelErrorOf([&] { loadUrdfString(unclosed, "probe.urdf"); });
  EXPECT_CONTAINS(msg, "malformed XML");
  EXPECT_CONTAINS(msg, located("probe.urdf", lineOf(unclosed, "<inertial>")));
  // an unquoted attribute value
  const std::string unquoted = robotText(kBase + "  <link name=arm/>\n");
  msg = modelErrorOf([&] { loadUrdfString(unquoted, "probe.urdf"); });
  EXPECT_CONTAINS(msg, "malformed XML");
  EXPECT_CONTAINS(msg, located("probe.urdf", lineOf(unquoted, "<link name=arm")));
  // an empty file
  EXPECT_CONTAINS(modelErrorOf([] { loadUrdfString("", "empty.urdf"); }), "empty.urdf: malformed XML");
}

TEST(UrdfErrors, NotARobot) {
  EXPECT_CONTAINS(modelErrorOf([] { loadUrdfString("<robt name=\"x\"/>", "probe.urdf"); }), "expected <robot>");
  EXPECT_CONTAINS(modelErrorOf([] { loadUrdfString("<robot><link name=\"a\"/></robot>", "probe.urdf"); }),
                  "<robot> has no 'name' attribute");
}

TEST(UrdfErrors, UnknownParentLinkInAFileNamesFileAndLine) {
  const std::string path = kData + "bad_unknown_parent.urdf";
  const std::string msg = modelErrorOf([&] { loadUrdf(path); });
  EXPECT_CONTAINS(msg, "unknown parent link 'torso'");
  EXPECT_CONTAINS(msg, "joint 'shoulder'");
  EXPECT_CONTAINS(msg, located(path, lineOf(readText(path), "<joint name=\"shoulder\"")));
  // also through the builder-only entry point
  EXPECT_CONTAINS(modelErrorOf([&] { parseUrdfFile(path); }), "unknown parent link 'torso'");
}

TEST(UrdfErrors, TwoRoots) {
  const std::string text = robotText(kBase + massiveLink("arm") + "  <link name=\"orphan\"/>\n" +
                                     joint("shoulder", "base", "arm"));
  expectLocatedError(text, "more than one root link", "<link name=\"orphan\"");
}

TEST(UrdfErrors, CycleOfJoints) {
  // base is the root; a and b are each other's parent, so neither is reached from the root
  const std::string cycle = robotText(kBase + massiveLink("a") + massiveLink("b") + joint("a_to_b", "a", "b") +
                                      joint("b_to_a", "b", "a"));
  expectLocatedError(cycle, "form a cycle", "<link name=\"a\"");
  // a cycle through the root side: l1 gets a second parent joint
  const std::string loop = robotText(kBase + massiveLink("l1") + massiveLink("l2") + joint("j1", "base", "l1") +
                                     joint("j2", "l1", "l2") + joint("j3", "l2", "l1"));
  expectLocatedError(loop, "'l1' is already the child of joint 'j1'", "<joint name=\"j3\"");
}

TEST(UrdfErrors, BadMasses) {
  expectLocatedError(robotText(kBase + massiveLink("arm", "-2") + joint("j", "base", "arm")),
                     "mass must be finite and non-negative", "<link name=\"arm\"");
  expectLocatedError(robotText(kBase + massiveLink("arm", "nan") + joint("j", "base", "arm")),
                     "<mass value=\"nan\">: not a finite number", "<mass");
  expectLocatedError(robotText(kBase + massiveLink("arm", "1e999") + joint("j", "base", "arm")),
                     "not a finite number", "<mass");
  expectLocatedError(robotText(kBase + massiveLink("arm", "heavy") + joint("j", "base", "arm")),
                     "<mass value=\"heavy\">: not a number", "<mass");
  expectLocatedError(robotText(kBase + massiveLink("arm", "1 2") + joint("j", "base", "arm")),
                     "expected one number", "<mass");
}

TEST(UrdfErrors, BadInertias) {
  // eigenvalues of [[1, 2], [2, 1]] are 3 and -1
  expectLocatedError(robotText(kBase +
                               massiveLink("arm", "1", "ixx=\"1\" ixy=\"2\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"") +
                               joint("j", "base", "arm")),
                     "not positive semi-definite", "<link name=\"arm\"");
  expectLocatedError(robotText(kBase + massiveLink("arm", "1", "ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" izz=\"1\"") +
                               joint("j", "base", "arm")),
                     "<inertia> has no 'iyz' attribute", "<inertia ");
  expectLocatedError(robotText(kBase + "  <link name=\"arm\"><inertial>\n<mass value=\"1\"/></inertial></link>\n" +
                               joint("j", "base", "arm")),
                     "<inertial> has no <inertia> element", "<inertial>");
}

TEST(UrdfErrors, BadAxesAndOrigins) {
  expectLocatedError(robotText(kBase + massiveLink("arm") + joint("j", "base", "arm", "    <axis xyz=\"0 0 0\"/>\n")),
                     "axis has zero length", "<joint name=\"j\"");
  expectLocatedError(
      robotText(kBase + massiveLink("arm") + joint("j", "base", "arm", "    <origin xyz=\"0 nan 0\" rpy=\"0 0 0\"/>\n")),
      "component 'nan' is not a finite number", "<origin");
  expectLocatedError(
      robotText(kBase + massiveLink("arm") + joint("j", "base", "arm", "    <origin xyz=\"0 0 0\" rpy=\"0 0\"/>\n")),
      "expected 3 numbers, found 2", "<origin");
  expectLocatedError(robotText(kBase + massiveLink("arm") + joint("j", "base", "arm", "    <axis xyz=\"1 0 zero\"/>\n")),
                     "component 'zero' is not a number", "<axis");
}

TEST(UrdfErrors, JointTypes) {
  expectLocatedError(robotText(kBase + massiveLink("arm") + joint("j", "base", "arm", "", "hinge")),
                     "unknown joint type 'hinge'", "<joint name=\"j\"");
  expectLocatedError(robotText(kBase + massiveLink("arm") + joint("j", "base", "arm", "", "universal")),
                     "needs its second axis", "<joint name=\"j\"");
  expectLocatedError(robotText(kBase + massiveLink("arm") + joint("j", "base", "arm", "", "revolute")),
                     "needs a <limit", "<joint name=\"j\"");
  expectLocatedError(robotText(kBase + massiveLink("arm") +
                               joint("j", "base", "arm", "    <limit effort=\"1\"/>\n", "prismatic")),
                     "<limit> has no 'velocity' attribute", "<limit");
}

TEST(UrdfErrors, MissingNamesAndLinks) {
  expectLocatedError(robotText(kBase + "  <link>\n  </link>\n"), "<link> has no 'name' attribute", "<link>");
  expectLocatedError(robotText(kBase + massiveLink("arm") +
                               "  <joint name=\"j\" type=\"fixed\">\n    <child link=\"arm\"/>\n  </joint>\n"),
                     "<joint> has no <parent> element", "<joint name=\"j\"");
  expectLocatedError(robotText(kBase + massiveLink("arm") +
                               "  <joint name=\"j\" type=\"fixed\">\n    <parent link=\"base\"/>\n    <child/>\n  </joint>\n"),
                     "<child> has no 'link' attribute", "<child");
  expectLocatedError(robotText(kBase + massiveLink("arm") + joint("j", "base", "ghost")), "unknown child link 'ghost'",
                     "<joint name=\"j\"");
}

TEST(UrdfErrors, DuplicateNamesInOneFile) {
  expectLocatedError(robotText(kBase + massiveLink("arm") + massiveLink("arm") + joint("j", "base", "arm")),
                     "link name defined twice in this file (first at probe.urdf:" +
                         std::to_string(lineOf(robotText(kBase + massiveLink("arm")), "<link name=\"arm\"")),
                     "<link name=\"arm\"", 1);
  expectLocatedError(robotText(kBase + massiveLink("a") + massiveLink("b") + joint("j", "base", "a") +
                               joint("j", "a", "b")),
                     "joint name defined twice", "<joint name=\"j\"", 1);
}

TEST(UrdfErrors, DuplicateNamesAcrossFilesNameBothFiles) {
  const std::string first = kData + "split_arm.urdf";
  const std::string trunk = kData + "split_trunk.urdf";
  for (const char* clash : {"split_arm_duplicate.urdf", "split_joint_duplicate.urdf"}) {
    const std::string second = kData + clash;
    const bool isLink = std::string(clash) == "split_arm_duplicate.urdf";
    const std::string needle = isLink ? "<link name=\"limb\"" : "<joint name=\"trunk_to_limb\"";
    const std::string msg = modelErrorOf([&] { loadUrdf(std::vector<std::string>{trunk, first, second}); });
    EXPECT_CONTAINS(msg, isLink ? "link 'limb'" : "joint 'trunk_to_limb'");
    EXPECT_CONTAINS(msg, "defined in two files");
    EXPECT_CONTAINS(msg, located(second, lineOf(readText(second), needle)));
    EXPECT_CONTAINS(msg, first + ":" + std::to_string(lineOf(readText(first), needle)));
  }
}

TEST(UrdfErrors, TwoRootsAcrossFilesNamesTheRightFile) {
  const std::string trunk = kData + "split_trunk.urdf", stray = kData + "split_stray.urdf";
  const std::string msg = modelErrorOf([&] { loadUrdf(std::vector<std::string>{trunk, stray}); });
  EXPECT_CONTAINS(msg, "more than one root link");
  EXPECT_CONTAINS(msg, located(stray, lineOf(readText(stray), "<link name=\"stray_base\"")));
}

TEST(UrdfErrors, UrdfdomRejectionIsReportedQuietly) {
  // Nothing our own checks look at is wrong; urdfdom rejects the <safety_controller> number. Its
  // message must come back in the exception, and console_bridge must print nothing to the terminal.
  // (<dynamics> is ours now: a bad damping gets our own located message, checked below.)
  const std::string text = robotText(kBase + massiveLink("arm") +
                                     joint("j", "base", "arm", "    <safety_controller k_velocity=\"lots\"/>\n"));
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const std::string msg = modelErrorOf([&] { loadUrdfString(text, "probe.urdf"); });
  const std::string out = testing::internal::GetCapturedStdout();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_CONTAINS(msg, "probe.urdf: urdfdom rejected the robot description");
  EXPECT_CONTAINS(msg, "safety");
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "");
  const std::string damping =
      robotText(kBase + massiveLink("arm") + joint("j", "base", "arm", "    <dynamics damping=\"lots\"/>\n"));
  const std::string ours = modelErrorOf([&] { loadUrdfString(damping, "probe.urdf"); });
  EXPECT_CONTAINS(ours, "probe.urdf:");
  EXPECT_CONTAINS(ours, "damping=\"lots\"");
}

TEST(UrdfErrors, UrdfdomWarningsAreLoggedNotPrinted) {
  // urdfdom drops a <visual> it cannot read and keeps the model; we pass its complaint on as a
  // grbda warning (our logger), never through console_bridge's own printing.
  const std::string text = robotText(
      kBase + "  <link name=\"arm\">\n    <visual><geometry><box size=\"one 1 1\"/></geometry></visual>\n  </link>\n" +
      joint("j", "base", "arm"));
  testing::internal::CaptureStderr();
  EXPECT_NO_THROW(loadUrdfString(text, "probe.urdf"));
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.find("Error:"), std::string::npos) << err;  // console_bridge's format
}

// ---------------------------------------------------------------------------------------------
// Good input
// ---------------------------------------------------------------------------------------------

TEST(UrdfParser, SmallArmStructure) {
  const std::string path = kData + "three_link_arm.urdf";
  const ModelBuilder builder = parseUrdfFile(path);
  ASSERT_EQ(builder.links().size(), 5u);
  ASSERT_EQ(builder.joints().size(), 4u);
  const std::string text = readText(path);
  for (const LinkSpec& l : builder.links()) {
    EXPECT_EQ(l.where.file, path);
    EXPECT_EQ(l.where.line, lineOf(text, "<link name=\"" + l.name + "\"")) << l.name;
  }
  for (const JointSpec& j : builder.joints()) EXPECT_EQ(j.where.line, lineOf(text, "<joint name=\"" + j.name + "\""));

  // values as written in the file
  const LinkSpec& upper = builder.links()[1];
  EXPECT_EQ(upper.name, "upper_arm");
  EXPECT_EQ(upper.mass, 2.0);
  EXPECT_TRUE(upper.com.isApprox(Vec3(0, 0, 0.15)));
  EXPECT_EQ(upper.inertia(0, 1), 0.001);  // URDF ixy is the tensor entry itself
  EXPECT_EQ(upper.inertia(1, 0), 0.001);
  EXPECT_EQ(builder.links()[0].mass, 0.0);  // no <inertial>: massless
  const JointSpec& elbow = builder.joints()[1];
  EXPECT_EQ(elbow.kind, JointKind::Revolute);
  EXPECT_EQ(elbow.parent, "upper_arm");
  EXPECT_EQ(elbow.child, "forearm");
  EXPECT_TRUE(elbow.axis.isApprox(Vec3(0, -1, 0)));
  // rpy = (0.2, 0, 0): the child frame is the parent frame rolled by 0.2 about x; E = Rx(0.2)^T
  Mat3 E;
  E << 1, 0, 0, 0, std::cos(0.2), std::sin(0.2), 0, -std::sin(0.2), std::cos(0.2);
  EXPECT_TRUE(elbow.origin.E.isApprox(E, 1e-15));
  EXPECT_TRUE(elbow.origin.r.isApprox(Vec3(0, 0, 0.3)));
  EXPECT_EQ(builder.joints()[0].kind, JointKind::Continuous);
  EXPECT_EQ(builder.joints()[2].kind, JointKind::Prismatic);
  EXPECT_EQ(builder.joints()[3].kind, JointKind::Fixed);

  const Model model = builder.build();
  EXPECT_EQ(model.name(), "three_link_arm");
  EXPECT_EQ(model.nqSpanning(), 3);
  EXPECT_EQ(model.nvSpanning(), 3);
  ASSERT_EQ(model.numBodies(), 3);  // tool is welded to the slider
  EXPECT_EQ(model.body(0).name, "upper_arm");
  EXPECT_EQ(model.body(1).name, "forearm");
  EXPECT_EQ(model.body(2).name, "slider");
  EXPECT_EQ(model.spanningPositionNames(), (std::vector<std::string>{"shoulder_yaw", "elbow_pitch", "wrist_slide"}));
  EXPECT_FALSE(model.isFloatingBase());
  EXPECT_NO_THROW(model.frameIndex("tool"));
  // merged body: slider + tool
  EXPECT_DOUBLE_EQ(inertiaMass(model.body(2).inertia), 0.4 + 0.3);
}

TEST(UrdfParser, IndependentAttribute) {
  std::string body = kBase;
  const std::vector<std::pair<std::string, bool>> cases = {
      {"", true}, {"true", true}, {"True", true}, {"false", false}, {"False", false}, {"TRUE", true},
      {"1", true}, {"yes", true}, {"0", false}, {" no ", false}};  // other values: test_model_validation.cpp
  std::string parent = "base";
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string child = "l" + std::to_string(i);
    const std::string attr = cases[i].first.empty() ? "" : " independent=\"" + cases[i].first + "\"";
    body += massiveLink(child) + "  <joint name=\"j" + std::to_string(i) + "\" type=\"continuous\"" + attr +
            ">\n    <parent link=\"" + parent + "\"/>\n    <child link=\"" + child + "\"/>\n  </joint>\n";
    parent = child;
  }
  const ModelBuilder builder = parseUrdfString(robotText(body));
  ASSERT_EQ(builder.joints().size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i)
    EXPECT_EQ(builder.joints()[i].independent, cases[i].second) << "independent=\"" << cases[i].first << "\"";
}

// The arm of three_link_arm.urdf with the tool's fixed joint replaced by one body whose mass,
// COM and inertia are combined by hand (parallel-axis theorem) must have the same mass matrix.
TEST(UrdfParser, FixedJointMergeMatchesHandCombinedInertia) {
  const std::string text = readText(kData + "three_link_arm.urdf");
  const Model merged = loadUrdfString(text, "three_link_arm.urdf");

  // slider (in slider frame) and tool (in tool frame), numbers from the file
  const double m1 = 0.4, m2 = 0.3;
  const Vec3 c1(0.02, 0.01, 0), c2(0.03, -0.01, 0.02);
  Mat3 I1, I2;
  I1 << 0.0003, 0, 0, 0, 0.0004, 0, 0, 0, 0.0005;
  I2 << 0.0002, 0.00001, 0, 0.00001, 0.00025, 0, 0, 0, 0.0001;
  // tool frame in slider frame: offset (0.05, 0, 0.01), yaw +90°: tool x = slider y, tool y = -slider x
  Mat3 R;
  R << 0, -1, 0, 1, 0, 0, 0, 0, 1;
  const Vec3 c2s = Vec3(0.05, 0, 0.01) + R * c2;
  const double m = m1 + m2;
  const Vec3 c = (m1 * c1 + m2 * c2s) / m;
  auto shift = [](double mass, const Vec3& d) { return mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose()); };
  const Mat3 I = I1 + shift(m1, c1 - c) + R * I2 * R.transpose() + shift(m2, c2s - c);

  // replace slider + tool + tool_mount by one link
  std::string handMade = std::regex_replace(
      text, std::regex("<link name=\"slider\">[\\s\\S]*?</link>"),
      "<link name=\"slider\"><inertial><origin xyz=\"" + exactNumber(c.x()) + " " + exactNumber(c.y()) + " " + exactNumber(c.z()) +
          "\"/><mass value=\"" + exactNumber(m) + "\"/><inertia " + inertiaAttributes(I) + "/></inertial></link>");
  handMade = std::regex_replace(handMade, std::regex("<link name=\"tool\">[\\s\\S]*?</link>"), "");
  handMade = std::regex_replace(handMade, std::regex("<joint name=\"tool_mount\"[\\s\\S]*?</joint>"), "");
  ASSERT_EQ(handMade.find("tool_mount"), std::string::npos);
  const Model single = loadUrdfString(handMade, "hand_made.urdf");
  ASSERT_EQ(single.numBodies(), merged.numBodies());

  testsupport::Rng rng(7);
  for (int trial = 0; trial < 5; ++trial) {
    const VecX q = testsupport::randomVector(rng, merged.nqSpanning(), -2.0, 2.0);
    const MatX Hm = massMatrixAt(merged, q), Hs = massMatrixAt(single, q);
    EXPECT_LT(testsupport::relativeError(Hm, Hs), 1e-12) << "\n" << Hm << "\n\n" << Hs;
  }
  // the tool matters: dropping it changes H
  std::string noTool = std::regex_replace(text, std::regex("<link name=\"tool\">[\\s\\S]*?</link>"),
                                          "<link name=\"tool\"/>");
  const Model without = loadUrdfString(noTool, "no_tool.urdf");
  const VecX q = VecX::Constant(3, 0.3);
  EXPECT_GT(testsupport::relativeError(massMatrixAt(without, q), massMatrixAt(merged, q)), 1e-3);
}

// A link whose inertia is given in a rotated inertial frame equals the same link with the
// inertia rotated into link axes by hand, I_link = R I R^T with R = Rz(y) Ry(p) Rx(r).
TEST(UrdfParser, InertialRpyIsHonoured) {
  const double r = 0.3, p = -0.5, y = 1.1;
  auto Rx = [](double a) { Mat3 M; M << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a); return M; };
  auto Ry = [](double a) { Mat3 M; M << std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a); return M; };
  auto Rz = [](double a) { Mat3 M; M << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1; return M; };
  const Mat3 R = Rz(y) * Ry(p) * Rx(r);
  const Mat3 Iprincipal = Vec3(0.01, 0.04, 0.045).asDiagonal();
  const Mat3 Ilink = R * Iprincipal * R.transpose();

  auto arm = [&](const std::string& secondLinkInertial) {
    return robotText(kBase + massiveLink("a", "1.5", "ixx=\"0.02\" ixy=\"0\" ixz=\"0\" iyy=\"0.03\" iyz=\"0\" izz=\"0.01\"") +
                     "  <link name=\"b\"><inertial>" + secondLinkInertial + "</inertial></link>\n" +
                     joint("ja", "base", "a", "    <axis xyz=\"0 0 1\"/>\n") +
                     joint("jb", "a", "b", "    <origin xyz=\"0.3 0 0\"/>\n    <axis xyz=\"0 1 0\"/>\n") +
                     massiveLink("c", "0.5") + joint("jc", "b", "c", "    <origin xyz=\"0.2 0.1 0\"/>\n    <axis xyz=\"1 0 0\"/>\n"));
  };
  const std::string com = "0.1 0.02 -0.03";
  const Model rotated = loadUrdfString(arm("<origin xyz=\"" + com + "\" rpy=\"" + exactNumber(r) + " " + exactNumber(p) + " " + exactNumber(y) +
                                           "\"/><mass value=\"2\"/><inertia " + inertiaAttributes(Iprincipal) + "/>"));
  const Model byHand =
      loadUrdfString(arm("<origin xyz=\"" + com + "\"/><mass value=\"2\"/><inertia " + inertiaAttributes(Ilink) + "/>"));
  const Model ignored =
      loadUrdfString(arm("<origin xyz=\"" + com + "\"/><mass value=\"2\"/><inertia " + inertiaAttributes(Iprincipal) + "/>"));
  testsupport::Rng rng(11);
  for (int trial = 0; trial < 5; ++trial) {
    const VecX q = testsupport::randomVector(rng, 3, -3.0, 3.0);
    EXPECT_LT(testsupport::relativeError(massMatrixAt(rotated, q), massMatrixAt(byHand, q)), 1e-12);
    // sanity: the rotation is not a no-op for this model
    EXPECT_GT(testsupport::relativeError(massMatrixAt(ignored, q), massMatrixAt(byHand, q)), 1e-4);
  }
}

// Joint axis (0,0,-1) at q is the same motion as axis (0,0,1) at -q: same frame positions, and
// H' = S H S with S flipping the sign of that coordinate. Also for a prismatic joint.
TEST(UrdfParser, NegativeAxisIsTheFlippedPositiveAxis) {
  auto robot = [](const std::string& sign) {
    return robotText(kBase + massiveLink("a", "1.5", "ixx=\"0.02\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.03\" iyz=\"0\" izz=\"0.01\"") +
                     massiveLink("b", "0.7") + massiveLink("c", "0.3") +
                     joint("ja", "base", "a", "    <origin xyz=\"0 0 0.1\" rpy=\"0.1 0.2 0\"/>\n    <axis xyz=\"0 0 " + sign + "1\"/>\n") +
                     joint("jb", "a", "b", "    <origin xyz=\"0.3 0 0\"/>\n    <axis xyz=\"0 1 0\"/>\n") +
                     joint("jc", "b", "c",
                           "    <origin xyz=\"0.2 0 0\"/>\n    <axis xyz=\"" + sign + "0.6 0 " + sign + "0.8\"/>\n"
                           "    <limit effort=\"1\" velocity=\"1\" lower=\"-1\" upper=\"1\"/>\n",
                           "prismatic"));
  };
  const Model neg = loadUrdfString(robot("-")), pos = loadUrdfString(robot(""));
  Eigen::Vector3d signs(-1, 1, -1);
  const MatX S = signs.asDiagonal();
  testsupport::Rng rng(3);
  for (int trial = 0; trial < 5; ++trial) {
    const VecX q = testsupport::randomVector(rng, 3, -2.0, 2.0);
    const VecX qFlipped = S * q;
    Data dn(neg), dp(pos);
    forwardKinematics(neg, dn, q);
    forwardKinematics(pos, dp, qFlipped);
    for (const char* frame : {"a", "b", "c"}) {
      const Vec3 point(0.1, -0.2, 0.05);
      EXPECT_LT((framePosition(neg, dn, neg.frameIndex(frame), point) -
                 framePosition(pos, dp, pos.frameIndex(frame), point)).norm(), 1e-12) << frame;
    }
    EXPECT_LT(testsupport::relativeError(massMatrixAt(neg, q), MatX(S * massMatrixAt(pos, qFlipped) * S)), 1e-12);
  }
}

TEST(UrdfParser, SplitFilesShareAPlaceholderLink) {
  const std::vector<std::string> files = {kData + "split_trunk.urdf", kData + "split_arm.urdf"};
  const ModelBuilder builder = parseUrdfFiles(files);
  ASSERT_EQ(builder.links().size(), 3u);  // world, trunk (defined once), limb
  EXPECT_EQ(builder.links()[1].name, "trunk");
  EXPECT_EQ(builder.links()[1].mass, 5.0);  // the definition, not the bare placeholder
  EXPECT_EQ(builder.links()[1].where.file, files[0]);
  EXPECT_EQ(builder.joints()[1].where.file, files[1]);
  const Model model = loadUrdf(files);
  EXPECT_EQ(model.name(), "split_robot");
  EXPECT_EQ(model.numBodies(), 2);
  EXPECT_EQ(model.nqSpanning(), 8);
  EXPECT_EQ(model.nvSpanning(), 7);
  EXPECT_TRUE(model.isFloatingBase());
  // file order does not matter: the placeholder may come first
  EXPECT_EQ(loadUrdf(std::vector<std::string>{files[1], files[0]}).nvSpanning(), 7);
}

// ---------------------------------------------------------------------------------------------
// Reference URDF+ files (third-party fixtures next to the repository)
// ---------------------------------------------------------------------------------------------

namespace {

std::vector<fs::path> referenceUrdfs() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(kReference))
    if (e.path().extension() == ".urdf") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

struct JointCounts {
  int movable = 0, nv = 0, floating = 0;
};

// Counted from the text with a regular expression, independently of the parser under test.
JointCounts countJoints(const std::string& text) {
  JointCounts c;
  const std::regex jointTag("<joint\\b[^>]*>");
  const std::regex typeAttr("\\btype=\"([a-z]+)\"");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), jointTag); it != std::sregex_iterator(); ++it) {
    std::smatch type;
    const std::string tag = it->str();
    if (!std::regex_search(tag, type, typeAttr)) continue;
    if (type[1] == "fixed") continue;
    ++c.movable;
    c.nv += type[1] == "floating" ? 6 : 1;
    c.floating += type[1] == "floating";
  }
  return c;
}

}  // namespace

TEST(UrdfReference, EveryReferenceFileLoadsAsATree) {
  if (!fs::exists(kReference)) GTEST_SKIP() << "reference models not found at " << kReference;
  const auto files = referenceUrdfs();
  ASSERT_GE(files.size(), 20u);
  for (const fs::path& p : files) {
    SCOPED_TRACE(p.string());
    EXPECT_NO_THROW(parseUrdfFile(p.string()));
    const JointCounts expected = countJoints(readText(p.string()));
    ASSERT_GT(expected.movable, 0);
    if (p.filename() == "mini_cheetah_leg.urdf") {
      // a legacy fixture whose <coupling>s come without `independent` flags: every file must
      // load, so the coupled successors (the rotors) are made dependent, with a warning
      const Model model = loadUrdf(p.string());
      EXPECT_EQ(model.nvSpanning(), expected.nv);
      EXPECT_EQ(model.nv(), expected.nv / 2);
      for (const Body& b : model.bodies()) EXPECT_EQ(b.independent, b.name.find("rotor") == std::string::npos) << b.name;
      continue;
    }
    try {
      const Model model = loadUrdf(p.string());
      EXPECT_EQ(model.numBodies(), expected.movable);
      EXPECT_EQ(model.nvSpanning(), expected.nv);
      EXPECT_EQ(model.isFloatingBase(), expected.floating == 1);
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

TEST(UrdfReference, MiniCheetahFromFiveFilesEqualsTheSingleFile) {
  const fs::path dir = kReference / "robot-models";
  if (!fs::exists(dir)) GTEST_SKIP() << "reference models not found at " << dir;
  std::vector<std::string> parts = {(dir / "mini_cheetah_base.urdf").string()};
  for (const char* leg : {"fl", "fr", "hl", "hr"}) parts.push_back((dir / ("mini_cheetah_" + std::string(leg) + "_leg.urdf")).string());
  const Model split = loadUrdf(parts);
  const Model whole = loadUrdf((dir / "mini_cheetah.urdf").string());
  ASSERT_EQ(split.nqSpanning(), whole.nqSpanning());
  ASSERT_EQ(split.nvSpanning(), whole.nvSpanning());
  ASSERT_EQ(split.numBodies(), whole.numBodies());
  EXPECT_EQ(split.nvSpanning(), 6 + 24);  // trunk + 4 legs x 3 joints x (link + rotor)

  // the files list the legs in different orders: match coordinates by name
  std::map<std::string, int> qOfWhole, vOfWhole;
  for (int i = 0; i < whole.nqSpanning(); ++i) qOfWhole[whole.spanningPositionNames()[static_cast<size_t>(i)]] = i;
  for (int i = 0; i < whole.nvSpanning(); ++i) vOfWhole[whole.spanningVelocityNames()[static_cast<size_t>(i)]] = i;
  std::vector<int> qMap(static_cast<size_t>(split.nqSpanning())), vMap(static_cast<size_t>(split.nvSpanning()));
  for (int i = 0; i < split.nqSpanning(); ++i) {
    const auto it = qOfWhole.find(split.spanningPositionNames()[static_cast<size_t>(i)]);
    ASSERT_NE(it, qOfWhole.end()) << split.spanningPositionNames()[static_cast<size_t>(i)];
    qMap[static_cast<size_t>(i)] = it->second;
  }
  for (int i = 0; i < split.nvSpanning(); ++i) vMap[static_cast<size_t>(i)] = vOfWhole.at(split.spanningVelocityNames()[static_cast<size_t>(i)]);

  testsupport::Rng rng(5);
  for (int trial = 0; trial < 3; ++trial) {
    const VecX qSplit = testsupport::randomConfiguration(rng, split);
    VecX qWhole(whole.nqSpanning());
    for (int i = 0; i < split.nqSpanning(); ++i) qWhole[qMap[static_cast<size_t>(i)]] = qSplit[i];
    const MatX Hs = massMatrixAt(split, qSplit), Hw = massMatrixAt(whole, qWhole);
    MatX HwPermuted(split.nvSpanning(), split.nvSpanning());
    for (int i = 0; i < split.nvSpanning(); ++i)
      for (int j = 0; j < split.nvSpanning(); ++j) HwPermuted(i, j) = Hw(vMap[static_cast<size_t>(i)], vMap[static_cast<size_t>(j)]);
    EXPECT_LT(testsupport::relativeError(Hs, HwPermuted), 1e-12);
  }
}
