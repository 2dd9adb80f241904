#pragma once
// Test support: random tree-shaped robots built with ModelBuilder and random states for them.
// The generator deliberately exercises the awkward cases: random parents (branching), fixed
// joints (merged bodies), negative and non-coordinate axes, rotated joint origins and an optional
// floating base. Everything is physically valid (positive masses, inertias obeying the triangle
// inequality), so every generated model has a positive-definite mass matrix.
#include <cmath>
#include <random>
#include <string>

#include "grbda/grbda.hpp"

namespace grbda::testsupport {

using Rng = std::mt19937;
constexpr double kPi = 3.14159265358979323846;

inline double uniform(Rng& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
inline int uniformInt(Rng& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

inline VecX randomVector(Rng& rng, Eigen::Index n, double lo = -1.0, double hi = 1.0) {
  VecX x(n);
  for (Eigen::Index i = 0; i < n; ++i) x[i] = uniform(rng, lo, hi);
  return x;
}

inline Vec3 randomVec3(Rng& rng, double lo = -1.0, double hi = 1.0) {
  return Vec3(uniform(rng, lo, hi), uniform(rng, lo, hi), uniform(rng, lo, hi));
}

inline Eigen::Quaterniond randomQuaternion(Rng& rng) {
  // Normalised 4-D Gaussian: uniform on the unit sphere of quaternions.
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Quaterniond q(n(rng), n(rng), n(rng), n(rng));
  q.normalize();
  return q;
}

inline Mat3 randomRotation(Rng& rng) { return randomQuaternion(rng).toRotationMatrix(); }

/// Unit axis: a signed coordinate axis a third of the time (±x, ±y, ±z), otherwise a random
/// direction (so negative and non-coordinate axes both occur).
inline Vec3 randomAxis(Rng& rng) {
  if (uniformInt(rng, 0, 2) == 0) {
    Vec3 a = Vec3::Zero();
    a[uniformInt(rng, 0, 2)] = uniformInt(rng, 0, 1) ? 1.0 : -1.0;
    return a;
  }
  Vec3 a;
  do a = randomVec3(rng); while (a.norm() < 0.1);
  return a.normalized();
}

/// Rotational inertia about the COM of a physically possible body: principal moments built from
/// positive second moments of the mass distribution (so the triangle inequality holds), turned
/// into random principal axes.
inline Mat3 randomRotationalInertia(Rng& rng, double mass) {
  const Vec3 s = mass * randomVec3(rng, 0.005, 0.05);  // ∫x², ∫y², ∫z²
  const Vec3 principal(s.y() + s.z(), s.x() + s.z(), s.x() + s.y());
  const Mat3 R = randomRotation(rng);
  Mat3 I = R * principal.asDiagonal() * R.transpose();
  return 0.5 * (I + I.transpose());
}

inline LinkSpec randomLink(Rng& rng, const std::string& name) {
  LinkSpec l;
  l.name = name;
  l.mass = uniform(rng, 0.2, 2.0);
  l.com = randomVec3(rng, -0.2, 0.2);
  l.inertia = randomRotationalInertia(rng, l.mass);
  return l;
}

inline Transform randomOrigin(Rng& rng) {
  return urdfOriginToTransform(randomVec3(rng, -0.5, 0.5), randomVec3(rng, -kPi, kPi));
}

/// A free joint "float" from the ground link "world" to `child` (a floating base).
inline void addFloatingBaseJoint(ModelBuilder& b, const std::string& child) {
  JointSpec j;
  j.name = "float";
  j.kind = JointKind::Floating;
  j.parent = "world";
  j.child = child;
  b.addJoint(j);
}

struct TreeOptions {
  int numLinks = 6;                 ///< links besides the root "world"
  bool floatingBase = false;        ///< link_1 floats; every other link descends from it
  double fixedJointChance = 0.15;   ///< probability of a fixed (merged) joint for links 2..N
  double prismaticChance = 0.25;
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);
};

/// A random tree: root link "world", links "link_1".."link_N", joint "joint_k" into link_k.
/// link_k's parent is uniform among earlier links (and the ground, for fixed-base trees).
inline ModelBuilder randomTreeBuilder(Rng& rng, const TreeOptions& opt) {
  ModelBuilder b("random_tree");
  b.setGravity(opt.gravity);
  LinkSpec world;
  world.name = "world";
  b.addLink(world);
  for (int k = 1; k <= opt.numLinks; ++k) {
    const std::string name = "link_" + std::to_string(k);
    b.addLink(randomLink(rng, name));
    JointSpec j;
    j.name = "joint_" + std::to_string(k);
    j.child = name;
    j.origin = randomOrigin(rng);
    j.axis = randomAxis(rng);
    int parent;  // 0 = world
    if (opt.floatingBase) parent = k == 1 ? 0 : uniformInt(rng, 1, k - 1);
    else parent = uniformInt(rng, 0, k - 1);
    j.parent = parent == 0 ? "world" : "link_" + std::to_string(parent);
    const double roll = uniform(rng, 0.0, 1.0);
    if (opt.floatingBase && k == 1) j.kind = JointKind::Floating;
    else if (k > 1 && roll < opt.fixedJointChance) j.kind = JointKind::Fixed;
    else if (roll < opt.fixedJointChance + opt.prismaticChance) j.kind = JointKind::Prismatic;
    else j.kind = uniformInt(rng, 0, 1) ? JointKind::Revolute : JointKind::Continuous;
    b.addJoint(j);
  }
  return b;
}

inline Model randomTree(Rng& rng, const TreeOptions& opt) { return randomTreeBuilder(rng, opt).build(); }

/// A chain of N links ("link_1" from the ground), random joints (revolute, prismatic), optional
/// floating base, and optional short side branches ("twig_k_d").
inline Model randomChain(Rng& rng, int N, bool floating, int branchEvery = 0, int branchDepth = 1,
                  double prismaticChance = 0.25) {
  ModelBuilder b("random_chain");
  LinkSpec world;
  world.name = "world";
  b.addLink(world);
  auto addJoint = [&](const std::string& parent, const std::string& child, bool free) {
    JointSpec j;
    j.name = "joint_" + child;
    j.parent = parent;
    j.child = child;
    j.origin = randomOrigin(rng);
    j.axis = randomAxis(rng);
    j.kind = free ? JointKind::Floating
                  : (uniform(rng, 0.0, 1.0) < prismaticChance ? JointKind::Prismatic : JointKind::Revolute);
    b.addJoint(j);
  };
  std::string parent = "world";
  for (int k = 1; k <= N; ++k) {
    const std::string name = "link_" + std::to_string(k);
    b.addLink(randomLink(rng, name));
    addJoint(parent, name, floating && k == 1);
    if (branchEvery > 0 && k % branchEvery == 0) {
      std::string bp = name;
      for (int d = 1; d <= branchDepth; ++d) {
        const std::string twig = "twig_" + std::to_string(k) + "_" + std::to_string(d);
        b.addLink(randomLink(rng, twig));
        addJoint(bp, twig, false);
        bp = twig;
      }
    }
    parent = name;
  }
  return b.build();
}

/// Random configuration: 1-DoF joints in [-pi, pi], free joints at a random position in
/// [-1, 1]^3 with a random unit quaternion.
inline VecX randomConfiguration(Rng& rng, const Model& model) {
  VecX q(model.nqSpanning());  // spanning: indexed by Body::qIndex
  for (const Body& b : model.bodies()) {
    if (b.joint.type == JointType::Free) {
      q.segment<3>(b.qIndex) = randomVec3(rng);
      const Eigen::Quaterniond quat = randomQuaternion(rng);
      q.segment<4>(b.qIndex + 3) << quat.w(), quat.x(), quat.y(), quat.z();
    } else {
      q[b.qIndex] = uniform(rng, -kPi, kPi);
    }
  }
  return q;
}

/// Quaternion of the free joint of body b, in Eigen's (w, x, y, z) order.
inline Eigen::Quaterniond freeJointQuaternion(const Body& b, const VecX& q) {
  return Eigen::Quaterniond(q[b.qIndex + 3], q[b.qIndex + 4], q[b.qIndex + 5], q[b.qIndex + 6]);
}

/// The configuration reached from q moving with velocity v for a time h, to first order:
/// 1-DoF joints q + h v; free joints p + h R v_lin and quat ⊗ exp(h ω / 2) (ω, v_lin in body
/// coordinates, spec convention). Central differences over ±h through this map are O(h²).
inline VecX integrateConfiguration(const Model& model, const VecX& q, const VecX& v, double h) {
  VecX out = q;
  for (const Body& b : model.bodies()) {
    if (b.joint.type == JointType::Free) {
      const Eigen::Quaterniond quat = freeJointQuaternion(b, q).normalized();
      const Vec3 w = v.segment<3>(b.vIndex), vl = v.segment<3>(b.vIndex + 3);
      out.segment<3>(b.qIndex) = q.segment<3>(b.qIndex) + h * (quat.toRotationMatrix() * vl);
      // exp(h ω / 2) as a quaternion: rotation by the angle h |ω| (negative h too) about ω
      const Eigen::Quaterniond step = w.norm() > 0.0
                                          ? Eigen::Quaterniond(Eigen::AngleAxisd(h * w.norm(), w.normalized()))
                                          : Eigen::Quaterniond::Identity();
      const Eigen::Quaterniond next = quat * step;
      out.segment<4>(b.qIndex + 3) << next.w(), next.x(), next.y(), next.z();
    } else {
      out[b.qIndex] = q[b.qIndex] + h * v[b.vIndex];
    }
  }
  return out;
}

/// Time derivative of q for velocity v (for RK4 integration): 1-DoF qd = v; free joint
/// pd = R v_lin, quat_dot = ½ quat ⊗ (0, ω).
inline VecX configurationRate(const Model& model, const VecX& q, const VecX& v) {
  VecX qd(model.nq());
  for (const Body& b : model.bodies()) {
    if (b.joint.type == JointType::Free) {
      const Eigen::Quaterniond quat = freeJointQuaternion(b, q);
      const Vec3 w = v.segment<3>(b.vIndex), vl = v.segment<3>(b.vIndex + 3);
      qd.segment<3>(b.qIndex) = quat.normalized().toRotationMatrix() * vl;
      const Eigen::Quaterniond dq = quat * Eigen::Quaterniond(0.0, w.x(), w.y(), w.z());
      qd.segment<4>(b.qIndex + 3) << 0.5 * dq.w(), 0.5 * dq.x(), 0.5 * dq.y(), 0.5 * dq.z();
    } else {
      qd[b.qIndex] = v[b.vIndex];
    }
  }
  return qd;
}

inline void normalizeQuaternions(const Model& model, VecX& q) {
  for (const Body& b : model.bodies())
    if (b.joint.type == JointType::Free) q.segment<4>(b.qIndex + 3).normalize();
}

/// Total kinetic energy ½ Σ v_iᵀ I_i v_i (body coordinates), from data.v after forward kinematics.
inline double kineticEnergy(const Model& model, const Data& data) {
  double ke = 0.0;
  for (int i = 0; i < model.numBodies(); ++i) ke += 0.5 * data.v[i].dot(model.body(i).inertia * data.v[i]);
  return ke;
}

/// Gravitational potential energy -Σ m_i g·c_i (c_i the world COM of body i), from data.Xa.
inline double potentialEnergy(const Model& model, const Data& data) {
  double pe = 0.0;
  for (int i = 0; i < model.numBodies(); ++i) {
    const Mat6& I = model.body(i).inertia;
    const double m = inertiaMass(I);
    if (m <= 0.0) continue;
    pe -= m * model.gravity().dot(data.Xa[i].inverseTransformPoint(inertiaCom(I)));
  }
  return pe;
}

/// Total spatial momentum about the world origin, world coordinates: Σ (^iX_0)ᵀ I_i v_i.
inline Vec6 worldMomentum(const Model& model, const Data& data) {
  Vec6 h = Vec6::Zero();
  for (int i = 0; i < model.numBodies(); ++i) h += data.Xa[i].applyTranspose(model.body(i).inertia * data.v[i]);
  return h;
}

/// ‖a - b‖ / max(1, ‖b‖).
inline double relativeError(const VecX& a, const VecX& b) { return (a - b).norm() / std::max(1.0, b.norm()); }
inline double relativeError(const MatX& a, const MatX& b) { return (a - b).norm() / std::max(1.0, b.norm()); }

}  // namespace grbda::testsupport
