// `grbda info --dot`: the cluster tree as Graphviz text — one box per cluster holding its bodies,
// the cluster joints labelled with their types, every <loop> dashed. (The Python suite also
// renders it with `dot`; this test runs without Python, e.g. under the sanitizers.)
#include <gtest/gtest.h>

#include <string>

#include "grbda/urdf/urdf.hpp"
#include "support/cli_runner.hpp"
#include "support/model_files.hpp"

using grbda::testsupport::modelFile;

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;


size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(CliDot, EveryClusterIsABoxWithItsBodiesAndItsJointType) {
  for (const char* file : {"mini_cheetah.urdf", "four_bar.urdf", "generated/four_bar_branch_2_2.urdf"}) {
    const grbda::Model model = grbda::loadUrdf(modelFile(file));
    const CommandResult r = runGrbda({"info", modelFile(file), "--dot"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.rfind("digraph \"" + model.name() + "\" {", 0), 0u) << r.out;
    EXPECT_EQ(count(r.out, "subgraph cluster_"), static_cast<size_t>(model.numClusters())) << file;
    EXPECT_EQ(count(r.out, "style=dashed"), model.loops().size()) << file;
    for (int k = 0; k < model.numClusters(); ++k) {
      const grbda::Cluster& c = model.cluster(k);
      const size_t box = r.out.find("subgraph cluster_" + std::to_string(k) + " {");
      ASSERT_NE(box, std::string::npos) << file << " cluster " << k;
      const std::string inside = r.out.substr(box, r.out.find("\n  }", box) - box);
      for (int i = c.firstBody; i < c.firstBody + c.numBodies; ++i)
        EXPECT_NE(inside.find("[label=\"" + model.body(i).name + "\""), std::string::npos) << model.body(i).name;
      EXPECT_NE(r.out.find("[lhead=cluster_" + std::to_string(k) + ", penwidth=2, label=\"" + c.typeName() + "\"]"),
                std::string::npos)
          << file << " cluster " << k;
    }
    EXPECT_EQ(r.out.substr(r.out.size() - 2), "}\n");
  }
}

TEST(CliDot, DotAndJsonTogetherAreACommandLineError) {
  expectCommandError({"info", modelFile("four_bar.urdf"), "--dot", "--json"}, 2, {"--json or --dot"});
}

}  // namespace

#endif  // GRBDA_CLI_PATH
