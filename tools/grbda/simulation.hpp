#pragma once
// `grbda simulate`'s time stepping: forward dynamics (plain C-ABA, or constrained through the
// MethodRunner's contacts and welds) integrated in independent coordinates. The independent
// positions are the state, so the local loops are closed at every step by the completion the
// dynamics runs (their residual is measured, not corrected); contact drift is held by Baumgarte.
// Loops kept as constraint rows (--loops) do not change the state: it stays in the embedded
// model's coordinates, and each acceleration expands it to the runner's model, solves the loop
// rows with the contacts, and reduces q̈ again (loop_coordinates.hpp).
#include <string>
#include <vector>

#include "grbda/errors.hpp"
#include "grbda/sim/simulator.hpp"
#include "method.hpp"

namespace grbda::cli {

using grbda::Integrator;  // one enum for the library's Simulator and this command
using grbda::integratorName;
/// The library's integratorFromName; a UsageError naming --integrator and the valid names otherwise.
Integrator integratorFromName(const std::string& name);

/// What the trajectory shows at one instant.
struct SimulationSample {
  double t = 0.0;
  double loopResidual = 0.0;  ///< loopClosureError at q [m]
  double energy = 0.0;        ///< kinetic + gravitational potential [J]
  double contactDrift = 0.0;  ///< largest distance of a constrained point from where it started [m]
};

class Simulation {
 public:
  /// `runner` computes the accelerations (with its constraints, if any) on its model, which is
  /// `model` or the same robot keeping loops as rows; q0, v0 and tau (held constant) are in
  /// `model`'s coordinates.
  Simulation(const Model& model, MethodRunner& runner, Integrator integrator, VecX q0, VecX v0, VecX tau);

  /// Advances one step of length dt, the same every call (NumericalError naming the time if the
  /// state stops being finite).
  void step(double dt);
  /// The current instant, measured (runs forward kinematics on its own Data).
  SimulationSample sample();

  const VecX& q() const { return q_; }
  const VecX& v() const { return v_; }
  double time() const { return t_; }

 private:
  VecX acceleration(const VecX& q, const VecX& v);
  /// q (model_'s) as dynamics_ takes it.
  VecX dynamicsPositions(const VecX& q) const;
  /// Rethrows a library error as a NumericalError that names the simulated time.
  [[noreturn]] void failAtThisTime(const Error& e) const;
  const Model& model_;
  const Model& dynamics_;  ///< the runner's model
  const bool keptLoops_;   ///< dynamics_ keeps loops as rows: states are expanded for it
  MethodRunner& runner_;
  Integrator integrator_;
  VecX q_, v_, tau_;
  double t_ = 0.0;
  long steps_ = 0;
  Data kinematics_;
  Data dynamicsKinematics_;  ///< dynamics_'s, for the constrained points
  std::vector<Vec3> startPoints_;  ///< world positions of the constrained points at t = 0
};

}  // namespace grbda::cli
