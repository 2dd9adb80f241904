#pragma once
// The methods grbda offers, in one table, and Solver: one forward-dynamics method prepared on one
// model. The table is the one list the command line (--method), its help text, the benchmarks and
// the Python module read; a new method is one entry here plus its algorithm file.
//
//   grbda::Solver solver(model, "pv", contacts);     // workspace sized once
//   const grbda::VecX& qdd = solver.compute(q, v, tau);  // allocates nothing (see Solver)
//   const grbda::VecX& lambda = solver.lambda();     // the rows' forces
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "grbda/algorithms/constrained_dynamics.hpp"
#include "grbda/baselines/proximal.hpp"
#include "grbda/model.hpp"

namespace grbda {

struct ApproximateModel;
class CfaData;
class ClusterCfaData;
class ConstraintData;
class ConstraintModel;
class Data;

/// Every method of the table, in table order (the order `--method` lists them for fd).
enum class MethodId {
  Cluster, Projection, Lagrange, Proximal, Approximate, Unconstrained, PV, PVSoft, KKT, PVEarly, Cfa, CfaParallel,
  LTL, LTLSoft, ProximalSparse, ProximalDelassus,
  // operational-space inertia only
  Efpa, PVFast, Dense
};

/// The grbda commands that take a method, as bits of MethodInfo::commands.
enum MethodCommand : std::uint32_t {
  kMethodFd = 1u << 0,          ///< forward dynamics (`grbda fd`, Solver)
  kMethodId = 1u << 1,          ///< inverse dynamics (`grbda id`)
  kMethodMassMatrix = 1u << 2,  ///< the mass matrix (`grbda mass-matrix`)
  kMethodOsim = 1u << 3,        ///< the inverse operational-space inertia (`grbda osim`)
  kMethodSimulate = 1u << 4,    ///< `grbda simulate` (forward dynamics integrated)
};

/// One row of the method table.
struct MethodInfo {
  MethodId id;                         ///< its enumerator
  const char* name;                    ///< canonical name: the command line's --method value ("pv-soft")
  std::array<const char*, 2> aliases;  ///< other accepted spellings (nullptr where unused)
  const char* summary;                 ///< one line: what it computes (forward dynamics, or what osim computes)
  const char* osimSummary;             ///< what it computes for osim when that differs (nullptr otherwise)
  bool solvesRows;       ///< solves constraint rows (contacts, welds, loops kept as rows)
  bool constrained;      ///< a constrained solver: without rows given it solves the model's kept loops (maybe none)
  bool exactRows;        ///< solves hard rows exactly (a direct factorisation, not soft, not iterative)
  bool needsCompliance;  ///< its rows are soft: every row needs a compliance R > 0 (ConstraintModel::setCompliance)
  bool approximate;      ///< answers for the approximate model (rotors as armature or dropped): independent q only
  bool allocates;        ///< its forward dynamics allocates per call (a dense baseline returning by value)
  std::uint32_t commands;  ///< the commands that accept it (MethodCommand bits)
  const char* benchKey;    ///< forward dynamics in `grbda bench` and bench/: the JSON key (nullptr: not timed there)
  const char* benchLabel;  ///< and the table label

  /// `command` (a MethodCommand bit) accepts this method.
  bool accepts(std::uint32_t command) const { return (commands & command) != 0; }
};

/// The whole table, in MethodId order.
const std::vector<MethodInfo>& methodTable();
/// The entry of `id`.
const MethodInfo& methodInfo(MethodId id);
/// The entry named `name` (canonical or alias), or nullptr.
const MethodInfo* lookupMethod(const std::string& name);
/// The entry named `name`; InputError listing the valid names when there is none, or when it
/// does not compute what `command` (a MethodCommand bit, 0: any) asks for.
const MethodInfo& findMethod(const std::string& name, std::uint32_t command = 0);
/// The canonical names of the methods `command` accepts (0: all), in table order, joined by `separator`.
std::string methodNames(std::uint32_t command = 0, const std::string& separator = ", ");

/// Settings of Solver.
struct SolverSettings {
  /// proximal, proximal-sparse, proximal-delassus: iterations and μ (the tolerance: proximal-sparse)
  ProximalSettings proximal;
  int threads = 1;            ///< cfa-parallel: threads of the pool (1..256)
  /// methods with rows: when to measure the equation of motion at the answer (ConstraintData::dynamicsResidual)
  DynamicsCheck checkDynamics = DynamicsCheck::Auto;
};

/// One forward-dynamics method of the table prepared on one model: its Data and every other
/// workspace (approximate model, proximal factorisation, CFA chain, constraint data) are built by
/// the constructor, so compute() allocates nothing afterwards — except for the methods whose
/// MethodInfo::allocates is true (projection, lagrange: dense baselines). The Solver refers to
/// `model`, which must outlive it; it copies the constraints.
///
/// Positions q are independent (model.nq()) or spanning (model.nqSpanning()); the approximate
/// methods take independent positions only. v, tau and the result q̈ are independent (model.nv()).
class Solver {
 public:
  /// `method` by name or alias: InputError listing the valid names for an unknown name or one that
  /// does not compute forward dynamics; InputError when the model keeps loops as rows and the
  /// method does not solve rows; cfa: InputError naming why the model is not a chain.
  Solver(const Model& model, const std::string& method, const SolverSettings& settings = {});
  /// The same for a table entry.
  Solver(const Model& model, const MethodInfo& method, const SolverSettings& settings = {});
  /// With contacts, welds and other rows (copied); InputError when the method does not solve rows
  /// or the constraints were made for another model.
  Solver(const Model& model, const std::string& method, const ConstraintModel& constraints,
         const SolverSettings& settings = {});
  /// The same for a table entry.
  Solver(const Model& model, const MethodInfo& method, const ConstraintModel& constraints,
         const SolverSettings& settings = {});
  ~Solver();
  Solver(const Solver&) = delete;             ///< workspaces are not shared (hold it by unique_ptr to move it)
  Solver& operator=(const Solver&) = delete;  ///< refers to its model

  /// q̈ at (q, v, tau); also λ when the method solves rows. The reference stays valid until the next call.
  const VecX& compute(const VecRef& q, const VecRef& v, const VecRef& tau);

  const MethodInfo& method() const { return *method_; }  ///< its table entry
  const Model& model() const { return model_; }          ///< the model it was prepared for
  const VecX& qdd() const { return *qdd_; }              ///< q̈ of the last compute (empty before)
  /// The rows' forces of the last compute, in the ConstraintModel's order (kept loops first);
  /// empty for a method that solves no rows.
  const VecX& lambda() const;
  /// The rows solved (the given constraints, or the kept loops alone), or nullptr.
  const ConstraintModel* constraints() const { return constraints_.get(); }
  /// Their workspace and the diagnostics of the last solve (rank, residuals), or nullptr.
  const ConstraintData* constraintData() const;
  /// proximal without rows, proximal-sparse: the last proximal solve (iterations, residuals), or nullptr.
  const ProximalResult* proximalResult() const { return proximalResult_; }
  /// cfa on a chain, cfa-parallel: the CFA workspace (threads, reduction levels), or nullptr.
  const CfaData* cfaData() const { return cfa_.get(); }

 private:
  void prepare(const ConstraintModel* constraints);
  const Model& model_;
  const MethodInfo* method_;
  SolverSettings settings_;
  std::unique_ptr<Data> data_;  ///< of model_, or of approx_->tree
  std::unique_ptr<ApproximateModel> approx_;
  std::unique_ptr<ConstraintModel> constraints_;
  std::unique_ptr<ConstraintData> constraintData_;
  std::unique_ptr<ProximalData> proximal_;
  std::unique_ptr<CfaData> cfa_;
  std::unique_ptr<ClusterCfaData> clusterCfa_;
  ConstraintSolverSettings constraintSettings_;
  const ProximalResult* proximalResult_ = nullptr;
  const VecX* qdd_;
  VecX result_;  ///< the dense baselines' answer (they return by value)
  VecX noRows_;  ///< lambda() of a method without rows
};

}  // namespace grbda
