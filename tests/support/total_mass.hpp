#pragma once
// Test support: a model's total mass, summed over its bodies' spatial inertias (bodies welded to
// the world included): the reference the mass checks and the weight balances compare with.
#include "grbda/model.hpp"
#include "grbda/spatial/inertia.hpp"

namespace grbda::testsupport {

inline double totalMass(const Model& model) {
  double m = 0.0;
  for (const Body& b : model.bodies()) m += inertiaMass(b.inertia);
  return m;
}

}  // namespace grbda::testsupport
