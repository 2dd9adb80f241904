#pragma once
// Test support: one model with a cluster of every type the model compiler distinguishes, for the
// tests that must cover them all (threads, allocations).
#include <string>

#include "constrained_models.hpp"

namespace grbda::testsupport {

/// A floating base carrying one mechanism of every kind the model compiler distinguishes:
/// Revolute, Prismatic, RevoluteWithRotor, RevolutePairWithRotor, RevoluteTripleWithRotor,
/// FourBar, Generic (a four-bar whose crank is also geared to a rotor).
inline Model everyClusterType() {
  Rng rng(151);
  ModelBuilder b("every_cluster_type");
  const std::string base = startModel(b, rng, true);
  addLinkAndJoint(b, rng, "arm", base, randomAxis(rng), true, randomOrigin(rng));
  b.addLink(randomLink(rng, "slider"));
  JointSpec slide;
  slide.name = "slide";
  slide.kind = JointKind::Prismatic;
  slide.parent = "arm";
  slide.child = "slider";
  slide.axis = randomAxis(rng);
  b.addJoint(slide);
  addLinkAndJoint(b, rng, "geared", base, randomAxis(rng), true, randomOrigin(rng));
  addLinkAndJoint(b, rng, "rotor", base, randomAxis(rng), false, randomOrigin(rng));
  addCoupling(b, "gear", "geared", "rotor", 6.0);
  ModelBuilder pair = beltChainBuilder(rng, 1, false), triple = beltTripleChainBuilder(rng, 1, false);
  for (ModelBuilder* part : {&pair, &triple}) {  // hang them from the arm instead of the world
    for (const LinkSpec& l : part->links())
      if (l.name != "world") b.addLink(l);
    for (JointSpec j : part->joints()) {
      if (j.parent == "world") j.parent = "arm";
      b.addJoint(j);
    }
    for (const CouplingSpec& c : part->couplings()) b.addCoupling(c);
  }
  addCrankRocker(b, rng, "geared", "_plain", randomOrigin(rng));
  addCrankRocker(b, rng, "arm", "_geared", randomOrigin(rng));
  addLinkAndJoint(b, rng, "crank_rotor", "arm", randomAxis(rng), false, randomOrigin(rng));
  addCoupling(b, "crank_gear", "crank_geared", "crank_rotor", 4.0);
  return b.build();
}

}  // namespace grbda::testsupport
