// The robot models in models/ (written by tools/make_models.py from robot-data facts), checked
// as spanning trees (<loop>/<coupling> are not used here):
//  - every file loads, with the body / DoF counts of the robot-data tables;
//  - the closed configuration recorded in a header really closes every <loop>;
//  - transcription: each model with a counterpart among the reference's URDF+ files has the same
//    tree dynamics (mass matrix, bias forces, total mass) at random states, coordinates matched
//    by joint name. Skipped when the reference files are not next to the repository.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>

#include "grbda/grbda.hpp"
#include "support/model_files.hpp"
#include "support/total_mass.hpp"

using namespace grbda;
using testsupport::totalMass;
using grbda::testsupport::modelsPath;
namespace fs = std::filesystem;

namespace {

const fs::path kReference = fs::path(GRBDA_SOURCE_DIR) / ".." / "shared" / "reference-models";

std::string readText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> modelFiles() {
  std::vector<fs::path> out;
  for (const fs::path& dir : {modelsPath(), modelsPath() / "generated"})
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".urdf") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

struct Counts {
  int bodies, nv;
  bool floating;
};

// Spanning-tree counts from the robot-data README table (bodies exclude the massless root).
const std::map<std::string, Counts> kFixedCounts = {
    {"mini_cheetah", {25, 30, true}},        {"mini_cheetah_approximate", {13, 18, true}},
    {"mit_humanoid", {37, 42, true}},        {"mit_humanoid_approximate", {19, 24, true}},
    {"mit_humanoid_leg", {10, 10, false}},   {"jvrc1_humanoid", {58, 63, true}},
    {"jvrc1_humanoid_32rotors", {65, 70, true}}, {"jvrc1_humanoid_approximate", {33, 38, true}},
    {"tello_humanoid", {37, 42, true}},      {"tello_humanoid_approximate", {19, 24, true}},
    {"four_bar", {3, 3, false}},             {"six_bar", {5, 5, false}},
    {"planar_leg_linkage", {4, 4, false}},   {"revolute_rotor_chain", {6, 6, false}},
    {"double_pendulum", {2, 2, false}},      {"planar_arm_3dof", {3, 3, false}},
    {"arm_6dof", {6, 6, false}},
    // mechanisms counted from their designs (tools/models/mechanisms.py docstrings)
    {"ankle_2rsu", {9, 9, false}},  // ankle cross, foot, 2 cranks, rods: universal 2 + ball 3
    {"delta_robot", {18, 18, false}},
    {"ball_screw_knee", {4, 4, false}},
};

// Counts of the parametric families, from the formulas of benchmark_systems.md / serial_chains.md.
bool familyCounts(const std::string& name, Counts& c) {
  std::smatch m;
  static const std::regex chain(R"(revolute_(rotor|belt_pair|belt_triple)_chain_(\d+))");
  static const std::regex branch(R"((approx_)?(revolute_rotor|revolute_rotor_pair|four_bar)_branch_(\d+)_(\d+))");
  static const std::regex parallel(R"((approx_)?parallel_chain_(explicit|implicit)_d(\d+)_l(\d+))");
  if (std::regex_match(name, m, chain)) {
    const int n = std::stoi(m[2]);
    c = {2 * n, 2 * n, false};  // every link has a rotor
    return true;
  }
  if (std::regex_match(name, m, branch)) {
    const bool approx = m[1].matched;
    const int bd = std::stoi(m[3]) * std::stoi(m[4]);
    const int perCluster = approx ? (m[2] == "revolute_rotor_pair" ? 2 : 1)
                                  : (m[2] == "revolute_rotor" ? 2 : m[2] == "four_bar" ? 3 : 4);
    c = {1 + perCluster * bd, 6 + perCluster * bd, true};
    return true;
  }
  if (std::regex_match(name, m, parallel)) {
    const int d = std::stoi(m[3]);
    const int rod = (!m[1].matched && m[2] == "implicit") ? 1 : 0;
    c = {2 * d + rod, 2 * d + rod, false};
    return true;
  }
  return false;
}


std::string headerLine(const std::string& text, const std::string& key) {
  const auto at = text.find(key);
  if (at == std::string::npos) return {};
  return text.substr(at + key.size(), text.find('\n', at) - at - key.size());
}

/// q with the recorded closed configuration ("closed configuration: name=value ..." in the header).
VecX closedConfiguration(const Model& model, const std::string& text) {
  VecX q = model.neutralSpanningConfiguration();
  std::istringstream tokens(headerLine(text, "closed configuration:"));
  for (std::string tok; tokens >> tok;) {
    const auto eq = tok.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == tok.size()) continue;  // e.g. "q = 0"
    const auto& names = model.spanningPositionNames();
    const auto it = std::find(names.begin(), names.end(), tok.substr(0, eq));
    EXPECT_NE(it, names.end()) << "unknown joint in closed configuration: " << tok;
    if (it != names.end()) q[it - names.begin()] = std::stod(tok.substr(eq + 1));
  }
  return q;
}

struct LoopPoints {
  std::string name, pred, succ;
  Vec3 predPoint, succPoint;
};

Vec3 parseVec3(const std::string& s) {
  std::istringstream in(s);
  Vec3 v;
  in >> v.x() >> v.y() >> v.z();
  return v;
}

// Our generator's own layout of <loop> (one line per predecessor / successor).
std::vector<LoopPoints> loops(const std::string& text) {
  static const std::regex loop(
      R"re(<loop name="([^"]+)"[^>]*>\s*<predecessor link="([^"]+)"><origin xyz="([^"]+)"/></predecessor>\s*)re"
      R"re(<successor link="([^"]+)"><origin xyz="([^"]+)"/></successor>)re");
  std::vector<LoopPoints> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), loop); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    out.push_back({m[1], m[2], m[4], parseVec3(m[3]), parseVec3(m[5])});
  }
  return out;
}

double worstLoopGap(const Model& model, const std::vector<LoopPoints>& ls, const VecX& q) {
  Data data(model);
  tree::forwardKinematics(model, data, q);
  double worst = 0.0;
  for (const auto& l : ls) {
    const Vec3 p = data.Xa[model.bodyIndex(l.pred)].inverseTransformPoint(l.predPoint);
    const Vec3 s = data.Xa[model.bodyIndex(l.succ)].inverseTransformPoint(l.succPoint);
    worst = std::max(worst, (p - s).norm());
  }
  return worst;
}

/// The facts include tolerated oddities (planar inertias, unused `independent="false"` flags) that
/// the builder reports as warnings; keep the test output readable.
class QuietLog {
 public:
  QuietLog() : saved_(logLevel()) { setLogLevel(LogLevel::Error); }
  ~QuietLog() { setLogLevel(saved_); }

 private:
  LogLevel saved_;
};

}  // namespace

TEST(ModelFiles, EveryModelLoadsWithTheTabulatedCounts) {
  QuietLog quiet;
  const auto files = modelFiles();
  ASSERT_GE(files.size(), 30u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    const std::string name = f.stem().string();
    Counts want{};
    const auto fixed = kFixedCounts.find(name);
    if (fixed != kFixedCounts.end()) {
      want = fixed->second;
    } else {
      ASSERT_TRUE(familyCounts(name, want)) << "no expected counts for " << name;
    }
    Model model;
    ASSERT_NO_THROW(model = loadUrdf(f.string()));
    EXPECT_EQ(model.numBodies(), want.bodies);
    EXPECT_EQ(model.nvSpanning(), want.nv);
    EXPECT_EQ(model.isFloatingBase(), want.floating);
    EXPECT_EQ(model.nqSpanning(), want.nv + (want.floating ? 1 : 0));
    // The header states the counts the generator computed from its own structure.
    const std::string text = readText(f);
    std::smatch m;
    const std::string line = headerLine(text, "base; bodies ");
    ASSERT_TRUE(std::regex_search(line, m, std::regex(R"((\d+); spanning DoF (\d+))")));
    EXPECT_EQ(std::stoi(m[1]), model.numBodies());
    EXPECT_EQ(std::stoi(m[2]), model.nvSpanning());
  }
}

TEST(ModelFiles, RecordedClosedConfigurationsCloseEveryLoop) {
  QuietLog quiet;
  int checked = 0;
  for (const auto& f : modelFiles()) {
    const std::string text = readText(f);
    const auto ls = loops(text);
    size_t tags = 0;
    // elements, not the header comment's prose (which may quote `<loop type="...">`)
    for (auto p = text.find("<loop name="); p != std::string::npos; p = text.find("<loop name=", p + 1)) ++tags;
    if (tags == 0) continue;
    SCOPED_TRACE(f.filename().string());
    ASSERT_EQ(ls.size(), tags) << "a <loop> is not in the generator's layout";
    ASSERT_FALSE(headerLine(text, "closed configuration:").empty());
    const Model model = loadUrdf(f.string());
    EXPECT_LT(worstLoopGap(model, ls, closedConfiguration(model, text)), 1e-12);
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST(ModelFiles, LoopCheckDetectsAnOpenLoop) {
  QuietLog quiet;
  // six_bar is not closed at q = 0 (tip of branch A at (0.6, 0), of branch B at (0.9, 0)).
  const fs::path f = modelsPath() / "six_bar.urdf";
  const Model model = loadUrdf(f.string());
  EXPECT_NEAR(worstLoopGap(model, loops(readText(f)), model.neutralSpanningConfiguration()), 0.3, 1e-12);
}

namespace {

struct ReferencePair {
  std::string ours, reference;
  double factMass;                               // total mass from the robot-data tables
  std::map<std::string, double> coordinateSign;  // joints whose frame is deliberately flipped
  // Our approximate models keep the joint names of our full models; two reference approximate
  // files name some joints differently: ours -> theirs.
  std::map<std::string, std::string> referenceName = {};
  // The reference's jvrc1_humanoid_approximate.urdf hangs waist and hips on the fixed world link
  // instead of the floating pelvis; with the base at rest at the origin both trees move alike,
  // so only the joint (non-base) block is compared, with the base there.
  bool baseAtRestOnly = false;
};

const std::vector<ReferencePair> kPairs = {
    {"mini_cheetah.urdf", "robot-models/mini_cheetah.urdf", 8.912, {}},
    {"mini_cheetah_approximate.urdf", "robot-models/mini_cheetah_approximate.urdf", 8.252, {}},
    {"mit_humanoid.urdf", "robot-models/mit_humanoid.urdf", 25.96855, {}},
    {"mit_humanoid_approximate.urdf", "robot-models/mit_humanoid_approximate.urdf", 24.86855, {},
     {{"world_to_base", "base_to_Floating Base"}}},
    {"mit_humanoid_leg.urdf", "robot-models/mit_humanoid_leg.urdf", 5.330541, {}},
    {"jvrc1_humanoid.urdf", "robot-models/jvrc1_humanoid.urdf", 61.75, {}},
    {"jvrc1_humanoid_approximate.urdf", "robot-models/jvrc1_humanoid_approximate.urdf", 60.0, {},
     {{"pelvis-to-waist-yaw", "base-to-waist-yaw"},
      {"pelvis-to-left-hip-pitch", "base-to-left-hip-pitch"},
      {"pelvis-to-right-hip-pitch", "base-to-right-hip-pitch"}},
     true},
    // Our right hip-clamp rotor turns about -z of the torso like the left one and the C++ class;
    // the reference URDF has +z there (xacro typo), so that coordinate changes sign.
    {"tello_humanoid.urdf", "robot-models/tello_humanoid.urdf", 16.136868, {{"torso-to-right-hip-clamp-rotor", -1.0}}},
    {"tello_humanoid_approximate.urdf", "robot-models/tello_humanoid_approximate.urdf", 15.436868, {}},
    {"four_bar.urdf", "robot-models/four_bar.urdf", 9.9, {}},
    {"six_bar.urdf", "robot-models/six_bar.urdf", 16.5, {}},
    {"planar_leg_linkage.urdf", "robot-models/planar_leg_linkage.urdf", 0.476, {}},
    {"revolute_rotor_chain.urdf", "robot-models/revolute_rotor_chain.urdf", 3.0, {}},
    {"double_pendulum.urdf", "robot-models/double_pendulum.urdf", 3.0, {}},
    {"generated/revolute_rotor_branch_2_2.urdf",
     "Benchmarking/urdfs/variable_revolute_urdf/revolute_rotor_branch_2_2.urdf", 9.0, {}},
    {"generated/revolute_rotor_pair_branch_1_2.urdf",
     "Benchmarking/urdfs/variable_revolute_pair_urdf/revolute_rotor_pair_branch_1_2.urdf", 9.0, {}},
    {"generated/four_bar_branch_2_2.urdf", "Benchmarking/urdfs/variable_four_bar_urdf/four_bar_branch_2_2.urdf",
     44.6, {}},
    {"generated/parallel_chain_explicit_d5_l4.urdf", "Benchmarking/urdfs/parallel_chains/Explicit/depth5/loop_size4.urdf",
     2.5, {}},
    {"generated/parallel_chain_implicit_d5_l5.urdf", "Benchmarking/urdfs/parallel_chains/Implicit/depth5/loop_size5.urdf",
     2.75, {}},
};

/// The reference's name of one of our coordinates ("joint" or "joint:x" for free joints).
std::string referenceCoordinate(const ReferencePair& pair, const std::string& ours) {
  const auto colon = ours.find(':');
  const std::string joint = ours.substr(0, colon);
  const auto alias = pair.referenceName.find(joint);
  if (alias == pair.referenceName.end()) return ours;
  return alias->second + (colon == std::string::npos ? "" : ours.substr(colon));
}

int indexOf(const std::vector<std::string>& names, const std::string& n) {
  const auto it = std::find(names.begin(), names.end(), n);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

/// Random spanning state of `model`: angles in [-pi, pi], base pose and velocities random.
void randomState(const Model& model, std::mt19937& rng, VecX& q, VecX& v) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  q = model.neutralSpanningConfiguration();
  v.resize(model.nvSpanning());
  for (int i = 0; i < model.nvSpanning(); ++i) v[i] = 2.0 * u(rng);
  for (const Body& b : model.bodies()) {
    if (b.joint.type == JointType::Free) {
      for (int k = 0; k < 3; ++k) q[b.qIndex + k] = u(rng);
      Eigen::Vector4d quat(u(rng), u(rng), u(rng), u(rng));
      quat.normalize();
      q.segment<4>(b.qIndex + 3) = quat;
    } else {
      q[b.qIndex] = M_PI * u(rng);
    }
  }
}

}  // namespace

TEST(ModelFiles, TreeDynamicsMatchTheReferenceFiles) {
  QuietLog quiet;
  if (!fs::exists(kReference)) GTEST_SKIP() << "reference models not found at " << kReference;
  std::mt19937 rng(20240611);
  for (const auto& pair : kPairs) {
    SCOPED_TRACE(pair.ours);
    const Model ours = loadUrdf((modelsPath() / pair.ours).string());
    Model ref;
    ASSERT_NO_THROW(ref = loadUrdf((kReference / pair.reference).string()));
    ASSERT_EQ(ours.nqSpanning(), ref.nqSpanning());
    ASSERT_EQ(ours.nvSpanning(), ref.nvSpanning());
    EXPECT_NEAR(totalMass(ours), pair.factMass, 1e-12 * pair.factMass);
    EXPECT_NEAR(totalMass(ref), pair.factMass, 1e-12 * pair.factMass);

    // Coordinate maps by joint name (free joints: "name:x", ...), with deliberate sign flips.
    std::vector<int> qMap(ours.nqSpanning()), vMap(ours.nvSpanning());
    VecX vSign = VecX::Ones(ours.nvSpanning()), qSign = VecX::Ones(ours.nqSpanning());
    for (int i = 0; i < ours.nqSpanning(); ++i) {
      qMap[i] = indexOf(ref.spanningPositionNames(), referenceCoordinate(pair, ours.spanningPositionNames()[i]));
      ASSERT_GE(qMap[i], 0) << "reference has no coordinate " << ours.spanningPositionNames()[i];
      const auto s = pair.coordinateSign.find(ours.spanningPositionNames()[i]);
      if (s != pair.coordinateSign.end()) qSign[i] = s->second;
    }
    for (int i = 0; i < ours.nvSpanning(); ++i) {
      vMap[i] = indexOf(ref.spanningVelocityNames(), referenceCoordinate(pair, ours.spanningVelocityNames()[i]));
      ASSERT_GE(vMap[i], 0) << "reference has no coordinate " << ours.spanningVelocityNames()[i];
      const auto s = pair.coordinateSign.find(ours.spanningVelocityNames()[i]);
      if (s != pair.coordinateSign.end()) vSign[i] = s->second;
    }

    Data dOurs(ours), dRef(ref);
    for (int trial = 0; trial < 5; ++trial) {
      VecX q, v;
      randomState(ours, rng, q, v);
      if (pair.baseAtRestOnly) {
        q.head<7>() << 0, 0, 0, 1, 0, 0, 0;
        v.head<6>().setZero();
      }
      VecX qRef(ref.nqSpanning()), vRef(ref.nvSpanning());
      for (int i = 0; i < ours.nqSpanning(); ++i) qRef[qMap[i]] = qSign[i] * q[i];
      for (int i = 0; i < ours.nvSpanning(); ++i) vRef[vMap[i]] = vSign[i] * v[i];

      const MatX H = tree::crba(ours, dOurs, q);
      const MatX Href = tree::crba(ref, dRef, qRef);
      const VecX C = tree::nonLinearEffects(ours, dOurs, q, v);
      const VecX Cref = tree::nonLinearEffects(ref, dRef, qRef, vRef);
      MatX Hmapped(ours.nvSpanning(), ours.nvSpanning());
      VecX Cmapped(ours.nvSpanning());
      for (int i = 0; i < ours.nvSpanning(); ++i) {
        Cmapped[i] = vSign[i] * Cref[vMap[i]];
        for (int j = 0; j < ours.nvSpanning(); ++j) Hmapped(i, j) = vSign[i] * vSign[j] * Href(vMap[i], vMap[j]);
      }
      if (pair.baseAtRestOnly) {  // compare the joint block only
        const int n = ours.nvSpanning() - 6;
        ASSERT_NE(ours.spanningVelocityNames()[0].find(':'), std::string::npos);
        const MatX Hj = H.bottomRightCorner(n, n), Hmj = Hmapped.bottomRightCorner(n, n);
        const VecX Cj = C.tail(n), Cmj = Cmapped.tail(n);
        EXPECT_LE((Hj - Hmj).cwiseAbs().maxCoeff(), 1e-9 * std::max(1.0, Hj.cwiseAbs().maxCoeff()));
        EXPECT_LE((Cj - Cmj).cwiseAbs().maxCoeff(), 1e-9 * std::max(1.0, Cj.cwiseAbs().maxCoeff()));
        continue;
      }
      const double hScale = std::max(1.0, H.cwiseAbs().maxCoeff());
      const double cScale = std::max(1.0, C.cwiseAbs().maxCoeff());
      EXPECT_LE((H - Hmapped).cwiseAbs().maxCoeff(), 1e-9 * hScale) << "trial " << trial;
      EXPECT_LE((C - Cmapped).cwiseAbs().maxCoeff(), 1e-9 * cScale) << "trial " << trial;
    }
  }
}
