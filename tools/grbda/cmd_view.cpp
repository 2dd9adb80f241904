// view: one self-contained HTML page that draws the robot with three.js (Debian's libjs-three,
// inlined at run time: nothing is downloaded, and the page works offline and from file://).
// The page template (viewer_template.html) is compiled into the command by CMake.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "commands.hpp"
#include "inputs.hpp"
#include "trajectory_csv.hpp"
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

std::string threeJs(const ParsedArgs& args) {
  if (const std::string* path = args.value("--three-js")) {
    if (!std::filesystem::is_regular_file(*path)) throw UsageError("--three-js: no such file '" + *path + "'");
    return readFile(*path);
  }
  std::string looked;
  for (const char* path : kThreeJsPaths) {
    if (std::filesystem::is_regular_file(path)) return readFile(path);
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

void replaceOnce(std::string& text, const std::string& placeholder, const std::string& content) {
  const size_t at = text.find(placeholder);
  if (at == std::string::npos) throw std::logic_error("viewer template lacks " + placeholder);
  text.replace(at, placeholder.size(), content);
}

std::vector<ViewerPose> posesFromArgs(const ParsedArgs& args, const Model& model) {
  const std::string* csv = args.value("--trajectory");
  if (!csv) {
    const Configuration c = configurationFromArgs(args, model);
    return {{0.0, c.q, c.key == "q" ? "--q" : "--q-spanning"}};
  }
  if (args.has("--q") || args.has("--q-spanning")) throw UsageError("give --q or --trajectory, not both");
  const Trajectory traj = readTrajectoryCsv(*csv, model);
  std::vector<ViewerPose> poses;
  for (size_t k = 0; k < traj.times.size(); ++k)
    poses.push_back({traj.times[k], traj.positions[k], *csv + ":" + std::to_string(traj.lines[k])});
  return poses;
}
}  // namespace

std::vector<OptionSpec> viewOptions() {
  std::vector<OptionSpec> options = configurationOptions();
  options.push_back({"--trajectory", "FILE",
                     "instead of --q: a CSV with header t,POSITION_NAMES... (then any other columns, ignored); "
                     "the page plays it with a time slider"});
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
  const std::string three = threeJs(args);  // a missing three.js fails before any work
  const Model model = loadModelFromArgs(args);
  const std::vector<ViewerPose> poses = posesFromArgs(args, model);
  std::vector<NamedPoint> contacts;
  for (const std::string& c : args.values("--contact")) contacts.push_back(parseNamedPoint(c, "--contact"));

  std::string scene = viewerSceneJson(model, poses, contacts);
  while (!scene.empty() && scene.back() == '\n') scene.pop_back();  // "const scene = {...};" on its line
  std::string page = kViewerTemplate;
  replaceOnce(page, "{{SCENE_JSON}}", scriptSafe(scene));
  replaceOnce(page, "{{THREE_JS}}", scriptSafe(three));  // last: three.js is not searched
  std::ofstream file(*html, std::ios::binary);
  if (!file || !(file << page) || !file.flush()) throw UsageError("--html: cannot write '" + *html + "'");
  out << "wrote " << *html << ": " << model.name() << ", " << poses.size()
      << (poses.size() == 1 ? " configuration" : " configurations") << "\n";
  return 0;
}

}  // namespace grbda::cli
