// derivatives: the analytic derivatives of forward and inverse dynamics at one state
// (algorithms/derivatives.hpp), five nv x nv matrices named by the velocity coordinates.
#include <sstream>

#include "commands.hpp"
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
                     "accelerations instead of --tau: the derivatives at tau = inverse dynamics (q, v, qdd)"});
  for (const auto& group : {dynamicsOptions(), outputOptions()}) options.insert(options.end(), group.begin(), group.end());
  return options;
}

int runDerivatives(const ParsedArgs& args, std::ostream& out) {
  const Model model = loadModelFromArgs(args);
  const Configuration given = configurationFromArgs(args, model);
  const VecX v = velocityVectorFromArgs(args, "--v", model);
  if (args.has("--tau") && args.has("--qdd")) throw UsageError("give --tau or --qdd, not both");
  Data data(model);
  VecX tau = velocityVectorFromArgs(args, "--tau", model);
  if (args.has("--qdd")) tau = inverseDynamics(model, data, given.q, v, velocityVectorFromArgs(args, "--qdd", model));
  const DerivativesData* d = repeated<DerivativesData>(args, [&]() -> const DerivativesData& {
    computeABADerivatives(model, data, given.q, v, tau);
    return data.derivatives;
  });
  if (!d) return 0;
  const std::vector<std::pair<const char*, const MatX*>> matrices = {{"dqdd_dq", &d->ddq_dq},
                                                                     {"dqdd_dv", &d->ddq_dv},
                                                                     {"dqdd_dtau", &data.Minv},
                                                                     {"dtau_dq", &d->dtau_dq},
                                                                     {"dtau_dv", &d->dtau_dv}};
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
    writeVector(w, d->ddq, "qdd");
    for (const auto& [name, M] : matrices) {
      w.key(name);
      writeMatrix(w, *M, name);
    }
    w.endObject();
  } else {
    buf << "derivatives of '" << model.name() << "' (nv = " << model.nv()
        << "; position derivatives in the tangent space)\nqdd:\n";
    printNamedVector(buf, model.velocityNames(), d->ddq, "qdd");
    for (const auto& [name, M] : matrices) {
      buf << name << ":\n";
      printNamedMatrix(buf, model.velocityNames(), model.velocityNames(), *M, name);
    }
  }
  out << buf.str();
  return 0;
}

}  // namespace grbda::cli
