// `grbda mass-matrix --inverse --logdet` as a subprocess, against the plain mass matrix it prints.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/spatial/types.hpp"
#include "support/cli_runner.hpp"

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;

grbda::MatX matrixOf(const Json& rows) {
  grbda::MatX M(rows.size(), rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    const std::vector<double> row = rows[r].numbers();
    for (size_t c = 0; c < row.size(); ++c) M(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = row[c];
  }
  return M;
}

Json run(std::vector<std::string> args) {
  args.push_back("--json");
  const CommandResult r = runGrbda(args);
  EXPECT_EQ(r.exitCode, 0) << commandLine(args) << "\n" << r.err;
  return r.exitCode == 0 ? JsonReader::parse(r.out) : Json{};
}

}  // namespace

TEST(CliMassMatrix, InverseAndLogDetMatchTheMassMatrix) {
  const std::string model = std::string(GRBDA_SOURCE_DIR) + "/models/mit_humanoid.urdf";
  const Json h = run({"mass-matrix", model});
  const Json inv = run({"mass-matrix", model, "--inverse", "--logdet"});
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
