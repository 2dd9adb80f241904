// `grbda mass-matrix --inverse --logdet` as a subprocess, against the plain mass matrix it prints.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/spatial/types.hpp"
#include "support/cli_runner.hpp"

#ifdef GRBDA_CLI_PATH

using namespace grbda::testing;

TEST(CliMassMatrix, InverseAndLogDetMatchTheMassMatrix) {
  const std::string model = std::string(GRBDA_SOURCE_DIR) + "/models/mit_humanoid.urdf";
  const Json h = grbdaJson({"mass-matrix", model});
  const Json inv = grbdaJson({"mass-matrix", model, "--inverse", "--logdet"});
  const grbda::MatX H = matrixOf(h["result"]), Hinv = matrixOf(inv["result"]);
  EXPECT_EQ(inv["quantity"].text, "Hinv");
  EXPECT_LT((Hinv * H - grbda::MatX::Identity(H.rows(), H.cols())).cwiseAbs().maxCoeff(), 1e-9);
  const Eigen::LLT<grbda::MatX> llt(H);
  double logDet = 0.0;
  for (Eigen::Index i = 0; i < H.rows(); ++i) logDet += 2.0 * std::log(llt.matrixLLT()(i, i));
  EXPECT_NEAR(inv["log_det"].number, logDet, 1e-9 * std::abs(logDet));
  expectCommandError({"mass-matrix", model, "--inverse", "--method", "projection"}, 2, {"--method cluster only"});
}

#endif  // GRBDA_CLI_PATH
