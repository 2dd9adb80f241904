#pragma once
// Test support: one classical Runge–Kutta step of q̈ = f(q, q̇) on coordinates whose rate is q̇
// (revolute, prismatic, the independent angles of a loop cluster) — the test's own integrator, so
// that energy checks do not go through the library's Simulator.
#include "grbda/spatial/types.hpp"

namespace grbda::testsupport {

/// Advances (q, v) by dt; f(q, v) returns q̈. Positions take the Runge–Kutta–Nyström form
/// q += dt (v + dt/6 (a1 + a2 + a3)).
template <typename Accel>
void rk4Step(Accel&& f, double dt, VecX& q, VecX& v) {
  const VecX a1 = f(q, v);
  const VecX a2 = f(q + 0.5 * dt * v, v + 0.5 * dt * a1);
  const VecX a3 = f(q + 0.5 * dt * (v + 0.5 * dt * a1), v + 0.5 * dt * a2);
  const VecX a4 = f(q + dt * (v + 0.5 * dt * a2), v + dt * a3);
  q += dt * (v + dt / 6.0 * (a1 + a2 + a3));
  v += dt / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
}

}  // namespace grbda::testsupport
