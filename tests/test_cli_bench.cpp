// `grbda bench` as a subprocess: the JSON contract (every key of issue #7 present, each a positive
// finite median), and clear failures for a bad robot name or a missing model file.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "support/cli_runner.hpp"
#include "support/model_files.hpp"

using grbda::testsupport::modelFile;
using grbda::testsupport::modelsDir;

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;  // the command runner, its JSON reader and the CLI helpers


const std::vector<std::string> kContractKeys = {
    "cluster_aba",   "projection_fd", "lagrange_fd",      "proximal_fd_1",  "proximal_fd_5",  "approximate_aba",
    "cluster_rnea",  "projected_rnea", "approximate_rnea", "cluster_efpa",  "projected_osim"};

TEST(CliBench, QuickJsonHasEveryContractKeyWithPositiveTimes) {
  // Two small robots, few states: one by benchmark name, one by file path.
  const std::string chain = modelFile("generated/revolute_rotor_chain_4.urdf");
  const CommandResult r =
      runGrbda({"bench", "--quick", "--json", "--states", "5", "--models", modelsDir(), "--robots",
                "mini_cheetah," + chain});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Json doc = JsonReader::parse(r.out);
  const Json& robots = doc["robots"];
  ASSERT_EQ(robots.type, Json::Type::Array);
  ASSERT_EQ(robots.size(), 2u);
  EXPECT_EQ(robots[0]["name"].text, "mini_cheetah");
  EXPECT_EQ(robots[1]["name"].text, chain);
  EXPECT_EQ(robots[0]["nv"].number, 18.0);  // floating base + 12 geared joints
  EXPECT_EQ(robots[1]["nv"].number, 4.0);
  for (size_t i = 0; i < robots.size(); ++i) {
    const Json& times = robots[i]["times_us"];
    for (const auto& key : kContractKeys) {
      ASSERT_TRUE(times.has(key)) << "robot " << i << " lacks " << key;
      const Json& t = times[key];
      ASSERT_EQ(t.type, Json::Type::Number) << key;
      EXPECT_TRUE(std::isfinite(t.number) && t.number > 0.0) << key << " = " << t.text;
      EXPECT_LT(t.number, 1e6) << key << ": a median call over a second is not a timing";
    }
    EXPECT_GE(robots[i]["states"].number, 1.0);
    EXPECT_LE(robots[i]["states"].number, 5.0);
  }
}

TEST(CliBench, TextTableNamesTheMethodsAndTheRobot) {
  const CommandResult r =
      runGrbda({"bench", "--quick", "--states", "3", "--models", modelsDir(), "--robots", "mini_cheetah"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* s : {"C-ABA", "C-RNEA", "C-EFPA", "Projection method", "Lagrange multipliers", "Mini Cheetah", "%"})
    EXPECT_NE(r.out.find(s), std::string::npos) << "missing '" << s << "' in\n" << r.out;
}

TEST(CliBench, UnknownRobotIsACommandLineError) {
  const CommandResult r = runGrbda({"bench", "--quick", "--robots", "not_a_robot"});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("unknown robot 'not_a_robot'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("mini_cheetah"), std::string::npos) << "the message should list the known robots: " << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliBench, MissingModelFileIsAModelError) {
  const CommandResult r = runGrbda({"bench", "--quick", "--robots", "no/such/robot.urdf"});
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("no/such/robot.urdf"), std::string::npos) << r.err;
}

TEST(CliBench, BadOptionsAreCommandLineErrors) {
  EXPECT_EQ(runGrbda({"bench", "--states", "0"}).exitCode, 2);
  EXPECT_EQ(runGrbda({"bench", "--robots", ","}).exitCode, 2);
  EXPECT_EQ(runGrbda({"bench", "mini_cheetah"}).exitCode, 2);  // robots go through --robots
}

}  // namespace

#endif  // GRBDA_CLI_PATH
