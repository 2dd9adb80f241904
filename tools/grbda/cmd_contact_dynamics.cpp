// id --contact/--weld (contact-consistent inverse dynamics), impulse (impact dynamics) and
// regressor (the inertial-parameter regressor): load the model and the state once, then run the
// algorithm --repeat times like fd (an instruction counter subtracts the setup, --repeat 0).
#include <memory>

#include "commands.hpp"
#include "constraint_args.hpp"
#include "grbda/algorithms/contact_inverse_dynamics.hpp"
#include "grbda/algorithms/impulse_dynamics.hpp"
#include "grbda/algorithms/regressor.hpp"
#include "inputs.hpp"
#include "method_setup.hpp"
#include "numbers.hpp"

namespace grbda::cli {

namespace {

/// --contact, --weld, --relative, --relative-weld (no --compliance, --baumgarte: hard rows only).
std::vector<OptionSpec> rowOptions() {
  std::vector<OptionSpec> options;
  for (const OptionSpec& o : constraintOptions())
    if (o.name != "--compliance" && o.name != "--baumgarte") options.push_back(o);
  return options;
}

Report plainReport(const std::string& command, const std::string& quantity, const std::string& title,
                   const Configuration& given, std::vector<std::pair<std::string, const VecX*>> inputs) {
  inputs.insert(inputs.begin(), {given.key, &given.q});
  return Report{command, quantity, title, std::move(inputs)};
}

}  // namespace

std::vector<OptionSpec> contactRowOptions() { return rowOptions(); }

int runContactInverseDynamics(const ParsedArgs& args, std::ostream& out, const DynamicsSetup& s, const VecX& v,
                              const VecX& qdd) {
  if (args.has("--method") && s.method != Method::Cluster)  // without --method, contacts name pv: ours is C-RNEA
    throw UsageError("id with --contact, --weld, --relative or --relative-weld needs --method cluster (C-RNEA with "
                     "the contact forces)");
  if (args.has("--reactions")) throw UsageError("--reactions is not available with contacts");
  const std::vector<CommandLineConstraint> given = constraintsFromArgs(args, Method::PV);
  const std::unique_ptr<ConstraintModel> constraints = makeConstraintModel(args, s.model, given);
  Data data(s.model);
  ConstraintData cd(s.model, *constraints);
  ContactInverseDynamicsSettings settings;
  settings.throwOnError = true;  // inconsistent qdd, or a base the contacts cannot hold: NumericalError
  ContactInverseDynamicsReport rep;
  const VecX* tau = repeated<VecX>(args, [&]() -> const VecX& {
    return contactInverseDynamics(s.model, data, *constraints, cd, s.given.q, v, qdd, settings, &rep);
  });
  if (!tau) return 0;
  Report report = s.report("id", "tau", "generalized forces (contact-consistent)", {{"v", &v}, {"a", &qdd}});
  report.method = methodName(Method::Cluster);
  report.scalars = {{"base_residual", rep.baseResidual}, {"base_rank", static_cast<double>(rep.baseRank)}};
  addConstraintForces(report, *constraints, cd, given);
  const auto forces = report.jsonExtras;
  report.jsonExtras = [forces, tau](JsonWriter& w) {
    forces(w);
    w.key("tau");
    writeVector(w, *tau, "tau");
  };
  printVectorReport(out, args.has("--json"), s.model, report, *tau);
  return 0;
}

std::vector<OptionSpec> impulseOptions() {
  std::vector<OptionSpec> options = configurationOptions();
  options.push_back(velocityVectorOption("--v"));
  for (const OptionSpec& o : rowOptions()) options.push_back(o);
  options.push_back({"--restitution", "E", "coefficient of restitution e in [0, 1] (default 0: plastic impact)"});
  for (const auto& group : {dynamicsOptions(), outputOptions()}) options.insert(options.end(), group.begin(), group.end());
  return options;
}

int runImpulse(const ParsedArgs& args, std::ostream& out) {
  const Model model = loadModelFromArgs(args);
  const Configuration given = configurationFromArgs(args, model);
  const VecX v = velocityVectorFromArgs(args, "--v", model);
  double e = 0.0;
  if (const std::string* text = args.value("--restitution")) {
    e = parseNumber(*text, "--restitution");
    if (!(e >= 0.0 && e <= 1.0)) throw UsageError("--restitution must be in [0, 1], got " + *text);
  }
  const std::vector<CommandLineConstraint> rows = constraintsFromArgs(args, Method::PV);
  if (rows.empty()) throw UsageError("impulse needs at least one --contact, --weld, --relative or --relative-weld");
  const std::unique_ptr<ConstraintModel> constraints = makeConstraintModel(args, model, rows);
  Data data(model);
  ConstraintData cd(model, *constraints);
  ImpulseData id(model, *constraints);
  const VecX* vPlus = repeated<VecX>(args, [&]() -> const VecX& {
    return impulseDynamics(model, data, *constraints, cd, id, given.q, v, e);
  });
  if (!vPlus) return 0;
  const VecX eVec = VecX::Constant(1, e);
  Report report = plainReport("impulse", "v_plus", "post-impact velocities", given, {{"v", &v}});
  report.scalars = {{"restitution", e}, {"energy_change", id.energyChange}};
  addConstraintForces(report, *constraints, cd, rows, "impulses");
  const auto impulses = report.jsonExtras;
  report.jsonExtras = [impulses, vPlus](JsonWriter& w) {
    impulses(w);
    w.key("v_plus");
    writeVector(w, *vPlus, "v_plus");
  };
  printVectorReport(out, args.has("--json"), model, report, *vPlus);
  return 0;
}

std::vector<OptionSpec> regressorOptions() {
  std::vector<OptionSpec> options = configurationOptions();
  options.push_back(velocityVectorOption("--v"));
  options.push_back(velocityVectorOption("--a"));
  for (const auto& group : {dynamicsOptions(), outputOptions()}) options.insert(options.end(), group.begin(), group.end());
  return options;
}

int runRegressor(const ParsedArgs& args, std::ostream& out) {
  const Model model = loadModelFromArgs(args);
  const Configuration given = configurationFromArgs(args, model);
  const VecX v = velocityVectorFromArgs(args, "--v", model);
  const VecX qdd = velocityVectorFromArgs(args, "--a", model);
  Data data(model);
  MatX Y;
  const MatX* result = repeated<MatX>(args, [&]() -> const MatX& { return computeRegressor(model, data, given.q, v, qdd, Y); });
  if (!result) return 0;
  const VecX pi = modelParameters(model);
  const std::vector<std::string> names = parameterNames(model);
  Report report = plainReport("regressor", "regressor", "inertial-parameter regressor Y (tau = Y parameters)", given,
                              {{"v", &v}, {"a", &qdd}});
  if (args.has("--json")) {
    report.nameLists = {{"parameter_names", &names}};
    report.inputs.push_back({"parameters", &pi});
    report.jsonExtras = [result](JsonWriter& w) {
      w.key("regressor");
      writeMatrix(w, *result, "regressor");
    };
    printMatrixReport(out, true, model, report, *result);
    return 0;
  }
  // text: one block per velocity coordinate, its non-zero entries by parameter name
  out << "regressor: Y of '" << model.name() << "' (" << Y.rows() << " x " << Y.cols()
      << "), tau = Y parameters; non-zero entries per coordinate\n";
  for (Eigen::Index r = 0; r < Y.rows(); ++r) {
    out << model.velocityNames()[static_cast<size_t>(r)] << ":\n";
    for (Eigen::Index c = 0; c < Y.cols(); ++c)
      if (Y(r, c) != 0.0)
        out << "  " << names[static_cast<size_t>(c)] << " " << formatNumber(Y(r, c), "regressor") << "\n";
  }
  out << "parameters:\n";
  for (Eigen::Index c = 0; c < pi.size(); ++c)
    out << "  " << names[static_cast<size_t>(c)] << " " << formatNumber(pi[c], "parameter") << "\n";
  return 0;
}

}  // namespace grbda::cli
