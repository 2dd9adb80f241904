// view: one self-contained HTML page that draws the robot with three.js (Debian's libjs-three,
// inlined at run time: nothing is downloaded, and the page works offline and from file://).
// The page template (viewer_template.html) is compiled into the command by CMake.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <iostream>
#include <map>

#include "commands.hpp"
#include "grbda/errors.hpp"
#include "inputs.hpp"
#include "numbers.hpp"
#include "trajectory_csv.hpp"
#include "urdf_visuals.hpp"
#include "viewer_scene.hpp"

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

// three.js' loaders for mesh files, from the examples next to three.min.js (Debian's
// libjs-three ships them): format -> script, or an empty string when the loader is not there.
std::string loaderScript(const std::string& threePath, const std::string& format) {
  static const std::map<std::string, std::string> kLoaders = {
      {"stl", "STLLoader.js"}, {"obj", "OBJLoader.js"}, {"dae", "ColladaLoader.js"}};
  const std::filesystem::path dir = std::filesystem::path(threePath).parent_path();
  for (const std::filesystem::path& d : {dir / "examples/js/loaders", dir.parent_path() / "examples/js/loaders"}) {
    const std::filesystem::path file = d / kLoaders.at(format);
    if (std::filesystem::is_regular_file(file)) return readFile(file.string());
  }
  return {};
}

std::string base64(const std::string& bytes) {
  static const char* const kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t n = std::min<size_t>(3, bytes.size() - i);
    unsigned v = 0;
    for (size_t k = 0; k < 3; ++k) v = (v << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    for (size_t k = 0; k < 4; ++k) out += k <= n ? kDigits[(v >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext.empty() ? ext : ext.substr(1);
}

/// The URDF <visual> shapes on the model's bodies, the mesh files they use (with their loaders
/// added to `loaders`); what cannot be drawn is a warning on stderr, not an error.
void addVisuals(const ParsedArgs& args, const Model& model, const std::string& threePath, ViewerExtras& extras,
                std::string& loaders) {
  if (!args.positional.empty() && args.positional[0].rfind("builtin:", 0) == 0) return;
  std::vector<std::string> warnings;
  std::map<std::string, int> meshIndex;      // path -> index in extras.meshes
  std::map<std::string, bool> loaderAdded;   // format -> its script is in `loaders`
  for (const UrdfVisual& v : readUrdfVisuals(args.positional, warnings)) {
    int frame = -1;
    try {
      frame = model.frameIndex(v.link);
    } catch (const InputError&) {
      warnings.push_back("<visual> of link '" + v.link + "' skipped: the model has no frame of that name");
      continue;
    }
    ViewerShape s;
    s.kind = "visual";
    s.type = v.type;
    s.link = v.link;
    s.body = model.frame(frame).body;
    s.placement = v.origin * model.frame(frame).placement;  // body -> link -> visual
    s.size = v.size;
    s.radius = v.radius;
    s.length = v.length;
    s.hasColor = v.hasColor;
    std::copy(v.rgba, v.rgba + 4, s.rgba);
    if (v.type == "mesh") {
      const std::string format = lowerExtension(v.meshFile);
      if (v.meshPath.empty()) {
        warnings.push_back("mesh '" + v.meshFile + "' of link '" + v.link + "' not found: skipped");
        continue;
      }
      if (format != "stl" && format != "obj" && format != "dae") {
        warnings.push_back("mesh '" + v.meshFile + "' of link '" + v.link + "': only .stl, .obj and .dae are drawn");
        continue;
      }
      if (!loaderAdded.count(format)) {
        const std::string script = loaderScript(threePath, format);
        loaderAdded[format] = !script.empty();
        if (!script.empty()) loaders += scriptSafe(script) + "\n";
      }
      if (!loaderAdded[format]) {
        warnings.push_back("mesh '" + v.meshFile + "' of link '" + v.link + "': three.js' " + format +
                           " loader is not installed next to three.js: skipped");
        continue;
      }
      if (!meshIndex.count(v.meshPath)) {
        meshIndex[v.meshPath] = static_cast<int>(extras.meshes.size());
        extras.meshes.push_back({format, base64(readFile(v.meshPath))});
      }
      s.mesh = meshIndex[v.meshPath];
    }
    extras.visuals.push_back(s);
  }
  for (const std::string& w : warnings) std::cerr << "view: warning: " << w << "\n";
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
  for (const OptionSpec& o : outputOptions())
    if (o.name == "--log-level") options.push_back(o);
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
  addVisuals(args, model, threePath, extras, loaders);

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
