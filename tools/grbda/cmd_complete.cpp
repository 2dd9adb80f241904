// complete: the spanning-tree positions of independent positions (the loops closed by Newton,
// couplings applied), named, so they can be fed back through --q-spanning. A configuration whose
// loops cannot close is a numerical failure (exit 4).
#include "commands.hpp"
#include "grbda/algorithms/dynamics.hpp"
#include "inputs.hpp"
#include "report.hpp"

namespace grbda::cli {

std::vector<OptionSpec> completeOptions() {
  std::vector<OptionSpec> options = configurationOptions();
  for (const auto& o : outputOptions()) options.push_back(o);
  return options;
}

int runComplete(const ParsedArgs& args, std::ostream& out) {
  const Model model = loadModelFromArgs(args);
  const Configuration given = configurationFromArgs(args, model);
  Data data(model);
  const VecX& qSpan = completeConfiguration(model, data, given.q);
  Report report{"complete", "q_spanning", "spanning-tree positions", {{given.key, &given.q}}};
  report.nameLists = {{"spanning_position_names", &model.spanningPositionNames()}};
  report.labels = &model.spanningPositionNames();
  printVectorReport(out, args.has("--json"), model, report, qSpan);
  return 0;
}

}  // namespace grbda::cli
