// com, centroidal: the whole-body-control quantities of issue #24 part A. Like fd, the model and
// the state are prepared once and the algorithm runs --repeat times (instruction counts subtract
// the run with --repeat 1), then the last result is printed (JSON keys are a public contract).
#include <sstream>

#include "commands.hpp"
#include "grbda/algorithms/centroidal.hpp"
#include "grbda/algorithms/com.hpp"
#include "inputs.hpp"
#include "json.hpp"
#include "numbers.hpp"
#include "table.hpp"

namespace grbda::cli {

namespace {

const std::vector<std::string> kXyz = {"x", "y", "z"};
const std::vector<std::string> kMomentum = {"linear x", "linear y", "linear z", "angular x", "angular y", "angular z"};

/// What both commands print first: command, model, coordinate names, the inputs.
void writeHead(JsonWriter& w, const std::string& command, const Model& model, const Configuration& q, const VecX& v) {
  w.beginObject();
  w.member("command", command);
  w.member("model", model.name());
  w.key("position_names");
  writeNames(w, model.positionNames());
  w.key("velocity_names");
  writeNames(w, model.velocityNames());
  w.key(q.key);
  writeVector(w, q.q, q.key);
  w.key("v");
  writeVector(w, v, "v");
}

struct State {
  Model model;
  Configuration q;
  VecX v;
};

State stateFromArgs(const ParsedArgs& args) {
  State s{loadModelFromArgs(args), {}, {}};
  s.q = configurationFromArgs(args, s.model);
  s.v = velocityVectorFromArgs(args, "--v", s.model);
  return s;
}

}  // namespace

std::vector<OptionSpec> wbcOptions() {
  std::vector<OptionSpec> options = configurationOptions();
  options.push_back(velocityVectorOption("--v"));
  for (const auto& group : {dynamicsOptions(), outputOptions()}) options.insert(options.end(), group.begin(), group.end());
  return options;
}

int runCom(const ParsedArgs& args, std::ostream& out) {
  State s = stateFromArgs(args);
  Data data(s.model);
  const long n = repeatCountFromArgs(args);
  for (long i = 0; i < n; ++i) {
    centerOfMassJacobian(s.model, data, s.q.q);
    centerOfMass(s.model, data, s.q.q, s.v);
  }
  if (n == 0) return 0;
  const CentroidalData& c = data.centroidal;
  std::ostringstream buf;
  if (args.has("--json")) {
    JsonWriter w(buf);
    writeHead(w, "com", s.model, s.q, s.v);
    w.member("mass", c.mass);
    w.key("com");
    writeVector(w, c.com, "com");
    w.key("com_velocity");
    writeVector(w, c.vcom, "com_velocity");
    w.key("com_acceleration_bias");
    writeVector(w, c.acomBias, "com_acceleration_bias");
    w.key("com_jacobian");
    writeMatrix(w, c.Jcom, "com_jacobian");
    w.endObject();
  } else {
    buf << "com: centre of mass of '" << s.model.name() << "' (world frame, rotors included)\n"
        << "  mass                   " << formatNumber(c.mass, "mass") << " kg\n"
        << "  com                    " << joinNumbers(c.com, "com") << " m\n"
        << "  com_velocity           " << joinNumbers(c.vcom, "com_velocity") << " m/s\n"
        << "  com_acceleration_bias  " << joinNumbers(c.acomBias, "com_acceleration_bias")
        << " m/s^2 (qdd = 0, gravity not included)\n"
        << "com_jacobian (3 x nv):\n";
    printNamedMatrix(buf, kXyz, s.model.velocityNames(), c.Jcom, "com_jacobian");
  }
  out << buf.str();
  return 0;
}

int runCentroidal(const ParsedArgs& args, std::ostream& out) {
  State s = stateFromArgs(args);
  Data data(s.model);
  const long n = repeatCountFromArgs(args);
  for (long i = 0; i < n; ++i) centroidalDynamics(s.model, data, s.q.q, s.v);
  if (n == 0) return 0;
  const CentroidalData& c = data.centroidal;
  std::ostringstream buf;
  if (args.has("--json")) {
    JsonWriter w(buf);
    writeHead(w, "centroidal", s.model, s.q, s.v);
    w.member("mass", c.mass);
    w.key("com");
    writeVector(w, c.com, "com");
    w.key("centroidal_momentum");
    writeVector(w, c.hg, "centroidal_momentum");
    w.key("centroidal_momentum_matrix");
    writeMatrix(w, c.Ag, "centroidal_momentum_matrix");
    w.key("centroidal_bias");
    writeVector(w, c.dhg, "centroidal_bias");
    w.key("centroidal_inertia");
    writeMatrix(w, c.Ig, "centroidal_inertia");
    w.endObject();
  } else {
    buf << "centroidal: centroidal momentum of '" << s.model.name()
        << "' ([linear; angular about the CoM], world axes, rotors' spin included)\n"
        << "  mass                 " << formatNumber(c.mass, "mass") << " kg\n"
        << "  com                  " << joinNumbers(c.com, "com") << " m\n"
        << "centroidal_momentum h_G = A_G v:\n";
    printNamedVector(buf, kMomentum, c.hg, "centroidal_momentum");
    buf << "centroidal_bias dA_G/dt v (qdd = 0, gravity not included):\n";
    printNamedVector(buf, kMomentum, c.dhg, "centroidal_bias");
    buf << "centroidal_momentum_matrix A_G (6 x nv):\n";
    printNamedMatrix(buf, kMomentum, s.model.velocityNames(), c.Ag, "centroidal_momentum_matrix");
  }
  out << buf.str();
  return 0;
}

}  // namespace grbda::cli
