#include "bench_suite.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "grbda/algorithms/dynamics.hpp"
#include "grbda/algorithms/tree.hpp"
#include "grbda/baselines/approximate.hpp"
#include "grbda/baselines/osim_baselines.hpp"
#include "grbda/baselines/projection.hpp"
#include "grbda/errors.hpp"
#include "grbda/methods.hpp"
#include "grbda/mjcf/mjcf.hpp"
#include "grbda/robots/builtin.hpp"
#include "grbda/urdf/urdf.hpp"

namespace grbda::bench {

namespace fs = std::filesystem;

namespace {
const std::map<std::string, std::string>& robotFiles() {
  static const std::map<std::string, std::string> files = {
      {"revolute_rotor_chain_12", "generated/revolute_rotor_chain_12.urdf"},
      {"revolute_belt_pair_chain_12", "generated/revolute_belt_pair_chain_12.urdf"},
      {"mini_cheetah", "mini_cheetah.urdf"},
      {"mit_humanoid", "mit_humanoid.urdf"},
      {"tello", ""},
      {"jvrc1_humanoid", "jvrc1_humanoid.urdf"},
  };
  return files;
}

bool isModelsDir(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "mini_cheetah.urdf", ec);
}

fs::path executableDir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

double uniform(std::mt19937& rng) { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng); }

VecX uniformVector(std::mt19937& rng, int n) {
  VecX x(n);
  for (int i = 0; i < n; ++i) x[i] = uniform(rng);
  return x;
}

VecX randomIndependentPositions(const Model& model, std::mt19937& rng) {
  VecX q = uniformVector(rng, model.nq());
  for (const auto& cl : model.clusters()) {
    if (cl.numBodies != 1 || !model.body(cl.firstBody).joint.hasQuaternion()) continue;
    std::normal_distribution<double> normal;
    Eigen::Vector4d quat;
    do {
      for (int i = 0; i < 4; ++i) quat[i] = normal(rng);
    } while (quat.norm() < 1e-3);
    q.segment<4>(cl.qIndex + model.body(cl.firstBody).joint.quaternionOffset()) = quat.normalized();  // qw qx qy qz: uniform on the sphere either way
  }
  return q;
}
}  // namespace

const std::vector<std::string>& defaultRobotNames() {
  static const std::vector<std::string> names = {"revolute_rotor_chain_12", "revolute_belt_pair_chain_12",
                                                 "mini_cheetah", "mit_humanoid", "tello", "jvrc1_humanoid"};
  return names;
}

std::string robotFile(const std::string& name) {
  const auto it = robotFiles().find(name);
  return it == robotFiles().end() ? std::string() : it->second;
}

std::string findModelsDir(const std::string& explicitDir) {
  if (!explicitDir.empty()) return explicitDir;  // the user's choice; a wrong one fails on loading
  if (const char* env = std::getenv("GRBDA_MODELS_DIR"); env && *env) return env;
  if (isModelsDir("models")) return "models";
  const fs::path besideExe = executableDir() / ".." / "share" / "grbda" / "models";
  if (!executableDir().empty() && isModelsDir(besideExe)) return besideExe.lexically_normal().string();
  return "";
}

Model loadRobot(const std::string& nameOrPath, const std::string& modelsDir) {
  if (nameOrPath == "tello") return robots::builtin("tello");
  if (robotFiles().count(nameOrPath)) {
    if (modelsDir.empty())
      throw ModelError("cannot find the models directory for robot '" + nameOrPath +
                       "': give --models DIR or set GRBDA_MODELS_DIR (the directory holding mini_cheetah.urdf)");
    const std::string path = (fs::path(modelsDir) / robotFile(nameOrPath)).string();
    if (!fs::exists(path)) throw ModelError("cannot open the model file: no such file", path);
    return loadUrdf(path);
  }
  const bool looksLikePath = nameOrPath.find('/') != std::string::npos || isMjcfPath(nameOrPath) ||
                             (nameOrPath.size() > 5 && nameOrPath.substr(nameOrPath.size() - 5) == ".urdf");
  if (looksLikePath) {
    std::error_code ec;
    if (!fs::is_regular_file(nameOrPath, ec)) throw ModelError("cannot open the model file: no such file", nameOrPath);
    return isMjcfPath(nameOrPath) ? loadMjcf(nameOrPath) : loadUrdf(nameOrPath);
  }
  std::string known;
  for (const auto& n : defaultRobotNames()) known += (known.empty() ? "" : ", ") + n;
  throw InputError("unknown robot '" + nameOrPath + "' (known robots: " + known + "; or give a URDF file path)");
}

std::vector<State> randomStates(const Model& model, int count, std::mt19937& rng) {
  std::vector<State> states;
  Data data(model);
  int failures = 0;
  while (static_cast<int>(states.size()) < count) {
    State s;
    s.q = randomIndependentPositions(model, rng);
    s.v = uniformVector(rng, model.nv());
    s.tau = uniformVector(rng, model.nv());
    s.qdd = uniformVector(rng, model.nv());
    s.vTree = uniformVector(rng, model.nvSpanning());
    s.tauTree = uniformVector(rng, model.nvSpanning());
    try {
      s.qSpan = completeConfiguration(model, data, s.q);
      forwardDynamics(model, data, s.qSpan, s.v, s.tau);  // rejects singular constraint Jacobians
      states.push_back(std::move(s));
    } catch (const NumericalError&) {
      if (++failures > 100 + 10 * count)
        throw NumericalError("bench: could not draw valid random states for '" + model.name() + "' (" +
                             std::to_string(failures) + " configurations failed)");
    }
  }
  return states;
}

std::vector<int> deepestLeafBodies(const Model& model, int max) {
  const int n = model.numBodies();
  std::vector<int> depth(static_cast<size_t>(n), 0);
  std::vector<bool> clusterHasChildren(static_cast<size_t>(model.numClusters()), false);
  for (int i = 0; i < n; ++i) {
    const Body& b = model.body(i);
    if (b.parent < 0) continue;
    depth[static_cast<size_t>(i)] = depth[static_cast<size_t>(b.parent)] + 1;
    if (model.body(b.parent).cluster != b.cluster) clusterHasChildren[static_cast<size_t>(model.body(b.parent).cluster)] = true;
  }
  // One end-effector per leaf cluster (a foot, a hand, the end of a chain): its deepest body.
  // A rotor sits at the depth of the link it drives; the link is heavier in every benchmark
  // robot, so mass breaks the tie in favour of the link.
  auto deeper = [&](int a, int b) {
    if (depth[static_cast<size_t>(a)] != depth[static_cast<size_t>(b)])
      return depth[static_cast<size_t>(a)] > depth[static_cast<size_t>(b)];
    return model.body(a).inertia(5, 5) > model.body(b).inertia(5, 5);
  };
  std::vector<int> leaves;
  for (int k = 0; k < model.numClusters(); ++k) {
    if (clusterHasChildren[static_cast<size_t>(k)]) continue;
    const Cluster& cl = model.cluster(k);
    int best = cl.firstBody;
    for (int i = cl.firstBody + 1; i < cl.firstBody + cl.numBodies; ++i)
      if (deeper(i, best)) best = i;
    leaves.push_back(best);
  }
  std::stable_sort(leaves.begin(), leaves.end(), deeper);
  if (static_cast<int>(leaves.size()) > max) leaves.resize(static_cast<size_t>(max));
  return leaves;
}

RobotBench::RobotBench(std::string name, Model model)
    : name_(std::move(name)), model_(std::move(model)), data_(model_) {
  // One 6-D end-effector per robot, as in the papers' Table IV protocol (spec §8.1).
  for (int body : deepestLeafBodies(model_, 1)) {
    endEffectors_.push_back(EndEffector{model_.frameIndex(model_.body(body).name), Vec3::Zero()});
    endEffectorLinks_.push_back(model_.body(body).name);
  }
  osim_ = std::make_unique<OsimSet>(model_, endEffectors_);
  try {
    approx_ = std::make_unique<ApproximateModel>(makeApproximateModel(model_, RotorApproximation::Diagonal));
    approxData_ = std::make_unique<Data>(approx_->tree);
  } catch (const ModelError&) {
    approx_.reset();  // no independent tree for this model: the approximate methods are left out
  }
  if (approx_) {
    try {
      std::vector<EndEffector> onTree;
      for (const auto& link : endEffectorLinks_) onTree.push_back(EndEffector{approx_->tree.frameIndex(link), Vec3::Zero()});
      approxOsim_ = std::make_unique<OsimSet>(approx_->tree, onTree);
    } catch (const InputError&) {
      approxOsim_.reset();  // an end-effector link is not in the tree (e.g. a dependent foot)
    }
  }
  addMethods();
  const bool approxOk = approx_ != nullptr, approxOsimOk = approxOsim_ != nullptr;
  methods_.erase(std::remove_if(methods_.begin(), methods_.end(),
                                [&](const Method& m) {
                                  if (m.key == "approximate_osim") return !approxOsimOk;
                                  return !approxOk && m.key.rfind("approximate_", 0) == 0;
                                }),
                 methods_.end());
}

const Method* RobotBench::method(const std::string& key) const {
  for (const auto& m : methods_)
    if (m.key == key) return &m;
  return nullptr;
}

/// The forward-dynamics methods of the library's table that carry a bench key, each as a Solver
/// prepared here; the proximal method twice, at 1 and 5 iterations run to the end (tolerance 0,
/// the papers' fixed-iteration runs). A method the model does not admit (no independent tree for
/// the approximate ones) is left out.
void RobotBench::addForwardDynamicsMethods() {
  for (const MethodInfo& info : methodTable()) {
    if (!info.benchKey || !info.accepts(kMethodFd)) continue;
    std::vector<int> iterations = {0};
    if (info.id == MethodId::Proximal) iterations = {1, 5};
    for (int n : iterations) {
      SolverSettings settings;
      std::string key = info.benchKey, label = info.benchLabel;
      if (n > 0) {
        settings.proximal.maxIterations = n;
        settings.proximal.tolerance = 0.0;
        key += "_" + std::to_string(n);
        label += " (" + std::to_string(n) + (n == 1 ? " iteration)" : " iterations)");
      }
      try {
        solvers_.push_back(std::make_unique<Solver>(model_, info, settings));
      } catch (const ModelError&) {
        continue;  // e.g. no independent tree for the approximate model
      }
      Solver* solver = solvers_.back().get();
      const bool independent = info.approximate;  // the approximate tree takes independent positions
      methods_.push_back({key, label, Group::ForwardDynamics, info.id == MethodId::Cluster,
                          [solver, independent](const State& s) {
                            solver->compute(independent ? s.q : s.qSpan, s.v, s.tau);
                          }});
    }
  }
}

void RobotBench::addMethods() {
  const Model& m = model_;
  Data& d = data_;
  using G = Group;
  methods_ = {
      {"cluster_rnea", "C-RNEA", G::InverseDynamics, true,
       [&m, &d](const State& s) { inverseDynamics(m, d, s.qSpan, s.v, s.qdd); }},
      {"projected_rnea", "Projected RNEA", G::InverseDynamics, false,
       [&m, &d](const State& s) { projectionInverseDynamics(m, d, s.qSpan, s.v, s.qdd); }},
      {"approximate_rnea", "Approximate RNEA", G::InverseDynamics, false,
       [this](const State& s) { approximateInverseDynamics(*approx_, *approxData_, s.q, s.v, s.qdd); }},
  };
  addForwardDynamicsMethods();
  const std::vector<Method> rest = {
      // Reference, not a method for the robot: ABA over the same bodies with the loops ignored
      // (rotors as free bodies), the computation Pinocchio's plain ABA does on these robots.
      {"tree_aba_loops_ignored", "Tree ABA, loops ignored", G::ForwardDynamics, false,
       [&m, &d](const State& s) { tree::aba(m, d, s.qSpan, s.vTree, s.tauTree); }},
      {"cluster_efpa", "C-EFPA", G::Osim, true,
       [this](const State& s) { inverseOperationalSpaceInertia(model_, data_, *osim_, s.qSpan); }},
      {"projected_osim", "Projected OSIM", G::Osim, false,
       [this](const State& s) {
         projectionInverseOperationalSpaceInertia(model_, data_, osim_->endEffectors(), s.qSpan);
       }},
      {"approximate_osim", "Approximate OSIM", G::Osim, false,
       [this](const State& s) { approximateInverseOperationalSpaceInertia(*approx_, *approxData_, *approxOsim_, s.q); }},
      {"mass_matrix", "Cluster CRBA", G::MassMatrix, true,
       [&m, &d](const State& s) { massMatrix(m, d, s.qSpan); }},
      {"projected_mass_matrix", "Projected mass matrix", G::MassMatrix, false,
       [&m, &d](const State& s) { projectionMassMatrix(m, d, s.qSpan); }},
      {"approximate_mass_matrix", "Approximate mass matrix", G::MassMatrix, false,
       [this](const State& s) { approximateMassMatrix(*approx_, *approxData_, s.q); }},
  };
  methods_.insert(methods_.end(), rest.begin(), rest.end());
}

}  // namespace grbda::bench
