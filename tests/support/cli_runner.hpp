#pragma once
// Test support for the tests of the `grbda` command: running it, echoing a command line in
// failure messages, passing vectors at full precision, and checking a failed run's report.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../cli/mini_json.hpp"
#include "../cli/run_command.hpp"
#include "grbda/spatial/types.hpp"
#include "support/model_files.hpp"

#ifdef GRBDA_CLI_PATH

namespace grbda::testing {

/// The models most command tests run, and the crouched Mini Cheetah's q as `--q` takes it (torso at
/// 0.30 m, every leg at (abad, hip, knee) = (0, -1, 2) rad).
inline const std::string kCheetah = testsupport::modelFile("mini_cheetah.urdf");
inline const std::string kFourBar = testsupport::modelFile("four_bar.urdf");
inline const std::string kCrouch = "0,0,0.30,1,0,0,0,0,-1,2,0,-1,2,0,-1,2,0,-1,2";

/// Runs the built `grbda` with `args` (no shell).
inline CommandResult runGrbda(const std::vector<std::string>& args) { return runCommand(GRBDA_CLI_PATH, args); }

/// "grbda arg1 arg2 ...", for failure messages.
inline std::string commandLine(const std::vector<std::string>& args) {
  std::string s = "grbda";
  for (const auto& a : args) s += " " + a;
  return s;
}

/// Runs `grbda ARGS --json`, expects exit code 0 and returns the parsed output (null on failure).
inline Json grbdaJson(std::vector<std::string> args) {
  args.push_back("--json");
  const CommandResult r = runGrbda(args);
  EXPECT_EQ(r.exitCode, 0) << commandLine(args) << "\n" << r.err;
  if (r.exitCode != 0) return Json{};
  EXPECT_EQ(r.out.rfind("{", 0), 0u) << "JSON output must start with '{': " << r.out;
  return JsonReader::parse(r.out);
}

/// A vector from a JSON array of numbers.
inline grbda::VecX vectorOf(const Json& j) {
  const std::vector<double> x = j.numbers();
  return Eigen::Map<const grbda::VecX>(x.data(), static_cast<Eigen::Index>(x.size()));
}

/// A square matrix from a JSON array of rows (mass-matrix, derivatives).
inline grbda::MatX matrixOf(const Json& rows) {
  grbda::MatX M(rows.size(), rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    const std::vector<double> row = rows[r].numbers();
    EXPECT_EQ(row.size(), rows.size());
    for (size_t c = 0; c < row.size() && c < rows.size(); ++c)
      M(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = row[c];
  }
  return M;
}

/// A rows x cols matrix from a JSON array of rows (every row must have `cols` entries).
inline grbda::MatX matrixOf(const Json& rows, size_t cols) {
  grbda::MatX M = grbda::MatX::Zero(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols));
  for (size_t r = 0; r < rows.size(); ++r) {
    const std::vector<double> row = rows[r].numbers();
    EXPECT_EQ(row.size(), cols);
    for (size_t c = 0; c < row.size() && c < cols; ++c)
      M(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = row[c];
  }
  return M;
}

/// Full-precision text of a vector for --q/--v/--tau/--a.
inline std::string joinFull(const std::vector<double>& x) {
  std::string s;
  for (double v : x) {
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%.17g", v);
    s += (s.empty() ? "" : ",") + std::string(buf);
  }
  return s;
}

/// The run exits with `code`, prints nothing on stdout and one "grbda: error: ..." report on
/// stderr that mentions every fragment.
inline void expectCommandError(const std::vector<std::string>& args, int code,
                               const std::vector<std::string>& mentions) {
  const CommandResult r = runGrbda(args);
  EXPECT_EQ(r.exitCode, code) << commandLine(args) << "\nstderr: " << r.err;
  EXPECT_EQ(r.err.rfind("grbda: error: ", 0), 0u) << r.err;
  for (const auto& m : mentions)
    EXPECT_NE(r.err.find(m), std::string::npos) << "stderr should mention '" << m << "': " << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace grbda::testing

#endif  // GRBDA_CLI_PATH
