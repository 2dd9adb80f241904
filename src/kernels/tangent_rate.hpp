#pragma once
// Internal: the rate of a configuration's tangent-space offset, for Runge–Kutta–Munthe-Kaas steps
// on the quaternion joints (the Simulator's rk4). Defined in algorithms/integration.cpp, beside
// integrate(), whose retraction q ⊕ u it differentiates.
#include "grbda/model.hpp"

namespace grbda::detail {

/// u̇ such that q(t) = integrate(q0, u(t), 1) moves with velocity V: V entry by entry, except a
/// quaternion joint. Its angular part is dexp⁻¹: u̇_ω = J_r(u_ω)⁻¹ ω = ω + ½ u_ω × ω +
/// (1/θ² − cot(θ/2)/(2θ)) u_ω × (u_ω × ω), θ = |u_ω| (the body-frame ω of R0 Exp(u_ω)); a free
/// joint's linear part, whose position moves as p0 + R0 u_p, is u̇_p = Exp(u_ω) v_lin. `out` may
/// not alias u or V; no allocation once it has nv entries.
void tangentRate(const Model& model, const VecRef& u, const VecRef& V, VecX& out);

}  // namespace grbda::detail
