// view: one self-contained HTML page that draws the robot with three.js (Debian's libjs-three,
// inlined at run time: nothing is downloaded, and the page works offline and from file://).
// The page template (viewer_template.html) is compiled into the command by CMake.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "inputs.hpp"
#include "numbers.hpp"
#include "trajectory_csv.hpp"
#include "viewer_scene.hpp"
#include "viewer_visuals.hpp"

namespace grbda::cli {

extern const char* const kViewerTemplate;  // viewer_template.cpp, generated

namespace {
// Where Debian's libjs-three puts three.js (the second path in some releases).
const char* const kThreeJsPaths[] = {"/usr/share/javascript/three/three.min.js",
                                     "/usr/share/javascript/three/build/three.min.js"};

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string threeJsPath(const ParsedArgs& args) {
  if (const std::string* path = args.value("--three-js")) {
    if (!std::filesystem::is_regular_file(*path)) throw UsageError("--three-js: no such file '" + *path + "'");
    return *path;
  }
  std::string looked;
  for (const char* path : kThreeJsPaths) {
    if (std::filesystem::is_regular_file(path)) return path;
    looked += (looked.empty() ? "" : ", ") + std::string(path);
  }
  throw std::runtime_error("view: three.js not found (looked for " + looked +
                           "); install Debian's libjs-three (apt-get install libjs-three) or give --three-js FILE");
}

// Inside <script>, "</script" (any case) would end the element early; "<\/script" means the same
// to JavaScript wherever it can occur (strings, comments, templates).
std::string scriptSafe(std::string text) {
  std::string lower = text;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (size_t at = lower.rfind("</script"); at != std::string::npos; at = at ? lower.rfind("</script", at - 1) : std::string::npos)
    text.insert(at + 1, "\\");
  return text;
}

// Fills the template's placeholders in one pass over the template, so that no inserted text
// (three.js, a robot's name) is searched for the next placeholder.
std::string fillTemplate(const std::string& page, const std::vector<std::pair<std::string, std::string>>& fills) {
  std::vector<std::pair<size_t, size_t>> at;  // (position in page, index in fills)
  for (size_t k = 0; k < fills.size(); ++k) {
    const size_t p = page.find(fills[k].first);
    if (p == std::string::npos) throw std::logic_error("viewer template lacks " + fills[k].first);
    at.emplace_back(p, k);
  }
  std::sort(at.begin(), at.end());
  std::string out;
  size_t from = 0;
  for (const auto& [p, k] : at) {
    out += page.substr(from, p - from) + fills[k].second;
    from = p + fills[k].first.size();
  }
  return out + page.substr(from);
}

// The configurations (and, from a simulated run, its contact forces and its ground).
std::vector<ViewerPose> posesFromArgs(const ParsedArgs& args, const Model& model, ViewerExtras& extras) {
  const std::string* csv = args.value("--trajectory");
  if (!csv) {
    const Configuration c = configurationFromArgs(args, model);
    return {{0.0, c.q, c.key == "q" ? "--q" : "--q-spanning"}};
  }
  if (args.has("--q") || args.has("--q-spanning")) throw UsageError("give --q or --trajectory, not both");
  const Trajectory traj = readTrajectoryCsv(*csv, model);
  extras.forceLinks = traj.contactLinks;
  extras.groundHeight = traj.groundHeight;
  std::vector<ViewerPose> poses;
  for (size_t k = 0; k < traj.times.size(); ++k) {
    poses.push_back({traj.times[k], traj.positions[k], *csv + ":" + std::to_string(traj.lines[k])});
    for (const LinkContactSample& c : traj.contacts[k])
      poses.back().forces.insert(poses.back().forces.end(), {static_cast<double>(c.link), c.point.x(), c.point.y(),
                                                             c.point.z(), c.force.x(), c.force.y(), c.force.z()});
  }
  return poses;
}
}  // namespace

std::vector<OptionSpec> viewOptions() {
  std::vector<OptionSpec> options = configurationOptions();
  options.push_back({"--trajectory", "FILE",
                     "instead of --q: a CSV with header t,POSITION_NAMES... (then any other columns, ignored), or "
                     "as grbda simulate --out writes it (t, q:NAME..., and with a world its contacts and ground); "
                     "the page plays it with a time slider"});
  options.push_back({"--ground", "", "draw the ground plane at z = 0 (a run's CSV from simulate --ground says so itself)"});
  options.push_back({"--ground-height", "Z", "draw the ground plane at height Z (implies --ground)"});
  options.push_back({"--contact", "LINK[:X,Y,Z]", "mark a contact point (link coordinates; default its origin)", true});
  options.push_back({"--html", "FILE", "the page to write (required)"});
  options.push_back({"--three-js", "FILE",
                     "three.min.js to inline (default: Debian's libjs-three, /usr/share/javascript/three/)"});
  for (const OptionSpec& o : outputOptions())  // how the model is loaded, as every command takes it
    if (o.name == "--log-level" || o.name == "--floating" || o.name == "--transmissions") options.push_back(o);
  return options;
}

int runView(const ParsedArgs& args, std::ostream& out) {
  const std::string* html = args.value("--html");
  if (!html) throw UsageError("view: --html FILE is required (the page to write)");
  const std::string threePath = threeJsPath(args);  // a missing three.js fails before any work
  const Model model = loadModelFromArgs(args);
  ViewerExtras extras;
  const std::vector<ViewerPose> poses = posesFromArgs(args, model, extras);
  if (const std::string* z = args.value("--ground-height")) extras.groundHeight = parseNumber(*z, "--ground-height");
  else if (args.has("--ground")) extras.groundHeight = 0.0;
  std::vector<NamedPoint> contacts;
  for (const std::string& c : args.values("--contact")) contacts.push_back(parseNamedPoint(c, "--contact"));
  std::string loaders;
  if (args.positional.empty() || args.positional[0].rfind("builtin:", 0) != 0) {
    std::vector<std::string> warnings;
    loaders = scriptSafe(addVisuals(args.positional, model, threePath, extras, warnings));
    for (const std::string& w : warnings) std::cerr << "view: warning: " << w << "\n";
  }

  std::string scene = viewerSceneJson(model, poses, contacts, extras);
  while (!scene.empty() && scene.back() == '\n') scene.pop_back();  // "const scene = {...};" on its line
  const std::string page = fillTemplate(kViewerTemplate, {{"{{SCENE_JSON}}", scriptSafe(scene)},
                                                          {"{{THREE_LOADERS}}", loaders},
                                                          {"{{THREE_JS}}", scriptSafe(readFile(threePath))}});
  std::ofstream file(*html, std::ios::binary);
  if (!file || !(file << page) || !file.flush()) throw UsageError("--html: cannot write '" + *html + "'");
  out << "wrote " << *html << ": " << model.name() << ", " << poses.size()
      << (poses.size() == 1 ? " configuration" : " configurations") << "\n";
  return 0;
}

}  // namespace grbda::cli
