// `grbda fd --loops embed|constrain|auto` as a subprocess: keeping loops as constraint rows
// changes how they are solved, not what --q, --v, --tau and the result mean — the same command
// with each treatment agrees on every bundled model with loops, with and without contacts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/grbda.hpp"
#include "support/cli_runner.hpp"

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
    const Json embed = grbdaJson(base);
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
  const Json embed = grbdaJson(base);
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

TEST(CliLoops, UsageErrors) {
  expectCommandError({"fd", model("four_bar.urdf"), "--loops", "cut"}, 2, {"--loops", "cut", "constrain"});
  expectCommandError({"fd", model("four_bar.urdf"), "--loops", "constrain", "--method", "cluster"}, 2,
                     {"--loops", "cluster", "pv"});
}

#endif  // GRBDA_CLI_PATH
