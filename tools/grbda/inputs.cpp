#include "inputs.hpp"

#include "grbda/algorithms/dynamics.hpp"
#include "grbda/algorithms/loop_coordinates.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "grbda/errors.hpp"
#include "grbda/logging.hpp"
#include "grbda/mjcf/mjcf.hpp"
#include "grbda/robots/builtin.hpp"
#include "grbda/urdf/urdf.hpp"
#include "numbers.hpp"

namespace grbda::cli {

std::vector<OptionSpec> outputOptions() {
  return {
      {"--json", "", "machine-readable JSON output (names next to the numbers, full precision)"},
      {"--log-level", "LEVEL", "trace, debug, info, warn, error or off (default warn); log goes to stderr"},
      {"--floating", "", "add a free joint between the world and the file's root link (a fixed-base file floats)"},
      {"--transmissions", "exact|ignore",
       "URDF <transmission> elements that carry drake:rotor_inertia: exact rotor bodies coupled by the gear "
       "ratio (exact, the default) or ignored as before issue #25 (ignore)"},
  };
}

std::vector<OptionSpec> dynamicsOptions() {
  return {
      {"--gravity", "GX,GY,GZ", "gravity in world coordinates (default: the model's, 0,0,-9.81)"},
      {"--repeat", "N",
       "compute N times on the prepared model and state and print the last result (default 1); "
       "N = 0 loads and parses everything but computes and prints nothing (for instruction counts: "
       "cost per call = (count(N) - count(0)) / N)"},
  };
}

std::vector<OptionSpec> configurationOptions() {
  return {
      {"--q", "VALUES", "independent positions, comma-separated, nq values (default: the neutral configuration)"},
      {"--q-spanning", "VALUES",
       "instead of --q: positions of every spanning-tree joint, in the order of spanning_position_names "
       "(`grbda complete` prints them); must close the loops"},
  };
}

OptionSpec velocityVectorOption(const std::string& option) {
  if (option == "--tau") return {option, "VALUES", "generalized forces, nv values (default: zeros)"};
  if (option == "--a") return {option, "VALUES", "accelerations qdd, nv values (default: zeros)"};
  return {option, "VALUES", "velocities, nv values (default: zeros)"};
}

namespace {
void checkReadable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) throw ModelError("cannot open the model file: no such file", path);
  if (fs::is_directory(status)) throw ModelError("cannot open the model file: it is a directory", path);
  if (!std::ifstream(path)) throw ModelError("cannot open the model file: permission denied or unreadable", path);
}

/// The names in order, cut after the first few: an error about a 2000-joint model must stay
/// one readable line (`grbda info` lists them all).
std::string describeNames(const std::vector<std::string>& names) {
  constexpr size_t kShown = 8;
  std::string s;
  for (size_t i = 0; i < names.size() && i < kShown; ++i) s += (s.empty() ? "" : ", ") + names[i];
  if (names.size() > kShown)
    s += ", ... and " + std::to_string(names.size() - kShown) + " more; `grbda info` lists them";
  return s.empty() ? "none" : s;
}

void checkLength(const VecX& x, int expected, const std::string& option, const char* sizeName,
                 const Model& model, const std::vector<std::string>& names) {
  if (x.size() == expected) return;
  throw UsageError(option + " has " + std::to_string(x.size()) + (x.size() == 1 ? " value" : " values") + ", but model '" + model.name() + "' has " +
                   sizeName + " = " + std::to_string(expected) + " (" + describeNames(names) + ")");
}
}  // namespace

namespace {
TransmissionTreatment transmissionsFromArgs(const ParsedArgs& args) {
  const std::string* text = args.value("--transmissions");
  if (!text || *text == "exact") return TransmissionTreatment::ExactRotor;
  if (*text == "ignore") return TransmissionTreatment::Ignore;
  throw UsageError("--transmissions: '" + *text + "' is not exact or ignore");
}

Model builtinOrUrdf(const std::vector<std::string>& positional, LoopTreatment loops, bool floating,
                    TransmissionTreatment transmissions) {
  // "builtin:NAME" names a robot built in code (robots that URDF+ cannot express, spec §5.9)
  const std::string prefix = "builtin:";
  if (positional.size() == 1 && positional[0].rfind(prefix, 0) == 0) {
    const std::string name = positional[0].substr(prefix.size());
    std::string known;
    for (const std::string& n : robots::builtinNames()) {
      if (n != name) {
        known += (known.empty() ? "" : ", ") + prefix + n;
        continue;
      }
      ModelBuilder builder = robots::builtinBuilder(name);
      builder.setLoopTreatment(loops);
      if (floating) builder.addFloatingBase();
      return builder.build();
    }
    throw UsageError("unknown built-in robot '" + positional[0] + "' (built-in robots: " + known + ")");
  }
  for (const auto& path : positional) checkReadable(path);
  LoadOptions options;
  options.loops = loops;
  options.floatingBase = floating;
  options.transmissions = transmissions;
  for (const auto& path : positional)  // an MJCF file (.xml, .mjcf) is a whole robot
    if (isMjcfPath(path)) {
      if (positional.size() != 1) throw UsageError("'" + path + "' is an MJCF file (a whole robot); give it alone");
      return loadMjcf(path, options);
    }
  return positional.size() == 1 ? loadUrdf(positional[0], options) : loadUrdf(positional, options);
}
}  // namespace

LoopTreatment loopTreatmentFromArgs(const ParsedArgs& args, LoopTreatment fallback) {
  const std::string* text = args.value("--loops");
  if (!text) return fallback;
  try {
    return loopTreatmentFromName(*text);
  } catch (const InputError& e) {
    throw UsageError(std::string("--loops: ") + e.what());
  }
}

Model loadModelFromArgs(const ParsedArgs& args, LoopTreatment loops) {
  if (const std::string* level = args.value("--log-level")) {
    try {
      setLogLevel(parseLogLevel(*level));
    } catch (const InputError& e) {
      throw UsageError(std::string("--log-level: ") + e.what());
    }
  }
  if (args.positional.empty()) throw UsageError("no model file given");
  Model model = builtinOrUrdf(args.positional, loops, args.has("--floating"), transmissionsFromArgs(args));
  if (const std::string* g = args.value("--gravity")) {
    const VecX gravity = parseVector(*g, "--gravity");
    if (gravity.size() != 3)
      throw UsageError("--gravity needs 3 values (gx,gy,gz), got " + std::to_string(gravity.size()));
    model.setGravity(gravity);
  }
  return model;
}

namespace {
/// Spanning positions of a model that keeps loops as rows must still close them (as the
/// embedded model demands of --q-spanning): checked by the embedded model's own completion,
/// which names the violated cluster.
void checkKeptLoopsClosed(const ParsedArgs& args, const Model& model, const VecX& q) {
  const Model embedded = loadModelFromArgs(args, LoopTreatment::Embed);
  // q is indexed by this model's spanning names (its independent ones are fewer when other
  // clusters stay embedded); both models open the same joints, so every name is found
  const auto& names = model.spanningPositionNames();
  VecX spanning(embedded.nqSpanning());
  for (int i = 0; i < embedded.nqSpanning(); ++i) {
    const std::string& name = embedded.spanningPositionNames()[static_cast<size_t>(i)];
    spanning[i] = q[std::find(names.begin(), names.end(), name) - names.begin()];
  }
  Data data(embedded);
  completeConfiguration(embedded, data, spanning);
}
}  // namespace

Configuration configurationFromArgs(const ParsedArgs& args, const Model& model) {
  const std::string* independent = args.value("--q");
  const std::string* spanning = args.value("--q-spanning");
  if (independent && spanning) throw UsageError("give either --q or --q-spanning, not both");
  if (spanning) {
    VecX q = parseVector(*spanning, "--q-spanning");
    checkLength(q, model.nqSpanning(), "--q-spanning", "nq_spanning", model, model.spanningPositionNames());
    if (!model.keptLoopGroups().empty()) checkKeptLoopsClosed(args, model, q);
    return {q, "q_spanning"};
  }
  if (!independent) return {reducePositions(model, model.neutralConfiguration()), "q"};
  VecX q = parseVector(*independent, "--q");
  if (q.size() != model.nq()) checkLength(q, reducedNq(model), "--q", "nq", model, reducedPositionNames(model));
  return {q, "q"};
}

OptionSpec loopsOption() {
  return {"--loops", "embed|constrain|auto",
          "loops and couplings: embedded in clusters (embed), kept as constraint rows solved with the "
          "constrained method (constrain), or per cluster by estimated cost (auto: the default without --method "
          "and with pv, pv-early, kkt or ltl; embed is the default with any other method); q, v, tau and the "
          "result stay in the embedded model's coordinates"};
}

VecX positionsFromSpanning(const Model& model, const VecX& qSpanning, const std::string& context) {
  const auto& spanning = model.spanningPositionNames();
  VecX q(model.nq());
  for (int i = 0; i < model.nq(); ++i) {
    const std::string& name = model.positionNames()[static_cast<size_t>(i)];
    const auto it = std::find(spanning.begin(), spanning.end(), name);
    if (it == spanning.end())
      throw UsageError("--q-spanning cannot be used " + context + ": position '" + name +
                       "' is not a spanning coordinate; give --q instead");
    q[i] = qSpanning[it - spanning.begin()];
  }
  return q;
}

VecX modelPositions(const Model& model, const VecX& q) {
  // spanning positions of a model that keeps loops as rows and embeds other clusters: its own
  // (independent) entries, already checked to close the kept loops (configurationFromArgs)
  if (!model.keptLoopGroups().empty() && q.size() == model.nqSpanning() && q.size() != model.nq())
    return positionsFromSpanning(model, q, "here");
  return q.size() == reducedNq(model) && q.size() != model.nq() ? expandPositions(model, q) : q;
}

VecX modelVelocities(const Model& model, const VecX& q, const VecX& v) {
  return v.size() == reducedNv(model) && v.size() != model.nv() ? expandVelocities(model, q, v) : v;
}

VecX modelForces(const Model& model, const VecX& tau) {
  return tau.size() == reducedNv(model) && tau.size() != model.nv() ? expandForces(model, tau) : tau;
}

VecX velocityVectorFromArgs(const ParsedArgs& args, const std::string& option, const Model& model) {
  const std::string* text = args.value(option);
  if (!text) return VecX::Zero(reducedNv(model));
  VecX x = parseVector(*text, option);
  if (x.size() != model.nv()) checkLength(x, reducedNv(model), option, "nv", model, reducedVelocityNames(model));
  return x;
}

long repeatCountFromArgs(const ParsedArgs& args) {
  const std::string* text = args.value("--repeat");
  return text ? parseCount(*text, "--repeat") : 1;
}

}  // namespace grbda::cli
