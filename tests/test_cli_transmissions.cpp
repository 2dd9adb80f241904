// `--transmissions exact|ignore` on the command: a horizontal one-joint arm driven through a
// transmission with drake:rotor_inertia. By hand, the rotor sits on the ground and spins N times
// as fast as the joint, so the joint sees I_link + N² I_rotor (exact) or I_link alone (ignore).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "cli/mini_json.hpp"
#include "support/cli_runner.hpp"

#ifdef GRBDA_CLI_PATH

using namespace grbda::testing;

namespace {

constexpr double kLinkIzz = 0.05, kRotor = 3e-4, kRatio = 8.0;

/// The arm's file, one per test process: ctest runs the cases of this file in parallel, and a
/// shared path let one case read the file while another rewrote it (an empty document).
std::string writeArm() {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("grbda_cli_transmission_arm_" + std::to_string(::getpid()) + ".urdf"))
                               .string();
  std::ofstream(path) << R"(<robot name="arm">
  <link name="world"/>
  <link name="a"><inertial><origin xyz="0 0 0"/><mass value="2"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/></joint>
  <transmission name="t"><joint name="shoulder"/><actuator name="m">
    <drake:rotor_inertia value="3e-4"/><drake:gear_ratio value="8"/></actuator></transmission>
</robot>
)";
  return path;
}

double accelerationUnderUnitTorque(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"fd", writeArm(), "--tau", "1"};  // grbdaJson adds --json
  args.insert(args.end(), extra.begin(), extra.end());
  return grbdaJson(args)["result"].numbers().at(0);
}

}  // namespace

TEST(CliTransmissions, ExactRotorByDefaultAndIgnoredOnRequest) {
  const double exact = 1.0 / (kLinkIzz + kRatio * kRatio * kRotor);
  EXPECT_NEAR(accelerationUnderUnitTorque({}), exact, 1e-12);
  EXPECT_NEAR(accelerationUnderUnitTorque({"--transmissions", "exact"}), exact, 1e-12);
  EXPECT_NEAR(accelerationUnderUnitTorque({"--transmissions", "ignore"}), 1.0 / kLinkIzz, 1e-12);
}

TEST(CliTransmissions, AnUnknownTreatmentIsAUsageErrorNamingIt) {
  const CommandResult r = runGrbda({"fd", writeArm(), "--transmissions", "reflected"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("--transmissions: 'reflected'"), std::string::npos) << r.err;
}

#endif  // GRBDA_CLI_PATH
