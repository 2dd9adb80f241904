// `grbda` --method, osim, --q-spanning and complete, run as a subprocess: the exact methods agree
// with each other on looped models, the approximate ones do not (and dropping the rotors is worse
// than their armature), osim against a hand-derived pendulum, complete feeding --q-spanning, and
// the exit codes of bad methods, unknown links and loops that cannot close.
#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"
#include "support/model_files.hpp"

using grbda::testsupport::modelFile;

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;  // the command runner, its JSON reader and the CLI helpers

const std::string kPendulum = std::string(GRBDA_SOURCE_DIR) + "/tests/data/cli/pendulum.urdf";
using Args = std::vector<std::string>;

Args with(Args base, const Args& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

std::vector<double> flatten(const Json& result) {
  if (result.type != Json::Type::Array || result.size() == 0 || result[0].type != Json::Type::Array)
    return result.numbers();
  std::vector<double> all;
  for (const auto& row : result.items)
    for (double x : row.numbers()) all.push_back(x);
  return all;
}

double maxAbs(const std::vector<double>& x) {
  double m = 0;
  for (double v : x) m = std::max(m, std::abs(v));
  return m;
}

/// max |a − b| / (1 + max |b|).
double relDiff(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double d = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d / (1.0 + maxAbs(b));
}

bool isQuaternionEntry(const std::string& name) {
  for (const char* suffix : {"qw", "qx", "qy", "qz"}) {
    const std::string s(suffix);
    if (name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) return true;
  }
  return false;
}

/// A nonzero state of a model, from the coordinate names of `grbda info`: quaternions at the
/// identity, every other position, v and a/tau set by a smooth pattern away from zero.
struct CliState {
  std::string q, v, w;  ///< w: tau or qdd
  size_t nv = 0;
};
CliState stateOf(const std::string& model, double scale = 1.0) {
  const Json info = grbdaJson({"info", model});
  const std::vector<std::string> names = info["position_names"].strings();
  std::vector<double> q(names.size());
  for (size_t i = 0; i < q.size(); ++i)
    q[i] = isQuaternionEntry(names[i]) ? (names[i].substr(names[i].size() - 2) == "qw" ? 1.0 : 0.0)
                                       : scale * (0.3 + 0.2 * std::sin(1.7 * static_cast<double>(i)));
  CliState s;
  s.nv = info["velocity_names"].size();
  std::vector<double> v(s.nv), w(s.nv);
  for (size_t i = 0; i < s.nv; ++i) {
    v[i] = scale * std::cos(0.9 * static_cast<double>(i) + 0.4);
    w[i] = scale * (0.5 - std::sin(1.3 * static_cast<double>(i)));
  }
  s.q = joinFull(q);
  s.v = joinFull(v);
  s.w = joinFull(w);
  return s;
}

std::vector<double> resultOf(const Args& args) { return flatten(grbdaJson(args)["result"]); }

// Looped models: geared rotors, a four-bar, a humanoid leg with differential transmissions, a
// floating quadruped.
const std::vector<std::string> kLoopedModels = {"revolute_rotor_chain.urdf", "four_bar.urdf",
                                                "mit_humanoid_leg.urdf", "mini_cheetah.urdf"};

std::string linkXml(const std::string& name) {
  return "  <link name=\"" + name +
         "\"><inertial><mass value=\"1\"/><origin xyz=\"0.2 0 0\"/>"
         "<inertia ixx=\"0.01\" iyy=\"0.02\" izz=\"0.03\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n";
}

std::string jointXml(const std::string& name, const std::string& parent, const std::string& child, double x,
                     bool independent) {
  return "  <joint name=\"" + name + "\" type=\"continuous\" independent=\"" + (independent ? "true" : "false") +
         "\"><parent link=\"" + parent + "\"/><child link=\"" + child + "\"/><origin xyz=\"" + std::to_string(x) +
         " 0 0\"/><axis xyz=\"0 0 1\"/></joint>\n";
}

/// A planar four-bar that is not a parallelogram: crank 0.8 from the origin, coupler 0.5, rocker
/// 0.5 from (1, 0). The coupler and rocker reach at most 1.0 from the rocker pivot, so with the
/// crank pointing away (angle pi, tip 1.8 away) the loop cannot close; near angle 0 (tip 0.2
/// away) it closes.
std::string unclosableFourBar() {
  return "<robot name=\"long_crank_four_bar\">\n  <link name=\"ground\"/>\n" + linkXml("crank") +
         linkXml("coupler") + linkXml("rocker") + jointXml("crank_joint", "ground", "crank", 0.0, true) +
         jointXml("coupler_joint", "crank", "coupler", 0.8, false) +
         jointXml("rocker_joint", "ground", "rocker", 1.0, false) +
         "  <loop name=\"closure\" type=\"revolute\">\n"
         "    <predecessor link=\"coupler\"><origin xyz=\"0.5 0 0\"/></predecessor>\n"
         "    <successor link=\"rocker\"><origin xyz=\"0.5 0 0\"/></successor>\n"
         "    <axis xyz=\"0 0 1\"/>\n  </loop>\n</robot>\n";
}

}  // namespace

// --- exact methods agree -----------------------------------------------------------------------

TEST(CliMethods, ForwardDynamicsOfAllExactMethodsAgree) {
  for (const auto& name : kLoopedModels) {
    SCOPED_TRACE(name);
    const std::string model = modelFile(name);
    const CliState s = stateOf(model);
    const Args fd = {"fd", model, "--q", s.q, "--v", s.v, "--tau", s.w};
    const std::vector<double> cluster = resultOf(with(fd, {"--method", "cluster"}));
    ASSERT_EQ(cluster.size(), s.nv);
    EXPECT_GT(maxAbs(cluster), 1e-3);
    EXPECT_EQ(resultOf(fd), cluster);  // cluster is the default
    for (const char* method : {"projection", "lagrange", "proximal"})
      EXPECT_LT(relDiff(resultOf(with(fd, {"--method", method})), cluster), 1e-8) << method;
  }
}

TEST(CliMethods, ProximalReportsItsIterationsAndTakesItsSettings) {
  const std::string model = modelFile("four_bar.urdf");
  const CliState s = stateOf(model);
  const Args fd = {"fd", model, "--q", s.q, "--v", s.v, "--tau", s.w, "--method", "proximal"};
  const Json r = grbdaJson(with(fd, {"--prox-iters", "30", "--prox-mu", "1e-6"}));
  EXPECT_EQ(r["method"].text, "proximal");
  EXPECT_GE(r["iterations"].number, 1);
  EXPECT_LE(r["iterations"].number, 30);
  EXPECT_LT(r["residual"].number, 1e-9);
  // one iteration with a large mu leaves the constraint visibly violated
  const Json rough = grbdaJson(with(fd, {"--prox-iters", "1", "--prox-mu", "10"}));
  EXPECT_EQ(rough["iterations"].number, 1);
  EXPECT_GT(rough["residual"].number, 1e-6);
  expectCommandError(with(fd, {"--prox-iters", "0"}), 2, {"--prox-iters"});
  expectCommandError(with(fd, {"--prox-mu", "-1"}), 2, {"--prox-mu"});
  expectCommandError({"fd", model, "--prox-iters", "3"}, 2, {"proximal"});
}

TEST(CliMethods, InverseDynamicsAndMassMatrixOfClusterAndProjectionAgree) {
  for (const auto& name : kLoopedModels) {
    SCOPED_TRACE(name);
    const std::string model = modelFile(name);
    const CliState s = stateOf(model);
    const Args id = {"id", model, "--q", s.q, "--v", s.v, "--a", s.w};
    const std::vector<double> tau = resultOf(id);
    EXPECT_GT(maxAbs(tau), 1e-3);
    EXPECT_LT(relDiff(resultOf(with(id, {"--method", "projection"})), tau), 1e-9);
    const Args mm = {"mass-matrix", model, "--q", s.q};
    const std::vector<double> H = resultOf(mm);
    EXPECT_EQ(H.size(), s.nv * s.nv);
    EXPECT_LT(relDiff(resultOf(with(mm, {"--method", "projection"})), H), 1e-9);
  }
}

// --- approximate methods ---------------------------------------------------------------------

TEST(CliMethods, ApproximationBeatsDroppingTheRotorsOnTheHumanoidLeg) {
  const std::string model = modelFile("mit_humanoid_leg.urdf");
  const CliState s = stateOf(model);
  const auto errorOf = [&](const Args& args) {
    const std::vector<double> exact = resultOf(args);
    const double approximate = relDiff(resultOf(with(args, {"--method", "approximate"})), exact);
    const double unconstrained = relDiff(resultOf(with(args, {"--method", "unconstrained"})), exact);
    return std::make_pair(approximate, unconstrained);
  };
  for (const Args& args : {Args{"id", model, "--q", s.q, "--v", s.v, "--a", s.w},
                           Args{"mass-matrix", model, "--q", s.q},
                           Args{"fd", model, "--q", s.q, "--v", s.v, "--tau", s.w}}) {
    SCOPED_TRACE(args[0]);
    const auto [approximate, unconstrained] = errorOf(args);
    EXPECT_GT(approximate, 1e-6);  // an approximation, not the exact answer
    EXPECT_GT(unconstrained, approximate);
  }
}

TEST(CliMethods, ApproximateOsimUsesTheArmature) {
  const std::string model = modelFile("revolute_rotor_chain.urdf");
  const Json info = grbdaJson({"info", model});
  const CliState s = stateOf(model);
  // the last independent body: the tip of the chain (the rotors are dependent)
  std::string link;
  for (const auto& b : info["bodies"].items)
    if (b["independent"].boolean) link = b["name"].text;
  ASSERT_FALSE(link.empty());
  const Args osim = {"osim", model, "--q", s.q, "--point", link + ":0.1,0,0", "--linear"};
  const std::vector<double> exact = resultOf(osim);
  const std::vector<double> approximate = resultOf(with(osim, {"--method", "approximate"}));
  const std::vector<double> unconstrained = resultOf(with(osim, {"--method", "unconstrained"}));
  EXPECT_GT(relDiff(approximate, exact), 1e-6);
  EXPECT_GT(relDiff(unconstrained, exact), relDiff(approximate, exact));
}

// --- osim --------------------------------------------------------------------------------------

// Pendulum about y through (0, 0, 1), point P = (0, 0, -0.5) on the arm (its centre of mass):
// in arm axes at P the twist is q̇ (0, 1, 0 | -0.5, 0, 0) whatever q, so Λ⁻¹ = j jᵀ / H with
// j = (0, 1, 0, -0.5, 0, 0) and H = m l² + I_yy = 0.53.
TEST(CliMethods, PendulumOsimIsJJTransposeOverH) {
  const double H = 2.0 * 0.25 + 0.03;
  const std::vector<double> j = {0, 1, 0, -0.5, 0, 0};
  for (const char* q : {"0", "0.7", "-2.1"}) {
    for (const char* method : {"cluster", "projection"}) {
      SCOPED_TRACE(std::string(q) + " " + method);
      const Json r = grbdaJson({"osim", kPendulum, "--q", q, "--point", "arm:0,0,-0.5", "--method", method});
      ASSERT_EQ(r["result"].size(), 6u);
      for (size_t a = 0; a < 6; ++a) {
        ASSERT_EQ(r["result"][a].size(), 6u);
        for (size_t b = 0; b < 6; ++b) EXPECT_NEAR(r["result"][a][b].number, j[a] * j[b] / H, 1e-14);
      }
      EXPECT_EQ(r["result_labels"].strings()[0], "arm:wx");
      const Json lin = grbdaJson({"osim", kPendulum, "--q", q, "--point", "arm:0,0,-0.5", "--linear", "--method", method});
      ASSERT_EQ(lin["result"].size(), 3u);
      EXPECT_NEAR(lin["result"][0][0].number, 0.25 / H, 1e-14);
      EXPECT_NEAR(maxAbs(flatten(lin["result"])), 0.25 / H, 1e-14);
    }
  }
}

TEST(CliMethods, OsimOfClusterAndProjectionAgreeWithSizesPerPoint) {
  const std::string model = modelFile("mini_cheetah.urdf");
  const CliState s = stateOf(model);
  // two legs, two links of one leg (a body and its ancestor) and a rotor (a dependent body)
  const std::vector<std::string> links = {"FR_knee_link", "FL_knee_link", "FR_hip_link", "HL_knee_rotor"};
  Args osim = {"osim", model, "--q", s.q};
  for (const auto& link : links) {
    osim.push_back("--point");
    osim.push_back(link + ":0.01,-0.02,0.03");
  }
  const size_t ne = links.size();
  const Json six = grbdaJson(osim);
  EXPECT_EQ(six["result"].size(), 6 * ne);
  EXPECT_EQ(six["result_labels"].size(), 6 * ne);
  EXPECT_TRUE(six.has("position_names") && six.has("velocity_names"));
  const std::vector<double> L = flatten(six["result"]);
  EXPECT_GT(maxAbs(L), 1e-3);
  EXPECT_LT(relDiff(resultOf(with(osim, {"--method", "projection"})), L), 1e-9);
  const Json three = grbdaJson(with(osim, {"--linear"}));
  ASSERT_EQ(three["result"].size(), 3 * ne);
  // the linear blocks are the lower-right 3x3 of each 6-D block pair
  for (size_t a = 0; a < 3 * ne; ++a)
    for (size_t b = 0; b < 3 * ne; ++b)
      EXPECT_NEAR(three["result"][a][b].number, six["result"][6 * (a / 3) + 3 + a % 3][6 * (b / 3) + 3 + b % 3].number,
                  1e-12);
}

// PV-OSIM, PV-OSIM-fast and the dense J H⁻¹ Jᵀ give C-EFPA's matrix (under its names cluster and
// efpa), 6-D and linear, on a fixed-base looped model and on floating robots; pv-fast reports
// whether eq. 54 applied.
TEST(CliMethods, OsimPvPvFastEfpaAndDenseAgree) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"mini_cheetah.urdf", {"FR_foot:0.01,0,0", "FL_foot", "HR_knee_link:0,0,-0.1", "HL_knee_rotor:0,0.01,0"}},
      {"mit_humanoid.urdf", {"right_foot", "left_foot", "right_hand", "left_hand"}},
      {"jvrc1_humanoid.urdf", {"right-foot", "left-foot", "right-hand", "left-hand"}},
      {"four_bar.urdf", {"link2:0.1,0,0"}}};
  for (const auto& [file, points] : cases) {
    const std::string model = modelFile(file);
    const CliState s = stateOf(model);
    Args osim = {"osim", model, "--q", s.q};
    for (const auto& p : points) {
      osim.push_back("--point");
      osim.push_back(p);
    }
    for (const Args& extra : {Args{}, Args{"--linear"}}) {
      SCOPED_TRACE(file + (extra.empty() ? "" : " --linear"));
      const Args base = with(osim, extra);
      const std::vector<double> efpa = resultOf(with(base, {"--method", "efpa"}));
      EXPECT_GT(maxAbs(efpa), 1e-3);
      EXPECT_EQ(resultOf(with(base, {"--method", "cluster"})), efpa);
      for (const char* method : {"pv", "pv-fast", "dense"}) {
        const Json r = grbdaJson(with(base, {"--method", method}));
        EXPECT_EQ(r["method"].text, method);
        EXPECT_LT(relDiff(flatten(r["result"]), efpa), 1e-9) << method;
        if (std::string(method) == "pv-fast") EXPECT_TRUE(r.has("fell_back") && r.has("branches"));
      }
    }
  }
}

TEST(CliMethods, OsimRejectsUnknownLinksAndMissingPoints) {
  const std::string model = modelFile("four_bar.urdf");
  expectCommandError({"osim", model, "--q", "0.5", "--point", "no_such_link:0,0,0"}, 2, {"no_such_link"});
  expectCommandError({"osim", model, "--q", "0.5"}, 2, {"--point"});
  expectCommandError({"osim", model, "--q", "0.5", "--point", "link1:0,0"}, 2, {"3 coordinates"});
}

// --- methods on the command line ---------------------------------------------------------------

TEST(CliMethods, BadMethodNamesTheValidOnes) {
  const std::string model = modelFile("four_bar.urdf");
  expectCommandError({"fd", model, "--method", "magic"}, 2,
             {"magic", "cluster", "projection", "lagrange", "proximal", "approximate", "unconstrained"});
  for (const char* command : {"id", "mass-matrix"})
    expectCommandError({command, model, "--method", "lagrange"}, 2, {"lagrange", "cluster, projection, approximate"});
  expectCommandError({"osim", model, "--point", "link1", "--method", "proximal"}, 2, {"valid methods"});
}

TEST(CliMethods, HelpDocumentsTheNewOptions) {
  const CommandResult fd = runGrbda({"help", "fd"});
  for (const char* opt : {"--method", "--q-spanning", "--prox-iters", "--prox-mu", "lagrange", "proximal"})
    EXPECT_NE(fd.out.find(opt), std::string::npos) << opt;
  const CommandResult osim = runGrbda({"osim", "--help"});
  EXPECT_EQ(osim.exitCode, 0);
  for (const char* opt : {"--point", "--linear", "--method", "--q-spanning", "unconstrained"})
    EXPECT_NE(osim.out.find(opt), std::string::npos) << opt;
  EXPECT_EQ(osim.out.find("lagrange"), std::string::npos);
  const CommandResult complete = runGrbda({"help", "complete"});
  EXPECT_NE(complete.out.find("--q"), std::string::npos);
  EXPECT_NE(runGrbda({"help"}).out.find("osim"), std::string::npos);
}

// --- --q-spanning and complete -------------------------------------------------------------------

TEST(CliMethods, CompleteFeedsQSpanningWithTheSameResults) {
  for (const auto& name : kLoopedModels) {
    SCOPED_TRACE(name);
    const std::string model = modelFile(name);
    const CliState s = stateOf(model);
    const Json c = grbdaJson({"complete", model, "--q", s.q});
    const std::vector<std::string> names = c["spanning_position_names"].strings();
    const std::vector<double> qSpan = c["result"].numbers();
    ASSERT_EQ(names.size(), qSpan.size());
    EXPECT_GT(qSpan.size(), c["position_names"].size());  // every model here has dependent joints
    const std::string qs = joinFull(qSpan);
    for (const char* method : {"cluster", "projection", "approximate"}) {
      SCOPED_TRACE(method);
      const Args tail = {"--v", s.v, "--tau", s.w, "--method", method};
      const std::vector<double> viaQ = resultOf(with({"fd", model, "--q", s.q}, tail));
      const Json viaSpan = grbdaJson(with({"fd", model, "--q-spanning", qs}, tail));
      EXPECT_TRUE(viaSpan.has("q_spanning"));
      EXPECT_LT(relDiff(viaSpan["result"].numbers(), viaQ), 1e-9);
    }
    EXPECT_LT(relDiff(resultOf({"mass-matrix", model, "--q-spanning", qs}), resultOf({"mass-matrix", model, "--q", s.q})),
              1e-9);
    // complete given the spanning positions checks them and gives them back
    EXPECT_LT(relDiff(resultOf({"complete", model, "--q-spanning", qs}), qSpan), 1e-15);
  }
}

TEST(CliMethods, QSpanningIsCheckedAndExclusiveWithQ) {
  const std::string model = modelFile("four_bar.urdf");
  expectCommandError({"fd", model, "--q", "0.5", "--q-spanning", "0.5,-0.5,0.5"}, 2, {"--q-spanning"});
  expectCommandError({"id", model, "--q-spanning", "0.5,-0.5"}, 2, {"--q-spanning", "joint3"});
  // an open loop: joint2 should be -joint1
  expectCommandError({"mass-matrix", model, "--q-spanning", "0.5,0.3,0.5"}, 2, {"constraints"});
  // the parallelogram branch closes it: joint2 = -joint1, joint3 = joint1
  const Json c = grbdaJson({"complete", model, "--q", "0.5"});
  EXPECT_NEAR(c["result"][0].number, 0.5, 1e-12);
  EXPECT_NEAR(c["result"][1].number, -0.5, 1e-9);
  EXPECT_NEAR(c["result"][2].number, 0.5, 1e-9);
}

TEST(CliMethods, CompleteExitsFourWhenTheLoopCannotClose) {
  TempDir dir;
  ASSERT_FALSE(dir.path.empty());
  const std::string model = dir.write("long_crank_four_bar.urdf", unclosableFourBar());
  const Json ok = grbdaJson({"complete", model, "--q", "0.1"});
  ASSERT_EQ(ok["result"].size(), 3u);
  // the closed loop: coupler tip = rocker tip
  const double a = ok["result"][0].number, b = ok["result"][1].number, c = ok["result"][2].number;
  EXPECT_NEAR(0.8 * std::cos(a) + 0.5 * std::cos(a + b), 1.0 + 0.5 * std::cos(c), 1e-8);
  EXPECT_NEAR(0.8 * std::sin(a) + 0.5 * std::sin(a + b), 0.5 * std::sin(c), 1e-8);
  expectCommandError({"complete", model, "--q", "3.14159"}, 4, {"close"});
  expectCommandError({"fd", model, "--q", "3.14159"}, 4, {"close"});
}

#endif  // GRBDA_CLI_PATH
