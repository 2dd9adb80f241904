// Mesh files as vertex lists: STL (binary: 80-byte header, a triangle count, 50 bytes a triangle;
// ASCII: `vertex x y z` lines) and OBJ (`v x y z` lines). Only the vertices matter: the simulator
// takes a mesh as the convex hull of its vertices.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "grbda/collision/mesh.hpp"
#include "grbda/errors.hpp"

namespace grbda {
namespace {

std::string lowerExtension(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

[[noreturn]] void bad(const std::string& path, const std::string& what) { throw InputError("mesh '" + path + "': " + what); }

float readFloat(const char* p) {
  float f;
  std::memcpy(&f, p, sizeof f);  // STL is little-endian, as every platform grbda builds on
  return f;
}

/// A binary STL is exactly 84 + 50 n bytes for the n its header states; anything else is ASCII.
bool isBinaryStl(const std::string& bytes) {
  if (bytes.size() < 84) return false;
  uint32_t n;
  std::memcpy(&n, bytes.data() + 80, sizeof n);
  return bytes.size() == 84 + 50 * static_cast<uint64_t>(n);
}

void binaryStl(const std::string& path, const std::string& bytes, std::vector<Vec3>& out) {
  uint32_t n;
  std::memcpy(&n, bytes.data() + 80, sizeof n);
  for (uint32_t t = 0; t < n; ++t) {
    const char* tri = bytes.data() + 84 + 50 * static_cast<size_t>(t) + 12;  // after the facet normal
    for (int v = 0; v < 3; ++v)
      out.emplace_back(readFloat(tri + 12 * v), readFloat(tri + 12 * v + 4), readFloat(tri + 12 * v + 8));
  }
  if (out.empty()) bad(path, "binary STL with no triangle");
}

/// Lines whose first word is `keyword`, followed by three numbers (ASCII STL `vertex`, OBJ `v`).
void keywordLines(const std::string& path, const std::string& text, const char* keyword, std::vector<Vec3>& out) {
  std::istringstream in(text);
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first != keyword) continue;
    double x, y, z;
    if (!(words >> x >> y >> z)) bad(path, "line " + std::to_string(lineNo) + ": '" + keyword + "' needs three numbers");
    out.emplace_back(x, y, z);
  }
  if (out.empty()) bad(path, std::string("no '") + keyword + "' line (not an ASCII STL or OBJ mesh)");
}

}  // namespace

std::vector<Vec3> readMeshVertices(const std::string& path, const Vec3& scale) {
  const std::string ext = lowerExtension(path);
  if (ext != "stl" && ext != "obj") bad(path, "unsupported mesh format '." + ext + "' (grbda reads .stl and .obj)");
  // negative components mirror the mesh; its hull is recomputed from the mirrored points, so its
  // faces stay outward
  if (!scale.allFinite() || (scale.array() == 0.0).any()) bad(path, "scale must be finite and non-zero");
  std::ifstream file(path, std::ios::binary);
  if (!file) bad(path, "cannot open the file");
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<Vec3> vertices;
  if (ext == "obj") keywordLines(path, bytes, "v", vertices);
  else if (isBinaryStl(bytes)) binaryStl(path, bytes, vertices);
  else if (bytes.compare(0, 5, "solid") == 0) keywordLines(path, bytes, "vertex", vertices);
  else bad(path, "neither a binary STL (its size does not match its triangle count) nor an ASCII one");
  for (Vec3& v : vertices) {
    if (!v.allFinite()) bad(path, "a vertex is not finite");
    v = v.cwiseProduct(scale);
  }
  return vertices;
}

std::shared_ptr<const ConvexHull> loadMeshHull(const std::string& path, const Vec3& scale) {
  return convexHull(readMeshVertices(path, scale), path);
}

}  // namespace grbda
