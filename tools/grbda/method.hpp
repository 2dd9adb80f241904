#pragma once
// --method of the dynamics commands: which algorithm answers fd, id, mass-matrix and osim. The
// cluster algorithms are the default; the others are the baselines of the papers, exact
// (projection, lagrange, proximal) or approximate (rotors as armature, or rotors dropped).
#include <memory>
#include <string>
#include <vector>

#include "args.hpp"
#include "grbda/algorithms/constrained_dynamics.hpp"
#include "grbda/algorithms/cfa.hpp"
#include "grbda/algorithms/cluster_cfa.hpp"
#include "grbda/algorithms/osim.hpp"
#include "grbda/algorithms/pv_osim.hpp"
#include "grbda/baselines/approximate.hpp"
#include "grbda/baselines/ltl.hpp"
#include "grbda/baselines/proximal.hpp"
#include "grbda/methods.hpp"

namespace grbda::cli {

/// The methods of the library's table (grbda/methods.hpp): names, predicates and help come from it.
using Method = MethodId;

/// fd's constrained solvers (with --contact / --weld; without constraints they equal cluster).
bool isConstraintMethod(Method method);
/// Those and the proximal solvers: every method that takes --contact, --weld, kept loops.
bool solvesConstraintRows(Method method);

/// "pv-soft and ltl-soft": the methods whose rows need --compliance (from the table), for help and messages.
std::string softMethodNames();
/// The command-line name ("cluster", "projection", ...).
std::string methodName(Method method);
/// The methods a command accepts, default first: fd has all; id, mass-matrix, osim have no
/// lagrange or proximal (those are forward-dynamics solvers); osim also has ltl.
std::vector<Method> methodsOf(const std::string& command);
/// The --method option of a command, its help listing the valid names.
OptionSpec methodOption(const std::string& command);
/// --method (default cluster); a name the command does not accept is a UsageError naming the
/// valid ones.
Method methodFromArgs(const ParsedArgs& args, const std::string& command);
/// fd and simulate: how loops are treated when --loops is not given. `auto` (keep a loop as
/// constraint rows where that is cheaper) when the method solves hard constraints exactly or
/// none was named, so the default never changes the answer; `embed` for every other method.
LoopTreatment defaultLoopTreatment(const ParsedArgs& args, Method method);
/// The method once the model is loaded: without --method, pv for a model that keeps loops as
/// constraint rows; a method that cannot solve those rows is a UsageError naming the valid ones.
Method methodForModel(const ParsedArgs& args, Method method, const Model& model);
/// fd's --threads N of --method cfa-parallel (default: the machine's hardware threads); a
/// UsageError with another method or outside 1..256.
OptionSpec threadsOption();
int threadsFromArgs(const ParsedArgs& args, Method method);

/// A link and a point on it (link coordinates): one --point / --contact / --weld LINK[:x,y,z].
struct NamedPoint {
  std::string link;
  Vec3 point = Vec3::Zero();
};
/// "LINK:x,y,z" or "LINK" (its origin) given to `option`. The last ':' separates the point, so a
/// link name may contain ':' as long as a point follows. UsageError naming the option otherwise.
NamedPoint parseNamedPoint(const std::string& text, const std::string& option);

/// Everything a method needs prepared once (its Data, the approximate model, the proximal
/// workspace, the OSIM end-effector set), so that --repeat times only the computation.
/// Configurations may be independent (nq) or spanning (nqSpanning) for every method; the
/// approximate ones take the independent entries of a spanning configuration (by name).
class MethodRunner {
 public:
  /// cfa and cfa-parallel: InputError naming why when the model is not a chain with short side
  /// branches; `threads` is the pool of cfa-parallel.
  MethodRunner(const Model& model, Method method, const ProximalSettings& proximal = {}, int threads = 1,
               DynamicsCheck checkDynamics = DynamicsCheck::Auto);

  Method method() const { return method_; }
  const Model& model() const { return model_; }
  /// The configuration in the form the method's library call takes; call once, outside loops.
  VecX methodConfiguration(const VecX& q) const;

  const VecX& forwardDynamics(const VecX& q, const VecX& v, const VecX& tau);
  const VecX& inverseDynamics(const VecX& q, const VecX& v, const VecX& qdd);
  const MatX& massMatrix(const VecX& q);
  /// cluster only: H⁻¹ and log det H.
  const MatX& inverseMassMatrix(const VecX& q);
  double logDetMassMatrix(const VecX& q);
  /// Sets the end-effectors of inverseOsim: UsageError naming an unknown link (or one the
  /// approximate model dropped).
  void setEndEffectors(const std::vector<NamedPoint>& points);
  const MatX& inverseOsim(const VecX& q, bool linearOnly);
  /// The Λ⁻¹ to print after the (timed) inverseOsim calls: `last` itself, except for pv-fast,
  /// whose inverseOsim only computes the operator: Λ⁻¹ formed by applying it to the unit vectors.
  const MatX& reportedOsim(const MatX& last);
  /// pv-fast: the operator of the last inverseOsim (nullptr for other methods).
  const PvOsimFast* pvOsimFast() const { return pvFast_.get(); }
  /// The last proximal solve (nullptr for other methods).
  const ProximalResult* proximalResult() const { return solver_ ? solver_->proximalResult() : nullptr; }
  /// Contacts and welds for forwardDynamics (pv, pv-soft, kkt, proximal, ltl, ltl-soft; UsageError
  /// otherwise).
  void setConstraints(std::unique_ptr<ConstraintModel> constraints);
  const ConstraintModel* constraints() const { return solver_ ? solver_->constraints() : nullptr; }
  const ConstraintData* constraintData() const { return solver_ ? solver_->constraintData() : nullptr; }
  /// The workspace of the last computation (for joint reactions after --method cluster's id).
  const Data& data() const { return *data_; }
  /// The CFA workspace (nullptr for other methods).
  const CfaData* cfaData() const { return solver_ ? solver_->cfaData() : nullptr; }

 private:
  const Model& model_;
  Method method_;
  SolverSettings solverSettings_;
  std::unique_ptr<Solver> solver_;  ///< forward dynamics: the library's Solver (with the rows once set)
  std::unique_ptr<ApproximateModel> approx_;
  std::unique_ptr<Data> data_;  ///< id, mass matrix, osim: of model_, or of approx_->tree
  std::vector<EndEffector> endEffectors_;
  std::unique_ptr<OsimSet> osimSet_;
  std::unique_ptr<LtlOsimData> ltlOsim_;  ///< osim --method ltl
  /// pv, pv-fast, dense osim: the end-effectors as custom rows (K = ^P X_link, or its linear rows)
  void prepareOsimRows(bool linearOnly);
  std::unique_ptr<ConstraintModel> osimRows_;
  std::unique_ptr<ConstraintData> osimRowData_;
  std::unique_ptr<PvOsimFast> pvFast_;
  bool osimRowsLinear_ = false;
  VecX vector_;
  MatX matrix_;
};

}  // namespace grbda::cli
