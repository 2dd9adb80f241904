#pragma once
// Test support: small constrained mechanisms built in code (geared rotors, a parallel belt pair,
// a planar four-bar), randomised in geometry and inertia, optionally on a floating base.
#include <string>

#include "../support/random_model.hpp"

namespace grbda::testsupport {

inline void addLinkAndJoint(ModelBuilder& b, Rng& rng, const std::string& name, const std::string& parent,
                            const Vec3& axis, bool independent, const Transform& origin) {
  b.addLink(randomLink(rng, name));
  JointSpec j;
  j.name = name + "_joint";
  j.kind = JointKind::Revolute;
  j.parent = parent;
  j.child = name;
  j.origin = origin;
  j.axis = axis;
  j.independent = independent;
  b.addJoint(j);
}

inline void addCoupling(ModelBuilder& b, const std::string& name, const std::string& pred, const std::string& succ,
                        double ratio) {
  CouplingSpec c;
  c.name = name;
  c.predecessor = pred;
  c.successor = succ;
  c.ratio = ratio;
  b.addCoupling(c);
}

/// Root "world" (optionally with a floating "base" below it); returns the name of the link to
/// hang mechanisms from.
inline std::string startModel(ModelBuilder& b, Rng& rng, bool floating) {
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  if (!floating) return "world";
  b.addLink(randomLink(rng, "base"));
  JointSpec j;
  j.name = "float";
  j.kind = JointKind::Floating;
  j.parent = "world";
  j.child = "base";
  b.addJoint(j);
  return "base";
}

/// Serial chain of n links, each driven by a geared rotor mounted on the previous link.
inline Model rotorChain(Rng& rng, int n, bool floating) {
  ModelBuilder b("rotor_chain");
  std::string parent = startModel(b, rng, floating);
  for (int i = 1; i <= n; ++i) {
    const std::string link = "link" + std::to_string(i), rotor = "rotor" + std::to_string(i);
    addLinkAndJoint(b, rng, link, parent, randomAxis(rng), true, randomOrigin(rng));
    addLinkAndJoint(b, rng, rotor, parent, randomAxis(rng), false, randomOrigin(rng));
    addCoupling(b, "gear" + std::to_string(i), link, rotor, uniform(rng, 2.0, 10.0) * (uniformInt(rng, 0, 1) ? 1 : -1));
    parent = link;
  }
  return b.build();
}

/// Two links driven through a parallel belt by two rotors on the parent (MIT Humanoid knee-ankle):
/// rotor1 = N1 q1, rotor2 = N2 (q1 + q2). Repeated `pairs` times in series.
inline Model beltChain(Rng& rng, int pairs, bool floating) {
  ModelBuilder b("belt_chain");
  std::string parent = startModel(b, rng, floating);
  for (int p = 1; p <= pairs; ++p) {
    const std::string s = std::to_string(p);
    const Vec3 axis = randomAxis(rng);
    addLinkAndJoint(b, rng, "upper" + s, parent, axis, true, randomOrigin(rng));
    addLinkAndJoint(b, rng, "lower" + s, "upper" + s, axis, true, urdfOriginToTransform(Vec3(0, 0, -0.3), Vec3::Zero()));
    addLinkAndJoint(b, rng, "rotorA" + s, parent, randomAxis(rng), false, randomOrigin(rng));
    addLinkAndJoint(b, rng, "rotorB" + s, parent, randomAxis(rng), false, randomOrigin(rng));
    addCoupling(b, "beltA" + s, "upper" + s, "rotorA" + s, uniform(rng, 2.0, 12.0));
    addCoupling(b, "beltB" + s, "lower" + s, "rotorB" + s, uniform(rng, 2.0, 12.0));
    parent = "lower" + s;
  }
  return b.build();
}

/// Planar parallelogram four-bar (crank 0.5, coupler 1, rocker 0.5, ground 1) about z, hanging
/// from `parent`; crank independent. Closed at crank angle y with coupler −y, rocker y.
inline void addFourBar(ModelBuilder& b, Rng& rng, const std::string& parent, const std::string& tag) {
  const Transform at = urdfOriginToTransform(Vec3(0.1, 0.0, 0.0), Vec3::Zero());
  addLinkAndJoint(b, rng, "crank" + tag, parent, Vec3::UnitZ(), true, at);
  addLinkAndJoint(b, rng, "coupler" + tag, "crank" + tag, Vec3::UnitZ(), false,
                  urdfOriginToTransform(Vec3(0.5, 0, 0), Vec3::Zero()));
  addLinkAndJoint(b, rng, "rocker" + tag, parent, Vec3::UnitZ(), false,
                  urdfOriginToTransform(Vec3(1.1, 0, 0), Vec3::Zero()));
  LoopSpec l;
  l.name = "loop" + tag;
  l.type = LoopKind::Revolute;
  l.predecessor = "coupler" + tag;
  l.predecessorOrigin = Transform::translation(Vec3(1.0, 0, 0));
  l.successor = "rocker" + tag;
  l.successorOrigin = Transform::translation(Vec3(0.5, 0, 0));
  l.axis = Vec3::UnitZ();
  b.addLoop(l);
}

inline Model fourBarChain(Rng& rng, int count, bool floating) {
  ModelBuilder b("four_bars");
  std::string parent = startModel(b, rng, floating);
  for (int i = 1; i <= count; ++i) {
    addFourBar(b, rng, parent, std::to_string(i));
    parent = "coupler" + std::to_string(i);
  }
  return b.build();
}

/// Independent positions away from singular configurations: free joints get a random pose,
/// four-bar cranks an angle in [0.3, 1.2].
inline VecX randomIndependentConfiguration(Rng& rng, const Model& m) {
  VecX q = randomVector(rng, m.nq(), 0.3, 1.2);
  for (const auto& cl : m.clusters())
    if (std::string(cl.typeName()) == "Free") {
      const Eigen::Quaterniond r = randomQuaternion(rng);
      q.segment<4>(cl.qIndex + 3) << r.w(), r.x(), r.y(), r.z();
    }
  return q;
}

}  // namespace grbda::testsupport
