// `grbda simulate` with a world (--ground, --pd, ...) as a subprocess: the Mini Cheetah dropped under
// a joint PD lands on its four foot spheres and stands with its weight on them, the JSON keys and the
// CSV columns the issue names, --floating, and the usage errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/grbda.hpp"
#include "support/cli_runner.hpp"
#include "support/model_files.hpp"

using grbda::testsupport::modelFile;

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;
using Args = std::vector<std::string>;

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

TEST(CliSimulateWorld, CsvCarriesEachLinksResultantContactForce) {
  // On flat ground (normal +z, friction horizontal) each link's resultant cf:LINK:z is its normal
  // force fn:LINK, and a touching link's centre of pressure lies on the ground (within the margin).
  const std::string path = std::string(::testing::TempDir()) + "grbda_world_cp.csv";
  const CommandResult r = runGrbda({"simulate", kCheetah, "--ground-height", "0.01", "--pd", "50,0.4", "--q0", kCrouch,
                                    "--duration", "0.3", "--out", path});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    rows.emplace_back();
    std::stringstream fields(line);
    for (std::string f; std::getline(fields, f, ',');) rows.back().push_back(f);
  }
  const auto column = [&](const std::string& name) {
    const auto at = std::find(rows[0].begin(), rows[0].end(), name);
    EXPECT_NE(at, rows[0].end()) << name;
    return static_cast<size_t>(at - rows[0].begin());
  };
  int touching = 0;
  for (size_t k = 1; k < rows.size(); ++k) {
    EXPECT_EQ(std::stod(rows[k][column("ground_height")]), 0.01);
    for (const char* link : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) {
      const std::string l = link;
      const double fn = std::stod(rows[k][column("fn:" + l)]), fz = std::stod(rows[k][column("cf:" + l + ":z")]);
      EXPECT_NEAR(fz, fn, 1e-9 * (1 + fn)) << "row " << k << " " << l;
      const std::string cpz = rows[k][column("cp:" + l + ":z")];
      if (cpz == "nan") {
        EXPECT_EQ(fn, 0.0);
        continue;
      }
      ++touching;
      EXPECT_NEAR(std::stod(cpz), 0.01, 1.1e-3) << "row " << k << " " << l;
    }
  }
  EXPECT_GT(touching, 100);  // it landed (at about 0.11 s) and stands on its feet
  std::remove(path.c_str());
}

TEST(CliSimulateWorld, FloatingAddsAFreeJointToAFixedBaseFile) {
  const CommandResult r = runGrbda({"info", modelFile("double_pendulum.urdf"), "--floating", "--json"});
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

TEST(CliSimulateWorld, SelfCollisionFlagReachesTheWorld) {
  // The Mini Cheetah's only shapes are its four foot spheres, on four legs: with --self-collision
  // the filtered pairs (different legs) never come within reach while it stands, so the run is
  // the same bit for bit — and the flag is a world option (it alone selects the world simulation).
  const Json plain = run({kCheetah, "--ground", "--pd", "50,2", "--q0", kCrouch, "--duration", "0.2"});
  const Json self = run({kCheetah, "--ground", "--self-collision", "--pd", "50,2", "--q0", kCrouch, "--duration", "0.2"});
  ASSERT_EQ(plain["final_q"].items.size(), self["final_q"].items.size());
  for (size_t i = 0; i < plain["final_q"].items.size(); ++i)
    EXPECT_EQ(plain["final_q"][i].number, self["final_q"][i].number) << i;
  const CommandResult r = runGrbda({"simulate", kCheetah, "--self-collision", "--duration", "0.01", "--json"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("final_contacts"), std::string::npos) << "--self-collision alone should run the world simulation";
}
