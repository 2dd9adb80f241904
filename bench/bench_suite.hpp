#pragma once
// What the benchmarks time, shared by `grbda bench` and the Google Benchmark programs in bench/:
// the benchmark robots and where their files are, random valid states, and every compared method
// as a closure over one prepared model (Data, approximate model, end-effector set built once, so a
// timed call does only the algorithm's own work). The forward-dynamics methods are those of the
// library's method table (grbda/methods.hpp) that carry a bench key, each a prepared Solver.
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "grbda/algorithms/osim.hpp"
#include "grbda/baselines/approximate.hpp"
#include "grbda/baselines/proximal.hpp"
#include "grbda/data.hpp"
#include "grbda/methods.hpp"

namespace grbda::bench {

/// The six robots of the papers' per-robot tables, in their column order.
const std::vector<std::string>& defaultRobotNames();
/// "tello", "mini_cheetah", ... and their model files (relative to the models directory);
/// "tello" is built in code and has no file.
std::string robotFile(const std::string& name);

/// The models directory: `explicitDir` if not empty, else $GRBDA_MODELS_DIR, else ./models, else
/// ../share/grbda/models next to the running executable (build tree and install prefix). A
/// directory counts when it holds mini_cheetah.urdf. Returns "" when none is found.
std::string findModelsDir(const std::string& explicitDir);

/// A robot by benchmark name (see defaultRobotNames) or by the path of a URDF file. An unknown
/// name is an InputError listing the known names; a missing file is a ModelError.
Model loadRobot(const std::string& nameOrPath, const std::string& modelsDir);

/// One random state: independent positions (U[-1, 1] per joint coordinate, random unit quaternion
/// for a free joint) closed into spanning positions; v, tau, qdd in U[-1, 1].
struct State {
  VecX q;      ///< independent positions (model.nq())
  VecX qSpan;  ///< the same configuration as spanning positions (model.nqSpanning())
  VecX v, tau, qdd;
  VecX vTree, tauTree;  ///< spanning-size inputs for the tree reference (loops ignored)
};
/// `count` states at which C-ABA succeeds (configurations that cannot be closed, or where a
/// constraint Jacobian is singular, are drawn again). NumericalError if most draws fail.
std::vector<State> randomStates(const Model& model, int count, std::mt19937& rng);

enum class Group { InverseDynamics, ForwardDynamics, Osim, MassMatrix };

struct Method {
  std::string key;       ///< JSON key, e.g. "cluster_aba"
  std::string label;     ///< table label, e.g. "C-ABA"
  Group group;
  bool isReference;      ///< the cluster algorithm of its group (the 0 % line)
  std::function<void(const State&)> run;
};

/// A model with everything the methods need, prepared once. Not copyable (methods point into it).
/// A model without an independent tree (approximate.hpp) has no approximate_* methods, and no
/// approximate_osim when an end-effector link is not a body of that tree.
class RobotBench {
 public:
  RobotBench(std::string name, Model model);
  RobotBench(const RobotBench&) = delete;
  RobotBench& operator=(const RobotBench&) = delete;

  const std::string& name() const { return name_; }
  const Model& model() const { return model_; }
  const std::vector<Method>& methods() const { return methods_; }
  const Method* method(const std::string& key) const;
  /// Names of the end-effector links of the OSIM benchmark.
  const std::vector<std::string>& endEffectorLinks() const { return endEffectorLinks_; }
  /// Clusters the approximate model leaves unconstrained (implicit loops; approximate.hpp).
  std::vector<std::string> approximationGaps() const {
    return approx_ ? approx_->unsupportedClusters : std::vector<std::string>{};
  }

 private:
  void addMethods();
  void addForwardDynamicsMethods();
  std::string name_;
  Model model_;
  Data data_;
  std::unique_ptr<ApproximateModel> approx_;
  std::unique_ptr<Data> approxData_;
  std::vector<std::unique_ptr<Solver>> solvers_;  ///< the table's forward-dynamics methods
  std::unique_ptr<OsimSet> osim_;
  std::unique_ptr<OsimSet> approxOsim_;  ///< the same links on the approximate tree (if it keeps them)
  std::vector<EndEffector> endEffectors_;
  std::vector<std::string> endEffectorLinks_;
  std::vector<Method> methods_;
};

/// End-effector bodies for the OSIM benchmark: the deepest body of each leaf cluster (a cluster
/// no other cluster hangs from), deepest first, at most `max` of them — the feet and hands of the
/// robots, the last link of a chain. The benchmark puts the end-effector at the body's origin.
std::vector<int> deepestLeafBodies(const Model& model, int max);

}  // namespace grbda::bench
