#pragma once
// Test support: finite differences on the configuration manifold for the derivative tests
// (test_derivatives.cpp, test_constrained_derivatives.cpp).
#include "grbda/algorithms/integration.hpp"
#include "support/compare.hpp"

namespace grbda::testsupport {

/// The derivative tests' bound on maxRelErr (support/compare.hpp) against the stencil below.
constexpr double kDerivativeTolerance = 1e-6;

/// ∂f/∂q along tangent direction j (integrate moves q) by the fourth-order central stencil
/// (f(−2h) − 8 f(−h) + 8 f(h) − f(2h)) / 12h: its h⁴ error keeps the check at 1e-6 where the plain
/// central difference's h² error does not (loop linkages and a welded arm near singular poses,
/// 1e-6 … 1e-5 at h = 1e-5), while rounding and the loop closure's Newton tolerance stay ~1e-13 / h.
/// f(q) returns a vector (or anything with the vector operations).
template <class F>
auto tangentDerivative(const Model& model, const VecX& q, int j, double h, F f) {
  const VecX e = VecX::Unit(model.nv(), j);
  auto d = f(integrate(model, q, e, -2 * h));
  d -= 8.0 * f(integrate(model, q, e, -h));
  d += 8.0 * f(integrate(model, q, e, h));
  d -= f(integrate(model, q, e, 2 * h));
  d /= 12 * h;
  return d;
}

}  // namespace grbda::testsupport
