// `grbda simulate` with a world (--ground, --pd, ...) as a subprocess: the Mini Cheetah dropped under
// a joint PD lands on its four foot spheres and stands with its weight on them, the JSON keys and the
// CSV columns the issue names, --floating, and the usage errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/grbda.hpp"
#include "support/cli_runner.hpp"

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;
using Args = std::vector<std::string>;
const std::string kModels = std::string(GRBDA_SOURCE_DIR) + "/models/";
const std::string kCheetah = kModels + "mini_cheetah.urdf";
// torso at 0.30 m, every leg at (abad, hip, knee) = (0, -1, 2) rad
const std::string kCrouch = "0,0,0.30,1,0,0,0,0,-1,2,0,-1,2,0,-1,2,0,-1,2";

Json run(Args args) {
  args.insert(args.begin(), "simulate");
  args.push_back("--json");
  const CommandResult r = runGrbda(args);
  EXPECT_EQ(r.exitCode, 0) << commandLine(args) << "\n" << r.err;
  if (r.exitCode != 0) return Json{};
  return JsonReader::parse(r.out);
}

double cheetahWeight() {
  const grbda::Model m = grbda::loadUrdf(kCheetah);
  double mass = 0.0;
  for (const grbda::Body& b : m.bodies()) mass += b.inertia(5, 5);
  return mass * 9.81;
}

}  // namespace

TEST(CliSimulateWorld, MiniCheetahDroppedUnderPdStandsOnFourFeet) {
  // kd = 2 brings it to rest within 3 s (with the kd = 0.4 it still sways there)
  const Json j = run({kCheetah, "--ground", "--pd", "50,2", "--q0", kCrouch, "--duration", "3"});
  ASSERT_EQ(j["final_contacts"].items.size(), 4u);
  EXPECT_NEAR(j["normal_force_sum"].number, cheetahWeight(), 1e-6 * cheetahWeight());
  double sum = 0.0;
  for (const Json& c : j["final_contacts"].items) {
    EXPECT_NE(c["link"].text.find("_foot"), std::string::npos);
    EXPECT_EQ(c["point"].items.size(), 3u);
    EXPECT_EQ(c["friction_force"].items.size(), 3u);
    EXPECT_GT(c["normal_force"].number, 0.0);
    EXPECT_LT(std::abs(c["distance"].number), 1e-3);
    sum += c["normal_force"].number;
  }
  EXPECT_NEAR(sum, j["normal_force_sum"].number, 1e-9 * sum);
  EXPECT_LT(j["max_penetration"].number, 2e-3);
  EXPECT_GE(j["solver_iterations"]["max"].number, j["solver_iterations"]["mean"].number);
  EXPECT_EQ(j["nonconverged_steps"].number, 0.0);
  EXPECT_GT(j["final_q"][2].number, 0.1);  // standing
  for (const char* key : {"final_v", "energy_start", "energy_end", "steps", "position_names", "velocity_names"})
    EXPECT_TRUE(j.has(key)) << key;
}

TEST(CliSimulateWorld, CsvHasTheNormalForceColumns) {
  const std::string path = std::string(::testing::TempDir()) + "grbda_world.csv";
  const CommandResult r = runGrbda({"simulate", kCheetah, "--ground", "--pd", "50,0.4", "--q0", kCrouch,
                                    "--duration", "0.2", "--out", path});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream in(path);
  std::string header;
  std::getline(in, header);
  for (const char* column : {"q:", "v:", ",energy", ",normal_force_sum", ",fn:FR_foot", ",fn:HL_foot"})
    EXPECT_NE(header.find(column), std::string::npos) << column;
  int rows = 0;
  for (std::string line; std::getline(in, line);) ++rows;
  EXPECT_EQ(rows, 201);
  std::remove(path.c_str());
}

TEST(CliSimulateWorld, FloatingAddsAFreeJointToAFixedBaseFile) {
  const CommandResult r = runGrbda({"info", kModels + "double_pendulum.urdf", "--floating", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Json j = JsonReader::parse(r.out);
  EXPECT_EQ(j["nq"].number, 9.0);
}

TEST(CliSimulateWorld, BadFlagsAreUsageErrorsNamingTheFlag) {
  const std::vector<std::pair<Args, std::string>> cases = {
      {{"--ground", "--friction", "-1"}, "--friction"},
      {{"--ground", "--restitution", "2"}, "--restitution"},
      {{"--ground", "--contact-solver", "newton"}, "--contact-solver"},
      {{"--pd", "50"}, "--pd"},
      {{"--ground", "--contact", "FR_foot"}, "--contact"},
      {{"--q-target", "0"}, "--q-target"},
      {{"--dt", "10", "--duration", "1"}, "--dt"},
  };
  for (const auto& [extra, mention] : cases) {
    Args args = {"simulate", kCheetah};
    args.insert(args.end(), extra.begin(), extra.end());
    expectCommandError(args, 2, {mention});
  }
}

#endif  // GRBDA_CLI_PATH
