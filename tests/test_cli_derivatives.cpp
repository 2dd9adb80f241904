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

TEST(CliDerivatives, WhatRneaGivesTheInverseDynamicsDerivativesOnly) {
  // --what rnea: dtau_dq, dtau_dv at qdd = fd(tau), the same as the full command's
  const std::string model = std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf";
  std::string tau;
  for (int i = 0; i < 18; ++i) tau += (i ? "," : "") + std::to_string(0.1 - 0.01 * i);
  const Json full = grbdaJson({"derivatives", model, "--tau", tau});
  const Json rnea = grbdaJson({"derivatives", model, "--tau", tau, "--what", "rnea"});
  for (const char* key : {"dtau_dq", "dtau_dv"})
    EXPECT_LT((matrixOf(rnea[key]) - matrixOf(full[key])).cwiseAbs().maxCoeff(), 1e-6) << key;
  EXPECT_FALSE(rnea.has("dqdd_dq"));
  expectCommandError({"derivatives", model, "--what", "crba"}, 2, {"--what"});
  expectCommandError({"derivatives", model, "--what", "rnea", "--contact", "FR_foot"}, 2, {"--what rnea"});
}

TEST(CliDerivatives, FloatingBaseMatricesAreVelocitySized) {
  const Json d = grbdaJson({"derivatives", std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf"});
  for (const char* key : {"dqdd_dq", "dqdd_dv", "dqdd_dtau", "dtau_dq", "dtau_dv"})
    EXPECT_EQ(matrixOf(d[key]).rows(), 18) << key;
}

TEST(CliDerivatives, ContactsGiveTheConstrainedDerivativesAndLambda) {
  // Four feet: fd's flags; λ and q̈ are linear in τ, so one unit step of τ in `grbda fd` checks a
  // column of dlambda_dtau and dqdd_dtau exactly.
  const std::string model = std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf";
  const std::vector<std::string> feet = {"--contact", "FR_foot", "--contact", "FL_foot", "--contact", "HR_foot",
                                         "--contact", "HL_foot:0.01,0,0"};
  std::string v;
  for (int i = 0; i < 18; ++i) v += (i ? "," : "") + std::to_string(0.1 - 0.01 * i);
  std::vector<std::string> args = {"derivatives", model, "--v", v};
  args.insert(args.end(), feet.begin(), feet.end());
  const Json d = grbdaJson(args);
  for (const char* key : {"dqdd_dq", "dqdd_dv", "dqdd_dtau", "dtau_dq", "dtau_dv"}) {
    EXPECT_EQ(matrixOf(d[key]).rows(), 18) << key;
    EXPECT_EQ(matrixOf(d[key]).cols(), 18) << key;
  }
  for (const char* key : {"dlambda_dq", "dlambda_dv", "dlambda_dtau"}) {
    EXPECT_EQ(matrixOf(d[key], 18).rows(), 12) << key;
  }
  ASSERT_EQ(d["constraint_row_names"].size(), 12u);
  EXPECT_EQ(d["constraint_row_names"][size_t{0}].text, "FR_foot:fx");
  const int j = 8;  // a hip joint
  auto fd = [&](double tauJ) {
    std::vector<std::string> a = {"fd", model, "--v", v, "--tau"};
    std::string tau;
    for (int i = 0; i < 18; ++i) tau += (i ? "," : "") + std::string(i == j ? std::to_string(tauJ) : "0");
    a.push_back(tau);
    a.insert(a.end(), feet.begin(), feet.end());
    return grbdaJson(a);
  };
  const Json f0 = fd(0.0), f1 = fd(1.0);
  const grbda::MatX dl = matrixOf(d["dlambda_dtau"], 18), da = matrixOf(d["dqdd_dtau"]);
  for (size_t c = 0; c < 4; ++c)
    for (size_t a = 0; a < 3; ++a) {
      const double step = f1["contact_forces"][c]["force"].numbers()[a] - f0["contact_forces"][c]["force"].numbers()[a];
      EXPECT_NEAR(dl(static_cast<Eigen::Index>(3 * c + a), j), step, 1e-6) << c << " " << a;
    }
  for (size_t i = 0; i < 18; ++i)
    EXPECT_NEAR(da(static_cast<Eigen::Index>(i), j), f1["result"].numbers()[i] - f0["result"].numbers()[i], 1e-6) << i;
  // the unconstrained keys only without constraints; refused combinations
  EXPECT_FALSE(grbdaJson({"derivatives", model}).has("dlambda_dq"));
  std::vector<std::string> withQdd = args;
  withQdd.insert(withQdd.end(), {"--qdd", "0"});
  expectCommandError(withQdd, 2, {"--qdd"});
  std::vector<std::string> baumgarte = args;  // taken like fd's, and it changes dlambda_dq
  baumgarte.insert(baumgarte.end(), {"--baumgarte", "0.1"});
  EXPECT_GT((matrixOf(grbdaJson(baumgarte)["dlambda_dq"], 18) - matrixOf(d["dlambda_dq"], 18)).cwiseAbs().maxCoeff(), 1.0);
  std::vector<std::string> soft = args;
  soft.insert(soft.end(), {"--compliance", "1e-3"});
  expectCommandError(soft, 2, {"--compliance"});
}

#endif  // GRBDA_CLI_PATH
