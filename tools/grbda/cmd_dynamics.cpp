// fd, id, mass-matrix, osim: load the model, prepare the chosen method and the state once, then
// run the algorithm --repeat times (so an instruction counter can subtract the setup measured
// with --repeat 0). The option tables of all four are built here, from one list.
#include "commands.hpp"
#include "constraint_args.hpp"
#include "inputs.hpp"
#include "grbda/algorithms/loop_coordinates.hpp"
#include "grbda/algorithms/reactions.hpp"
#include "method_setup.hpp"

namespace grbda::cli {

/// id with --contact / --weld / --relative / --relative-weld (cmd_contact_dynamics.cpp).
int runContactInverseDynamics(const ParsedArgs& args, std::ostream& out, const DynamicsSetup& s, const VecX& v,
                              const VecX& qdd);

std::vector<OptionSpec> dynamicsCommandOptions(const std::string& command) {
  std::vector<OptionSpec> options = configurationOptions();
  if (command == "fd" || command == "id") options.push_back(velocityVectorOption("--v"));
  if (command == "fd") options.push_back(velocityVectorOption("--tau"));
  if (command == "id") {
    options.push_back(velocityVectorOption("--a"));
    options.push_back({"--reactions", "",
                       "also the joint reaction wrenches: per joint the wrench its parent exerts on its body "
                       "(actuation included), world axes, moment about the joint origin (JSON \"joint_reactions\")"});
    for (const OptionSpec& o : contactRowOptions()) options.push_back(o);
  }
  if (command == "mass-matrix") {
    options.push_back({"--inverse", "", "the inverse mass matrix H(q)^-1 (method cluster: from the articulated pass, "
                                        "H is never formed or factorised)"});
    options.push_back({"--logdet", "", "also log det H(q) (JSON \"log_det\"), from the articulated pivots"});
  }
  if (command == "osim") {
    options.push_back({"--point", "LINK:X,Y,Z",
                       "an end-effector: a point in the coordinates of link LINK (LINK alone: its origin); "
                       "repeat for several, at least one",
                       true});
    options.push_back({"--linear", "", "3-D point blocks (linear rows only) instead of 6-D blocks"});
  }
  options.push_back(methodOption(command));
  if (command == "fd") options.push_back(threadsOption());
  if (command == "fd") {
    options.push_back({"--prox-iters", "N", "proximal: maximum number of iterations (default 20, at least 1)"});
    options.push_back({"--prox-mu", "MU", "proximal: regularisation mu >= 0 (default 1e-8)"});
    for (const OptionSpec& o : constraintOptions()) options.push_back(o);
    options.push_back({"--check-dynamics", "",
                       "with rows: also measure the equation of motion at the answer (JSON \"dynamics_residual\"; "
                       "by default only pv-early and proximal-delassus do, otherwise it is -1)"});
    options.push_back(loopsOption());
  }
  for (const auto& group : {dynamicsOptions(), outputOptions()}) options.insert(options.end(), group.begin(), group.end());
  return options;
}

int runForwardDynamics(const ParsedArgs& args, std::ostream& out) {
  DynamicsSetup s(args, "fd");
  const VecX v = velocityVectorFromArgs(args, "--v", s.model);
  const VecX tau = velocityVectorFromArgs(args, "--tau", s.model);
  const std::vector<CommandLineConstraint> constraints = constraintsFromArgs(args, s.method);
  const bool keptLoops = !s.model.keptLoopGroups().empty();
  checkBaumgarteHasRows(args, constraints, s.model);
  if (!constraints.empty() || isConstraintMethod(s.method) || keptLoops)
    s.runner.setConstraints(makeConstraintModel(args, s.model, constraints));
  // the model's own vectors (a model keeping loops as rows has every joint of them)
  const VecX vModel = modelVelocities(s.model, s.q, v), tauModel = modelForces(s.model, tau);
  const VecX* qdd = repeated<VecX>(args, [&]() -> const VecX& { return s.runner.forwardDynamics(s.q, vModel, tauModel); });
  if (!qdd) return 0;
  Report report = s.report("fd", "qdd", "joint accelerations", {{"v", &v}, {"tau", &tau}});
  if (const ProximalResult* p = s.runner.proximalResult())
    report.scalars = {{"iterations", static_cast<double>(p->iterations)}, {"residual", p->primalResidual}};
  if (s.runner.constraints()) addConstraintForces(report, *s.runner.constraints(), *s.runner.constraintData(), constraints);
  if (s.method == Method::CfaParallel)
    report.scalars = {{"threads", static_cast<double>(s.runner.cfaData()->threads())},
                      {"levels", static_cast<double>(s.runner.cfaData()->reductionLevels())}};
  if (!keptLoops) {
    printVectorReport(out, args.has("--json"), s.model, report, *qdd);
    return 0;
  }
  const std::vector<std::string> positions = reducedPositionNames(s.model), velocities = reducedVelocityNames(s.model);
  report.positionNames = &positions;
  report.velocityNames = report.labels = &velocities;
  printVectorReport(out, args.has("--json"), s.model, report, reduceVelocities(s.model, *qdd));
  return 0;
}

int runInverseDynamics(const ParsedArgs& args, std::ostream& out) {
  DynamicsSetup s(args, "id");
  const VecX v = velocityVectorFromArgs(args, "--v", s.model);
  const VecX qdd = velocityVectorFromArgs(args, "--a", s.model);
  if (hasConstraintArgs(args)) return runContactInverseDynamics(args, out, s, v, qdd);
  const bool reactions = args.has("--reactions");
  if (reactions && s.method != Method::Cluster)
    throw UsageError("--reactions needs --method cluster (the reactions come from C-RNEA's transmitted forces)");
  const VecX* tau = repeated<VecX>(args, [&]() -> const VecX& { return s.runner.inverseDynamics(s.q, v, qdd); });
  if (!tau) return 0;
  Report report = s.report("id", "tau", "generalized forces", {{"v", &v}, {"a", &qdd}});
  std::vector<JointReaction> list;
  if (reactions) {
    list = jointReactions(s.model, s.runner.data());
    report.reactions = &list;
  }
  printVectorReport(out, args.has("--json"), s.model, report, *tau);
  return 0;
}

int runMassMatrix(const ParsedArgs& args, std::ostream& out) {
  DynamicsSetup s(args, "mass-matrix");
  const bool inverse = args.has("--inverse");
  if ((inverse || args.has("--logdet")) && s.method != Method::Cluster)
    throw UsageError("--inverse and --logdet are computed by --method cluster only");
  const MatX* H = repeated<MatX>(args, [&]() -> const MatX& {
    return inverse ? s.runner.inverseMassMatrix(s.q) : s.runner.massMatrix(s.q);
  });
  if (!H) return 0;
  Report report = inverse ? s.report("mass-matrix", "Hinv", "inverse mass matrix", {})
                          : s.report("mass-matrix", "H", "mass matrix", {});
  if (args.has("--logdet")) report.scalars.push_back({"log_det", s.runner.logDetMassMatrix(s.q)});
  printMatrixReport(out, args.has("--json"), s.model, report, *H);
  return 0;
}

}  // namespace grbda::cli
