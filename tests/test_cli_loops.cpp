// `grbda fd --loops embed|constrain|auto` as a subprocess: keeping loops as constraint rows
// changes how they are solved, not what --q, --v, --tau and the result mean — the same command
// with each treatment agrees on every bundled model with loops, with and without contacts.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/grbda.hpp"
#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;
using Args = std::vector<std::string>;

std::string model(const char* file) { return std::string(GRBDA_SOURCE_DIR) + "/models/" + file; }

double maxDifference(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0.0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]) / (1.0 + std::abs(b[i])));
  return worst;
}

}  // namespace

TEST(CliLoops, ConstrainAndAutoAgreeWithEmbed) {
  for (const char* file : {"four_bar.urdf", "six_bar.urdf", "planar_leg_linkage.urdf", "mini_cheetah.urdf",
                           "revolute_rotor_chain.urdf", "generated/parallel_chain_implicit_d5_l5.urdf"}) {
    SCOPED_TRACE(file);
    // a state away from the neutral pose: --q in the embedded model's coordinates
    const grbda::Model m = grbda::loadUrdf(model(file));
    std::vector<double> q(static_cast<size_t>(m.nq())), v(static_cast<size_t>(m.nv())), tau(v.size());
    const grbda::VecX q0 = m.neutralConfiguration();
    for (size_t i = 0; i < q.size(); ++i) q[i] = q0[static_cast<Eigen::Index>(i)] + 0.1 * std::sin(1.0 + static_cast<double>(i));
    for (size_t i = 0; i < v.size(); ++i) {
      v[i] = std::cos(2.0 * static_cast<double>(i));
      tau[i] = 0.5 - 0.1 * static_cast<double>(i);
    }
    const Args base = {"fd", model(file), "--q", joinFull(q), "--v", joinFull(v), "--tau", joinFull(tau)};
    Args embedArgs = base;
    embedArgs.insert(embedArgs.end(), {"--loops", "embed"});
    const Json embed = grbdaJson(embedArgs);
    EXPECT_EQ(embed["method"].text, "cluster");
    EXPECT_FALSE(embed.has("loop_forces"));
    // without --loops and --method: auto, solved by pv where it keeps a loop, C-ABA otherwise
    const Json byDefault = grbdaJson(base);
    EXPECT_EQ(byDefault["method"].text, byDefault.has("loop_forces") ? "pv" : "cluster");
    EXPECT_LT(maxDifference(byDefault["result"].numbers(), embed["result"].numbers()), 1e-8);
    for (const char* treatment : {"constrain", "auto"}) {
      SCOPED_TRACE(treatment);
      for (const char* method : {"pv", "kkt"}) {
        Args args = base;
        args.insert(args.end(), {"--loops", treatment, "--method", method});
        const Json kept = grbdaJson(args);
        EXPECT_EQ(kept["velocity_names"].strings(), embed["velocity_names"].strings());
        EXPECT_LT(maxDifference(kept["result"].numbers(), embed["result"].numbers()), 1e-8);
        if (std::string(treatment) == "constrain") EXPECT_TRUE(kept.has("loop_forces"));
      }
    }
  }
}

TEST(CliLoops, ContactsOnTopOfConstrainedCouplings) {
  Args base = {"fd", model("mini_cheetah.urdf")};
  for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) base.insert(base.end(), {"--contact", foot});
  const Json embed = grbdaJson(base);  // the default, auto, embeds the rotor pairs (closed form)
  EXPECT_FALSE(embed.has("loop_forces"));
  Args args = base;
  args.insert(args.end(), {"--loops", "constrain"});
  const Json kept = grbdaJson(args);
  EXPECT_LT(maxDifference(kept["result"].numbers(), embed["result"].numbers()), 1e-8);
  ASSERT_EQ(kept["contact_forces"].size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(kept["contact_forces"][i]["link"].text, embed["contact_forces"][i]["link"].text);
    EXPECT_LT(maxDifference(kept["contact_forces"][i]["force"].numbers(), embed["contact_forces"][i]["force"].numbers()),
              1e-7);
  }
  EXPECT_EQ(kept["loop_forces"].size(), 12u);  // one group per rotor: 12 geared joints
}

TEST(CliLoops, AutoIsTheDefaultOnlyWhereItCannotChangeTheAnswer) {
  // The six-bar's Generic cluster is cheaper kept as rows (bench/RESULTS.md "Hybrid loops").
  const Args base = {"fd", model("six_bar.urdf"), "--q", "0.3,-0.2,0.4", "--v", "0.5,-1,0.7", "--tau", "1,2,-1"};
  const Json byDefault = grbdaJson(base);
  EXPECT_EQ(byDefault["method"].text, "pv");
  ASSERT_TRUE(byDefault.has("loop_forces"));
  EXPECT_EQ(byDefault["loop_forces"].size(), 1u);
  for (const char* method : {"kkt", "ltl", "pv-early"}) {  // exact solvers keep it too
    Args args = base;
    args.insert(args.end(), {"--method", method});
    EXPECT_TRUE(grbdaJson(args).has("loop_forces")) << method;
  }
  // every other method embeds it: soft rows or an iteration would change the answer
  for (const Args& extra : {Args{"--method", "cluster"}, Args{"--method", "projection"}, Args{"--method", "proximal"},
                            Args{"--method", "pv-soft"}}) {
    Args args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    const Json r = grbdaJson(args);
    EXPECT_FALSE(r.has("loop_forces")) << extra[1];
    EXPECT_LT(maxDifference(r["result"].numbers(), byDefault["result"].numbers()), 1e-8) << extra[1];
  }
  // text output names the kept group's multipliers
  const CommandResult text = runGrbda(base);
  EXPECT_NE(text.out.find("loop forces"), std::string::npos) << text.out;
  // --baumgarte stabilises the kept rows; on a model that keeps none (and has no contact) it is refused
  Args stabilised = base;
  stabilised.insert(stabilised.end(), {"--baumgarte", "0.1"});
  EXPECT_EQ(grbdaJson(stabilised)["method"].text, "pv");
  expectCommandError({"fd", model("four_bar.urdf"), "--baumgarte", "0.1"}, 2, {"--baumgarte", "keeps none"});
}

TEST(CliLoops, SpanningPositionsMustCloseTheKeptLoops) {
  // --q-spanning under the default auto (the six-bar keeps its loop): the same check as embedded
  const Json completed = grbdaJson({"complete", model("six_bar.urdf"), "--q", "0.3,-0.2,0.4"});
  const std::string spanning = joinFull(completed["result"].numbers());
  const Args tail = {"--v", "0.5,-1,0.7", "--tau", "1,2,-1"};
  Args bySpanning = {"fd", model("six_bar.urdf"), "--q-spanning", spanning}, byIndependent = {"fd", model("six_bar.urdf"), "--q", "0.3,-0.2,0.4"};
  bySpanning.insert(bySpanning.end(), tail.begin(), tail.end());
  byIndependent.insert(byIndependent.end(), tail.begin(), tail.end());
  const Json a = grbdaJson(bySpanning), b = grbdaJson(byIndependent);
  ASSERT_TRUE(a.has("loop_forces"));
  EXPECT_LT(maxDifference(a["result"].numbers(), b["result"].numbers()), 1e-8);
  for (const char* loops : {"auto", "embed"})
    expectCommandError({"fd", model("six_bar.urdf"), "--q-spanning", "0.1,0.2,0.3,0.4,0.5", "--loops", loops}, 2,
                       {"violate the constraints", "constraint1"});
}

TEST(CliLoops, SpanningPositionsOfAMixedModelFollowItsSpanningNames) {
  // The six-bar plus a geared rotor on its own link: auto keeps the loop and embeds the rotor, so
  // the loaded model has 6 independent and 7 spanning positions; --q-spanning follows the latter.
  std::ifstream in(model("six_bar.urdf"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string extra = R"(
  <link name="arm"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="rotor"><inertial><mass value="0.1"/><inertia ixx="0.001" iyy="0.001" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="arm_joint" type="continuous"><parent link="base_link"/><child link="arm"/><origin xyz="0 0 0.5"/><axis xyz="0 1 0"/></joint>
  <joint name="rotor_joint" type="continuous" independent="false"><parent link="base_link"/><child link="rotor"/><origin xyz="0 0 0.4"/><axis xyz="0 1 0"/></joint>
  <coupling name="gear"><predecessor link="arm"/><successor link="rotor"/><ratio value="6"/></coupling>
</robot>)";
  text.replace(text.rfind("</robot>"), 8, extra);
  TempDir dir;
  const std::string file = dir.write("six_bar_with_rotor.urdf", text);
  const grbda::Model kept = grbda::loadUrdf(file, grbda::LoadOptions{grbda::LoopTreatment::Auto});
  ASSERT_FALSE(kept.keptLoopGroups().empty());
  ASSERT_EQ(kept.nq() + 1, kept.nqSpanning());

  const Json completed = grbdaJson({"complete", file, "--q", "0.3,-0.2,0.4,0.5"});
  const Args tail = {"--v", "0.5,-1,0.7,0.2", "--tau", "1,2,-1,0.5"};
  Args bySpanning = {"fd", file, "--q-spanning", joinFull(completed["result"].numbers())};
  Args byIndependent = {"fd", file, "--q", "0.3,-0.2,0.4,0.5"};
  bySpanning.insert(bySpanning.end(), tail.begin(), tail.end());
  byIndependent.insert(byIndependent.end(), tail.begin(), tail.end());
  const Json a = grbdaJson(bySpanning), b = grbdaJson(byIndependent);
  ASSERT_TRUE(a.has("loop_forces"));
  EXPECT_LT(maxDifference(a["result"].numbers(), b["result"].numbers()), 1e-8);
  expectCommandError({"fd", file, "--q-spanning", "0.1,0.2,0.3,0.4,0.5,0.6,3.6"}, 2,
                     {"violate the constraints", "constraint1"});
}

TEST(CliLoops, SimulateKeepsTheStateInEmbeddedCoordinates) {
  // Kept rows or embedded cluster: the same trajectory (reduced state integrated, loops closed by
  // Newton at every evaluation), under both integrators.
  for (const char* integrator : {"semi-implicit-euler", "rk4"}) {
    SCOPED_TRACE(integrator);
    const Args base = {"simulate", model("six_bar.urdf"), "--q0", "0.3,-0.2,0.4", "--v0", "1,0,-0.5", "--tau",
                       "0.1,0,0.05", "--duration", "0.2", "--integrator", integrator};
    Args embedArgs = base, keptArgs = base;
    embedArgs.insert(embedArgs.end(), {"--loops", "embed"});
    keptArgs.insert(keptArgs.end(), {"--loops", "constrain"});
    const Json embed = grbdaJson(embedArgs), kept = grbdaJson(keptArgs), byDefault = grbdaJson(base);
    EXPECT_EQ(embed["method"].text, "cluster");
    EXPECT_EQ(kept["method"].text, "pv");
    EXPECT_EQ(byDefault["method"].text, "pv");
    EXPECT_EQ(kept["position_names"].strings(), embed["position_names"].strings());
    EXPECT_GT(maxDifference(embed["final_q"].numbers(), {0.3, -0.2, 0.4}), 0.05);  // it moved
    for (const Json* r : {&kept, &byDefault}) {
      EXPECT_LT(maxDifference((*r)["final_q"].numbers(), embed["final_q"].numbers()), 1e-9);
      EXPECT_LT(maxDifference((*r)["final_v"].numbers(), embed["final_v"].numbers()), 1e-9);
      EXPECT_NEAR((*r)["energy_end"].number, embed["energy_end"].number, 1e-9);
    }
  }
  expectCommandError({"simulate", model("six_bar.urdf"), "--loops", "constrain", "--method", "cluster"}, 2,
                     {"--loops", "cluster", "pv"});
}

TEST(CliLoops, UsageErrors) {
  expectCommandError({"fd", model("four_bar.urdf"), "--loops", "cut"}, 2, {"--loops", "cut", "constrain"});
  expectCommandError({"fd", model("four_bar.urdf"), "--loops", "constrain", "--method", "cluster"}, 2,
                     {"--loops", "cluster", "pv"});
}

#endif  // GRBDA_CLI_PATH
