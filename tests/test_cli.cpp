// The `grbda` command, run as a subprocess: exit codes, JSON shape, coordinate names, closed-form
// pendulum values, and id(fd(tau)) == tau through the command line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "support/cli_runner.hpp"
#include "support/gravity.hpp"

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;  // the command runner, its JSON reader and the CLI helpers

const std::string kDataDir = std::string(GRBDA_SOURCE_DIR) + "/tests/data/cli/";
const std::string kPendulum = kDataDir + "pendulum.urdf";
const std::string kDouble = kDataDir + "double_pendulum.urdf";
const std::string kFloating = kDataDir + "floating.urdf";

// Pendulum constants (tests/data/cli/pendulum.urdf).
constexpr double kMass = 2.0, kLength = 0.5, kIyy = 0.03;
using grbda::testsupport::kG;
constexpr double kPendulumH = kMass * kLength * kLength + kIyy;

void expectUsageError(const std::vector<std::string>& args, const std::string& mention) {
  expectCommandError(args, 2, {mention});
}

// --- help and version ------------------------------------------------------------------------

TEST(Cli, HelpAndVersionSucceed) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--help"}, {"help"}, {"-h"}}) {
    const CommandResult r = runGrbda(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    for (const char* cmd : {"info", "fd", "id", "mass-matrix"}) EXPECT_NE(r.out.find(cmd), std::string::npos);
  }
  const CommandResult v = runGrbda({"--version"});
  EXPECT_EQ(v.exitCode, 0);
  EXPECT_EQ(v.out.rfind("grbda ", 0), 0u) << v.out;
}

TEST(Cli, CommandHelpDocumentsDefaultsAndRepeat) {
  const CommandResult viaFlag = runGrbda({"fd", "--help"});
  const CommandResult viaHelp = runGrbda({"help", "fd"});
  EXPECT_EQ(viaFlag.exitCode, 0);
  EXPECT_EQ(viaFlag.out, viaHelp.out);
  for (const char* word : {"--q", "--v", "--tau", "--gravity", "--repeat", "--json", "--log-level", "neutral", "zeros"})
    EXPECT_NE(viaFlag.out.find(word), std::string::npos) << word;
  EXPECT_NE(runGrbda({"id", "--help"}).out.find("--a"), std::string::npos);
  EXPECT_EQ(runGrbda({"help", "nonsense"}).exitCode, 2);
}

// --- info ----------------------------------------------------------------------------------------

TEST(Cli, InfoJsonDescribesBodiesFramesAndCoordinates) {
  const Json info = grbdaJson({"info", kDouble});
  EXPECT_EQ(info["name"].text, "double_pendulum");
  EXPECT_EQ(info["nq"].number, 2);
  EXPECT_EQ(info["nv"].number, 2);
  EXPECT_FALSE(info["floating_base"].boolean);
  EXPECT_EQ(info["position_names"].strings(), (std::vector<std::string>{"hip", "knee"}));
  EXPECT_EQ(info["velocity_names"].strings(), (std::vector<std::string>{"hip", "knee"}));
  const Json& bodies = info["bodies"];
  ASSERT_EQ(bodies.size(), 2u);  // the tool link is merged into 'lower'
  EXPECT_EQ(bodies[0]["name"].text, "upper");
  EXPECT_EQ(bodies[0]["joint"].text, "hip");
  EXPECT_EQ(bodies[0]["type"].text, "revolute");
  EXPECT_EQ(bodies[0]["parent"].text, "base");
  EXPECT_EQ(bodies[1]["name"].text, "lower");
  EXPECT_EQ(bodies[1]["parent"].text, "upper");
  EXPECT_EQ(bodies[1]["axis"].numbers(), (std::vector<double>{0, 1, 0}));
  // A tree: spanning coordinates are the coordinates, and every body is its own cluster.
  EXPECT_EQ(info["spanning_velocity_names"].strings(), info["velocity_names"].strings());
  EXPECT_EQ(info["nv_spanning"].number, 2);
  ASSERT_EQ(info["clusters"].size(), 2u);
  EXPECT_EQ(info["clusters"][1]["bodies"].strings(), std::vector<std::string>{"lower"});
  EXPECT_EQ(info["clusters"][1]["nv"].number, 1);
  std::vector<std::string> frames;
  for (const auto& f : info["frames"].items) frames.push_back(f["name"].text);
  EXPECT_EQ(frames.size(), 4u);
  for (const char* name : {"base", "upper", "lower", "tool"})
    EXPECT_NE(std::find(frames.begin(), frames.end(), name), frames.end()) << name;
  for (const auto& f : info["frames"].items)
    if (f["name"].text == "tool") {
      EXPECT_EQ(f["body"].text, "lower");
      EXPECT_NEAR(f["position"].numbers()[2], -0.6, 1e-15);
    }
}

TEST(Cli, InfoNamesFloatingCoordinatesAfterTheJoint) {
  const Json info = grbdaJson({"info", kFloating});
  EXPECT_TRUE(info["floating_base"].boolean);
  EXPECT_EQ(info["nq"].number, 9);
  EXPECT_EQ(info["nv"].number, 8);
  EXPECT_EQ(info["position_names"].strings(),
            (std::vector<std::string>{"base:x", "base:y", "base:z", "base:qw", "base:qx", "base:qy", "base:qz",
                                      "hip", "slide"}));
  EXPECT_EQ(info["velocity_names"].strings(),
            (std::vector<std::string>{"base:wx", "base:wy", "base:wz", "base:vx", "base:vy", "base:vz", "hip",
                                      "slide"}));
  EXPECT_EQ(info["bodies"][0]["type"].text, "floating");
  EXPECT_EQ(info["bodies"][0]["parent"].text, "world");
  EXPECT_EQ(info["bodies"][2]["type"].text, "prismatic");
}

TEST(Cli, JsonEscapesNames) {
  const Json info = grbdaJson({"info", kDataDir + "odd_names.urdf"});
  EXPECT_EQ(info["name"].text, "say \"hi\" \\ there");
  EXPECT_EQ(info["bodies"][0]["name"].text, "bras\tdroit");
  EXPECT_EQ(info["bodies"][0]["parent"].text, "base link");
  EXPECT_EQ(info["velocity_names"].strings(), std::vector<std::string>{"\xc3\xa9paule"});
  // A prismatic joint along gravity with nothing else: qdd = tau / m + g_z.
  const Json fd = grbdaJson({"fd", kDataDir + "odd_names.urdf", "--tau", "3"});
  EXPECT_NEAR(fd["result"][0].number, 3.0 - 9.81, 1e-12);
}

TEST(Cli, InfoTextIsATable) {
  const CommandResult r = runGrbda({"info", kFloating});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* word : {"hopper", "floating.urdf", "floating base", "yes", "torso", "thigh", "shin", "prismatic",
                           "base:qw", "base:vz"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word << "\n" << r.out;
}

// --- closed forms on the pendulum ----------------------------------------------------------------

TEST(Cli, PendulumMassMatrixIsMlSquaredPlusI) {
  for (const char* q : {"0", "0.7", "-2.5"}) {
    const Json H = grbdaJson({"mass-matrix", kPendulum, "--q", q});
    EXPECT_EQ(H["velocity_names"].strings(), std::vector<std::string>{"shoulder"});
    ASSERT_EQ(H["result"].size(), 1u);
    ASSERT_EQ(H["result"][0].size(), 1u);
    EXPECT_NEAR(H["result"][0][0].number, kPendulumH, 1e-14);
  }
  const Json neutral = grbdaJson({"mass-matrix", kPendulum});  // omitted --q: neutral configuration
  EXPECT_EQ(neutral["q"].numbers(), std::vector<double>{0.0});
}

TEST(Cli, PendulumInverseDynamicsMatchesClosedForm) {
  const double q = 0.3, a = -2.0;  // v = 1.5: a single hinge has no velocity-product torque
  const Json r = grbdaJson({"id", kPendulum, "--q", "0.3", "--v", "1.5", "--a", "-2"});
  // Revolute about y with the COM at (0, 0, -l): gravity torque m g l sin q; no velocity terms.
  EXPECT_NEAR(r["result"][0].number, kPendulumH * a + kMass * kG * kLength * std::sin(q), 1e-12);
  const Json moon = grbdaJson({"id", kPendulum, "--q", "0.3", "--a", "-2", "--gravity", "0,0,-1.62"});
  EXPECT_NEAR(moon["result"][0].number, kPendulumH * a + kMass * 1.62 * kLength * std::sin(q), 1e-12);
}

TEST(Cli, PendulumForwardDynamicsMatchesClosedForm) {
  const Json r = grbdaJson({"fd", kPendulum, "--q=-1.1", "--v", "3", "--tau", "0.25"});
  EXPECT_EQ(r["quantity"].text, "qdd");
  EXPECT_NEAR(r["result"][0].number, (0.25 - kMass * kG * kLength * std::sin(-1.1)) / kPendulumH, 1e-12);
  // Gravity along the pendulum axis does no work: qdd = tau / H.
  const Json sideways = grbdaJson({"fd", kPendulum, "--q", "-1.1", "--tau", "0.25", "--gravity", "0,-9.81,0"});
  EXPECT_NEAR(sideways["result"][0].number, 0.25 / kPendulumH, 1e-14);
}

// --- JSON shape and round trips --------------------------------------------------------------------

TEST(Cli, JsonResultHasOneEntryPerVelocityWithNamesInOrder) {
  const std::string q = "0.1,-0.2,0.3,0.9,0.1,-0.3,0.2,0.4,0.05";
  for (const char* cmd : {"fd", "id"}) {
    const Json r = grbdaJson({cmd, kFloating, "--q", q});
    EXPECT_EQ(r["result"].size(), r["velocity_names"].size());
    EXPECT_EQ(r["result"].size(), 8u);
    EXPECT_EQ(r["position_names"].size(), 9u);
    EXPECT_EQ(r["velocity_names"][6].text, "hip");
    EXPECT_EQ(r["velocity_names"][7].text, "slide");
    EXPECT_EQ(r["q"].numbers().size(), 9u);
  }
  const Json H = grbdaJson({"mass-matrix", kFloating, "--q", q});
  ASSERT_EQ(H["result"].size(), 8u);
  for (const auto& row : H["result"].items) EXPECT_EQ(row.size(), 8u);
  for (size_t i = 0; i < 8; ++i)
    for (size_t j = 0; j < 8; ++j) EXPECT_NEAR(H["result"][i][j].number, H["result"][j][i].number, 1e-12);
}

TEST(Cli, NumbersAreEchoedWithFullPrecision) {
  const Json r = grbdaJson({"fd", kDouble, "--q", "0.12345678901234567,-1e-300", "--v", "3.0000000000000004,0"});
  EXPECT_EQ(r["q"].numbers()[0], 0.12345678901234567);
  EXPECT_EQ(r["q"].numbers()[1], -1e-300);
  EXPECT_EQ(r["v"].numbers()[0], 3.0000000000000004);
}

TEST(Cli, InverseDynamicsOfForwardDynamicsGivesBackTau) {
  struct Case {
    std::string model;
    std::vector<double> q, v, tau;
  };
  const double s = 1.0 / std::sqrt(4.0);  // unit quaternion (0.5, 0.5, 0.5, 0.5)
  const std::vector<Case> cases = {
      {kDouble, {0.4, -1.3}, {0.7, -2.1}, {3.0, -1.5}},
      {kFloating, {0.1, -0.2, 0.3, s, s, s, s, 0.6, 0.08}, {0.3, -0.4, 0.5, 1.0, -2.0, 0.1, 1.2, -0.3},
       {0.5, -1.0, 0.2, 3.0, 1.0, 40.0, -2.0, 10.0}},
  };
  for (const auto& c : cases) {
    const std::string q = joinFull(c.q), v = joinFull(c.v);
    const Json fd = grbdaJson({"fd", c.model, "--q", q, "--v", v, "--tau", joinFull(c.tau)});
    const std::vector<double> qdd = fd["result"].numbers();
    ASSERT_EQ(qdd.size(), c.tau.size());
    const Json id = grbdaJson({"id", c.model, "--q", q, "--v", v, "--a", joinFull(qdd)});
    const std::vector<double> tau = id["result"].numbers();
    ASSERT_EQ(tau.size(), c.tau.size());
    for (size_t i = 0; i < tau.size(); ++i) EXPECT_NEAR(tau[i], c.tau[i], 1e-9 * (1.0 + std::abs(c.tau[i]))) << i;
  }
}

TEST(Cli, OmittedVectorsDefaultToNeutralAndZeros) {
  const Json implicitState = grbdaJson({"fd", kFloating});
  const Json explicitState = grbdaJson({"fd", kFloating, "--q", "0,0,0,1,0,0,0,0,0", "--v", "0,0,0,0,0,0,0,0",
                                        "--tau", "0,0,0,0,0,0,0,0"});
  EXPECT_EQ(implicitState["q"].numbers(), explicitState["q"].numbers());
  EXPECT_EQ(implicitState["result"].numbers(), explicitState["result"].numbers());
  // A free-falling unactuated system at rest: the base accelerates with gravity (body frame at
  // identity orientation), no joint moves relative to it.
  const std::vector<double> qdd = implicitState["result"].numbers();
  EXPECT_NEAR(qdd[5], -9.81, 1e-9);
}

TEST(Cli, TextOutputHasOneAlignedLinePerCoordinate) {
  const CommandResult text = runGrbda({"fd", kDouble, "--q", "0.4,-1.3", "--tau", "1,2"});
  ASSERT_EQ(text.exitCode, 0) << text.err;
  const Json json = grbdaJson({"fd", kDouble, "--q", "0.4,-1.3", "--tau", "1,2"});
  const std::vector<double> expected = json["result"].numbers();
  std::vector<std::string> names;
  std::vector<double> values;
  std::vector<size_t> columns;
  size_t start = text.out.find('\n') + 1;  // after the header line
  while (start < text.out.size()) {
    const size_t end = text.out.find('\n', start);
    const std::string line = text.out.substr(start, end - start);
    char name[64];
    double value = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%63s %lf", name, &value), 2) << line;
    names.push_back(name);
    values.push_back(value);
    columns.push_back(line.size());  // numbers are right-aligned: lines end in the same column
    start = end + 1;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"hip", "knee"}));
  EXPECT_EQ(values, expected);
  EXPECT_EQ(columns[0], columns[1]);
}

TEST(Cli, RepeatPrintsTheLastResultAndZeroComputesNothing) {
  const Json once = grbdaJson({"id", kDouble, "--q", "0.4,-1.3", "--v", "1,2", "--a", "0.5,0.5"});
  const Json many = grbdaJson({"id", kDouble, "--q", "0.4,-1.3", "--v", "1,2", "--a", "0.5,0.5", "--repeat", "50"});
  EXPECT_EQ(once["result"].numbers(), many["result"].numbers());
  for (const char* cmd : {"fd", "id", "mass-matrix"}) {
    const CommandResult none = runGrbda({cmd, kDouble, "--repeat", "0", "--json"});
    EXPECT_EQ(none.exitCode, 0) << none.err;
    EXPECT_TRUE(none.out.empty()) << none.out;
  }
  expectUsageError({"fd", kDouble, "--repeat", "-1"}, "--repeat");
  expectUsageError({"fd", kDouble, "--repeat", "two"}, "--repeat");
}

TEST(Cli, LogLevelIsAccepted) {
  for (const char* level : {"trace", "debug", "info", "warn", "error", "off"})
    EXPECT_EQ(runGrbda({"info", kPendulum, "--log-level", level}).exitCode, 0) << level;
  expectUsageError({"info", kPendulum, "--log-level", "loud"}, "loud");
}

// --- errors and exit codes -----------------------------------------------------------------------

TEST(Cli, BadCommandLineExitsWithTwo) {
  expectUsageError({}, "");
  expectUsageError({"frobnicate", kPendulum}, "frobnicate");
  expectUsageError({"fd", kPendulum, "--bogus"}, "--bogus");
  expectUsageError({"fd", kPendulum, "--q"}, "--q");
  expectUsageError({"fd", kPendulum, "--q", "0.1", "--q", "0.2"}, "twice");
  expectUsageError({"fd", kPendulum, "--q", "abc"}, "abc");
  expectUsageError({"fd", kPendulum, "--q", "0.1x"}, "0.1x");
  expectUsageError({"fd", kPendulum, "--q", "0.1,0.2"}, "nq = 1");
  expectUsageError({"fd", kDouble, "--tau", "1"}, "nv = 2");
  expectUsageError({"id", kDouble, "--a", "1,,2"}, "--a");
  expectUsageError({"fd", kPendulum, "--q", "nan"}, "NaN");
  expectUsageError({"fd", kPendulum, "--v", "inf"}, "--v");
  expectUsageError({"fd", kPendulum, "--tau", "1e999"}, "--tau");
  expectUsageError({"fd", kPendulum, "--gravity", "0,-9.81"}, "--gravity");
  expectUsageError({"fd"}, "model");
  expectUsageError({"info", kPendulum, "--repeat", "3"}, "--repeat");  // info has no --repeat
  expectUsageError({"info", kPendulum, "--json=yes"}, "--json");
  // A zero quaternion is rejected by the library (InputError), also exit code 2.
  expectUsageError({"fd", kFloating, "--q", "0,0,0,0,0,0,0,0,0"}, "quaternion");
}

TEST(Cli, BadModelExitsWithThreeAndNamesTheFile) {
  const std::string missing = kDataDir + "no_such_robot.urdf";
  for (const auto& [path, mention] : std::vector<std::pair<std::string, std::string>>{
           {missing, "no_such_robot.urdf"},
           {kDataDir + "malformed.urdf", "malformed.urdf"},
           {kDataDir + "unknown_parent.urdf", "unknown_parent.urdf"}}) {
    const CommandResult r = runGrbda({"info", path});
    EXPECT_EQ(r.exitCode, 3) << path << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("grbda: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  const CommandResult orphan = runGrbda({"fd", kDataDir + "unknown_parent.urdf"});
  EXPECT_EQ(orphan.exitCode, 3);
  EXPECT_NE(orphan.err.find("forearm"), std::string::npos) << orphan.err;  // what is wrong
  EXPECT_NE(orphan.err.find("elbow"), std::string::npos) << orphan.err;    // which element
  EXPECT_NE(orphan.err.find("unknown_parent.urdf:11:"), std::string::npos) << orphan.err;  // joint line
}

TEST(Cli, NumericalFailureExitsWithFourAndPrintsNoNaN) {
  // qdd = tau / H with H = 0.53 overflows the double range.
  const CommandResult r = runGrbda({"fd", kPendulum, "--tau", "1e308", "--json"});
  EXPECT_EQ(r.exitCode, 4) << r.out << r.err;
  EXPECT_EQ(r.err.rfind("grbda: error: ", 0), 0u) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const CommandResult text = runGrbda({"id", kPendulum, "--v", "1e200", "--a", "1e308"});
  EXPECT_EQ(text.exitCode, 4) << text.out << text.err;
  EXPECT_EQ(text.out.find("nan"), std::string::npos);
}

}  // namespace

#endif  // GRBDA_CLI_PATH

TEST(Cli, BuiltinTelloLoadsTheRobotBuiltInCode) {
  // Tello's differentials are not URDF+: the command reaches the code-built robot by name, with
  // the counts of robot-data/tello.md (37 bodies, 24 independent DoF), and FD(ID(a)) = a.
  const Json info = grbdaJson({"info", "builtin:tello"});
  EXPECT_EQ(info["nv"].number, 24);
  EXPECT_EQ(info["bodies"].size(), 37u);
  std::vector<double> a(24, 0.1);
  a[0] = 0.5;
  const Json tau = grbdaJson({"id", "builtin:tello", "--a", joinFull(a)});
  const Json back = grbdaJson({"fd", "builtin:tello", "--tau", joinFull(tau["result"].numbers())});
  const std::vector<double> qdd = back["result"].numbers();
  ASSERT_EQ(qdd.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(qdd[i], a[i], 1e-8) << i;
  expectCommandError({"info", "builtin:nonsense"}, 2, {"builtin:nonsense", "builtin:tello"});
}
