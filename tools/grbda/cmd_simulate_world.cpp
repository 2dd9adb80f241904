// grbda simulate with a world (--ground, --friction, --contact-solver, --pd, ...): the library's
// Simulator — frictional contact on the model's collision shapes, joint limits, damping and dry
// friction — instead of the pinned constraints of plain `simulate`. Same state flags and keys,
// plus the contacts (docs/simulate.md).
#include <algorithm>
#include <fstream>
#include <map>

#include "commands.hpp"
#include "inputs.hpp"
#include "json.hpp"
#include "numbers.hpp"
#include "simulate_report.hpp"
#include "simulate_world.hpp"
#include "grbda/algorithms/integration.hpp"
#include "grbda/errors.hpp"
#include "grbda/algorithms/kinematics.hpp"
#include "grbda/sim/simulator.hpp"

namespace grbda::cli {

std::vector<OptionSpec> worldOptions() {
  return {
      {"--ground", "", "a ground plane at z = 0 (+z up) that the model's collision shapes touch with friction"},
      {"--ground-height", "Z", "the ground plane at height Z instead (implies --ground)"},
      {"--friction", "MU", "Coulomb friction of the contacts (default 1)"},
      {"--restitution", "E", "normal restitution of the contacts, 0..1 (default 0)"},
      {"--contact-solver", "NAME", "admm (default: the exact Coulomb cone), pgs or compliant"},
      {"--self-collision", "", "the model's collision shapes also touch each other (parent-child and same-cluster "
                               "pairs excluded; off by default)"},
      {"--pd", "KP,KD", "a joint PD on every actuated independent joint (not a floating base) toward --q-target"},
      {"--q-target", "VALUES", "the PD's target positions, nq values like --q0 (default: the initial positions)"},
  };
}

bool usesWorld(const ParsedArgs& args) {
  for (const OptionSpec& o : worldOptions())
    if (args.has(o.name)) return true;
  return false;
}

namespace {

double numberOption(const ParsedArgs& args, const std::string& option, double fallback) {
  const std::string* text = args.value(option);
  return text ? parseNumber(*text, option) : fallback;
}

World worldFromArgs(const ParsedArgs& args) {
  World world = World::empty();
  world.hasGround = args.has("--ground") || args.has("--ground-height");
  world.selfCollision = args.has("--self-collision");
  world.groundHeight = numberOption(args, "--ground-height", 0.0);
  world.friction = numberOption(args, "--friction", 1.0);
  world.restitution = numberOption(args, "--restitution", 0.0);
  if (!(world.friction >= 0.0)) throw UsageError("--friction must be >= 0, got " + *args.value("--friction"));
  if (!(world.restitution >= 0.0 && world.restitution <= 1.0))
    throw UsageError("--restitution must be in [0, 1], got " + *args.value("--restitution"));
  return world;
}

VecX positionsOption(const ParsedArgs& args, const std::string& option, const Model& model, const VecX& fallback) {
  const std::string* text = args.value(option);
  if (!text) return fallback;
  const VecX q = parseVector(*text, option);
  if (q.size() != model.nq())
    throw UsageError(option + " has " + std::to_string(q.size()) + " values, but model '" + model.name() +
                     "' has nq = " + std::to_string(model.nq()) + " (see grbda info)");
  return q;
}

/// The links that carry collision shapes, in the order of their first shape (the CSV's fn: columns).
std::vector<std::string> geometryLinks(const Model& model) {
  std::vector<std::string> links;
  for (const CollisionGeometry& g : model.collisionGeometries())
    if (std::find(links.begin(), links.end(), g.link) == links.end()) links.push_back(g.link);
  return links;
}

struct WorldSummary {
  long steps = 0;
  double energyStart = 0.0, energyEnd = 0.0, maxPenetration = 0.0, maxResidual = 0.0;
  long iterationSum = 0;
  int iterationMax = 0;
  long nonconverged = 0;
};

// The trajectory file: plain simulate's columns, then the contacts. Per link that carries shapes:
// fn:LINK (its normal force); then ground_height (nan without a ground) and per link the
// resultant contact force cf:LINK:x,y,z (normal + friction, world) acting at cp:LINK:x,y,z, its
// centre of pressure (the contact points weighted by normal force; nan when the link touches
// nothing: "no point", which numpy.loadtxt, pandas and float() all read), which is what
// `grbda view --trajectory` draws as arrows.
class WorldCsv {
 public:
  WorldCsv(const std::string& path, const Model& model, const World& world, std::vector<std::string> links)
      : out_(path), links_(std::move(links)), world_(world) {
    if (!out_) throw UsageError("--out: cannot write '" + path + "'");
    out_ << "t";
    for (const auto& name : model.positionNames()) out_ << ",q:" << name;
    for (const auto& name : model.velocityNames()) out_ << ",v:" << name;
    out_ << ",constraint_residual,energy,normal_force_sum";
    for (const auto& link : links_) out_ << ",fn:" << link;
    out_ << ",ground_height";
    for (const auto& link : links_)
      out_ << ",cp:" << link << ":x,cp:" << link << ":y,cp:" << link << ":z,cf:" << link << ":x,cf:" << link
           << ":y,cf:" << link << ":z";
    out_ << '\n';
  }
  void write(const Simulator& sim, double residual, double energy) {
    out_ << formatNumber(sim.time(), "t");
    for (Eigen::Index i = 0; i < sim.q().size(); ++i) out_ << ',' << formatNumber(sim.q()[i], "q");
    for (Eigen::Index i = 0; i < sim.v().size(); ++i) out_ << ',' << formatNumber(sim.v()[i], "v");
    out_ << ',' << formatNumber(residual, "constraint_residual") << ',' << formatNumber(energy, "energy") << ','
         << formatNumber(sim.lastStep().normalForceSum(), "normal_force_sum");
    for (const auto& link : links_) {
      double sum = 0.0;
      for (const ContactForce& f : sim.lastStep().contacts)
        if (linkOf(sim, f) == link) sum += f.normalForce;
      out_ << ',' << formatNumber(sum, "fn");
    }
    out_ << ',' << (world_.hasGround ? formatNumber(world_.groundHeight, "ground_height") : std::string("nan"));
    for (const auto& link : links_) writeResultant(sim, link);
    out_ << '\n';
  }

 private:
  static const std::string& linkOf(const Simulator& sim, const ContactForce& f) {
    return sim.model().collisionGeometries()[static_cast<size_t>(f.contact.geometry)].link;
  }
  void writeResultant(const Simulator& sim, const std::string& link) {
    Vec3 weighted = Vec3::Zero(), mean = Vec3::Zero(), force = Vec3::Zero();
    double normal = 0.0;
    int count = 0;
    for (const ContactForce& f : sim.lastStep().contacts) {
      if (linkOf(sim, f) != link) continue;
      weighted += f.normalForce * f.contact.point;
      mean += f.contact.point;
      normal += f.normalForce;
      force += f.normalForce * f.contact.normal + f.frictionForce;
      ++count;
    }
    if (count == 0) {
      out_ << ",nan,nan,nan,0,0,0";
      return;
    }
    // touching without force (within the margin): the points' plain mean
    const Vec3 point = normal > 0.0 ? Vec3(weighted / normal) : Vec3(mean / count);
    for (int k = 0; k < 3; ++k) out_ << ',' << formatNumber(point[k], "cp");
    for (int k = 0; k < 3; ++k) out_ << ',' << formatNumber(force[k], "cf");
  }

  std::ofstream out_;
  std::vector<std::string> links_;
  World world_;
};

void writeContacts(JsonWriter& w, const Simulator& sim) {
  w.beginArray();
  for (const ContactForce& f : sim.lastStep().contacts) {
    w.beginObject();
    w.member("link", sim.model().collisionGeometries()[static_cast<size_t>(f.contact.geometry)].link);
    w.key("point");
    writeVector(w, f.contact.point, "point");
    w.member("normal_force", f.normalForce);
    w.key("friction_force");
    writeVector(w, f.frictionForce, "friction_force");
    w.member("distance", f.contact.distance);
    w.member("sliding", f.sliding);
    w.endObject();
  }
  w.endArray();
}

void printJson(std::ostream& out, const Simulator& sim, const WorldSummary& s) {
  const Model& model = sim.model();
  JsonWriter w(out);
  w.beginObject();
  writeRunMembers(w, model, "contact-physics", integratorName(sim.options().integrator), s.steps, sim.options().dt,
                  sim.q(), sim.v());
  w.member("contact_solver", contactSolverName(sim.options().solver.type));
  w.member("max_constraint_residual", s.maxResidual);
  w.member("energy_start", s.energyStart);
  w.member("energy_end", s.energyEnd);
  w.key("final_contacts");
  writeContacts(w, sim);
  w.member("normal_force_sum", sim.lastStep().normalForceSum());
  w.member("max_penetration", s.maxPenetration);
  w.key("solver_iterations");
  w.beginObject();
  w.member("mean", s.steps > 0 ? static_cast<double>(s.iterationSum) / static_cast<double>(s.steps) : 0.0);
  w.member("max", s.iterationMax);
  w.endObject();
  w.member("nonconverged_steps", static_cast<int>(s.nonconverged));
  w.endObject();
  out << '\n';
}

void printText(std::ostream& out, const Simulator& sim, const WorldSummary& s) {
  const Model& model = sim.model();
  out << "simulate: '" << model.name() << "', " << s.steps << " steps of " << formatNumber(sim.options().dt, "dt")
      << " s (" << integratorName(sim.options().integrator) << ", contact solver "
      << contactSolverName(sim.options().solver.type) << ")\n";
  out << "  energy " << formatNumber(s.energyStart, "energy") << " -> " << formatNumber(s.energyEnd, "energy") << " J\n";
  out << "  contacts at the end " << sim.lastStep().contacts.size() << ", normal force sum "
      << formatNumber(sim.lastStep().normalForceSum(), "force") << " N, max penetration "
      << formatNumber(s.maxPenetration, "depth") << " m\n";
  out << "  solver iterations mean "
      << formatNumber(s.steps > 0 ? static_cast<double>(s.iterationSum) / static_cast<double>(s.steps) : 0.0, "mean")
      << ", max " << s.iterationMax << ", steps not converged " << s.nonconverged << "\n";
  for (const ContactForce& f : sim.lastStep().contacts)
    out << "  contact " << model.collisionGeometries()[static_cast<size_t>(f.contact.geometry)].link << " fn "
        << formatNumber(f.normalForce, "fn") << " N" << (f.sliding ? " sliding" : "") << "\n";
  printFinalState(out, model, sim.q(), sim.v());
}

}  // namespace

int runWorldSimulation(const ParsedArgs& args, std::ostream& out, long steps, double dt) {
  for (const char* pinned : {"--contact", "--weld", "--relative", "--relative-weld", "--method", "--loops", "--compliance", "--baumgarte"})
    if (args.has(pinned))
      throw UsageError(std::string(pinned) + " pins constraints for plain simulate; with --ground, --friction, "
                       "--contact-solver or --pd the collision shapes make the contacts (use one or the other)");
  SimulatorOptions options;
  options.dt = dt;
  if (const std::string* integrator = args.value("--integrator")) {
    options.integrator = integratorFromName(*integrator);
  }
  if (const std::string* solver = args.value("--contact-solver")) {
    try {
      options.solver.type = contactSolverFromName(*solver);
    } catch (const InputError& e) {
      throw UsageError(std::string("--contact-solver: ") + e.what());
    }
  }
  const World world = worldFromArgs(args);
  const Model model = loadModelFromArgs(args);
  Simulator sim(model, world, options);
  const VecX q0 = positionsOption(args, "--q0", model, model.neutralConfiguration());
  sim.setState(q0, velocityVectorFromArgs(args, "--v0", model));
  sim.setTorque(velocityVectorFromArgs(args, "--tau", model));
  if (const std::string* pd = args.value("--pd")) {
    const VecX gains = parseVector(*pd, "--pd");
    if (gains.size() != 2 || gains.minCoeff() < 0.0) throw UsageError("--pd needs KP,KD (two numbers >= 0), got " + *pd);
    sim.setPd(gains[0], gains[1]);
    sim.setPdTarget(positionsOption(args, "--q-target", model, q0), VecX::Zero(model.nv()));
  } else if (args.has("--q-target")) {
    throw UsageError("--q-target is the target of --pd, which is not given");
  }
  Data kinematics(model);
  const auto loopResidual = [&]() {
    if (model.loops().empty()) return 0.0;  // nothing to close: no kinematics for it at every step
    forwardKinematics(model, kinematics, sim.q());
    return loopClosureError(model, kinematics);
  };
  std::unique_ptr<WorldCsv> csv;
  if (const std::string* path = args.value("--out")) csv = std::make_unique<WorldCsv>(*path, model, world, geometryLinks(model));
  WorldSummary s;
  s.steps = steps;
  s.energyStart = s.energyEnd = sim.energy();
  s.maxResidual = loopResidual();
  if (csv) csv->write(sim, s.maxResidual, s.energyStart);
  for (long i = 0; i < steps; ++i) {
    const StepResult& r = sim.step();
    s.iterationSum += r.solver.iterations;
    s.iterationMax = std::max(s.iterationMax, r.solver.iterations);
    if (!r.solver.converged) ++s.nonconverged;
    for (const ContactForce& f : r.contacts) s.maxPenetration = std::max(s.maxPenetration, -f.contact.distance);
    const double residual = loopResidual();
    s.maxResidual = std::max(s.maxResidual, residual);
    if (csv || i + 1 == steps) s.energyEnd = sim.energy();
    if (csv) csv->write(sim, residual, s.energyEnd);
  }
  if (args.has("--json")) printJson(out, sim, s);
  else printText(out, sim, s);
  return 0;
}

}  // namespace grbda::cli
