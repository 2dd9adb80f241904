// `grbda id --contact`, `grbda impulse` and `grbda regressor` as subprocesses (issue #24's
// command line), each checked against another command that computes the same physics another
// way: the regressor times its parameters against C-RNEA (`id`); the contact-consistent τ fed
// back to constrained forward dynamics (`fd --contact`, PV) gives back q̈ and the same forces;
// the impulse's energy change against ½ vᵀHv from `mass-matrix` before and after.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/spatial/types.hpp"
#include "support/cli_runner.hpp"
#include "support/exact_text.hpp"
#include "support/random_model.hpp"

#ifdef GRBDA_CLI_PATH

using namespace grbda::testing;

namespace {


const auto listOf = grbda::testsupport::exactList;  // every digit: the commands read back what was printed

std::string cheetah() { return std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf"; }

// A Mini Cheetah pose: the trunk tilted (unit quaternion), legs bent.
const std::string kCheetahQ = "0.1,-0.2,0.3,0.9801,0.1,-0.1,0.1411,0.1,-0.8,1.6,-0.1,-0.7,1.5,0.2,-0.9,1.7,-0.2,-0.6,1.4";
const std::vector<std::string> kFeet = {"--contact", "FR_foot", "--contact", "FL_foot", "--contact", "HR_foot",
                                        "--contact", "HL_foot"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

/// The forces of `fd`/`id`/`impulse`'s "contact_forces"/"impulses" list, one after the other.
grbda::VecX forcesOf(const Json& list) {
  std::vector<double> all;
  for (size_t i = 0; i < list.items.size(); ++i)
    for (double f : list[i]["force"].numbers()) all.push_back(f);
  return Eigen::Map<const grbda::VecX>(all.data(), static_cast<Eigen::Index>(all.size()));
}

}  // namespace

TEST(CliContactDynamics, RegressorTimesParametersIsInverseDynamics) {
  grbda::testsupport::Rng rng(7);
  for (const std::string& file : {cheetah(), std::string(GRBDA_SOURCE_DIR) + "/models/four_bar.urdf"}) {
    SCOPED_TRACE(file);
    const int nv = static_cast<int>(grbdaJson({"id", file})["v"].items.size());
    const std::string v = listOf(grbda::testsupport::randomVector(rng, nv)), a = listOf(grbda::testsupport::randomVector(rng, nv));
    std::vector<std::string> state = {"--v", v, "--a", a};
    if (file == cheetah()) state = with(state, {"--q", kCheetahQ});
    const Json reg = grbdaJson(with({"regressor", file}, state));
    for (const char* key : {"regressor", "parameters", "parameter_names"}) ASSERT_TRUE(reg.has(key)) << key;
    const grbda::VecX p = vectorOf(reg["parameters"]);
    EXPECT_EQ(reg["parameter_names"].items.size(), static_cast<size_t>(p.size()));
    const grbda::MatX Y = matrixOf(reg["regressor"], static_cast<size_t>(p.size()));
    ASSERT_EQ(Y.rows(), nv);
    const grbda::VecX tau = vectorOf(grbdaJson(with({"id", file}, state))["result"]);
    EXPECT_LT((Y * p - tau).cwiseAbs().maxCoeff(), 1e-9 * (1.0 + tau.cwiseAbs().maxCoeff()));
  }
}

TEST(CliContactDynamics, ContactInverseDynamicsFedToConstrainedForwardDynamicsGivesItBack) {
  // standing still on four feet: q̈ = 0 is consistent with the contacts at v = 0
  const Json id = grbdaJson(with({"id", cheetah(), "--q", kCheetahQ}, kFeet));
  ASSERT_TRUE(id.has("tau") && id.has("contact_forces"));
  const grbda::VecX tau = vectorOf(id["tau"]);
  ASSERT_EQ(tau.size(), 18);
  EXPECT_LT(tau.head(6).cwiseAbs().maxCoeff(), 1e-12) << "the floating base is unactuated";
  const Json fd = grbdaJson(with({"fd", cheetah(), "--q", kCheetahQ, "--tau", listOf(tau)}, kFeet));
  EXPECT_LT(vectorOf(fd["result"]).cwiseAbs().maxCoeff(), 1e-8);
  const grbda::VecX lambdaId = forcesOf(id["contact_forces"]), lambdaFd = forcesOf(fd["contact_forces"]);
  ASSERT_EQ(lambdaId.size(), 12);
  EXPECT_LT((lambdaId - lambdaFd).cwiseAbs().maxCoeff(), 1e-9 * lambdaId.cwiseAbs().maxCoeff());
  EXPECT_GT(lambdaId.sum(), 0.0);
}

TEST(CliContactDynamics, ImpulseEnergyChangeIsTheKineticEnergyDifference) {
  const std::string v = "0.2,-0.1,0.3,0.1,0.2,-1.5,0.5,-0.4,0.3,0.2,0.6,-0.2,-0.3,0.4,0.1,0.2,-0.5,0.3";
  const grbda::MatX H = matrixOf(grbdaJson({"mass-matrix", cheetah(), "--q", kCheetahQ})["result"]);
  const grbda::VecX v0 = vectorOf(grbdaJson({"id", cheetah(), "--v", v})["v"]);
  const double T0 = 0.5 * v0.dot(H * v0);
  for (const char* e : {"0", "0.5", "1"}) {
    SCOPED_TRACE(std::string("restitution ") + e);
    const Json r = grbdaJson(with({"impulse", cheetah(), "--q", kCheetahQ, "--v", v, "--restitution", e},
                                  {"--contact", "FR_foot", "--contact", "HL_foot"}));
    for (const char* key : {"v_plus", "impulses", "energy_change"}) ASSERT_TRUE(r.has(key)) << key;
    ASSERT_EQ(r["impulses"].items.size(), 2u);
    const grbda::VecX vPlus = vectorOf(r["v_plus"]);
    const double dT = 0.5 * vPlus.dot(H * vPlus) - T0;
    EXPECT_NEAR(r["energy_change"].number, dT, 1e-9 * T0);
    if (std::string(e) == "1") EXPECT_NEAR(dT, 0.0, 1e-9 * T0);  // an elastic impact keeps the energy
    else EXPECT_LT(dT, -1e-3 * T0);
  }
  expectCommandError({"impulse", cheetah(), "--contact", "FR_foot", "--restitution", "1.5"}, 2, {"restitution"});
  expectCommandError({"regressor", cheetah(), "--a", "1,2"}, 2, {"--a"});
}

#endif  // GRBDA_CLI_PATH
