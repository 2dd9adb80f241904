// bench: the papers' per-robot timing tables in one command. Every method runs on the same random
// valid states; a state's time is a batch of calls on it (long enough for the clock) divided by
// the batch size, and the table gives the median over states, in microseconds and relative to
// the cluster algorithm of its group: 100 (t / t_cluster - 1) %, negative = faster.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>

#include "bench_suite.hpp"
#include "commands.hpp"
#include "grbda/errors.hpp"
#include "grbda/logging.hpp"
#include "json.hpp"
#include "numbers.hpp"
#include "table.hpp"

namespace grbda::cli {

namespace {
using bench::Group;
using bench::RobotBench;

struct Settings {
  int states = 1000;             ///< random states per robot (at most)
  double secondsPerMethod = 0.5; ///< stop drawing states for a method after this (once minStates ran)
  int minStates = 50;
  double batchSeconds = 100e-6;  ///< calls on one state are batched to at least this long
};

struct RobotResult {
  std::unique_ptr<RobotBench> robot;
  int states = 0;
  std::vector<std::pair<std::string, double>> microseconds;  ///< method key -> median µs, table order
  double time(const std::string& key) const {
    for (const auto& [k, t] : microseconds)
      if (k == key) return t;
    return NAN;
  }
};

using Clock = std::chrono::steady_clock;
double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

/// Median µs per call; `statesUsed` says over how many states (the time budget may stop early).
double medianMicroseconds(const bench::Method& method, const std::vector<bench::State>& states, const Settings& s,
                          int& statesUsed) {
  // Warm up (first-call buffer sizing, caches) and estimate the cost of one call.
  const int warm = std::min<int>(5, static_cast<int>(states.size()));
  const auto w0 = Clock::now();
  for (int i = 0; i < warm; ++i) method.run(states[static_cast<size_t>(i)]);
  const double estimate = seconds(Clock::now() - w0) / warm;
  // A batch long against the clock's resolution keeps its overhead out of the measurement.
  const int batch = std::max(1, static_cast<int>(std::ceil(s.batchSeconds / std::max(estimate, 1e-9))));
  std::vector<double> perCall;
  perCall.reserve(states.size());
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(s.secondsPerMethod));
  for (const bench::State& state : states) {
    const auto t0 = Clock::now();
    for (int b = 0; b < batch; ++b) method.run(state);
    const auto t1 = Clock::now();
    perCall.push_back(seconds(t1 - t0) * 1e6 / batch);
    if (t1 > deadline && static_cast<int>(perCall.size()) >= s.minStates) break;
  }
  statesUsed = static_cast<int>(perCall.size());
  const auto mid = perCall.begin() + static_cast<std::ptrdiff_t>(perCall.size() / 2);
  std::nth_element(perCall.begin(), mid, perCall.end());
  return *mid;
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ','))
    if (!item.empty()) items.push_back(item);
  if (items.empty()) throw UsageError("--robots needs at least one robot name or URDF file");
  return items;
}

Settings settingsFromArgs(const ParsedArgs& args) {
  Settings s;
  if (args.has("--quick")) {
    s.states = 100;
    s.secondsPerMethod = 0.05;
    s.minStates = 10;
    s.batchSeconds = 20e-6;
  }
  if (const std::string* n = args.value("--states")) {
    const long count = parseCount(*n, "--states");
    if (count < 1 || count > 1000000) throw UsageError("--states must be between 1 and 1000000");
    s.states = static_cast<int>(count);
    s.minStates = std::min(s.minStates, s.states);
  }
  return s;
}

/// Column label of a robot: the papers' short names for the default set.
std::string shortName(const std::string& name) {
  static const std::vector<std::pair<std::string, std::string>> labels = {
      {"revolute_rotor_chain_12", "GT chain"}, {"revolute_belt_pair_chain_12", "PBT chain"},
      {"mini_cheetah", "Mini Cheetah"},        {"mit_humanoid", "MIT Humanoid"},
      {"tello", "Tello"},                      {"jvrc1_humanoid", "JVRC-1"}};
  for (const auto& [n, label] : labels)
    if (n == name) return label;
  return name;
}

std::string fixed(double x, int digits, bool sign = false) {
  if (!std::isfinite(x)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof(buf), sign ? "%+.*f" : "%.*f", digits, x);
  return buf;
}

const char* groupTitle(Group g) {
  switch (g) {
    case Group::InverseDynamics: return "Inverse dynamics";
    case Group::ForwardDynamics: return "Forward dynamics";
    case Group::Osim: return "Inverse operational-space inertia";
    case Group::MassMatrix: return "Mass matrix";
  }
  return "";
}

void printText(std::ostream& out, const std::vector<RobotResult>& results) {
  // Rows: the methods of the robot that has the most (some models have no approximate methods).
  const RobotResult* widest = &results.front();
  for (const auto& r : results)
    if (r.robot->methods().size() > widest->robot->methods().size()) widest = &r;
  const auto& methods = widest->robot->methods();
  Row header{""};
  std::vector<bool> right{false};
  for (const auto& r : results) {
    header.push_back(shortName(r.robot->name()));
    right.push_back(true);
  }
  out << "Median time per call over random valid states (v, tau, qdd in [-1, 1]).\n"
         "Cluster algorithm rows: microseconds. Other rows: 100 (t / t_cluster - 1) %, negative = faster.\n\n";
  std::vector<Row> relative, absolute;
  for (Group g : {Group::InverseDynamics, Group::ForwardDynamics, Group::Osim, Group::MassMatrix}) {
    relative.push_back({std::string(groupTitle(g)) + ":"});
    absolute.push_back({std::string(groupTitle(g)) + ":"});
    const bench::Method* reference = nullptr;
    for (const auto& m : methods)
      if (m.group == g && m.isReference) reference = &m;
    for (const auto& m : methods) {
      if (m.group != g) continue;
      Row rel{"  " + m.label + (m.isReference ? " (us)" : "")}, abs{"  " + m.label};
      for (const auto& r : results) {
        const double t = r.time(m.key), t0 = r.time(reference->key);
        const double percent = 100.0 * (t / t0 - 1.0);
        rel.push_back(m.isReference ? fixed(t, 2) : std::isfinite(percent) ? fixed(percent, 1, true) + " %" : "n/a");
        abs.push_back(fixed(t, 2));
      }
      relative.push_back(rel);
      absolute.push_back(abs);
    }
  }
  printTable(out, header, relative, 0, right);
  out << "\nAbsolute times (us):\n\n";
  printTable(out, header, absolute, 0, right);
  out << "\n";
  std::vector<Row> info;
  for (const auto& r : results) {
    std::string ee;
    for (const auto& link : r.robot->endEffectorLinks()) ee += (ee.empty() ? "" : ", ") + link;
    info.push_back({shortName(r.robot->name()), "nv = " + std::to_string(r.robot->model().nv()),
                    std::to_string(r.states) + " states", "end-effectors: " + ee});
  }
  printTable(out, {}, info, 0);
  for (const auto& r : results) {
    const auto gaps = r.robot->approximationGaps();
    if (!gaps.empty())
      out << shortName(r.robot->name()) << ": the approximate model keeps " << gaps.size()
          << " implicit-loop clusters unconstrained (no reflected inertia for them)\n";
  }
}

void printJson(std::ostream& out, const std::vector<RobotResult>& results, const Settings& s, bool quick) {
  std::ostringstream buf;
  JsonWriter w(buf);
  w.beginObject();
  w.member("quick", quick);
  w.member("max_states", s.states);
  w.key("robots");
  w.beginArray();
  for (const auto& r : results) {
    w.beginObject();
    w.member("name", r.robot->name());
    w.member("model", r.robot->model().name());
    w.member("nv", r.robot->model().nv());
    w.member("states", r.states);
    w.key("end_effectors");
    writeNames(w, r.robot->endEffectorLinks());
    w.key("times_us");
    w.beginObject();
    for (const auto& [key, t] : r.microseconds) {
      w.key(key);
      w.number(t, r.robot->name() + " " + key);
    }
    w.endObject();
    w.endObject();
  }
  w.endArray();
  w.endObject();
  out << buf.str() << '\n';
}
}  // namespace

std::vector<OptionSpec> benchOptions() {
  return {
      {"--robots", "R1,R2,...",
       "robots to time: benchmark names (revolute_rotor_chain_12, revolute_belt_pair_chain_12, mini_cheetah, "
       "mit_humanoid, tello, jvrc1_humanoid) or URDF file paths (default: all six)"},
      {"--quick", "", "few states and a short time budget per method: all six robots in a few seconds"},
      {"--states", "N", "at most N random states per robot (default 1000, 100 with --quick)"},
      {"--models", "DIR",
       "the models directory (default: $GRBDA_MODELS_DIR, else ./models, else the one installed with grbda)"},
      {"--json", "", "JSON: {\"robots\": [{\"name\", \"nv\", \"states\", \"times_us\": {method: median us}}]}"},
      {"--log-level", "LEVEL", "trace, debug, info, warn, error or off (default error here); log goes to stderr"},
  };
}

int runBench(const ParsedArgs& args, std::ostream& out) {
  // The approximate models warn about every cluster they cannot approximate; the table notes
  // it once per robot instead, so the default level here is "error".
  try {
    setLogLevel(parseLogLevel(args.value("--log-level") ? *args.value("--log-level") : "error"));
  } catch (const InputError& e) {
    throw UsageError(std::string("--log-level: ") + e.what());
  }
  if (!args.positional.empty())
    throw UsageError("bench takes no positional arguments (give robots with --robots a,b,...)");
  const Settings settings = settingsFromArgs(args);
  const std::vector<std::string> names =
      args.value("--robots") ? splitList(*args.value("--robots")) : bench::defaultRobotNames();
  const std::string modelsDir = bench::findModelsDir(args.value("--models") ? *args.value("--models") : "");

  // Load every robot before timing anything: a bad name fails at once.
  std::vector<RobotResult> results;
  for (const auto& name : names) {
    RobotResult r;
    r.robot = std::make_unique<RobotBench>(name, bench::loadRobot(name, modelsDir));
    results.push_back(std::move(r));
  }
  std::mt19937 rng(20240607u);
  for (auto& r : results) {
    const std::vector<bench::State> states = bench::randomStates(r.robot->model(), settings.states, rng);
    r.states = static_cast<int>(states.size());
    for (const auto& m : r.robot->methods()) {
      int used = 0;
      r.microseconds.emplace_back(m.key, medianMicroseconds(m, states, settings, used));
      r.states = std::min(r.states, used);  // the fewest states any method ran
    }
  }
  if (args.has("--json"))
    printJson(out, results, settings, args.has("--quick"));
  else
    printText(out, results);
  return 0;
}

}  // namespace grbda::cli
