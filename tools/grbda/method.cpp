#include "method.hpp"

#include <algorithm>
#include <thread>

#include "grbda/algorithms/dynamics.hpp"
#include "grbda/baselines/osim_baselines.hpp"
#include "grbda/baselines/projection.hpp"
#include "constraint_args.hpp"
#include "inputs.hpp"
#include "grbda/errors.hpp"
#include "numbers.hpp"

namespace grbda::cli {

namespace {
constexpr Method kAllMethods[] = {Method::Cluster,     Method::Projection,    Method::Lagrange,
                                  Method::Proximal,    Method::Approximate,   Method::Unconstrained,
                                  Method::PV,          Method::PVSoft,        Method::KKT,
                                  Method::PVEarly,     Method::Cfa,           Method::CfaParallel,
                                  Method::LTL,         Method::LTLSoft,       Method::ProximalSparse};

std::string joinMethodNames(const std::vector<Method>& methods, const std::string& separator) {
  std::string s;
  for (Method m : methods) s += (s.empty() ? "" : separator) + methodName(m);
  return s;
}

bool isApproximate(Method m) { return m == Method::Approximate || m == Method::Unconstrained; }

std::string unsupported(Method m, const char* what) {
  return "--method " + methodName(m) + " does not compute " + what;
}
}  // namespace

std::string methodName(Method method) {
  switch (method) {
    case Method::Cluster: return "cluster";
    case Method::Projection: return "projection";
    case Method::Lagrange: return "lagrange";
    case Method::Proximal: return "proximal";
    case Method::Approximate: return "approximate";
    case Method::Unconstrained: return "unconstrained";
    case Method::PV: return "pv";
    case Method::PVSoft: return "pv-soft";
    case Method::KKT: return "kkt";
    case Method::PVEarly: return "pv-early";
    case Method::ProximalSparse: return "proximal-sparse";
    case Method::Cfa: return "cfa";
    case Method::CfaParallel: return "cfa-parallel";
    case Method::LTL: return "ltl";
    case Method::LTLSoft: return "ltl-soft";
    case Method::Efpa: return "efpa";
    case Method::PVFast: return "pv-fast";
    case Method::Dense: return "dense";
  }
  return "?";
}

std::vector<Method> methodsOf(const std::string& command) {
  if (command == "fd") return {std::begin(kAllMethods), std::end(kAllMethods)};
  if (command == "simulate")
    return {Method::Cluster, Method::PV,  Method::PVSoft,  Method::KKT,
            Method::Proximal, Method::LTL, Method::LTLSoft, Method::PVEarly, Method::ProximalSparse};
  if (command == "osim")
    return {Method::Cluster, Method::Efpa,       Method::PV,          Method::PVFast,       Method::LTL,
            Method::Dense,   Method::Projection, Method::Approximate, Method::Unconstrained};
  return {Method::Cluster, Method::Projection, Method::Approximate, Method::Unconstrained};
}

OptionSpec methodOption(const std::string& command) {
  const std::vector<Method> methods = methodsOf(command);
  std::string help = "algorithm: " + joinMethodNames(methods, ", ") +
                     " (default cluster). cluster: the cluster-tree algorithm; projection: "
                     "the spanning tree projected onto the independent coordinates";
  if (command == "fd")
    help += "; lagrange: spanning tree with Lagrange multipliers (dense KKT); proximal: proximal "
            "and sparse KKT solver (see --prox-iters, --prox-mu), with --contact/--weld the proximal "
            "method on the contact forces (on PV's Delassus matrix); proximal-sparse: the same spanning-tree solver with the rows of "
            "--contact, --weld, --relative and kept loops in its sparse KKT factorisation (each row eliminated after its "
            "support path: Pinocchio's contact Cholesky), the baseline PV is measured against; pv, pv-soft, kkt, pv-early: the constrained solvers of --contact "
            "and --weld (pv is the default when constraints are given): Popov-Vereshchagin hard, soft "
            "(--compliance), the dense KKT reference, and PV with early elimination of the rows (O(n + m)); cfa: the Constraint Force Algorithm "
            "(Featherstone & Fijany) for a chain with short side branches, and for a model with loops whose "
            "clusters hang one per body (a chain of clusters: the cluster CFA, serial); cfa-parallel: "
            "the same by block cyclic reduction on --threads threads, models without loops; ltl, ltl-soft: Featherstone's LTL "
            "factorisation H = L^T L (no fill-in) with Y = J L^-1 and Y Y^T lambda = ..., hard and soft "
            "(--compliance): the Pinocchio- and MuJoCo-style baselines";
  if (command == "osim")
    help += "; efpa: the same as cluster (C-EFPA, the extended force propagators); pv: PV-OSIM, the points as "
            "constraint rows propagated through one articulated pass (Popov-Vereshchagin without bias terms); "
            "pv-fast: PV-OSIM-fast, the floating-base operator of seed 003 eq. 54 (branch blocks and a 6x6 base "
            "solve, dense fallback when a branch block is singular; the printed matrix is the operator applied "
            "to the unit vectors, formed after the timed calls); ltl: LTL-OSIM, Featherstone's H = L^T L and "
            "Lambda^-1 = Y Y^T with Y = J L^-1; dense: J H^-1 J^T from the cluster CRBA and the body Jacobians";
  help += "; approximate: the tree of independent bodies, the dependent bodies (rotors and belts, also "
          "four-bar links and feet driven through loops) dropped and the transmissions' reflected inertia "
          "added as joint armature; unconstrained: that tree without the dropped bodies";
  return {"--method", "NAME", help};
}

namespace {
/// Some cluster has several bodies (a loop or coupling embedded).
bool hasLoopClusters(const Model& model) {
  for (const Cluster& cl : model.clusters())
    if (cl.numBodies > 1) return true;
  return false;
}
}  // namespace

bool solvesConstraintRows(Method method) {
  return isConstraintMethod(method) || method == Method::Proximal || method == Method::ProximalSparse;
}

bool isConstraintMethod(Method method) {
  return method == Method::PV || method == Method::PVSoft || method == Method::KKT || method == Method::LTL ||
         method == Method::LTLSoft || method == Method::PVEarly;
}

NamedPoint parseNamedPoint(const std::string& text, const std::string& option) {
  const size_t colon = text.rfind(':');
  NamedPoint p;
  p.link = text.substr(0, colon);
  if (colon != std::string::npos) {
    const VecX xyz = parseVector(text.substr(colon + 1), option + " " + text);
    if (xyz.size() != 3)
      throw UsageError(option + " " + text + ": the point needs 3 coordinates (LINK:x,y,z), got " +
                       std::to_string(xyz.size()));
    p.point = xyz;
  }
  if (p.link.empty()) throw UsageError(option + " " + text + ": no link name (LINK:x,y,z)");
  return p;
}

Method methodFromArgs(const ParsedArgs& args, const std::string& command) {
  const std::string* text = args.value("--method");
  // loops kept as constraint rows (--loops constrain|auto) are solved like contacts
  const std::string* loops = args.value("--loops");
  const bool constrained = hasConstraintArgs(args) || (loops && *loops != "embed");
  if (!text) return constrained ? Method::PV : Method::Cluster;
  const std::vector<Method> valid = methodsOf(command);
  for (Method m : valid)
    if (methodName(m) == *text) return m;
  throw UsageError("--method '" + *text + "' is not available for " + command + "; valid methods: " +
                   joinMethodNames(valid, ", "));
}

LoopTreatment defaultLoopTreatment(const ParsedArgs& args, Method method) {
  const bool exactRows = method == Method::PV || method == Method::PVEarly || method == Method::KKT ||
                         method == Method::LTL;
  return !args.has("--method") || exactRows ? LoopTreatment::Auto : LoopTreatment::Embed;
}

Method methodForModel(const ParsedArgs& args, Method method, const Model& model) {
  if (model.loopConstraints().empty()) return method;
  if (!args.has("--method")) return Method::PV;
  if (!solvesConstraintRows(method))
    throw UsageError("--loops keeps loops of '" + model.name() + "' as constraint rows; --method " +
                     methodName(method) + " does not solve constraints (use pv, pv-soft, pv-early, kkt, ltl, "
                     "ltl-soft, proximal or proximal-sparse)");
  return method;
}

OptionSpec threadsOption() {
  return {"--threads", "N", "cfa-parallel: threads of the pool, 1..256 (default: the machine's hardware threads)"};
}

int threadsFromArgs(const ParsedArgs& args, Method method) {
  const std::string* text = args.value("--threads");
  if (!text) return std::max(1u, std::min(256u, std::thread::hardware_concurrency()));
  if (method != Method::CfaParallel) throw UsageError("--threads applies only to --method cfa-parallel");
  const long n = parseCount(*text, "--threads");
  if (n < 1 || n > 256) throw UsageError("--threads must be in 1..256, got " + *text);
  return static_cast<int>(n);
}

MethodRunner::MethodRunner(const Model& model, Method method, const ProximalSettings& proximal, int threads)
    : model_(model), method_(method), proximalSettings_(proximal) {
  if (isApproximate(method)) {
    approx_ = std::make_unique<ApproximateModel>(makeApproximateModel(
        model, method == Method::Approximate ? RotorApproximation::Diagonal : RotorApproximation::None));
    data_ = std::make_unique<Data>(approx_->tree);
  } else {
    data_ = std::make_unique<Data>(model);
  }
  if (method == Method::Proximal || method == Method::ProximalSparse) proximal_ = std::make_unique<ProximalData>(model);
  if (method == Method::Cfa) {  // loops: the cluster CFA (serial; spec §3.6 C5)
    if (hasLoopClusters(model)) clusterCfa_ = std::make_unique<ClusterCfaData>(model);
    else cfa_ = std::make_unique<CfaData>(model);
  }
  if (method == Method::CfaParallel) cfa_ = std::make_unique<CfaData>(model, CfaOptions{threads});
  if (method == Method::LTL) ltlOsim_ = std::make_unique<LtlOsimData>(model);
}

VecX MethodRunner::methodConfiguration(const VecX& q) const {
  if (!isApproximate(method_) || q.size() == model_.nq() || q.size() != model_.nqSpanning()) return q;
  // A spanning configuration: check that it closes the loops, then keep the independent entries.
  Data check(model_);
  completeConfiguration(model_, check, q);
  return positionsFromSpanning(model_, q, "with --method " + methodName(method_));
}

void MethodRunner::setConstraints(std::unique_ptr<ConstraintModel> constraints) {
  if (!solvesConstraintRows(method_))
    throw UsageError("constraints (--contact, --weld, --relative) are solved by --method pv, pv-soft, kkt, "
                     "proximal, proximal-sparse, ltl, ltl-soft or pv-early, not " + methodName(method_));
  constraints_ = std::move(constraints);
  if (method_ == Method::ProximalSparse) {  // the rows join the spanning tree's sparse KKT system
    proximal_ = std::make_unique<ProximalData>(model_, *constraints_);
    return;
  }
  constraintData_ = std::make_unique<ConstraintData>(model_, *constraints_);
  constraintSettings_.solver = method_ == Method::PVSoft  ? ConstraintSolver::PVSoft
                               : method_ == Method::KKT    ? ConstraintSolver::KKT
                               : method_ == Method::PVEarly ? ConstraintSolver::PVEarly
                               : method_ == Method::Proximal ? ConstraintSolver::Proximal
                               : method_ == Method::LTL      ? ConstraintSolver::LTL
                               : method_ == Method::LTLSoft  ? ConstraintSolver::LTLSoft
                                                             : ConstraintSolver::PV;
  if (method_ == Method::Proximal) {
    constraintSettings_.maxIterations = proximalSettings_.maxIterations;
    constraintSettings_.mu = std::max(proximalSettings_.mu, 1e-14);
  }
}

const VecX& MethodRunner::forwardDynamics(const VecX& q, const VecX& v, const VecX& tau) {
  Data& data = *data_;
  if (isConstraintMethod(method_) && !constraints_) setConstraints(std::make_unique<ConstraintModel>(model_));
  if (constraints_ && method_ != Method::ProximalSparse)
    return constrainedForwardDynamics(model_, data, *constraints_, *constraintData_, q, v, tau, constraintSettings_);
  switch (method_) {
    case Method::Cluster: return grbda::forwardDynamics(model_, data, q, v, tau);
    case Method::Projection: return vector_ = projectionForwardDynamics(model_, data, q, v, tau);
    case Method::Lagrange: return vector_ = lagrangeForwardDynamics(model_, data, q, v, tau);
    case Method::Proximal:
    case Method::ProximalSparse:
      proximalResult_ = &forwardDynamicsProximal(model_, data, *proximal_, q, v, tau, proximalSettings_);
      return proximalResult_->qdd;
    case Method::Approximate:
    case Method::Unconstrained: return approximateForwardDynamics(*approx_, data, q, v, tau);
    case Method::Cfa:
      return clusterCfa_ ? clusterCfaForwardDynamics(model_, *clusterCfa_, q, v, tau)
                         : cfaForwardDynamics(model_, *cfa_, q, v, tau);
    case Method::CfaParallel: return cfaParallelForwardDynamics(model_, *cfa_, q, v, tau);
    default: break;
  }
  throw UsageError(unsupported(method_, "forward dynamics"));
}

const VecX& MethodRunner::inverseDynamics(const VecX& q, const VecX& v, const VecX& qdd) {
  Data& data = *data_;
  switch (method_) {
    case Method::Cluster: return grbda::inverseDynamics(model_, data, q, v, qdd);
    case Method::Projection: return vector_ = projectedInverseDynamics(model_, data, q, v, qdd);
    case Method::Approximate:
    case Method::Unconstrained: return approximateInverseDynamics(*approx_, data, q, v, qdd);
    default: break;
  }
  throw UsageError(unsupported(method_, "inverse dynamics"));
}

const MatX& MethodRunner::inverseMassMatrix(const VecX& q) { return grbda::inverseMassMatrix(model_, *data_, q); }

double MethodRunner::logDetMassMatrix(const VecX& q) { return grbda::logDetMassMatrix(model_, *data_, q); }

const MatX& MethodRunner::massMatrix(const VecX& q) {
  Data& data = *data_;
  switch (method_) {
    case Method::Cluster: return grbda::massMatrix(model_, data, q);
    case Method::Projection: return matrix_ = projectedMassMatrix(model_, data, q);
    case Method::Approximate:
    case Method::Unconstrained: return approximateMassMatrix(*approx_, data, q);
    default: break;
  }
  throw UsageError(unsupported(method_, "the mass matrix"));
}

void MethodRunner::setEndEffectors(const std::vector<NamedPoint>& points) {
  const Model& model = approx_ ? approx_->tree : model_;
  endEffectors_.clear();
  for (const NamedPoint& p : points) {
    const auto& frames = model.frames();
    const auto it = std::find_if(frames.begin(), frames.end(), [&](const Frame& f) { return f.name == p.link; });
    if (it == frames.end()) {
      const auto original = std::find_if(model_.frames().begin(), model_.frames().end(),
                                         [&](const Frame& f) { return f.name == p.link; });
      std::string why;
      if (approx_ && original != model_.frames().end() && original->body >= 0)  // a dependent body, not always a rotor
        why = " (it moves with dependent joint '" + model_.body(original->body).jointName + "' of cluster '" +
              model_.cluster(model_.body(original->body).cluster).name + "', which --method " + methodName(method_) +
              " drops: it keeps only the independent bodies)";
      throw UsageError("--point: unknown link '" + p.link + "' in model '" + model_.name() + "'" + why);
    }
    endEffectors_.push_back({static_cast<int>(it - frames.begin()), p.point});
  }
  osimSet_ = std::make_unique<OsimSet>(model, endEffectors_);
}

const MatX& MethodRunner::inverseOsim(const VecX& q, bool linearOnly) {
  Data& data = *data_;
  switch (method_) {
    case Method::Cluster:
    case Method::Efpa: return inverseOperationalSpaceInertia(model_, data, *osimSet_, q, linearOnly);
    case Method::PV:
      prepareOsimRows(linearOnly);
      return pvInverseOsim(model_, data, *osimRows_, *osimRowData_, q);
    case Method::PVFast:
      prepareOsimRows(linearOnly);
      pvFast_->compute(model_, data, *osimRows_, *osimRowData_, q);
      return matrix_;  // formed by reportedOsim, outside the timed calls
    case Method::Dense:
      prepareOsimRows(linearOnly);
      return denseInverseOsim(model_, data, *osimRows_, *osimRowData_, q);
    case Method::Projection:
      return matrix_ = projectedInverseOperationalSpaceInertia(model_, data, endEffectors_, q, linearOnly);
    case Method::Approximate:
    case Method::Unconstrained:
      return approximateInverseOperationalSpaceInertia(*approx_, data, *osimSet_, q, linearOnly);
    case Method::LTL: return ltlInverseOperationalSpaceInertia(model_, data, *ltlOsim_, endEffectors_, q, linearOnly);
    default: break;
  }
  throw UsageError(unsupported(method_, "the operational-space inertia"));
}

void MethodRunner::prepareOsimRows(bool linearOnly) {
  if (osimRows_ && osimRowsLinear_ == linearOnly) return;
  osimRows_ = std::make_unique<ConstraintModel>(model_);
  for (const EndEffector& e : endEffectors_) {
    // the motion of the point frame P (link axes, origin at the point): a_P = ^P X_link a_link,
    // angular rows first, as C-EFPA's blocks
    const Mat6 X = Transform::translation(e.point).toMatrix();
    const MatX K = linearOnly ? MatX(X.bottomRows<3>()) : MatX(X);
    osimRows_->addCustomRows(model_.frame(e.frame).name, K, VecX::Zero(K.rows()));
  }
  osimRowData_ = std::make_unique<ConstraintData>(model_, *osimRows_);
  if (method_ == Method::PVFast) pvFast_ = std::make_unique<PvOsimFast>(model_, *osimRows_);
  osimRowsLinear_ = linearOnly;
}

const MatX& MethodRunner::reportedOsim(const MatX& last) {
  if (method_ != Method::PVFast || !pvFast_) return last;
  const int m = pvFast_->size();
  matrix_.resize(m, m);
  VecX unit = VecX::Zero(m), column(m);
  for (int j = 0; j < m; ++j) {
    unit[j] = 1.0;
    pvFast_->applyInverse(unit, column);
    matrix_.col(j) = column;
    unit[j] = 0.0;
  }
  return matrix_;
}

}  // namespace grbda::cli
