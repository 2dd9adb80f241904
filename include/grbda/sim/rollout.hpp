#pragma once
// Rollouts: N runs of T steps from N initial states, on a pool of threads, for datasets, sweeps and
// sampling-based control (MuJoCo's rollout module). Each rollout starts from a copy of a prototype
// Simulator (its model, world, options, control and warm-start state), with its own initial state
// and optionally its own friction and PD gains; each thread owns one Simulator and reuses it for
// rollout after rollout. A rollout depends only on the prototype and its own inputs, never on
// which thread ran it or what ran before, so the results are bitwise the same for any thread count.
#include <functional>
#include <memory>
#include <vector>

#include "grbda/sim/simulator.hpp"

namespace grbda {

/// Per-rollout parameters; each is empty (the prototype's) or has one entry / row per rollout.
struct RolloutParameters {
  VecX friction;  ///< World::friction of each rollout (N)
  /// PD gains of each rollout (N x 1: one gain for every coordinate, or N x nv). Setting them on a
  /// prototype without a PD switches one on, holding each rollout's initial positions.
  ///@{
  MatX kp, kd;
  ///@}
};

/// How rollouts run.
struct RolloutSettings {
  int threads = 1;  ///< threads (0: one per core); never more than rollouts
  /// One controller per rollout (called with the rollout's index before it starts), for a prototype
  /// that has a controller: a controller may keep state, so rollouts never share one.
  std::function<std::unique_ptr<Controller>(int rollout)> makeController;
};

/// N rollouts of `steps` steps each: rollout i starts at (q0.row(i), v0.row(i)) from a copy of
/// `prototype` and writes its positions to positions[(i (steps + 1) + t) nq + k] and velocities
/// to velocities[(i (steps + 1) + t) nv + k], t = 0 the initial state (arrays of N (steps + 1) nq
/// and N (steps + 1) nv doubles, filled in place). InputError for sizes, NaN, negative steps, a
/// prototype controller without makeController; an error inside a rollout (NumericalError when
/// it diverges) is rethrown with the lowest failing rollout's index — the same for any thread count.
void rollout(const Simulator& prototype, const MatX& q0, const MatX& v0, int steps, double* positions,
             double* velocities, const RolloutParameters& parameters = {}, const RolloutSettings& settings = {});

/// The results of rollout() in arrays it allocates.
struct Rollouts {
  int count = 0;  ///< N, the rollouts
  int steps = 0;  ///< T, the steps of each
  int nq = 0;     ///< positions per state
  int nv = 0;     ///< velocities per state
  std::vector<double> positions;   ///< N x (T + 1) x nq, row-major
  std::vector<double> velocities;  ///< N x (T + 1) x nv, row-major
  /// q of rollout i after t steps.
  Eigen::Map<const VecX> q(int i, int t) const { return Eigen::Map<const VecX>(positions.data() + (size_t(i) * size_t(steps + 1) + size_t(t)) * size_t(nq), nq); }
  /// v of rollout i after t steps.
  Eigen::Map<const VecX> v(int i, int t) const { return Eigen::Map<const VecX>(velocities.data() + (size_t(i) * size_t(steps + 1) + size_t(t)) * size_t(nv), nv); }
};

/// rollout() into new arrays.
Rollouts rollout(const Simulator& prototype, const MatX& q0, const MatX& v0, int steps,
                 const RolloutParameters& parameters = {}, const RolloutSettings& settings = {});

}  // namespace grbda
