// derivatives: the analytic derivatives of forward and inverse dynamics at one state
// (algorithms/derivatives.hpp), five nv x nv matrices named by the velocity coordinates. With fd's
// constraint flags (constraint_args.hpp) the constrained forward dynamics instead
// (algorithms/constrained_derivatives.hpp): the same keys, plus λ and its three derivatives.
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "constraint_args.hpp"
#include "grbda/algorithms/constrained_derivatives.hpp"
#include "grbda/algorithms/derivatives.hpp"
#include "grbda/algorithms/dynamics.hpp"
#include "inputs.hpp"
#include "json.hpp"
#include "method_setup.hpp"
#include "table.hpp"

namespace grbda::cli {

std::vector<OptionSpec> derivativesOptions() {
  std::vector<OptionSpec> options = configurationOptions();
  options.push_back(velocityVectorOption("--v"));
  options.push_back(velocityVectorOption("--tau"));
  options.push_back({"--qdd", "VALUES",
                     "accelerations instead of --tau: the derivatives at tau = inverse dynamics (q, v, qdd); "
                     "not with constraints"});
  options.push_back({"--what", "aba|rnea",
                     "aba (default): the derivatives of forward dynamics and, at its solution, of inverse dynamics; "
                     "rnea: only those of inverse dynamics (dtau_dq, dtau_dv) at qdd = --qdd, or at the forward "
                     "dynamics of --tau computed once outside --repeat (to count the cost of inverse-dynamics "
                     "derivatives alone); not with constraints"});
  for (const OptionSpec& o : constraintOptions())
    if (o.name != "--compliance") options.push_back(o);  // hard constraints only
  for (const auto& group : {dynamicsOptions(), outputOptions()}) options.insert(options.end(), group.begin(), group.end());
  return options;
}

namespace {

/// "LINK:fx" ... per constraint row (welds: moment rows mx, my, mz first; custom rows r0, r1, ...).
std::vector<std::string> rowNames(const ConstraintModel& cm) {
  std::vector<std::string> names;
  for (const Constraint& c : cm.constraints()) {
    const std::string link = c.isRelative() ? c.link + "/" + c.link2 : c.link;
    if (c.kind == ConstraintKind::Custom) {
      for (int r = 0; r < c.numRows; ++r) names.push_back(link + ":r" + std::to_string(r));
      continue;
    }
    if (c.hasAngularRows())
      for (const char* a : {"mx", "my", "mz"}) names.push_back(link + ":" + a);
    for (const char* a : {"fx", "fy", "fz"}) names.push_back(link + ":" + a);
  }
  return names;
}

}  // namespace

int runDerivatives(const ParsedArgs& args, std::ostream& out) {
  const Model model = loadModelFromArgs(args);
  const Configuration given = configurationFromArgs(args, model);
  const VecX v = velocityVectorFromArgs(args, "--v", model);
  if (args.has("--tau") && args.has("--qdd")) throw UsageError("give --tau or --qdd, not both");
  const std::vector<CommandLineConstraint> constraints = constraintsFromArgs(args, Method::PV);
  if (!constraints.empty() && args.has("--qdd"))
    throw UsageError("--qdd does not apply with constraints (their accelerations follow from --tau)");
  Data data(model);
  VecX tau = velocityVectorFromArgs(args, "--tau", model);
  if (args.has("--qdd")) tau = inverseDynamics(model, data, given.q, v, velocityVectorFromArgs(args, "--qdd", model));
  std::unique_ptr<ConstraintModel> cm;
  std::unique_ptr<ConstraintData> cd;
  if (!constraints.empty()) {
    cm = makeConstraintModel(args, model, constraints);
    cd = std::make_unique<ConstraintData>(model, *cm);
  }
  const std::string what = args.has("--what") ? *args.value("--what") : "aba";
  if (what != "aba" && what != "rnea") throw UsageError("--what takes aba or rnea, not '" + what + "'");
  const bool rneaOnly = what == "rnea";
  if (rneaOnly && cm) throw UsageError("--what rnea does not apply with constraints");
  VecX rneaQdd;  // --what rnea: the accelerations of the inverse-dynamics derivatives
  if (rneaOnly)
    rneaQdd = args.has("--qdd") ? velocityVectorFromArgs(args, "--qdd", model) : forwardDynamics(model, data, given.q, v, tau);
  const VecX* qdd = repeated<VecX>(args, [&]() -> const VecX& {
    if (cm) return computeConstrainedDynamicsDerivatives(model, data, *cm, *cd, given.q, v, tau);
    if (rneaOnly) {
      computeRNEADerivatives(model, data, given.q, v, rneaQdd);
      return rneaQdd;
    }
    computeABADerivatives(model, data, given.q, v, tau);
    return data.derivatives.ddq;
  });
  if (!qdd) return 0;
  const DerivativesData& d = data.derivatives;
  const ConstraintDerivativesData* D = cd ? &cd->derivatives : nullptr;
  std::vector<std::pair<const char*, const MatX*>> matrices = {{"dqdd_dq", D ? &D->ddq_dq : &d.ddq_dq},
                                                               {"dqdd_dv", D ? &D->ddq_dv : &d.ddq_dv},
                                                               {"dqdd_dtau", D ? &D->ddq_dtau : &data.Minv},
                                                               {"dtau_dq", &d.dtau_dq},
                                                               {"dtau_dv", &d.dtau_dv}};
  if (rneaOnly) matrices.erase(matrices.begin(), matrices.begin() + 3);  // no forward-dynamics derivatives
  const std::vector<std::pair<const char*, const MatX*>> lambdaMatrices =
      D ? std::vector<std::pair<const char*, const MatX*>>{{"dlambda_dq", &D->dlambda_dq},
                                                           {"dlambda_dv", &D->dlambda_dv},
                                                           {"dlambda_dtau", &D->dlambda_dtau}}
        : std::vector<std::pair<const char*, const MatX*>>{};
  std::ostringstream buf;  // formatted first: a non-finite number throws before any output
  if (args.has("--json")) {
    JsonWriter w(buf);
    w.beginObject();
    w.member("command", std::string("derivatives"));
    w.member("model", model.name());
    w.key("position_names");
    writeNames(w, model.positionNames());
    w.key("velocity_names");
    writeNames(w, model.velocityNames());
    w.key(given.key);
    writeVector(w, given.q, given.key);
    w.key("v");
    writeVector(w, v, "v");
    w.key("tau");
    writeVector(w, tau, "tau");
    w.key("qdd");
    writeVector(w, *qdd, "qdd");
    for (const auto& [name, M] : matrices) {
      w.key(name);
      writeMatrix(w, *M, name);
    }
    if (D) {
      w.key("constraint_row_names");
      writeNames(w, rowNames(*cm));
      w.key("lambda");
      writeVector(w, D->lambda, "lambda");
      for (const auto& [name, M] : lambdaMatrices) {
        w.key(name);
        writeMatrix(w, *M, name);
      }
    }
    w.endObject();
  } else {
    buf << "derivatives of '" << model.name() << "'" << (D ? " with constraints" : "") << " (nv = " << model.nv()
        << "; position derivatives in the tangent space)\nqdd:\n";
    printNamedVector(buf, model.velocityNames(), *qdd, "qdd");
    for (const auto& [name, M] : matrices) {
      buf << name << ":\n";
      printNamedMatrix(buf, model.velocityNames(), model.velocityNames(), *M, name);
    }
    if (D) {
      const std::vector<std::string> rows = rowNames(*cm);
      buf << "lambda (world axes; welds: moment about the point, then force):\n";
      printNamedVector(buf, rows, D->lambda, "lambda");
      for (const auto& [name, M] : lambdaMatrices) {
        buf << name << ":\n";
        printNamedMatrix(buf, rows, model.velocityNames(), *M, name);
      }
    }
  }
  out << buf.str();
  return 0;
}

}  // namespace grbda::cli
