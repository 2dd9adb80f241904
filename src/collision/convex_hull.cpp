// The convex hull of a point set, incremental (de Berg et al., Computational Geometry, §11.2,
// without the conflict graph: O(n · faces), ample for collision meshes): start from a tetrahedron
// of extreme points; each further point outside some face removes the faces it sees and closes the
// hole with triangles from the horizon's edges to it. Faces stay outward (counter-clockwise).
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <set>
#include <utility>

#include "grbda/collision/mesh.hpp"
#include "grbda/errors.hpp"

namespace grbda {
namespace {

using Face = std::array<int, 3>;

Vec3 faceNormal(const std::vector<Vec3>& p, const Face& f) {
  return (p[static_cast<size_t>(f[1])] - p[static_cast<size_t>(f[0])]).cross(p[static_cast<size_t>(f[2])] - p[static_cast<size_t>(f[0])]);
}

/// Height of x above face f's plane (positive on its outer side), in length units.
double height(const std::vector<Vec3>& p, const Face& f, const Vec3& x) {
  const Vec3 n = faceNormal(p, f);
  return n.dot(x - p[static_cast<size_t>(f[0])]) / n.norm();
}

size_t farthest(const std::vector<Vec3>& p, const std::function<double(const Vec3&)>& measure) {
  size_t best = 0;
  for (size_t i = 1; i < p.size(); ++i)
    if (measure(p[i]) > measure(p[best])) best = i;
  return best;
}

}  // namespace

std::shared_ptr<const ConvexHull> convexHull(const std::vector<Vec3>& points, const std::string& source) {
  const std::string name = source.empty() ? std::string("convex hull") : "mesh '" + source + "'";
  for (const Vec3& x : points)
    if (!x.allFinite()) throw InputError(name + ": a point is not finite");
  std::vector<Vec3> p = points;  // unique points, in a fixed order
  const auto less = [](const Vec3& a, const Vec3& b) { return std::lexicographical_compare(a.data(), a.data() + 3, b.data(), b.data() + 3); };
  std::sort(p.begin(), p.end(), less);
  p.erase(std::unique(p.begin(), p.end()), p.end());
  if (p.size() < 4) throw InputError(name + ": needs at least 4 distinct points (has " + std::to_string(p.size()) + ")");
  Vec3 lo = p[0], hi = p[0];
  for (const Vec3& x : p) { lo = lo.cwiseMin(x); hi = hi.cwiseMax(x); }
  const double eps = 1e-9 * (hi - lo).norm();

  // the first tetrahedron: extreme points along a line, off it, off their plane
  const size_t a = 0;
  const size_t b = farthest(p, [&](const Vec3& x) { return (x - p[a]).norm(); });
  const Vec3 ab = (p[b] - p[a]).normalized();
  const size_t c = farthest(p, [&](const Vec3& x) { return ab.cross(x - p[a]).norm(); });
  const Vec3 n = ab.cross(p[c] - p[a]);
  const size_t d = farthest(p, [&](const Vec3& x) { return std::abs(n.dot(x - p[a])); });
  if ((p[b] - p[a]).norm() <= eps || n.norm() <= eps || std::abs(n.normalized().dot(p[d] - p[a])) <= eps)
    throw InputError(name + ": its points are all on one plane (a flat mesh has no volume to collide with)");
  const Vec3 inside = 0.25 * (p[a] + p[b] + p[c] + p[d]);
  std::vector<Face> faces;
  const auto addFace = [&](int i, int j, int k) {
    Face f{i, j, k};
    if (height(p, f, inside) > 0.0) std::swap(f[1], f[2]);  // outward
    faces.push_back(f);
  };
  const int A = static_cast<int>(a), B = static_cast<int>(b), C = static_cast<int>(c), D = static_cast<int>(d);
  addFace(A, B, C); addFace(A, B, D); addFace(A, C, D); addFace(B, C, D);

  std::vector<Face> kept;
  std::set<std::pair<int, int>> seenEdges;
  for (int i = 0; i < static_cast<int>(p.size()); ++i) {
    if (i == A || i == B || i == C || i == D) continue;
    const Vec3& x = p[static_cast<size_t>(i)];
    kept.clear();
    seenEdges.clear();
    for (const Face& f : faces) {
      if (height(p, f, x) > eps) {
        for (int e = 0; e < 3; ++e) seenEdges.insert({f[e], f[(e + 1) % 3]});
      } else {
        kept.push_back(f);
      }
    }
    if (seenEdges.empty()) continue;  // inside (or on) the hull so far
    // the horizon: edges of seen faces whose twin belongs to a face that stays
    for (const auto& [u, v] : seenEdges)
      if (!seenEdges.count({v, u})) kept.push_back(Face{u, v, i});
    faces.swap(kept);
  }

  // keep the vertices faces use, renumbered in order
  std::vector<int> index(p.size(), -1);
  auto hull = std::make_shared<ConvexHull>();
  hull->source = source;
  for (Face& f : faces)
    for (int& v : f) {
      if (index[static_cast<size_t>(v)] < 0) {
        index[static_cast<size_t>(v)] = static_cast<int>(hull->vertices.size());
        hull->vertices.push_back(p[static_cast<size_t>(v)]);
      }
      v = index[static_cast<size_t>(v)];
    }
  hull->faces = std::move(faces);
  return hull;
}

}  // namespace grbda
