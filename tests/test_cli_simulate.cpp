// `grbda simulate` as a subprocess: energy conservation of a passive four-bar (a local loop kept
// closed by the completion) and of the Mini Cheetah floating in zero gravity, the energy it reports
// against one recomputed here from H (and frame kinematics), the CSV trajectory, the JSON keys,
// contacts held by Baumgarte, and the usage errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/grbda.hpp"
#include "support/cli_runner.hpp"
#include "support/model_files.hpp"

using grbda::testsupport::modelFile;

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;
using Args = std::vector<std::string>;
// A spinning, tumbling base with every leg joint moving (rad/s, m/s).
const std::string kCheetahV0 = "0.8,-0.5,1.2,0.3,0.1,-0.2,1,-2,3,-1,2,-3,0.5,1.5,-2.5,-0.5,-1.5,2.5";
// Base at 0.25 m, every leg bent (abad 0, hip -0.8, knee 1.6).
const std::string kCheetahBent = "0,0,0.25,1,0,0,0,0,-0.8,1.6,0,-0.8,1.6,0,-0.8,1.6,0,-0.8,1.6";

Json simulateJson(Args args) {
  args.insert(args.begin(), "simulate");
  args.push_back("--json");
  const CommandResult r = runGrbda(args);
  EXPECT_EQ(r.exitCode, 0) << commandLine(args) << "\n" << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;  // no progress bar: stderr is not a terminal here
  if (r.exitCode != 0) return Json{};
  return JsonReader::parse(r.out);
}

grbda::VecX toVec(const std::vector<double>& x) {
  return Eigen::Map<const grbda::VecX>(x.data(), static_cast<Eigen::Index>(x.size()));
}

/// Energy recomputed without the library's energy functions: ½ vᵀ H v, and the potential from each
/// body's centre of mass placed by its link frame.
double energyOf(const grbda::Model& m, const grbda::VecX& q, const grbda::VecX& v) {
  grbda::Data data(m);
  const double kinetic = 0.5 * v.dot(grbda::massMatrix(m, data, q) * v);
  grbda::forwardKinematics(m, data, q);
  double potential = 0.0;
  for (size_t f = 0; f < m.frames().size(); ++f) {
    const grbda::Frame& fr = m.frames()[f];
    if (fr.body < 0 || fr.name != m.body(fr.body).name) continue;  // the body's own link frame
    const grbda::Mat6& I = m.body(fr.body).inertia;
    const double mass = I(5, 5);
    if (mass <= 0.0) continue;
    const grbda::Vec3 com(I(2, 4) / mass, I(0, 5) / mass, I(1, 3) / mass);
    potential -= mass * m.gravity().dot(grbda::framePosition(m, data, static_cast<int>(f), fr.placement.transformPoint(com)));
  }
  return kinetic + potential;
}

double relativeEnergyChange(const Json& j) {
  const double e0 = j["energy_start"].number, e1 = j["energy_end"].number;
  return std::abs(e1 - e0) / std::max(1.0, std::abs(e0));
}

std::string tempPath(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/grbda_simulate_" + std::to_string(::getpid()) + "_" + name;
}

}  // namespace

TEST(CliSimulate, PassiveFourBarConservesEnergyWithItsLoopClosed) {
  // Gravity along +y: the crank swings between 0.5 and pi - 0.5 rad, away from the singular
  // (collinear) poses 0 and pi.
  const Args base = {kFourBar, "--gravity", "0,9.81,0", "--q0", "0.5", "--duration", "1", "--dt", "0.001"};
  Args rk4 = base, euler = base;
  rk4.insert(rk4.end(), {"--integrator", "rk4"});
  const Json j = simulateJson(rk4), e = simulateJson(euler);
  ASSERT_TRUE(j.has("energy_end") && e.has("energy_end"));
  EXPECT_EQ(j["integrator"].text, "rk4");
  EXPECT_EQ(e["integrator"].text, "semi-implicit-euler");
  const grbda::Model m = grbda::loadUrdf(kFourBar);
  grbda::Model swinging = m;
  swinging.setGravity(grbda::Vec3(0, 9.81, 0));
  const grbda::VecX q1 = toVec(j["final_q"].numbers()), v1 = toVec(j["final_v"].numbers());
  EXPECT_GT(std::abs(q1[0] - 0.5), 0.3) << "the crank must have swung";
  EXPECT_NEAR(j["energy_start"].number, energyOf(swinging, grbda::VecX::Constant(1, 0.5), grbda::VecX::Zero(1)), 1e-9);
  EXPECT_NEAR(j["energy_end"].number, energyOf(swinging, q1, v1), 1e-9);
  const double rk4Drift = relativeEnergyChange(j), eulerDrift = relativeEnergyChange(e);
  std::cout << "[ measured ] four-bar energy change over 1 s: rk4 " << rk4Drift << ", semi-implicit Euler "
            << eulerDrift << "; loop residual " << j["max_constraint_residual"].number << " m\n";
  EXPECT_LT(rk4Drift, 1e-9);
  EXPECT_LT(rk4Drift, eulerDrift);
  EXPECT_LT(j["max_constraint_residual"].number, 1e-10);
  EXPECT_FALSE(j.has("max_contact_drift"));
}

TEST(CliSimulate, FloatingCheetahInZeroGravityConservesEnergy) {
  const Json j = simulateJson({kCheetah, "--gravity", "0,0,0", "--v0", kCheetahV0, "--integrator", "rk4",
                               "--duration", "1", "--dt", "0.001"});
  ASSERT_TRUE(j.has("final_q"));
  const grbda::Model m = grbda::loadUrdf(kCheetah);
  const grbda::VecX q1 = toVec(j["final_q"].numbers()), v1 = toVec(j["final_v"].numbers());
  EXPECT_NEAR(q1.segment<4>(3).norm(), 1.0, 1e-12);  // the quaternion stays on the manifold
  grbda::Model weightless = m;
  weightless.setGravity(grbda::Vec3::Zero());
  const double kinetic = energyOf(weightless, q1, v1);
  EXPECT_NEAR(j["energy_end"].number, kinetic, 1e-9 * kinetic);
  const double drift = relativeEnergyChange(j);
  std::cout << "[ measured ] Mini Cheetah (zero gravity, rk4, dt 1 ms) energy change over 1 s: " << drift << "\n";
  EXPECT_LT(drift, 1e-10);
  EXPECT_GT(j["energy_start"].number, 1.0);  // the test would be vacuous at rest
}

TEST(CliSimulate, WritesOneCsvRowPerStepWithNamedColumns) {
  const std::string path = tempPath("traj.csv");
  const Json j = simulateJson({kCheetah, "--duration", "0.01", "--dt", "0.001", "--out", path});
  ASSERT_TRUE(j.has("steps"));
  EXPECT_EQ(j["steps"].number, 10);
  EXPECT_DOUBLE_EQ(j["duration"].number, 0.01);
  EXPECT_DOUBLE_EQ(j["dt"].number, 0.001);
  std::ifstream in(path);
  std::string header, line, last;
  std::getline(in, header);
  int rows = 0;
  while (std::getline(in, line)) ++rows, last = line;
  std::remove(path.c_str());
  const grbda::Model m = grbda::loadUrdf(kCheetah);
  std::string expected = "t";
  for (const auto& n : m.positionNames()) expected += ",q:" + n;
  for (const auto& n : m.velocityNames()) expected += ",v:" + n;
  EXPECT_EQ(header, expected + ",constraint_residual,energy");
  EXPECT_EQ(rows, 11);  // t = 0 and every step
  std::vector<double> cells;
  std::stringstream s(last);
  for (std::string cell; std::getline(s, cell, ',');) cells.push_back(std::stod(cell));
  ASSERT_EQ(cells.size(), static_cast<size_t>(1 + m.nq() + m.nv() + 2));
  EXPECT_NEAR(cells[0], 0.01, 1e-15);
  EXPECT_EQ(cells[3], j["final_q"].numbers()[2]);  // base z, round-trip text
  EXPECT_LT(cells[3], 0.0);                        // it falls
}

TEST(CliSimulate, FeetHeldByBaumgarteDriftLessAndDoNoWork) {
  // From rest with the legs bent and limp the body sinks on its pinned feet. Semi-implicit Euler
  // lets the feet drift; Baumgarte pulls them back. With rk4 the pinned feet do no work: the
  // energy stays.
  const Args feet = {kCheetah, "--contact", "FR_foot", "--contact", "FL_foot", "--contact", "HR_foot", "--contact",
                     "HL_foot", "--q0", kCheetahBent, "--duration", "0.2", "--dt", "0.001"};
  Args held = feet, rk4 = feet, kkt = feet;
  held.insert(held.end(), {"--baumgarte", "0.1"});
  rk4.insert(rk4.end(), {"--integrator", "rk4"});
  kkt.insert(kkt.end(), {"--baumgarte", "0.1", "--method", "kkt"});
  const Json free = simulateJson(feet), stable = simulateJson(held), exact = simulateJson(rk4);
  ASSERT_TRUE(free.has("max_contact_drift") && stable.has("max_contact_drift") && exact.has("energy_end"));
  EXPECT_EQ(stable["method"].text, "pv");
  std::cout << "[ measured ] foot drift over 0.2 s (semi-implicit Euler): " << free["max_contact_drift"].number
            << " m without, " << stable["max_contact_drift"].number << " m with Baumgarte (T = 0.1 s); rk4 "
            << exact["max_contact_drift"].number << " m, energy change " << relativeEnergyChange(exact) << "\n";
  EXPECT_LT(stable["max_contact_drift"].number, 0.2 * free["max_contact_drift"].number);
  EXPECT_LT(stable["max_contact_drift"].number, 1e-4);
  EXPECT_LT(exact["final_q"].numbers()[2], 0.2);  // it sank from 0.25 m: not vacuous
  EXPECT_LT(relativeEnergyChange(exact), 1e-9);
  const std::vector<double> a = stable["final_v"].numbers(), b = simulateJson(kkt)["final_v"].numbers();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-6) << i;
}

TEST(CliSimulate, BadFlagsAreUsageErrorsNamingTheFlag) {
  const std::vector<std::pair<Args, std::string>> cases = {
      {{"--dt", "0"}, "--dt"},
      {{"--dt", "-1e-3"}, "--dt"},
      {{"--duration", "soon"}, "--duration"},
      {{"--integrator", "euler"}, "--integrator 'euler'"},
      {{"--q0", "1,2"}, "--q0 has 2 values"},
      {{"--v0", "1"}, "--v0 has 1 value"},
      {{"--tau", "1,2,3"}, "--tau has 3 values"},
      {{"--method", "projection"}, "--method 'projection'"},
      {{"--dt", "1e-12", "--duration", "10"}, "steps"},
      {{"--baumgarte", "0.1"}, "--baumgarte"},
      {{"--contact", "FR_foot", "--compliance", "1e-3"}, "--compliance"},
      {{"--contact", "nose"}, "unknown link 'nose'"},
      {{"--out", "/nonexistent-dir/x.csv"}, "--out"},
      {{"--frobnicate"}, "--frobnicate"},
  };
  for (const auto& [extra, mention] : cases) {
    Args args = {"simulate", kCheetah};
    args.insert(args.end(), extra.begin(), extra.end());
    expectCommandError(args, 2, {mention});
  }
}

TEST(CliSimulate, ALoopDrivenIntoItsSingularPoseFailsNamingTheTime) {
  // At -20 rad/s the crank reaches the collinear pose q = 0 within 0.1 s, where the four-bar
  // cannot be closed by Newton: a numerical failure (exit 4), not a wrong trajectory.
  expectCommandError({"simulate", kFourBar, "--q0", "0.5", "--v0", "-20", "--duration", "0.1"}, 4,
                     {"at t = ", "cannot close the loops"});
}

TEST(CliSimulate, HelpListsTheCommand) {
  const CommandResult all = runGrbda({"help"});
  EXPECT_NE(all.out.find("simulate"), std::string::npos);
  const CommandResult one = runGrbda({"help", "simulate"});
  EXPECT_EQ(one.exitCode, 0);
  for (const char* flag : {"--integrator", "--duration", "--dt", "--out", "--q0", "--contact", "--baumgarte"})
    EXPECT_NE(one.out.find(flag), std::string::npos) << flag;
}

#endif  // GRBDA_CLI_PATH
