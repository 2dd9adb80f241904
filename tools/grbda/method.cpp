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
std::string joinMethodNames(const std::vector<Method>& methods, const std::string& separator) {
  std::string s;
  for (Method m : methods) s += (s.empty() ? "" : separator) + methodName(m);
  return s;
}

bool isApproximate(Method m) { return methodInfo(m).approximate; }

std::string unsupported(Method m, const char* what) {
  return "--method " + methodName(m) + " does not compute " + what;
}

/// The table's bit for a command; the other dynamics commands take id's methods.
std::uint32_t commandBit(const std::string& command) {
  if (command == "fd") return kMethodFd;
  if (command == "simulate") return kMethodSimulate;
  if (command == "osim") return kMethodOsim;
  if (command == "mass-matrix") return kMethodMassMatrix;
  return kMethodId;
}

/// "a, b, c or d": the names of the table's methods with `has`.
template <class Predicate>
std::string methodList(Predicate has, const char* lastJoin) {
  std::vector<std::string> names;
  for (const MethodInfo& m : methodTable())
    if (has(m)) names.push_back(m.name);
  std::string s;
  for (size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? lastJoin : ", ") + names[i];
  return s;
}
}  // namespace

std::string methodName(Method method) { return methodInfo(method).name; }

std::string softMethodNames() {
  return methodList([](const MethodInfo& m) { return m.needsCompliance; }, " and ");
}

std::vector<Method> methodsOf(const std::string& command) {
  std::vector<Method> methods;
  for (const MethodInfo& m : methodTable())
    if (m.accepts(commandBit(command))) methods.push_back(m.id);
  return methods;
}

OptionSpec methodOption(const std::string& command) {
  const std::uint32_t bit = commandBit(command);
  std::string help = "algorithm: " + joinMethodNames(methodsOf(command), ", ") + " (default cluster)";
  for (const MethodInfo& m : methodTable()) {
    if (!m.accepts(bit)) continue;
    const char* what = bit == kMethodOsim && m.osimSummary ? m.osimSummary : m.summary;
    help += std::string(m.id == Method::Cluster ? ". " : "; ") + m.name + ": " + what;
  }
  return {"--method", "NAME", help};
}


bool solvesConstraintRows(Method method) { return methodInfo(method).solvesRows; }

bool isConstraintMethod(Method method) { return methodInfo(method).constrained; }

NamedPoint parseNamedPoint(const std::string& text, const std::string& option) {
  // the point follows the last ':' that is not half of a "::" (the scope separator of expanded
  // joints' links, `hip::1`), so `hip::1` names a link and `hip::1:0,0,0` a point on it
  size_t colon = text.rfind(':');
  if (colon != std::string::npos && colon > 0 && text[colon - 1] == ':') colon = std::string::npos;
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
  if (const MethodInfo* m = lookupMethod(*text); m && m->accepts(commandBit(command))) return m->id;
  throw UsageError("--method '" + *text + "' is not available for " + command + "; valid methods: " +
                   joinMethodNames(valid, ", "));
}

LoopTreatment defaultLoopTreatment(const ParsedArgs& args, Method method) {
  return !args.has("--method") || methodInfo(method).exactRows ? LoopTreatment::Auto : LoopTreatment::Embed;
}

Method methodForModel(const ParsedArgs& args, Method method, const Model& model) {
  if (model.keptLoopGroups().empty()) return method;
  if (!args.has("--method")) return Method::PV;
  if (!solvesConstraintRows(method))
    throw UsageError("--loops keeps loops of '" + model.name() + "' as constraint rows; --method " +
                     methodName(method) + " does not solve constraints (use pv, pv-soft, pv-early, kkt, ltl, "
                     "ltl-soft, proximal or proximal-sparse)");  // wording kept: scripts match it
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

MethodRunner::MethodRunner(const Model& model, Method method, const ProximalSettings& proximal, int threads,
                           DynamicsCheck checkDynamics)
    : model_(model), method_(method), solverSettings_{proximal, threads, checkDynamics} {
  if (isApproximate(method)) {
    approx_ = std::make_unique<ApproximateModel>(makeApproximateModel(
        model, method == Method::Approximate ? RotorApproximation::Diagonal : RotorApproximation::None));
    data_ = std::make_unique<Data>(approx_->tree);
  } else {
    data_ = std::make_unique<Data>(model);
  }
  // A method without rows is prepared now (cfa's refusal of a model comes before any input is
  // read); one with rows once they are known (setConstraints, or the first forwardDynamics).
  const MethodInfo& info = methodInfo(method);
  if (info.accepts(kMethodFd) && !info.solvesRows) solver_ = std::make_unique<Solver>(model, info, solverSettings_);
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
  solver_ = std::make_unique<Solver>(model_, methodInfo(method_), *constraints, solverSettings_);
}

const VecX& MethodRunner::forwardDynamics(const VecX& q, const VecX& v, const VecX& tau) {
  if (!methodInfo(method_).accepts(kMethodFd)) throw UsageError(unsupported(method_, "forward dynamics"));
  if (!solver_) solver_ = std::make_unique<Solver>(model_, methodInfo(method_), solverSettings_);
  return solver_->compute(q, v, tau);
}

const VecX& MethodRunner::inverseDynamics(const VecX& q, const VecX& v, const VecX& qdd) {
  Data& data = *data_;
  switch (method_) {
    case Method::Cluster: return grbda::inverseDynamics(model_, data, q, v, qdd);
    case Method::Projection: return vector_ = projectionInverseDynamics(model_, data, q, v, qdd);
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
    case Method::Projection: return matrix_ = projectionMassMatrix(model_, data, q);
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
      return pvInverseOperationalSpaceInertia(model_, data, *osimRows_, *osimRowData_, q);
    case Method::PVFast:
      prepareOsimRows(linearOnly);
      pvFast_->compute(model_, data, *osimRows_, *osimRowData_, q);
      return matrix_;  // formed by reportedOsim, outside the timed calls
    case Method::Dense:
      prepareOsimRows(linearOnly);
      return denseInverseOperationalSpaceInertia(model_, data, *osimRows_, *osimRowData_, q);
    case Method::Projection:
      return matrix_ = projectionInverseOperationalSpaceInertia(model_, data, endEffectors_, q, linearOnly);
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
