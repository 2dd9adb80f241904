// `grbda com` and `grbda centroidal` as subprocesses: the JSON keys of the issue, with the
// identities that tie them together (J_c v = com velocity, A_G v = h_G, the linear momentum is
// M times the CoM velocity from the other command), the text report, and typed errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/spatial/types.hpp"
#include "support/cli_runner.hpp"

#ifdef GRBDA_CLI_PATH

using namespace grbda::testing;

namespace {
const std::string kV = "0.3,-0.2,0.1,0.5,0.4,-0.6,1,-1,0.5,0.2,0.3,-0.4,0.8,-0.7,0.6,0.1,0.2,0.3";
}  // namespace

TEST(CliWbc, ComAndCentroidalKeysAgree) {
  const std::string model = std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf";
  const Json com = grbdaJson({"com", model, "--v", kV, "--repeat", "3"});
  const Json cen = grbdaJson({"centroidal", model, "--v", kV});
  for (const char* key : {"com", "com_velocity", "com_acceleration_bias", "com_jacobian", "mass"})
    EXPECT_TRUE(com.has(key)) << key;
  for (const char* key : {"centroidal_momentum", "centroidal_momentum_matrix", "centroidal_bias"})
    EXPECT_TRUE(cen.has(key)) << key;
  const grbda::VecX v = vectorOf(com["v"]);
  ASSERT_EQ(v.size(), 18);
  const grbda::MatX J = matrixOf(com["com_jacobian"], 18), A = matrixOf(cen["centroidal_momentum_matrix"], 18);
  ASSERT_EQ(J.rows(), 3);
  ASSERT_EQ(A.rows(), 6);
  const grbda::VecX vcom = vectorOf(com["com_velocity"]), h = vectorOf(cen["centroidal_momentum"]);
  EXPECT_LT((J * v - vcom).norm(), 1e-12);
  EXPECT_LT((A * v - h).norm(), 1e-10);
  const double M = com["mass"].number;
  EXPECT_GT(M, 5.0);
  EXPECT_LT((h.head(3) - M * vcom).norm(), 1e-10);
  EXPECT_LT((vectorOf(cen["centroidal_bias"]).head(3) - M * vectorOf(com["com_acceleration_bias"])).norm(), 1e-9);
}

TEST(CliWbc, TextReportAndErrors) {
  const std::string model = std::string(GRBDA_SOURCE_DIR) + "/models/four_bar.urdf";
  const CommandResult r = runGrbda({"centroidal", model});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("centroidal_momentum_matrix"), std::string::npos);
  expectCommandError({"com", model, "--v", "1,2,3,4,5"}, 2, {"--v"});
  expectCommandError({"centroidal", model, "--q", "nan"}, 2, {"q"});
}

#endif  // GRBDA_CLI_PATH
