// Pass (before the spanning tree): a spherical joint on the chain of a loop becomes three
// revolutes. The cluster machinery (loop rows walked joint by joint, Newton assembly on the
// spanning coordinates, the independent selection) works on 1-DoF joints; a ball inside a loop
// cluster is therefore stated the way mechanism papers write it, Rot(x, q1) · Rot(y, q2) ·
// Rot(z, q3) about the joint frame's axes, with two massless links between — the chain the
// universal joint is written as (compiler/joint_chain.hpp), with the same names `n::1` …
// The angles are singular only at q2 = ±90°, a quarter turn from the file's pose, where the
// quaternion is the identity. Balls elsewhere in the tree keep their quaternion.
#include <map>
#include <set>

#include "compiler.hpp"
#include "compiler/joint_chain.hpp"

namespace grbda::detail {

namespace {

/// Each link's parent joint (index into b.joints()); links without one are absent.
std::map<std::string, size_t> parentJoints(const ModelBuilder& b) {
  std::map<std::string, size_t> parent;
  for (size_t j = 0; j < b.joints().size(); ++j) parent.emplace(b.joints()[j].child, j);
  return parent;
}

/// The links from `link` up to the root, `link` first. Bounded by the number of joints, so a
/// malformed file with a cycle (refused later by the spanning-tree pass) cannot hang here.
std::vector<std::string> pathToRoot(const ModelBuilder& b, const std::map<std::string, size_t>& parent,
                                    const std::string& link) {
  std::vector<std::string> path{link};
  for (size_t steps = 0; steps < b.joints().size(); ++steps) {
    const auto it = parent.find(path.back());
    if (it == parent.end()) break;
    path.push_back(b.joints()[it->second].parent);
  }
  return path;
}

/// Marks the joints between `a` and `c` (up to their nearest common ancestor): the chains a loop
/// or a coupling between the two links constrains.
void markChains(const ModelBuilder& b, const std::map<std::string, size_t>& parent, const std::string& a,
                const std::string& c, std::vector<bool>& onChain) {
  const std::vector<std::string> upA = pathToRoot(b, parent, a), upC = pathToRoot(b, parent, c);
  const std::set<std::string> aboveA(upA.begin(), upA.end()), aboveC(upC.begin(), upC.end());
  auto markBelowCommonAncestor = [&](const std::vector<std::string>& path, const std::set<std::string>& otherSide) {
    for (const std::string& l : path) {
      if (otherSide.count(l)) break;  // the nearest common ancestor
      if (const auto it = parent.find(l); it != parent.end()) onChain[it->second] = true;
    }
  };
  markBelowCommonAncestor(upA, aboveC);
  markBelowCommonAncestor(upC, aboveA);
}

/// The three revolutes (x, y, z of the joint frame) and two massless links replacing ball `j`.
void addExpandedBall(const JointSpec& j, std::set<std::string>& linkNames, std::set<std::string>& jointNames,
                     ModelBuilder& out) {
  if (j.dynamics.damping != 0.0 || j.dynamics.friction != 0.0)
    fail("a spherical joint inside a loop cluster is written as three revolutes (x, y, z), whose <dynamics> "
         "would act on the angles' rates instead of the angular velocity; remove its damping and friction, or "
         "write the three revolutes with their own",
         j.where, "joint '" + j.name + "'");
  const JointChain chain = jointChain(j,
                                      {{JointKind::Continuous, Vec3::UnitX()},
                                       {JointKind::Continuous, Vec3::UnitY()},
                                       {JointKind::Continuous, Vec3::UnitZ()}},
                                      linkNames, jointNames);
  for (const LinkSpec& l : chain.links) out.addLink(l);
  for (JointSpec angle : chain.joints) {
    angle.limits.hasPositionLimits = false;  // a ball has no angle bounds to hand down
    out.addJoint(angle);
  }
}

}  // namespace

std::optional<ModelBuilder> expandBallsOnConstraintChains(const ModelBuilder& b) {
  const auto& joints = b.joints();
  std::vector<bool> onChain(joints.size(), false), onCoupling(joints.size(), false);
  const std::map<std::string, size_t> parent = parentJoints(b);
  for (const LoopSpec& l : b.loops()) markChains(b, parent, l.predecessor, l.successor, onChain);
  // a coupling adds up joint rates along its chains: a ball has no one rate to add (the angles'
  // rates are not ω), so it stays a ball there and resolveConstraints refuses it by name
  for (const CouplingSpec& c : b.couplings()) markChains(b, parent, c.predecessor, c.successor, onCoupling);
  for (size_t j = 0; j < joints.size(); ++j) onChain[j] = onChain[j] && !onCoupling[j];
  bool any = false;
  for (size_t j = 0; j < joints.size(); ++j) any = any || (onChain[j] && joints[j].kind == JointKind::Spherical);
  if (!any) return std::nullopt;

  ModelBuilder out(b.name(), b.sourceFile());
  out.setGravity(b.gravity());
  out.setSpecialisedJoints(b.specialisedJoints());
  out.setLoopTreatment(b.loopTreatment());
  out.setStrictInertias(b.strictInertias());
  std::set<std::string> linkNames, jointNames;
  for (const LinkSpec& l : b.links()) {
    linkNames.insert(l.name);
    out.addLink(l);
  }
  for (const JointSpec& j : joints) jointNames.insert(j.name);
  for (size_t j = 0; j < joints.size(); ++j) {
    if (onChain[j] && joints[j].kind == JointKind::Spherical) addExpandedBall(joints[j], linkNames, jointNames, out);
    else out.addJoint(joints[j]);
  }
  for (const LoopSpec& l : b.loops()) out.addLoop(l);
  for (const CouplingSpec& c : b.couplings()) out.addCoupling(c);
  for (const ConstraintSpec& c : b.constraints()) out.addConstraint(c);
  for (const FrameSpec& f : b.frames()) out.addFrame(f);
  for (const CollisionSpec& c : b.collisions()) out.addCollision(c);
  return out;
}

}  // namespace grbda::detail
