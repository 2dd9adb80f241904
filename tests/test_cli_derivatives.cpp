// `grbda derivatives` as a subprocess: the five matrices are there, nv x nv, and agree with the
// mass matrix the command prints (∂ÿ/∂τ = H⁻¹, ∂ÿ/∂q = −H⁻¹ ∂τ/∂q).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/spatial/types.hpp"
#include "support/cli_runner.hpp"

#ifdef GRBDA_CLI_PATH

using namespace grbda::testing;

TEST(CliDerivatives, MatricesAgreeWithTheMassMatrix) {
  const std::string model = std::string(GRBDA_SOURCE_DIR) + "/models/four_bar.urdf";
  const Json d = grbdaJson({"derivatives", model, "--v", "0.3", "--tau", "0.2"});
  const Json h = grbdaJson({"mass-matrix", model});
  const grbda::MatX H = matrixOf(h["result"]);
  ASSERT_EQ(H.rows(), 1);
  const grbda::MatX Minv = matrixOf(d["dqdd_dtau"]);
  EXPECT_NEAR((Minv * H)(0, 0), 1.0, 1e-9);
  const grbda::MatX dq = matrixOf(d["dqdd_dq"]), dv = matrixOf(d["dqdd_dv"]);
  EXPECT_NEAR(dq(0, 0), -(Minv * matrixOf(d["dtau_dq"]))(0, 0), 1e-9 * (1.0 + std::abs(dq(0, 0))));
  EXPECT_NEAR(dv(0, 0), -(Minv * matrixOf(d["dtau_dv"]))(0, 0), 1e-9 * (1.0 + std::abs(dv(0, 0))));
  // --qdd: the same derivatives at tau = id(q, v, qdd)
  const Json a = grbdaJson({"derivatives", model, "--v", "0.3", "--qdd", std::to_string(d["qdd"].numbers()[0])});
  EXPECT_NEAR(a["tau"].numbers()[0], 0.2, 1e-3);  // qdd was printed with 6 digits
  expectCommandError({"derivatives", model, "--tau", "1", "--qdd", "1"}, 2, {"not both"});
}

TEST(CliDerivatives, FloatingBaseMatricesAreVelocitySized) {
  const Json d = grbdaJson({"derivatives", std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf"});
  for (const char* key : {"dqdd_dq", "dqdd_dv", "dqdd_dtau", "dtau_dq", "dtau_dv"})
    EXPECT_EQ(matrixOf(d[key]).rows(), 18) << key;
}

#endif  // GRBDA_CLI_PATH
