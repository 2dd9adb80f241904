#pragma once
// Test support for the whole-body-control quantities (test_com, test_centroidal, test_coriolis,
// test_jacobian_time_variation): the models they sweep — rotors, belts, loops, differentials,
// fixed and floating bases — and random states on them, and a directional finite difference.
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../cluster_support/constrained_models.hpp"
#include "../cluster_support/every_cluster_type.hpp"
#include "grbda/grbda.hpp"
#include "grbda/robots/tello.hpp"
#include "support/compare.hpp"
#include "support/model_files.hpp"

namespace grbda::testsupport {

struct WbcCase {
  std::string name;
  Model model;
  double lo = -0.4, hi = 0.4;  ///< range of the 1-DoF coordinates around the neutral configuration
};

inline Model bundledModel(const std::string& file) { return loadUrdf(modelFile(file)); }

/// Mini Cheetah with two rotors no longer bodies of revolution: FR_hip_rotor's centre of mass off
/// its axis, FR_knee_rotor's inertia unequal across its axis (the passes fold only rotors that
/// turn without changing their inertia or CoM; these two must take the general path).
inline Model lopsidedRotorCheetah() {
  std::ifstream in(modelFile("mini_cheetah.urdf"));
  if (!in) throw std::runtime_error("lopsidedRotorCheetah: cannot read mini_cheetah.urdf");
  std::stringstream text;
  text << in.rdbuf();
  std::string urdf = text.str();
  const auto edit = [&](const std::string& link, const std::string& from, const std::string& to) {
    const size_t start = urdf.find("<link name=\"" + link + "\"");
    const size_t end = urdf.find("</link>", start);
    const size_t at = start == std::string::npos ? start : urdf.find(from, start);
    if (at == std::string::npos || at > end)
      throw std::runtime_error("lopsidedRotorCheetah: no '" + from + "' in link " + link);
    urdf.replace(at, from.size(), to);
  };
  edit("FR_hip_rotor", "<origin xyz=\"0 0 0\"/>", "<origin xyz=\"0.004 0 -0.003\"/>");
  edit("FR_knee_rotor", "ixx=\"3.3e-05\"", "ixx=\"4.1e-05\"");
  return loadUrdfString(urdf, "mini_cheetah_lopsided_rotors.urdf");
}

/// A rotor of revolution about `axis` (joint frame = link frame): random mass, its centre of mass
/// on the axis but off the joint origin, rotational inertia b 1 + (a − b) axis axisᵀ.
inline LinkSpec revolutionRotor(Rng& rng, const std::string& name, const Vec3& axis) {
  const double mass = uniform(rng, 0.1, 1.0), a = uniform(rng, 0.01, 0.05), b = uniform(rng, 0.01, 0.05);
  return LinkSpec{name, mass, uniform(rng, -0.1, 0.1) * axis, b * Mat3::Identity() + (a - b) * axis * axis.transpose(), {}};
}

/// Hangs a rotor of revolution from `parent`, geared to `link`'s joint.
inline void addRevolutionRotor(ModelBuilder& b, Rng& rng, const std::string& rotor, const std::string& parent,
                               const std::string& link) {
  JointSpec j;
  j.name = rotor + "_joint";
  j.kind = JointKind::Revolute;
  j.parent = parent;
  j.child = rotor;
  j.origin = randomOrigin(rng);
  j.axis = randomAxis(rng);
  j.independent = false;
  b.addLink(revolutionRotor(rng, rotor, j.axis));
  b.addJoint(j);
  addCoupling(b, rotor + "_gear", link, rotor, uniform(rng, 3.0, 9.0) * (uniformInt(rng, 0, 1) ? 1 : -1));
}

/// Floating chain of links each geared to a rotor of revolution on the previous link: every
/// rotor folds into its parent in both passes (the world-axes centroidal pass applies).
inline Model revolutionRotorChain() {
  Rng rng(31);
  ModelBuilder b("revolution_rotor_chain");
  std::string parent = startModel(b, rng, true);
  for (int i = 1; i <= 3; ++i) {
    const std::string link = "link" + std::to_string(i);
    addLinkAndJoint(b, rng, link, parent, randomAxis(rng), true, randomOrigin(rng));
    addRevolutionRotor(b, rng, "rotor" + std::to_string(i), parent, link);
    parent = link;
  }
  return b.build();
}

/// Floating base with a belt-like two-joint cluster (upper; lower on upper; rotors A, B on the
/// base geared to them) and a third rotor of revolution hanging from `upper` — inside its own
/// cluster — geared to `lower`: the CoM Jacobian folds it into a body of the same cluster.
inline Model revolutionRotorInsideCluster() {
  Rng rng(32);
  ModelBuilder b("revolution_rotor_inside_cluster");
  const std::string base = startModel(b, rng, true);
  addLinkAndJoint(b, rng, "upper", base, randomAxis(rng), true, randomOrigin(rng));
  addLinkAndJoint(b, rng, "lower", "upper", randomAxis(rng), true, randomOrigin(rng));
  addRevolutionRotor(b, rng, "rotorA", base, "upper");
  addRevolutionRotor(b, rng, "rotorB", base, "lower");
  addRevolutionRotor(b, rng, "rotorC", "upper", "lower");
  return b.build();
}

/// Mini Cheetah with and without rotor bodies (and with lopsided rotors), a fixed-base rotor chain, the four-bar, Tello
/// (differentials: exact Ġ), the floating base carrying every cluster type, and the floating
/// mechanisms of the cluster tests (loops, user constraints).
inline std::vector<WbcCase> wbcCases(bool withMechanisms = true) {
  std::vector<WbcCase> cases;
  cases.push_back({"mini_cheetah", bundledModel("mini_cheetah.urdf")});
  cases.push_back({"mini_cheetah_approximate", bundledModel("mini_cheetah_approximate.urdf")});
  cases.push_back({"mini_cheetah_lopsided_rotors", lopsidedRotorCheetah()});
  cases.push_back({"revolution_rotor_chain", revolutionRotorChain()});
  cases.push_back({"revolution_rotor_inside_cluster", revolutionRotorInsideCluster()});
  cases.push_back({"revolute_rotor_chain", bundledModel("revolute_rotor_chain.urdf")});
  cases.push_back({"four_bar", bundledModel("four_bar.urdf"), -0.2, 0.2});
  cases.push_back({"tello", robots::tello(), -0.2, 0.2});
  cases.push_back({"every_cluster_type", everyClusterType(), -0.2, 0.2});
  if (withMechanisms) {
    Rng rng(2024);
    for (auto& m : mechanismCatalogue(rng, true)) cases.push_back({m.name, m.builder.build(), m.lo, m.hi});
  }
  return cases;
}

/// Independent positions: the neutral ones moved by U(lo, hi) (loops stay closable), free
/// joints at a random pose.
inline VecX randomPositions(Rng& rng, const WbcCase& c) {
  VecX q = c.model.neutralConfiguration() + randomVector(rng, c.model.nq(), c.lo, c.hi);
  for (const auto& cl : c.model.clusters())
    if (std::string(cl.typeName()) == "Free") {
      q.segment<3>(cl.qIndex) = randomVec3(rng);
      const Eigen::Quaterniond r = randomQuaternion(rng);
      q.segment<4>(cl.qIndex + 3) << r.w(), r.x(), r.y(), r.z();
    }
  return q;
}

/// d/dt f(q(t)) at t = 0 along q(t) = integrate(q, v, t) (q̇(0) = v): the fourth-order central
/// stencil; f returns a vector or a matrix.
template <class F>
auto alongVelocity(const Model& model, const VecX& q, const VecX& v, double h, F f) {
  auto d = f(integrate(model, q, v, -2 * h));
  d -= 8.0 * f(integrate(model, q, v, -h));
  d += 8.0 * f(integrate(model, q, v, h));
  d -= f(integrate(model, q, v, 2 * h));
  d /= 12 * h;
  return d;
}

}  // namespace grbda::testsupport
