// The `grbda` command on the bundled models as a new user runs it: every model in models/ runs
// `grbda fd MODEL` with no state (the neutral configuration must close its loops), `grbda info`
// lists each cluster's loops and couplings, and a wrong-length vector on a big model gives one
// short line.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/mini_json.hpp"
#include "cluster/cluster_joint.hpp"
#include "grbda/grbda.hpp"
#include "support/cli_runner.hpp"
#include "data_workspace.hpp"
#include "support/model_files.hpp"

using grbda::testsupport::modelsPath;

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;
namespace fs = std::filesystem;


std::vector<fs::path> bundledModels() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(modelsPath()))
    if (e.path().extension() == ".urdf") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CliModels, EveryBundledModelRunsForwardDynamicsWithNoState) {
  const auto files = bundledModels();
  ASSERT_GE(files.size(), 10u);
  for (const fs::path& f : files) {
    const CommandResult r = runGrbda({"fd", f.string(), "--json"});
    EXPECT_EQ(r.exitCode, 0) << f.filename() << ": " << r.err;
    if (r.exitCode != 0) continue;
    const Json j = JsonReader::parse(r.out);
    for (double x : j["result"].numbers()) EXPECT_TRUE(std::isfinite(x)) << f.filename();
  }
}

TEST(CliModels, NeutralConfigurationClosesTheLoopsOfEveryBundledModel) {
  for (const fs::path& f : bundledModels()) {
    SCOPED_TRACE(f.filename().string());
    const grbda::Model model = grbda::loadUrdf(f.string());
    grbda::Data data(model);  // a fresh Data, as every CLI call and the README's example
    const grbda::VecX q = model.neutralConfiguration();
    const grbda::VecX qSpan = grbda::completeConfiguration(model, data, q);
    // the independent coordinates are kept and every cluster's constraints hold
    for (int k = 0; k < model.numClusters(); ++k) {
      const grbda::Cluster& cl = model.cluster(k);
      if (cl.nqSpan == cl.nq) continue;
      grbda::VecX y(cl.nq);
      cl.joint->independentPositions(cl, qSpan.data() + cl.qSpanIndex, y.data());
      EXPECT_LT((y - q.segment(cl.qIndex, cl.nq)).cwiseAbs().maxCoeff(), 1e-12) << cl.name;
      EXPECT_LT(cl.joint->constraintViolation(qSpan.data() + cl.qSpanIndex, data.work().clusters[static_cast<size_t>(k)]), 1e-9)
          << cl.name;
    }
    EXPECT_TRUE(grbda::forwardDynamics(model, data, q, grbda::VecX::Zero(model.nv()), grbda::VecX::Zero(model.nv()))
                    .allFinite());
  }
}

TEST(CliModels, InfoListsTheLoopsAndCouplingsOfEachCluster) {
  {
    const CommandResult r = runGrbda({"info", (modelsPath() / "four_bar.urdf").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("constraints (1;"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("revolute loop link2 -- link3"), std::string::npos) << r.out;
  }
  const CommandResult r = runGrbda({"info", (modelsPath() / "mini_cheetah.urdf").string(), "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Json j = JsonReader::parse(r.out);
  const auto& constraints = j["constraints"].items;
  EXPECT_EQ(constraints.size(), 12u);  // one gear per rotor
  const auto& clusters = j["clusters"].items;
  for (const Json& c : constraints) {
    EXPECT_EQ(c["kind"].text, "coupling");
    const auto k = static_cast<size_t>(c["cluster"].number);
    ASSERT_LT(k, clusters.size());
    // the cluster it formed is named after it
    EXPECT_NE(clusters[k]["name"].text.find(c["name"].text), std::string::npos);
    EXPECT_NE(c["description"].text.find(" = "), std::string::npos);
  }
}

TEST(CliModels, WrongLengthVectorOnABigModelIsOneShortLine) {
  const fs::path file = fs::temp_directory_path() / ("grbda_long_chain_" + std::to_string(::getpid()) + ".urdf");
  {
    std::ofstream out(file);
    out << "<robot name=\"long_chain\">\n  <link name=\"l0\"/>\n";
    for (int i = 1; i <= 2000; ++i)
      out << "  <link name=\"l" << i << "\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" "
          << "ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n  <joint name=\"a_rather_long_joint_name_" << i
          << "\" type=\"continuous\"><parent link=\"l" << i - 1 << "\"/><child link=\"l" << i
          << "\"/><axis xyz=\"0 0 1\"/></joint>\n";
    out << "</robot>\n";
  }
  const CommandResult r = runGrbda({"fd", file.string(), "--q", "1,2"});
  fs::remove(file);
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_LT(r.err.size(), 600u) << r.err;
  EXPECT_NE(r.err.find("nq = 2000"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1992 more"), std::string::npos) << r.err;
}

TEST(CliModels, ApproximateNamesDroppedLoopLinksWithoutCallingThemRotors) {
  // the foot of the leg linkage is a dependent body of a loop cluster, not a rotor
  const CommandResult r = runGrbda({"osim", (modelsPath() / "planar_leg_linkage.urdf").string(), "--method", "approximate",
                                    "--point", "foot:0,0,0"});
  if (r.exitCode == 0) GTEST_SKIP() << "link4 is independent in this model";
  EXPECT_EQ(r.err.find("rotor"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("dependent joint"), std::string::npos) << r.err;
}

}  // namespace

#endif  // GRBDA_CLI_PATH
