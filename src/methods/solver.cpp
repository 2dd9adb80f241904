// Solver: a method of the table prepared once on a model (include/grbda/methods.hpp). The
// constructor builds each workspace the method needs; compute() dispatches to the method's
// algorithm, whose own file holds the computation.
#include <algorithm>

#include "grbda/algorithms/cfa.hpp"
#include "grbda/algorithms/cluster_cfa.hpp"
#include "grbda/algorithms/dynamics.hpp"
#include "grbda/baselines/approximate.hpp"
#include "grbda/baselines/projection.hpp"
#include "grbda/errors.hpp"
#include "grbda/methods.hpp"

namespace grbda {

namespace {
/// Some cluster has several bodies (a loop or a coupling embedded): cfa runs the cluster CFA.
bool hasLoopClusters(const Model& model) {
  for (const Cluster& cl : model.clusters())
    if (cl.numBodies > 1) return true;
  return false;
}

ConstraintSolver constraintSolverOf(MethodId id) {
  switch (id) {
    case MethodId::PVSoft: return ConstraintSolver::PVSoft;
    case MethodId::KKT: return ConstraintSolver::KKT;
    case MethodId::PVEarly: return ConstraintSolver::PVEarly;
    case MethodId::Proximal:  // with rows: its old name's meaning
    case MethodId::ProximalDelassus: return ConstraintSolver::ProximalDelassus;
    case MethodId::LTL: return ConstraintSolver::LTL;
    case MethodId::LTLSoft: return ConstraintSolver::LTLSoft;
    default: return ConstraintSolver::PV;
  }
}

std::string rowSolverNames() {
  std::string s;
  for (const MethodInfo& m : methodTable())
    if (m.solvesRows) s += (s.empty() ? "" : ", ") + std::string(m.name);
  return s;
}
}  // namespace

Solver::Solver(const Model& model, const std::string& method, const SolverSettings& settings)
    : Solver(model, findMethod(method, kMethodFd), settings) {}

Solver::Solver(const Model& model, const MethodInfo& method, const SolverSettings& settings)
    : model_(model), method_(&method), settings_(settings), qdd_(&result_) {
  prepare(nullptr);
}

Solver::Solver(const Model& model, const std::string& method, const ConstraintModel& constraints,
               const SolverSettings& settings)
    : Solver(model, findMethod(method, kMethodFd), constraints, settings) {}

Solver::Solver(const Model& model, const MethodInfo& method, const ConstraintModel& constraints,
               const SolverSettings& settings)
    : model_(model), method_(&method), settings_(settings), qdd_(&result_) {
  prepare(&constraints);
}

Solver::~Solver() = default;

void Solver::prepare(const ConstraintModel* constraints) {
  const MethodInfo& m = *method_;
  if (!m.accepts(kMethodFd))
    throw InputError("method '" + std::string(m.name) + "' does not compute forward dynamics; valid methods: " +
                     methodNames(kMethodFd));
  const bool keptLoops = !model_.keptLoopGroups().empty();
  if ((constraints || keptLoops) && !m.solvesRows)
    throw InputError("method '" + std::string(m.name) + "' does not solve constraint rows" +
                     (constraints ? std::string() : " (model '" + model_.name() + "' keeps loops as rows)") +
                     "; methods that do: " + rowSolverNames());
  if (constraints && constraints->modelId() != model_.id())
    throw InputError("the constraints were made for another model than '" + model_.name() + "'");
  if (m.approximate) {
    approx_ = std::make_unique<ApproximateModel>(makeApproximateModel(
        model_, m.id == MethodId::Approximate ? RotorApproximation::Diagonal : RotorApproximation::None));
    data_ = std::make_unique<Data>(approx_->tree);
    return;
  }
  data_ = std::make_unique<Data>(model_);
  // rows: the given ones, or the kept loops alone (a constrained solver always has a ConstraintModel)
  if (constraints) constraints_ = std::make_unique<ConstraintModel>(*constraints);
  else if (m.constrained || keptLoops) constraints_ = std::make_unique<ConstraintModel>(model_);
  const bool sparseRows = m.id == MethodId::ProximalSparse;  // rows inside the spanning tree's sparse KKT
  if (constraints_ && sparseRows) proximal_ = std::make_unique<ProximalData>(model_, *constraints_);
  else if (constraints_) constraintData_ = std::make_unique<ConstraintData>(model_, *constraints_);
  else if (m.id == MethodId::Proximal || sparseRows) proximal_ = std::make_unique<ProximalData>(model_);
  constraintSettings_.solver = constraintSolverOf(m.id);
  constraintSettings_.checkDynamics = settings_.checkDynamics;
  if (m.id == MethodId::Proximal || m.id == MethodId::ProximalDelassus) {  // the iteration on PV's Delassus matrix
    constraintSettings_.maxIterations = settings_.proximal.maxIterations;
    constraintSettings_.mu = std::max(settings_.proximal.mu, 1e-14);
  }
  if (m.id == MethodId::Cfa) {  // loops: the cluster CFA (serial; spec §3.6 C5)
    if (hasLoopClusters(model_)) clusterCfa_ = std::make_unique<ClusterCfaData>(model_);
    else cfa_ = std::make_unique<CfaData>(model_);
  }
  if (m.id == MethodId::CfaParallel) cfa_ = std::make_unique<CfaData>(model_, CfaOptions{settings_.threads});
}

const ConstraintData* Solver::constraintData() const {
  return proximal_ && proximal_->constraintData ? proximal_->constraintData.get() : constraintData_.get();
}

const VecX& Solver::lambda() const {
  const ConstraintData* cd = constraintData();
  return cd ? cd->lambda : noRows_;
}

const VecX& Solver::compute(const VecRef& q, const VecRef& v, const VecRef& tau) {
  Data& data = *data_;
  if (constraintData_)  // PV, PV-soft, KKT, PV-early, LTL, LTL-soft, proximal-delassus (proximal with rows)
    return *(qdd_ = &constrainedForwardDynamics(model_, data, *constraints_, *constraintData_, q, v, tau,
                                                constraintSettings_));
  switch (method_->id) {
    case MethodId::Cluster: qdd_ = &forwardDynamics(model_, data, q, v, tau); break;
    case MethodId::Projection: result_ = projectionForwardDynamics(model_, data, q, v, tau); qdd_ = &result_; break;
    case MethodId::Lagrange: result_ = lagrangeForwardDynamics(model_, data, q, v, tau); qdd_ = &result_; break;
    case MethodId::Proximal:
    case MethodId::ProximalSparse:
      proximalResult_ = &proximalSparseForwardDynamics(model_, data, *proximal_, q, v, tau, settings_.proximal);
      qdd_ = &proximalResult_->qdd;
      break;
    case MethodId::Approximate:
    case MethodId::Unconstrained: qdd_ = &approximateForwardDynamics(*approx_, data, q, v, tau); break;
    case MethodId::Cfa:
      qdd_ = clusterCfa_ ? &clusterCfaForwardDynamics(model_, *clusterCfa_, q, v, tau)
                         : &cfaForwardDynamics(model_, *cfa_, q, v, tau);
      break;
    case MethodId::CfaParallel: qdd_ = &cfaParallelForwardDynamics(model_, *cfa_, q, v, tau); break;
    default:  // prepare() refused the methods without forward dynamics
      throw InputError("method '" + std::string(method_->name) + "' does not compute forward dynamics");
  }
  return *qdd_;
}

}  // namespace grbda
