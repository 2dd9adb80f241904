#include "method.hpp"

#include <algorithm>

#include "grbda/algorithms/dynamics.hpp"
#include "grbda/baselines/osim_baselines.hpp"
#include "grbda/baselines/projection.hpp"
#include "grbda/errors.hpp"

namespace grbda::cli {

namespace {
constexpr Method kAllMethods[] = {Method::Cluster,  Method::Projection,  Method::Lagrange,
                                  Method::Proximal, Method::Approximate, Method::Unconstrained};

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
  }
  return "?";
}

std::vector<Method> methodsOf(const std::string& command) {
  if (command == "fd") return {std::begin(kAllMethods), std::end(kAllMethods)};
  return {Method::Cluster, Method::Projection, Method::Approximate, Method::Unconstrained};
}

OptionSpec methodOption(const std::string& command) {
  const std::vector<Method> methods = methodsOf(command);
  std::string help = "algorithm: " + joinMethodNames(methods, ", ") +
                     " (default cluster). cluster: the cluster-tree algorithm; projection: "
                     "the spanning tree projected onto the independent coordinates";
  if (command == "fd")
    help += "; lagrange: spanning tree with Lagrange multipliers (dense KKT); proximal: proximal "
            "and sparse KKT solver (see --prox-iters, --prox-mu)";
  help += "; approximate: the tree of independent bodies, the dependent bodies (rotors and belts, also "
          "four-bar links and feet driven through loops) dropped and the transmissions' reflected inertia "
          "added as joint armature; unconstrained: that tree without the dropped bodies";
  return {"--method", "NAME", help};
}

Method methodFromArgs(const ParsedArgs& args, const std::string& command) {
  const std::string* text = args.value("--method");
  if (!text) return Method::Cluster;
  const std::vector<Method> valid = methodsOf(command);
  for (Method m : valid)
    if (methodName(m) == *text) return m;
  throw UsageError("--method '" + *text + "' is not available for " + command + "; valid methods: " +
                   joinMethodNames(valid, ", "));
}

MethodRunner::MethodRunner(const Model& model, Method method, const ProximalSettings& proximal)
    : model_(model), method_(method), proximalSettings_(proximal) {
  if (isApproximate(method)) {
    approx_ = std::make_unique<ApproximateModel>(makeApproximateModel(
        model, method == Method::Approximate ? RotorApproximation::Diagonal : RotorApproximation::None));
    data_ = std::make_unique<Data>(approx_->tree);
  } else {
    data_ = std::make_unique<Data>(model);
  }
  if (method == Method::Proximal) proximal_ = std::make_unique<ProximalData>(model);
}

VecX MethodRunner::methodConfiguration(const VecX& q) const {
  if (!isApproximate(method_) || q.size() == model_.nq() || q.size() != model_.nqSpanning()) return q;
  // A spanning configuration: check that it closes the loops, then keep the independent entries.
  Data check(model_);
  completeConfiguration(model_, check, q);
  const auto& spanning = model_.spanningPositionNames();
  VecX independent(model_.nq());
  for (int i = 0; i < model_.nq(); ++i) {
    const std::string& name = model_.positionNames()[static_cast<size_t>(i)];
    const auto it = std::find(spanning.begin(), spanning.end(), name);
    if (it == spanning.end())
      throw UsageError("--q-spanning cannot be used with --method " + methodName(method_) + ": position '" + name +
                       "' is not a spanning coordinate; give --q instead");
    independent[i] = q[it - spanning.begin()];
  }
  return independent;
}

const VecX& MethodRunner::forwardDynamics(const VecX& q, const VecX& v, const VecX& tau) {
  Data& data = *data_;
  switch (method_) {
    case Method::Cluster: return grbda::forwardDynamics(model_, data, q, v, tau);
    case Method::Projection: return vector_ = projectionForwardDynamics(model_, data, q, v, tau);
    case Method::Lagrange: return vector_ = lagrangeForwardDynamics(model_, data, q, v, tau);
    case Method::Proximal:
      proximalResult_ = &forwardDynamicsProximal(model_, data, *proximal_, q, v, tau, proximalSettings_);
      return proximalResult_->qdd;
    case Method::Approximate:
    case Method::Unconstrained: return approximateForwardDynamics(*approx_, data, q, v, tau);
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
    case Method::Cluster: return inverseOperationalSpaceInertia(model_, data, *osimSet_, q, linearOnly);
    case Method::Projection:
      return matrix_ = projectedInverseOperationalSpaceInertia(model_, data, endEffectors_, q, linearOnly);
    case Method::Approximate:
    case Method::Unconstrained:
      return approximateInverseOperationalSpaceInertia(*approx_, data, *osimSet_, q, linearOnly);
    default: break;
  }
  throw UsageError(unsupported(method_, "the operational-space inertia"));
}

}  // namespace grbda::cli
