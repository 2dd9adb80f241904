// fd, id, mass-matrix: load the model, prepare Data and the state once, then run the algorithm
// --repeat times (so an instruction counter can subtract the setup measured with --repeat 0).
#include "commands.hpp"
#include "grbda/algorithms/dynamics.hpp"
#include "inputs.hpp"
#include "report.hpp"

namespace grbda::cli {

int runForwardDynamics(const ParsedArgs& args, std::ostream& out) {
  const Model model = loadModelFromArgs(args);
  const VecX q = configurationFromArgs(args, model);
  const VecX v = velocityVectorFromArgs(args, "--v", model);
  const VecX tau = velocityVectorFromArgs(args, "--tau", model);
  const long repeat = repeatCountFromArgs(args);
  Data data(model);
  const VecX* qdd = nullptr;
  for (long i = 0; i < repeat; ++i) qdd = &forwardDynamics(model, data, q, v, tau);
  if (!qdd) return 0;
  printVectorReport(out, args.has("--json"), model,
                    {"fd", "qdd", "joint accelerations", {{"q", &q}, {"v", &v}, {"tau", &tau}}}, *qdd);
  return 0;
}

int runInverseDynamics(const ParsedArgs& args, std::ostream& out) {
  const Model model = loadModelFromArgs(args);
  const VecX q = configurationFromArgs(args, model);
  const VecX v = velocityVectorFromArgs(args, "--v", model);
  const VecX qdd = velocityVectorFromArgs(args, "--a", model);
  const long repeat = repeatCountFromArgs(args);
  Data data(model);
  const VecX* tau = nullptr;
  for (long i = 0; i < repeat; ++i) tau = &inverseDynamics(model, data, q, v, qdd);
  if (!tau) return 0;
  printVectorReport(out, args.has("--json"), model,
                    {"id", "tau", "generalized forces", {{"q", &q}, {"v", &v}, {"a", &qdd}}}, *tau);
  return 0;
}

int runMassMatrix(const ParsedArgs& args, std::ostream& out) {
  const Model model = loadModelFromArgs(args);
  const VecX q = configurationFromArgs(args, model);
  const long repeat = repeatCountFromArgs(args);
  Data data(model);
  const MatX* H = nullptr;
  for (long i = 0; i < repeat; ++i) H = &massMatrix(model, data, q);
  if (!H) return 0;
  printMatrixReport(out, args.has("--json"), model, {"mass-matrix", "H", "mass matrix", {{"q", &q}}}, *H);
  return 0;
}

}  // namespace grbda::cli
