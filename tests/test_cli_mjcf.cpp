// The `grbda` command reads an MJCF file (.xml) wherever it takes a model: the hand-written
// four-bar gives the same forward dynamics as the URDF+ file it transcribes.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/cli_runner.hpp"
#include "support/model_files.hpp"

using grbda::testsupport::modelsPath;

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;
namespace fs = std::filesystem;


TEST(CliMjcf, AnXmlModelIsReadAsMjcf) {
  for (const char* q : {"0.5", "1.1"}) {
    const Json mj = grbdaJson({"fd", (modelsPath() / "mjcf" / "four_bar.xml").string(), "--q", q, "--tau", "0.3"});
    const Json urdf = grbdaJson({"fd", (modelsPath() / "four_bar.urdf").string(), "--q", q, "--tau", "0.3"});
    const auto a = mj["result"].numbers(), b = urdf["result"].numbers();
    ASSERT_EQ(a.size(), 1u);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_NEAR(a[0], b[0], 1e-10 * (1.0 + std::abs(b[0])));
  }
  // several files with an MJCF among them: refused with a usage message naming it
  const CommandResult r = runGrbda({"fd", (modelsPath() / "mjcf" / "four_bar.xml").string(), (modelsPath() / "four_bar.urdf").string()});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("is an MJCF file"), std::string::npos) << r.err;
}

}  // namespace

#endif
