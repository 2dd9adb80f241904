// Pass: each cluster's joint (spec §3.6 [INF], §5). A single body gets the free or 1-DoF joint;
// a constrained cluster gets the first recogniser's fixed-size joint that matches, else the
// general recursion (GenericJoint). A new closed-form cluster joint is one entry in
// kRecognisers: a function that returns its joint for a cluster it fits, nullptr otherwise.
#include "cluster/four_bar_joint.hpp"
#include "cluster/static_joints.hpp"
#include "compiler.hpp"

namespace grbda::detail {

namespace {

/// Transmissions (geared rotors, belts): constant couplings, every independent link forms a
/// serial chain hanging from the output body, every dependent body (rotor) hangs from the output
/// body directly, one rotor per link (spec §5.4-5.6).
std::shared_ptr<ClusterJoint> recogniseTransmission(const Model& model, const Cluster& cl, const ConstraintSet& set) {
  if (!set.isStatic()) return nullptr;
  const int n = cl.numBodies, d = set.numIndependent();
  bool transmission = 2 * d == n;
  int previousLink = -1;
  for (int r = 0; r < n && transmission; ++r) {
    const Body& b = model.body(cl.firstBody + r);
    const bool parentOutside = b.parent < cl.firstBody;
    if (!b.independent) {
      transmission = parentOutside;
    } else {
      transmission = previousLink < 0 ? parentOutside : b.parent == previousLink;
      previousLink = cl.firstBody + r;
    }
  }
  if (!transmission) return nullptr;
  switch (d) {
    case 1: return std::make_shared<StaticClusterJoint<2, 1>>("RevoluteWithRotor", set, model, cl.firstBody);
    case 2: return std::make_shared<StaticClusterJoint<4, 2>>("RevolutePairWithRotor", set, model, cl.firstBody);
    case 3: return std::make_shared<StaticClusterJoint<6, 3>>("RevoluteTripleWithRotor", set, model, cl.firstBody);
    default: return nullptr;
  }
}

using Recogniser = std::shared_ptr<ClusterJoint> (*)(const Model&, const Cluster&, const ConstraintSet&);

/// Tried in order; the first match wins. Four-bars: exactly planar, one revolute loop, 1 DoF.
constexpr Recogniser kRecognisers[] = {recogniseFourBar, recogniseTransmission};

}  // namespace

void selectJoints(CompilerState& s) {
  for (size_t k = 0; k < s.drafts.size(); ++k) {
    ClusterDraft& draft = s.drafts[k];
    Cluster& cl = draft.cluster;
    if (s.constraintsOfCluster[k].empty()) {  // a single body
      const Body& b = s.m.bodies[static_cast<size_t>(cl.firstBody)];
      if (b.joint.type == JointType::Free) draft.joint = std::make_shared<FreeJoint>();
      else if (b.joint.type == JointType::Spherical) draft.joint = std::make_shared<SphericalJoint>();
      else draft.joint = std::make_shared<RevoluteJoint>(b);
      draft.closedForm = true;
    } else {
      // a type hint (user constraints naming their mechanism) or setSpecialisedJoints(false)
      // keeps the general recursion
      if (s.builder.specialisedJoints() && draft.typeHint.empty())
        for (Recogniser recognise : kRecognisers)
          if ((draft.joint = recognise(s.model, cl, draft.set))) {
            draft.closedForm = true;
            break;
          }
      if (!draft.joint)
        draft.joint = std::make_shared<GenericJoint>(std::move(draft.set),
                                                     draft.typeHint.empty() ? std::string("Generic") : draft.typeHint);
    }
    cl.joint = draft.joint;
  }
}

}  // namespace grbda::detail
