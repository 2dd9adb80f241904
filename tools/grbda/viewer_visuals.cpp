// `grbda view`: the URDF <visual> shapes placed on the model's bodies, and the mesh files they
// use carried into the page with three.js' loader for their format.
#include "viewer_visuals.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "grbda/errors.hpp"
#include "urdf_visuals.hpp"

namespace grbda::cli {

namespace {
std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
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

}  // namespace

std::string addVisuals(const std::vector<std::string>& files, const Model& model, const std::string& threePath,
                       ViewerExtras& extras, std::vector<std::string>& warnings) {
  std::string loaders;
  std::map<std::string, int> meshIndex;      // path -> index in extras.meshes
  std::map<std::string, bool> loaderAdded;   // format -> its script is in `loaders`
  for (const UrdfVisual& v : readUrdfVisuals(files, warnings)) {
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
        if (!script.empty()) loaders += script + "\n";
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
  return loaders;
}

}  // namespace grbda::cli
