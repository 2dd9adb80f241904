// `grbda fd --method cfa / cfa-parallel` and `grbda id --reactions`, run as a subprocess: the CFA
// agrees with C-ABA on chain models and (cluster CFA) on chains of clusters, what it cannot take
// is refused naming why, the
// reactions of a pendulum at rest hold its weight, and the misuses are exit code 2.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "support/cli_runner.hpp"
#include "support/model_files.hpp"

using grbda::testsupport::modelFile;

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;
using Args = std::vector<std::string>;

const std::string kCliData = std::string(GRBDA_SOURCE_DIR) + "/tests/data/cli/";

double maxDiff(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double d = 0.0, m = 0.0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    d = std::max(d, std::abs(a[i] - b[i]));
    m = std::max(m, std::abs(b[i]));
  }
  return d / (1.0 + m);
}

TEST(CliCfa, CfaAndParallelCfaAgreeWithClusterAbaOnChains) {
  for (const std::string& model : {modelFile("arm_6dof.urdf"), modelFile("double_pendulum.urdf"),
                                  kCliData + "floating.urdf"}) {
    SCOPED_TRACE(model);
    const Json info = grbdaJson({"info", model});
    const size_t nv = info["velocity_names"].size();
    std::vector<double> v(nv), tau(nv);
    for (size_t i = 0; i < nv; ++i) {
      v[i] = std::cos(0.9 * static_cast<double>(i));
      tau[i] = 0.5 - std::sin(1.3 * static_cast<double>(i));
    }
    const Args fd = {"fd", model, "--v", joinFull(v), "--tau", joinFull(tau)};
    Args cluster = fd, cfa = fd, parallel = fd;
    cfa.insert(cfa.end(), {"--method", "cfa"});
    parallel.insert(parallel.end(), {"--method", "cfa-parallel", "--threads", "2"});
    const std::vector<double> ref = grbdaJson(cluster)["result"].numbers();
    EXPECT_LT(maxDiff(grbdaJson(cfa)["result"].numbers(), ref), 1e-10);
    const Json p = grbdaJson(parallel);
    EXPECT_EQ(p["method"].text, "cfa-parallel");
    EXPECT_LT(maxDiff(p["result"].numbers(), ref), 1e-10);
    EXPECT_EQ(p["threads"].number, 2.0);
    EXPECT_GE(p["levels"].number, 0.0);
  }
}

TEST(CliCfa, ModelsWithLoopsTakeTheClusterCfaOrAreRefusedNamingWhy) {
  // --method cfa on a model with loops is the serial cluster CFA (algorithms/cluster_cfa.hpp)
  for (const char* file : {"four_bar.urdf", "six_bar.urdf"}) {
    SCOPED_TRACE(file);
    const Json m = grbdaJson({"info", modelFile(file)});
    std::vector<double> q(static_cast<size_t>(m["nq"].number), 0.2), v(static_cast<size_t>(m["nv"].number), -0.7);
    const Args fd = {"fd", modelFile(file), "--q", joinFull(q), "--v", joinFull(v), "--tau", joinFull(v)};
    Args cluster = fd, cfa = fd;
    cluster.insert(cluster.end(), {"--method", "cluster"});
    cfa.insert(cfa.end(), {"--method", "cfa"});
    const std::vector<double> ref = grbdaJson(cluster)["result"].numbers(), got = grbdaJson(cfa)["result"].numbers();
    ASSERT_EQ(got.size(), ref.size());
    for (size_t i = 0; i < ref.size(); ++i) EXPECT_NEAR(got[i], ref[i], 1e-9 * (1.0 + std::abs(ref[i])));
  }
  // massless rotors (the CFA inverts every body's inertia), legs sharing a trunk, and the parallel CFA
  expectCommandError({"fd", modelFile("revolute_rotor_chain.urdf"), "--method", "cfa"}, 2,
                     {"CFA does not apply", "body '", "singular inertia"});
  expectCommandError({"fd", modelFile("mini_cheetah.urdf"), "--method", "cfa"}, 2, {"both hang from body"});
  expectCommandError({"fd", modelFile("four_bar.urdf"), "--method", "cfa-parallel"}, 2, {"cluster '", "--method cfa"});
}

TEST(CliCfa, ThreadsAndReactionsAreCheckedAgainstTheMethod) {
  const std::string model = modelFile("arm_6dof.urdf");
  expectCommandError({"fd", model, "--threads", "2"}, 2, {"--threads", "cfa-parallel"});
  expectCommandError({"fd", model, "--method", "cfa-parallel", "--threads", "0"}, 2, {"--threads", "1..256"});
  expectCommandError({"id", model, "--method", "cfa"}, 2, {"cfa", "valid methods"});
  expectCommandError({"id", model, "--reactions", "--method", "projection"}, 2, {"--reactions", "cluster"});
  expectCommandError({"id", model, "--threads", "2"}, 2, {"--threads"});
}

TEST(CliCfa, PendulumReactionsHoldItsWeight) {
  // pendulum.urdf: m = 2 hanging from "shoulder" (axis y, origin at (0, 0, 1)); at rest and q̈ = 0
  // the joint carries the weight: force (0, 0, m g), moment 0 about the joint origin.
  const Json r = grbdaJson({"id", kCliData + "pendulum.urdf", "--reactions"});
  ASSERT_TRUE(r.has("joint_reactions"));
  const Json& list = r["joint_reactions"];
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["joint"].text, "shoulder");
  EXPECT_LT(maxDiff(list[0]["force"].numbers(), {0.0, 0.0, 2.0 * 9.81}), 1e-12);
  EXPECT_LT(maxDiff(list[0]["moment"].numbers(), {0.0, 0.0, 0.0}), 1e-12);
  EXPECT_LT(maxDiff(list[0]["origin"].numbers(), {0.0, 0.0, 1.0}), 1e-12);
  EXPECT_FALSE(list[0]["whole_cluster"].boolean);
  // at q = 0.5 (no velocity, no acceleration) the moment about y balances gravity: τ = m g l sin q
  const Json tilted = grbdaJson({"id", kCliData + "pendulum.urdf", "--reactions", "--q", "0.5"});
  const double tau = tilted["result"].numbers()[0];
  EXPECT_NEAR(tau, 2.0 * 9.81 * 0.5 * std::sin(0.5), 1e-12);
  EXPECT_NEAR(tilted["joint_reactions"][0]["moment"].numbers()[1], tau, 1e-12);
  // text output lists them too
  const CommandResult text = runGrbda({"id", kCliData + "pendulum.urdf", "--reactions"});
  EXPECT_EQ(text.exitCode, 0);
  EXPECT_NE(text.out.find("joint reactions"), std::string::npos) << text.out;
  // without --reactions the JSON keeps its old keys only
  EXPECT_FALSE(grbdaJson({"id", kCliData + "pendulum.urdf"}).has("joint_reactions"));
}

TEST(CliCfa, LoopModelsGetOneReactionPerCluster) {
  const Json r = grbdaJson({"id", modelFile("revolute_rotor_chain.urdf"), "--reactions"});
  bool whole = false;
  for (const Json& e : r["joint_reactions"].items) whole = whole || e["whole_cluster"].boolean;
  EXPECT_TRUE(whole);
}

TEST(CliCfa, HelpDocumentsCfaThreadsAndReactions) {
  const CommandResult fd = runGrbda({"help", "fd"});
  for (const char* s : {"cfa-parallel", "--threads"}) EXPECT_NE(fd.out.find(s), std::string::npos) << s;
  const CommandResult id = runGrbda({"help", "id"});
  EXPECT_NE(id.out.find("--reactions"), std::string::npos);
}

}  // namespace

#endif  // GRBDA_CLI_PATH
