// The clusterer (spec §3): which bodies form a cluster, the numbering (clusters contiguous and
// parent-first, clusters regularly numbered, one output body per cluster), the cluster-joint type
// chosen, the coordinate bookkeeping; and the counts of every model in models/ against the
// robot-data tables.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "cluster_support/constrained_models.hpp"
#include "grbda/grbda.hpp"
#include "support/model_files.hpp"

using namespace grbda;
using namespace grbda::testsupport;
namespace fs = std::filesystem;

namespace {

/// Structural invariants every compiled model must satisfy.
void expectWellFormedClusters(const Model& model) {
  int nextBody = 0, q = 0, v = 0, qs = 0, vs = 0;
  std::vector<std::string> names;
  for (int k = 0; k < model.numClusters(); ++k) {
    SCOPED_TRACE("cluster " + std::to_string(k) + " '" + model.cluster(k).name + "'");
    const Cluster& cl = model.cluster(k);
    EXPECT_EQ(cl.firstBody, nextBody);  // contiguous, in cluster order
    nextBody += cl.numBodies;
    EXPECT_LT(cl.parent, k);  // regular cluster numbering
    if (cl.output < 0) {
      EXPECT_EQ(cl.parent, -1);
    } else {
      EXPECT_EQ(model.body(cl.output).cluster, cl.parent);
    }
    EXPECT_EQ(cl.qIndex, q);
    EXPECT_EQ(cl.vIndex, v);
    EXPECT_EQ(cl.qSpanIndex, qs);
    EXPECT_EQ(cl.vSpanIndex, vs);
    q += cl.nq;
    v += cl.nv;
    qs += cl.nqSpan;
    vs += cl.nvSpan;
    int independent = 0, attached = 0;
    for (int r = 0; r < cl.numBodies; ++r) {
      const int i = cl.firstBody + r;
      const Body& b = model.body(i);
      EXPECT_EQ(b.cluster, k);
      EXPECT_EQ(b.output, cl.output);
      EXPECT_LT(b.parent, i);  // regular body numbering, parents first inside the cluster
      const bool inside = b.parent >= cl.firstBody;
      if (!inside) {
        EXPECT_EQ(b.parent, cl.output) << "body " << b.name << " hangs from a second output body";
        ++attached;
      }
      if (b.independent) {
        ++independent;
        if (b.joint.type != JointType::Free) names.push_back(b.jointName);
      }
    }
    EXPECT_GE(attached, 1);
    if (cl.numBodies > 1) EXPECT_EQ(independent, cl.nv);
  }
  EXPECT_EQ(nextBody, model.numBodies());
  EXPECT_EQ(q, model.nq());
  EXPECT_EQ(v, model.nv());
  EXPECT_EQ(qs, model.nqSpanning());
  EXPECT_EQ(vs, model.nvSpanning());
  // y order = independent spanning coordinates in body order (free joints named "<joint>:x" ...)
  std::vector<std::string> oneDof;
  for (const auto& n : model.velocityNames())
    if (n.find(':') == std::string::npos) oneDof.push_back(n);
  EXPECT_EQ(oneDof, names);
  EXPECT_EQ(static_cast<int>(model.spanningVelocityNames().size()), model.nvSpanning());
}

/// Expected grouping computed from the specs alone: union of the links on both branches of every
/// constraint below the nearest common ancestor (user constraints: the named joints' links).
std::set<std::set<std::string>> expectedMultiBodyClusters(const ModelBuilder& b) {
  std::map<std::string, std::string> parentOf, childOfJoint;
  for (const auto& j : b.joints()) {
    parentOf[j.child] = j.parent;
    childOfJoint[j.name] = j.child;
  }
  auto up = [&](std::string l) {
    std::vector<std::string> chain{l};
    while (parentOf.count(l)) chain.push_back(l = parentOf[l]);
    return chain;
  };
  std::vector<std::set<std::string>> groups;
  auto add = [&](std::set<std::string> g) {
    for (auto it = groups.begin(); it != groups.end();)
      if (std::any_of(it->begin(), it->end(), [&](const std::string& x) { return g.count(x) > 0; })) {
        g.insert(it->begin(), it->end());
        it = groups.erase(it);
      } else {
        ++it;
      }
    groups.push_back(g);
  };
  auto pathGroup = [&](const std::string& p, const std::string& s) {
    const auto cp = up(p), cs = up(s);
    const std::set<std::string> ancestorsOfP(cp.begin(), cp.end());
    std::string nca = s;
    while (!ancestorsOfP.count(nca)) nca = parentOf[nca];
    std::set<std::string> g;
    for (std::string l = p; l != nca; l = parentOf[l]) g.insert(l);
    for (std::string l = s; l != nca; l = parentOf[l]) g.insert(l);
    return g;
  };
  for (const auto& l : b.loops()) add(pathGroup(l.predecessor, l.successor));
  for (const auto& c : b.couplings()) add(pathGroup(c.predecessor, c.successor));
  for (const auto& c : b.constraints()) {
    std::set<std::string> g;
    for (const auto& j : c.joints) g.insert(childOfJoint[j]);
    add(g);
  }
  return {groups.begin(), groups.end()};
}

std::set<std::set<std::string>> actualMultiBodyClusters(const Model& model) {
  std::set<std::set<std::string>> out;
  for (const auto& cl : model.clusters()) {
    if (cl.numBodies == 1) continue;
    std::set<std::string> g;
    for (int r = 0; r < cl.numBodies; ++r) g.insert(model.body(cl.firstBody + r).name);
    out.insert(g);
  }
  return out;
}

/// (type, bodies, DoF) of every cluster, as a multiset.
using Signature = std::multiset<std::tuple<std::string, int, int>>;
Signature signature(const Model& model) {
  Signature s;
  for (const auto& cl : model.clusters()) s.insert({cl.typeName(), cl.numBodies, cl.nv});
  return s;
}
Signature repeat(const std::string& type, int bodies, int dof, int times) {
  Signature s;
  for (int i = 0; i < times; ++i) s.insert({type, bodies, dof});
  return s;
}
Signature operator+(Signature a, const Signature& b) {
  a.insert(b.begin(), b.end());
  return a;
}

const Signature kFree = repeat("Free", 1, 6, 1);
Signature rev(int n) { return repeat("Revolute", 1, 1, n); }
Signature geared(int n) { return repeat("RevoluteWithRotor", 2, 1, n); }
Signature beltPair(int n) { return repeat("RevolutePairWithRotor", 4, 2, n); }
Signature beltTriple(int n) { return repeat("RevoluteTripleWithRotor", 6, 3, n); }
Signature generic(int bodies, int dof, int n = 1) { return repeat("Generic", bodies, dof, n); }
Signature fourBar(int n = 1) { return repeat("FourBar", 3, 1, n); }  // planar one-loop four-bars

}  // namespace

TEST(Clusterer, GroupsTheBodiesOfEveryConstraintAndNothingElse) {
  Rng rng(301);
  for (bool floating : {false, true})
    for (auto& mech : mechanismCatalogue(rng, floating)) {
      SCOPED_TRACE(mech.name + (floating ? " (floating)" : ""));
      const Model model = mech.builder.build();
      EXPECT_EQ(actualMultiBodyClusters(model), expectedMultiBodyClusters(mech.builder));
      expectWellFormedClusters(model);
    }
}

TEST(Clusterer, ClusterTypesAndSizesOfTheCatalogue) {
  Rng rng(302);
  const Signature hip = rev(1);
  const std::map<std::string, Signature> expected = {
      {"geared rotors", geared(2)},
      {"belt pair", beltPair(1)},
      {"belt triple", beltTriple(1)},
      {"planar crank-rocker loop", hip + fourBar() + rev(1)},
      {"spatial revolute loop", hip + generic(6, 1)},
      {"spatial fixed loop (2 DoF)", hip + generic(8, 2)},
      {"user polynomial constraint", hip + generic(3, 1)},
      {"user trigonometric constraint", hip + generic(4, 2)},
      {"coupling + loop in one cluster", hip + generic(4, 1)},
      {"six-bar (two loops sharing bodies)", hip + generic(5, 1)},
      {"two four-bars on one hip", hip + fourBar(2)},
      {"loop onto an ancestor", hip + generic(3, 1)},
  };
  for (bool floating : {false, true})
    for (auto& mech : mechanismCatalogue(rng, floating)) {
      SCOPED_TRACE(mech.name);
      const Model model = mech.builder.build();
      ASSERT_TRUE(expected.count(mech.name));
      EXPECT_EQ(signature(model), expected.at(mech.name) + (floating ? kFree : Signature{}));
    }
}

TEST(Clusterer, OutputBodiesAndParentClusters) {
  Rng rng(303);
  {  // two separate loops below a common ancestor: two clusters, same parent and output body
    const Model model = parallelFourBarsBuilder(rng, false).build();
    ASSERT_EQ(model.numClusters(), 3);
    const int hip = model.bodyIndex("hip");
    for (int k : {1, 2}) {
      EXPECT_EQ(model.cluster(k).output, hip);
      EXPECT_EQ(model.cluster(k).parent, model.body(hip).cluster);
    }
    EXPECT_NE(model.body(model.bodyIndex("crankA")).cluster, model.body(model.bodyIndex("crankB")).cluster);
  }
  {  // a single body below a loop cluster hangs from the coupler (output body inside a cluster)
    const Model model = crankRockerBuilder(rng, true).build();
    const Body& tip = model.body(model.bodyIndex("tip"));
    EXPECT_EQ(tip.output, model.bodyIndex("coupler"));
    EXPECT_EQ(model.cluster(tip.cluster).parent, model.body(model.bodyIndex("coupler")).cluster);
    EXPECT_EQ(model.cluster(model.body(model.bodyIndex("coupler")).cluster).output, model.bodyIndex("hip"));
  }
  {  // loop closing onto an ancestor: the ancestor is the output body, not part of the cluster
    const Model model = ancestorLoopBuilder(rng, false).build();
    const Cluster& cl = model.cluster(model.body(model.bodyIndex("d1")).cluster);
    EXPECT_EQ(cl.numBodies, 3);
    EXPECT_EQ(cl.output, model.bodyIndex("hip"));
  }
  {  // a mechanism hanging from the ground has output -1 and no parent cluster
    const Model model = beltChain(rng, 1, false);
    EXPECT_EQ(model.cluster(0).output, -1);
    EXPECT_EQ(model.cluster(0).parent, -1);
  }
}

TEST(Clusterer, RenumberingPreservesTheTreeAndTheLinkNames) {
  // The compiled bodies are renumbered (clusters contiguous); each link keeps its own joint,
  // parent link and frame.
  Rng rng(304);
  for (auto& mech : mechanismCatalogue(rng, true)) {
    SCOPED_TRACE(mech.name);
    const Model model = mech.builder.build();
    for (const JointSpec& j : mech.builder.joints()) {
      const int i = model.bodyIndex(j.child);
      EXPECT_EQ(model.body(i).jointName, j.name);
      EXPECT_EQ(model.body(i).independent, j.kind == JointKind::Floating || j.independent ||
                                               model.cluster(model.body(i).cluster).numBodies == 1);
      const int parentBody = model.body(i).parent;
      if (parentBody < 0) {
        EXPECT_EQ(j.parent, "world");
      } else {
        EXPECT_EQ(model.body(parentBody).name, j.parent);
      }
      EXPECT_EQ(model.frame(model.frameIndex(j.child)).body, i);
    }
  }
}

// ----- the models in models/ -------------------------------------------------------------------

namespace {


struct Expected {
  int bodies, spanning, independent;
  Signature clusters;
};

// From the robot-data README table (and the family formulas in it), not from the files.
bool expectedCounts(const std::string& name, Expected& e) {
  static const std::map<std::string, Expected> fixed = {
      {"mini_cheetah", {25, 30, 18, kFree + geared(12)}},
      {"mini_cheetah_approximate", {13, 18, 18, kFree + rev(12)}},
      {"mit_humanoid", {37, 42, 24, kFree + geared(14) + beltPair(2)}},
      {"mit_humanoid_approximate", {19, 24, 24, kFree + rev(18)}},
      {"mit_humanoid_leg", {10, 10, 5, geared(3) + beltPair(1)}},
      {"jvrc1_humanoid", {58, 63, 38, kFree + geared(25) + rev(7)}},
      {"jvrc1_humanoid_32rotors", {65, 70, 38, kFree + geared(32)}},
      {"jvrc1_humanoid_approximate", {33, 38, 38, kFree + rev(32)}},
      {"tello_humanoid", {37, 42, 42, kFree + rev(36)}},
      {"tello_humanoid_approximate", {19, 24, 24, kFree + rev(18)}},
      {"four_bar", {3, 3, 1, fourBar()}},
      {"six_bar", {5, 5, 3, generic(5, 3)}},
      {"planar_leg_linkage", {4, 4, 2, rev(1) + fourBar()}},
      {"revolute_rotor_chain", {6, 6, 3, geared(3)}},
      {"double_pendulum", {2, 2, 2, rev(2)}},
      {"planar_arm_3dof", {3, 3, 3, rev(3)}},  // demo arms: plain trees
      {"arm_6dof", {6, 6, 6, rev(6)}},
      // 9 bodies (ankle cross, foot, 2 cranks, a rod on a universal (2), one on a ball (3));
      // 9 coordinates − 3 ball rows − 4 universal rows = 2 DoF, all in one loop cluster
      {"ankle_2rsu", {9, 9, 2, generic(9, 2)}},
      {"delta_robot", {18, 18, 3, generic(18, 3)}},  // 3 motors + 6 rods × 2 + a ball (3) − 5 balls × 3
      {"ball_screw_knee", {4, 4, 1, generic(4, 1)}},  // knee, pivot, nut, shaft − 1 − 2 loop rows
  };
  if (fixed.count(name)) {
    e = fixed.at(name);
    return true;
  }
  std::smatch m;
  static const std::regex chain(R"(revolute_(rotor|belt_pair|belt_triple)_chain_(\d+))");
  static const std::regex branch(R"((approx_)?(revolute_rotor|revolute_rotor_pair|four_bar)_branch_(\d+)_(\d+))");
  static const std::regex parallel(R"((approx_)?parallel_chain_(explicit|implicit)_d(\d+)_l(\d+))");
  if (std::regex_match(name, m, chain)) {
    const int n = std::stoi(m[2]);
    const Signature s = m[1] == "rotor" ? geared(n) : m[1] == "belt_pair" ? beltPair(n / 2) : beltTriple(n / 3);
    e = {2 * n, 2 * n, n, s};
    return true;
  }
  if (std::regex_match(name, m, branch)) {
    const int bd = std::stoi(m[3]) * std::stoi(m[4]);
    if (m[1].matched) {  // rotors / couplers deleted: independent links only
      const int links = m[2] == "revolute_rotor_pair" ? 2 * bd : bd;
      e = {1 + links, 6 + links, 6 + links, kFree + rev(links)};
    } else if (m[2] == "revolute_rotor") {
      e = {1 + 2 * bd, 6 + 2 * bd, 6 + bd, kFree + geared(bd)};
    } else if (m[2] == "revolute_rotor_pair") {
      e = {1 + 4 * bd, 6 + 4 * bd, 6 + 2 * bd, kFree + beltPair(bd)};
    } else {
      e = {1 + 3 * bd, 6 + 3 * bd, 6 + bd, kFree + fourBar(bd)};
    }
    return true;
  }
  if (std::regex_match(name, m, parallel)) {
    const int d = std::stoi(m[3]), l = std::stoi(m[4]);
    if (m[1].matched) e = {2 * d, 2 * d, 2 * d, rev(2 * d)};
    else if (m[2] == "explicit") e = {2 * d, 2 * d, 2 * d - 1, generic(l, l - 1) + rev(2 * d - l)};
    else e = {2 * d + 1, 2 * d + 1, 2 * d - 1, generic(l, l - 2) + rev(2 * d + 1 - l)};
    return true;
  }
  return false;
}

std::string readText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string describe(const Signature& s) {
  std::map<std::tuple<std::string, int, int>, int> counts;
  for (const auto& t : s) ++counts[t];
  std::ostringstream out;
  for (const auto& [t, n] : counts)
    out << n << " x " << std::get<0>(t) << "(" << std::get<1>(t) << " bodies, " << std::get<2>(t) << " DoF) ";
  return out.str();
}

}  // namespace

TEST(Clusterer, ModelFilesHaveTheTabulatedClusters) {
  std::vector<fs::path> files;
  for (const fs::path& dir : {modelsPath(), modelsPath() / "generated"})
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".urdf") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 30u);
  const LogLevel saved = logLevel();
  setLogLevel(LogLevel::Error);
  int checked = 0;
  std::vector<std::string> unsupported;
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    const std::string name = f.stem().string();
    Expected want;
    ASSERT_TRUE(expectedCounts(name, want)) << "no expected counts for " << name;
    Model model;
    try {
      model = loadUrdf(f.string());
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    const std::string text = readText(f);
    // "<coupling " with a space: header comments may mention "<coupling>/<loop>" in prose
    const bool hasConstraintTags = text.find("<coupling ") != std::string::npos || text.find("<loop ") != std::string::npos;
    if (hasConstraintTags && !model.hasConstraints()) {
      unsupported.push_back(name);
      continue;
    }
    EXPECT_EQ(model.numBodies(), want.bodies);
    EXPECT_EQ(model.nvSpanning(), want.spanning);
    EXPECT_EQ(model.nv(), want.independent);
    EXPECT_EQ(signature(model), want.clusters) << "got " << describe(signature(model)) << "\nwant "
                                               << describe(want.clusters);
    expectWellFormedClusters(model);
    ++checked;
  }
  setLogLevel(saved);
  std::cout << "[ measured ] " << checked << " model files checked for cluster counts\n";
  if (!unsupported.empty()) {
    std::string list;
    for (const auto& n : unsupported) list += " " + n;
    ADD_FAILURE() << "these files have <loop>/<coupling> elements but loaded without clusters:" << list;
  }
}
