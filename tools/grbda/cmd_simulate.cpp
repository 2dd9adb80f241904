// grbda simulate: integrate the forward dynamics from (--q0, --v0) under constant --tau for
// --duration seconds, with contacts and welds if given, and report the end state, the energy and
// the constraint drift (text or --json); --out writes the trajectory as CSV.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "constraint_args.hpp"
#include "inputs.hpp"
#include "json.hpp"
#include "numbers.hpp"
#include "divergence.hpp"
#include "simulate_report.hpp"
#include "simulate_world.hpp"
#include "simulation.hpp"

namespace grbda::cli {

std::vector<OptionSpec> simulateOptions() {
  std::vector<OptionSpec> options = {
      {"--q0", "VALUES", "initial independent positions, nq values (default: the neutral configuration)"},
      {"--v0", "VALUES", "initial velocities, nv values (default: zeros)"},
      {"--tau", "VALUES", "constant generalized forces, nv values (default: zeros)"},
      {"--duration", "S", "simulated time in seconds (default 1)"},
      {"--dt", "H", "time step in seconds (default 0.001)"},
      {"--integrator", "NAME", "semi-implicit-euler (default) or rk4"},
      {"--method", "NAME",
       methodNames(kMethodSimulate) + " (default cluster without constraints: C-ABA; pv with --contact/--weld or "
       "loops kept as rows; " + softMethodNames() + " need --compliance); see grbda help fd"},
      {"--out", "FILE",
       "write the trajectory as CSV: t, q:NAME..., v:NAME..., constraint_residual, energy (with a world also "
       "normal_force_sum, fn:LINK..., ground_height, cp:LINK:x,y,z, cf:LINK:x,y,z; grbda view --trajectory plays it)"},
      {"--on-divergence", "error|warn",
       "a run that diverges (energy off its balance with --tau's work by 10 %, a constrained point 1 cm from its "
       "start, a loop open): stop with exit code 4 (error, default) or warn once and continue"},
  };
  for (const OptionSpec& o : constraintOptions()) options.push_back(o);
  options.push_back(loopsOption());
  for (const OptionSpec& o : worldOptions()) options.push_back(o);
  options.push_back(dynamicsOptions().front());  // --gravity
  for (const OptionSpec& o : outputOptions()) options.push_back(o);
  return options;
}

namespace {

constexpr long kMaxSteps = 100000000;  // a run that long is a typo in --dt

double positiveSeconds(const ParsedArgs& args, const std::string& option, double fallback) {
  const std::string* text = args.value(option);
  if (!text) return fallback;
  const double x = parseNumber(*text, option);
  if (!(x > 0.0)) throw UsageError(option + " must be > 0 seconds, got " + *text);
  return x;
}

/// --q0: independent positions only (the state of the simulation), default the neutral configuration.
VecX initialPositions(const ParsedArgs& args, const Model& model) {
  const std::string* text = args.value("--q0");
  if (!text) return model.neutralConfiguration();
  const VecX q = parseVector(*text, "--q0");
  if (q.size() != model.nq())
    throw UsageError("--q0 has " + std::to_string(q.size()) + (q.size() == 1 ? " value" : " values") +
                     ", but model '" + model.name() + "' has nq = " + std::to_string(model.nq()) + " (see grbda info)");
  return q;
}

/// The trajectory file, one row per recorded instant.
class CsvTrajectory {
 public:
  CsvTrajectory(const std::string& path, const Model& model) : out_(path) {
    if (!out_) throw UsageError("--out: cannot write '" + path + "'");
    out_ << "t";
    for (const auto& name : model.positionNames()) out_ << ",q:" << name;
    for (const auto& name : model.velocityNames()) out_ << ",v:" << name;
    out_ << ",constraint_residual,energy\n";
  }
  void write(const SimulationSample& s, const VecX& q, const VecX& v) {
    out_ << formatNumber(s.t, "t");
    for (Eigen::Index i = 0; i < q.size(); ++i) out_ << ',' << formatNumber(q[i], "q");
    for (Eigen::Index i = 0; i < v.size(); ++i) out_ << ',' << formatNumber(v[i], "v");
    out_ << ',' << formatNumber(s.loopResidual, "constraint_residual") << ',' << formatNumber(s.energy, "energy")
         << '\n';
  }

 private:
  std::ofstream out_;
};

/// A progress bar on stderr, shown only on a terminal and only once the run has lasted a second.
class Progress {
 public:
  Progress() : enabled_(isatty(STDERR_FILENO) != 0), start_(Clock::now()), last_(start_) {}
  void update(double fraction) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    shown_ = true;
    const int filled = static_cast<int>(fraction * 40.0);
    std::cerr << "\r[" << std::string(static_cast<size_t>(filled), '#') << std::string(static_cast<size_t>(40 - filled), '.')
              << "] " << static_cast<int>(fraction * 100.0) << "%" << std::flush;
  }
  ~Progress() {
    if (shown_) std::cerr << "\r" << std::string(48, ' ') << "\r" << std::flush;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_, shown_ = false;
  Clock::time_point start_, last_;
};

struct Summary {
  long steps = 0;
  double dt = 0.0, energyStart = 0.0, energyEnd = 0.0, maxResidual = 0.0, maxDrift = 0.0;
  std::string divergence;  ///< --on-divergence warn: why and when the run diverged (empty: it did not)
};

void printJson(std::ostream& out, const Model& model, const Summary& s, Method method, Integrator integrator,
               const Simulation& sim, bool constrained) {
  JsonWriter w(out);
  w.beginObject();
  writeRunMembers(w, model, methodName(method), integratorName(integrator), s.steps, s.dt, sim.q(), sim.v());
  w.member("max_constraint_residual", s.maxResidual);
  w.member("energy_start", s.energyStart);
  w.member("energy_end", s.energyEnd);
  if (constrained) w.member("max_contact_drift", s.maxDrift);
  w.member("diverged", !s.divergence.empty());
  if (!s.divergence.empty()) w.member("divergence", s.divergence);
  w.endObject();
  out << '\n';
}

void printText(std::ostream& out, const Model& model, const Summary& s, Method method, Integrator integrator,
               const Simulation& sim, bool constrained) {
  out << "simulate: '" << model.name() << "', " << s.steps << " steps of " << formatNumber(s.dt, "dt") << " s ("
      << integratorName(integrator) << ", method " << methodName(method) << ")\n";
  out << "  energy " << formatNumber(s.energyStart, "energy") << " -> " << formatNumber(s.energyEnd, "energy") << " J\n";
  out << "  max loop residual " << formatNumber(s.maxResidual, "residual") << " m\n";
  if (constrained) out << "  max contact drift " << formatNumber(s.maxDrift, "drift") << " m\n";
  if (!s.divergence.empty()) out << "  " << s.divergence << "\n";
  printFinalState(out, model, sim.q(), sim.v());
}

}  // namespace

int runSimulate(const ParsedArgs& args, std::ostream& out) {
  // Everything on the command line is checked before the model is read or a step is taken.
  const Method named = methodFromArgs(args, "simulate");
  const std::string* integratorText = args.value("--integrator");
  const Integrator integrator = integratorFromName(integratorText ? *integratorText : "semi-implicit-euler");
  const double duration = positiveSeconds(args, "--duration", 1.0);
  const double dt = positiveSeconds(args, "--dt", 1e-3);
  const double count = std::ceil(duration / dt - 1e-9);  // whole steps; the last may end past --duration
  if (count > static_cast<double>(kMaxSteps))
    throw UsageError("--duration / --dt asks for " + formatNumber(count, "steps") + " steps, more than " +
                     std::to_string(kMaxSteps));
  if (dt > duration)
    throw UsageError("--dt " + formatNumber(dt, "dt") + " is longer than --duration " + formatNumber(duration, "duration"));
  if (usesWorld(args)) return runWorldSimulation(args, out, static_cast<long>(count), dt);
  const Model dynamics = loadModelFromArgs(args, loopTreatmentFromArgs(args, defaultLoopTreatment(args, named)));
  const Method method = methodForModel(args, named, dynamics);
  const bool keptLoops = !dynamics.keptLoopGroups().empty();
  // The state, the inputs and the report stay in the embedded model's coordinates (--loops
  // changes how the loops are solved, not what the numbers mean): that model, loaded again.
  std::unique_ptr<const Model> embedded;
  if (keptLoops) embedded = std::make_unique<const Model>(loadModelFromArgs(args, LoopTreatment::Embed));
  const Model& model = keptLoops ? *embedded : dynamics;
  const std::vector<CommandLineConstraint> given = constraintsFromArgs(args, method);
  checkBaumgarteHasRows(args, given, dynamics);
  MethodRunner runner(dynamics, method);
  if (!given.empty() || isConstraintMethod(method) || keptLoops)
    runner.setConstraints(makeConstraintModel(args, dynamics, given));
  const bool constrained = !given.empty();
  Simulation sim(model, runner, integrator, initialPositions(args, model), velocityVectorFromArgs(args, "--v0", model),
                 velocityVectorFromArgs(args, "--tau", model));
  std::unique_ptr<CsvTrajectory> csv;
  if (const std::string* path = args.value("--out")) csv = std::make_unique<CsvTrajectory>(*path, model);

  const std::string* onDivergence = args.value("--on-divergence");
  if (onDivergence && *onDivergence != "error" && *onDivergence != "warn")
    throw UsageError("--on-divergence '" + *onDivergence + "' is unknown; valid: error, warn");
  DivergenceMonitor divergence(velocityVectorFromArgs(args, "--tau", model), onDivergence && *onDivergence == "warn");
  Summary s;
  s.dt = dt;
  s.steps = static_cast<long>(count);
  auto record = [&](bool first) {
    const SimulationSample now = sim.sample();
    if (first) divergence.start(now, sim.v());
    else divergence.check(now, sim.v());
    s.divergence = divergence.reason();
    if (first) s.energyStart = now.energy;
    s.energyEnd = now.energy;
    s.maxResidual = std::max(s.maxResidual, now.loopResidual);
    s.maxDrift = std::max(s.maxDrift, now.contactDrift);
    if (csv) csv->write(now, sim.q(), sim.v());
  };
  record(true);
  {
    Progress progress;
    for (long i = 0; i < s.steps; ++i) {
      sim.step(dt);
      record(false);
      progress.update(static_cast<double>(i + 1) / static_cast<double>(s.steps));
    }
  }
  if (args.has("--json")) printJson(out, model, s, method, integrator, sim, constrained);
  else printText(out, model, s, method, integrator, sim, constrained);
  return 0;
}

}  // namespace grbda::cli
