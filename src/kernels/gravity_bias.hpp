#pragma once
// Internal: the one place algorithms read gravity. A Data's own gravity (Data::setGravity)
// overrides the model's, so threads sharing a Model can each use their own.
#include "grbda/data.hpp"

namespace grbda::detail {

/// Gravity-biased base acceleration a_0 = −a_g (spec §1.5), world coordinates.
inline Vec6 gravityBias(const Vec3& gravity) {
  Vec6 a0 = Vec6::Zero();
  a0.tail<3>() = -gravity;
  return a0;
}

/// a_0 for the calls made with `data`: its gravity override, else the model's.
inline Vec6 gravityBias(const Model& model, const Data& data) { return gravityBias(data.gravity(model)); }

}  // namespace grbda::detail
