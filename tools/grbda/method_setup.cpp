#include "method_setup.hpp"

#include <algorithm>
#include <climits>

#include "numbers.hpp"

namespace grbda::cli {

DynamicsSetup::DynamicsSetup(const ParsedArgs& args, const std::string& command)
    : DynamicsSetup(args, command, methodFromArgs(args, command)) {}

DynamicsSetup::DynamicsSetup(const ParsedArgs& args, const std::string& command, Method named)
    : model(loadModelFromArgs(args, command == "fd" ? loopTreatmentFromArgs(args, defaultLoopTreatment(args, named))
                                                    : LoopTreatment::Embed)),
      method(methodForModel(args, named, model)),
      given(configurationFromArgs(args, model)),
      runner(model, method, proximalSettingsFromArgs(args, method), threadsFromArgs(args, method),
             args.has("--check-dynamics") ? DynamicsCheck::Always : DynamicsCheck::Auto),
      q(runner.methodConfiguration(modelPositions(model, given.q))) {}

Report DynamicsSetup::report(const std::string& command, const std::string& quantity, const std::string& title,
                             std::vector<std::pair<std::string, const VecX*>> inputs) const {
  inputs.insert(inputs.begin(), {given.key, &given.q});
  return Report{command, quantity, title, std::move(inputs), methodName(method)};
}

ProximalSettings proximalSettingsFromArgs(const ParsedArgs& args, Method method) {
  ProximalSettings settings;
  const std::string* iterations = args.value("--prox-iters");
  const std::string* mu = args.value("--prox-mu");
  if ((iterations || mu) && method != Method::Proximal && method != Method::ProximalSparse &&
      method != Method::ProximalDelassus)
    throw UsageError("--prox-iters and --prox-mu apply only to --method proximal and proximal-sparse"
                     " (and proximal-delassus)");
  if (iterations) {
    const long n = parseCount(*iterations, "--prox-iters");
    if (n < 1) throw UsageError("--prox-iters must be at least 1, got " + *iterations);
    settings.maxIterations = static_cast<int>(std::min<long>(n, INT_MAX));
  }
  if (mu) {
    settings.mu = parseNumber(*mu, "--prox-mu");
    if (settings.mu < 0) throw UsageError("--prox-mu must be >= 0, got " + *mu);
  }
  return settings;
}

}  // namespace grbda::cli
