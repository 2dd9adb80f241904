#include "loaders/mass_check.hpp"

#include <Eigen/Eigenvalues>

#include <optional>
#include <string>
#include <vector>

#include "grbda/algorithms/dynamics.hpp"
#include "grbda/data.hpp"
#include "grbda/errors.hpp"
#include "log.hpp"
#include "data_workspace.hpp"

// Why a rank test of ℳ and not a rule on the links: a massless link is harmless when a massive
// descendant moves with its joint (ℳ stays positive definite), and harmful when its only child
// turns about the same axis through the same point (the two joints can cancel). ℳ's null space
// says which coordinates move no mass, whatever the geometry. Scaled by its diagonal
// (D^{-1/2} ℳ D^{-1/2}: metres, radians and rotor ratios alike), an eigenvalue below kRank counts
// as zero; a zero diagonal entry is a coordinate that moves nothing at all.

namespace grbda::urdf_detail {
namespace {

constexpr double kZeroDiagonal = 1e-15;  ///< relative to the largest diagonal entry of ℳ
constexpr double kRank = 1e-11;          ///< eigenvalue of the diagonally scaled ℳ counted as zero
constexpr double kShare = 0.1;           ///< component of a null vector that names its coordinate

/// Coordinates in the null space of ℳ(q) (empty: positive definite), or nothing when ℳ(q) cannot
/// be evaluated (the loops do not close there).
std::optional<std::vector<int>> nullCoordinates(const Model& model, Data& data, const VecRef& q) {
  const int n = model.nv();
  std::vector<int> out;
  try {
    if (n > kDenseCheckLimit) {  // O(n) screen: the articulated pass fails at a singular D_k
      try {
        logDetMassMatrix(model, data, q);
        return out;
      } catch (const NumericalError&) {
        const int k = data.work().articulated.failedCluster;
        if (k < 0) return std::nullopt;
        for (int i = 0; i < model.cluster(k).nv; ++i) out.push_back(model.cluster(k).vIndex + i);
        return out;
      }
    }
    const MatX& H = massMatrix(model, data, q);
    const VecX d = H.diagonal();
    const double scale = d.cwiseAbs().maxCoeff();
    std::vector<int> kept;
    for (int i = 0; i < n; ++i) (d[i] > kZeroDiagonal * scale ? kept : out).push_back(i);
    const int m = static_cast<int>(kept.size());
    if (m == 0) return out;
    MatX Hs(m, m);  // D^{-1/2} ℳ D^{-1/2} over the coordinates that move something
    for (int a = 0; a < m; ++a)
      for (int b = 0; b < m; ++b) Hs(a, b) = H(kept[a], kept[b]) / std::sqrt(d[kept[a]] * d[kept[b]]);
    const Eigen::SelfAdjointEigenSolver<MatX> eig(Hs);
    std::vector<bool> named(static_cast<size_t>(m), false);
    for (int e = 0; e < m && eig.eigenvalues()[e] < kRank; ++e)
      for (int a = 0; a < m; ++a) named[static_cast<size_t>(a)] = named[static_cast<size_t>(a)] ||
                                                                 std::abs(eig.eigenvectors()(a, e)) > kShare;
    for (int a = 0; a < m; ++a)
      if (named[static_cast<size_t>(a)]) out.push_back(kept[a]);
    return out;
  } catch (const NumericalError&) {
    return std::nullopt;
  }
}

/// A generic pose near the neutral one: every non-free independent coordinate moved by a
/// different amount (free joints keep their quaternion).
VecX genericPose(const Model& model) {
  VecX q = model.neutralConfiguration();
  for (const Cluster& cl : model.clusters()) {
    if (model.body(cl.firstBody).joint.hasQuaternion()) continue;  // the quaternion stays unit
    for (int i = 0; i < cl.nq; ++i) q[cl.qIndex + i] += 0.13 + 0.07 * ((cl.qIndex + i) % 5);
  }
  return q;
}

/// "link 'a' (joint 'ja')" for the body that carries independent velocity i.
std::string ownerOf(const Model& model, int i) {
  for (const Cluster& cl : model.clusters()) {
    if (i < cl.vIndex || i >= cl.vIndex + cl.nv) continue;
    std::vector<int> independent;
    for (int b = cl.firstBody; b < cl.firstBody + cl.numBodies; ++b)
      if (model.body(b).independent) independent.push_back(b);
    int body = cl.numBodies == 1 ? cl.firstBody : -1;
    if (body < 0 && static_cast<int>(independent.size()) == cl.nv) body = independent[static_cast<size_t>(i - cl.vIndex)];
    if (body >= 0) return "link '" + model.body(body).name + "' (joint '" + model.body(body).jointName + "')";
  }
  return "coordinate '" + model.velocityNames()[static_cast<size_t>(i)] + "'";
}

}  // namespace

void warnSingularMassMatrix(const Model& model) {
  if (model.nv() == 0) return;
  Data data(model);
  const auto atNeutral = nullCoordinates(model, data, model.neutralConfiguration());
  if (!atNeutral || atNeutral->empty()) return;
  std::vector<int> coordinates = *atNeutral;
  if (const auto atGeneric = nullCoordinates(model, data, genericPose(model))) {
    if (atGeneric->empty()) return;  // singular at the neutral pose only
    coordinates = *atGeneric;
  }
  constexpr size_t kShown = 8;
  std::vector<std::string> names;
  for (int i : coordinates) {
    const std::string name = ownerOf(model, i);
    if (names.empty() || names.back() != name) names.push_back(name);
  }
  std::string list;
  for (size_t k = 0; k < names.size() && k < kShown; ++k) list += (k ? ", " : "") + names[k];
  if (names.size() > kShown) list += ", ... (" + std::to_string(names.size()) + " in all)";
  detail::log().warn("{}: the mass matrix is singular: the joints of {} can move without moving any mass (a "
                     "massless link with no massive descendant on that degree of freedom, or a massless link turning "
                     "against its child); forward dynamics will fail. Give the massless link an <inertial> or make "
                     "its joint fixed",
                     model.sourceFile(), list);
}

}  // namespace grbda::urdf_detail
