#pragma once
// Internal: the load-time warning for a model whose joint-space inertia ℳ is singular — moving
// links that carry no mass or inertia their joint can move (a massless leaf, a massless link whose
// only child turns about the same axis). forwardDynamics would fail later with a NumericalError;
// the warning names the links when the file is read.
#include "grbda/model.hpp"

namespace grbda::urdf_detail {

/// Logs one warning naming the links whose coordinates span the null space of ℳ, when ℳ is
/// singular at the model's neutral pose and at a second, generic pose (a singularity of one
/// special pose is not reported). Models with more than kDenseCheckLimit degrees of freedom are
/// screened by the articulated pass alone (O(n)), which names the first cluster it finds.
void warnSingularMassMatrix(const Model& model);

/// Above this many degrees of freedom the check does not form the eigen-decomposition of ℳ.
constexpr int kDenseCheckLimit = 200;

}  // namespace grbda::urdf_detail
