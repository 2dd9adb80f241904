#include "simulation.hpp"

#include <algorithm>
#include <utility>

#include "args.hpp"
#include "grbda/algorithms/integration.hpp"
#include "grbda/algorithms/kinematics.hpp"
#include "grbda/algorithms/loop_coordinates.hpp"
#include "grbda/errors.hpp"
#include "numbers.hpp"

namespace grbda::cli {

Integrator integratorFromName(const std::string& name) {
  try {
    return grbda::integratorFromName(name);
  } catch (const InputError&) {
    throw UsageError("--integrator '" + name + "' is unknown; valid: semi-implicit-euler, rk4");
  }
}

namespace {
/// What each of the runner's constraints holds at q (kept loops have none): the world position of
/// its point, or for a relative constraint the gap p_A − p_B between its two points (issue #27:
/// the drift of --relative is the change of that gap, not how far p_A moved in the world).
std::vector<Vec3> constrainedPoints(const Model& model, Data& data, const ConstraintModel* constraints, const VecX& q) {
  std::vector<Vec3> points;
  if (!constraints || constraints->size() == constraints->numKeptLoopGroups()) return points;
  forwardKinematics(model, data, q);
  for (int i = constraints->numKeptLoopGroups(); i < constraints->size(); ++i) {
    const Constraint& c = constraints->constraints()[static_cast<size_t>(i)];
    Vec3 p = framePosition(model, data, c.frame, c.point);
    if (c.isRelative()) p -= c.frame2 >= 0 ? framePosition(model, data, c.frame2, c.point2) : c.point2;
    points.push_back(p);
  }
  return points;
}
}  // namespace

Simulation::Simulation(const Model& model, MethodRunner& runner, Integrator integrator, VecX q0, VecX v0, VecX tau)
    : model_(model), dynamics_(runner.model()), keptLoops_(!dynamics_.keptLoopGroups().empty()), runner_(runner),
      integrator_(integrator), q_(std::move(q0)), v_(std::move(v0)),
      tau_(keptLoops_ ? expandForces(dynamics_, tau) : std::move(tau)), kinematics_(model), dynamicsKinematics_(dynamics_) {
  normalizeConfiguration(model_, q_);
  startPoints_ = constrainedPoints(dynamics_, dynamicsKinematics_, runner_.constraints(), dynamicsPositions(q_));
}

VecX Simulation::dynamicsPositions(const VecX& q) const {
  return keptLoops_ ? expandPositions(dynamics_, q) : q;
}

VecX Simulation::acceleration(const VecX& q, const VecX& v) {
  // RK4's stages leave the unit sphere by O(h²); the dynamics sees the rotation they stand for
  VecX unit = q;
  normalizeConfiguration(model_, unit);
  if (!keptLoops_) return runner_.forwardDynamics(unit, v, tau_);
  const VecX qm = expandPositions(dynamics_, unit);  // the kept loops closed by Newton, as embedding would
  return reduceVelocities(dynamics_, runner_.forwardDynamics(qm, expandVelocities(dynamics_, qm, v), tau_));
}

void Simulation::step(double h) {
  try {
    if (integrator_ == Integrator::SemiImplicitEuler) {
      v_ += h * acceleration(q_, v_);  // the new velocity moves the positions: symplectic for H const
      q_ = integrate(model_, q_, v_, h);
    } else {
      // classical RK4 on the embedding (quaternions as 4 numbers), projected back once a step
      const VecX k1v = acceleration(q_, v_), k1q = positionRate(model_, q_, v_);
      const VecX q2 = q_ + 0.5 * h * k1q, v2 = v_ + 0.5 * h * k1v;
      const VecX k2v = acceleration(q2, v2), k2q = positionRate(model_, q2, v2);
      const VecX q3 = q_ + 0.5 * h * k2q, v3 = v_ + 0.5 * h * k2v;
      const VecX k3v = acceleration(q3, v3), k3q = positionRate(model_, q3, v3);
      const VecX q4 = q_ + h * k3q, v4 = v_ + h * k3v;
      const VecX k4v = acceleration(q4, v4), k4q = positionRate(model_, q4, v4);
      q_ += h / 6.0 * (k1q + 2.0 * k2q + 2.0 * k3q + k4q);
      v_ += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
      normalizeConfiguration(model_, q_);
    }
  } catch (const Error& e) {
    failAtThisTime(e);
  }
  ++steps_;
  t_ = static_cast<double>(steps_) * h;  // not a running sum: t stays exact over many steps
  if (!q_.allFinite() || !v_.allFinite())
    throw NumericalError("simulate: the state is not finite at t = " + formatNumber(t_, "t") +
                         " s (try a smaller --dt)");
}

void Simulation::failAtThisTime(const Error& e) const {
  throw NumericalError("simulate: at t = " + formatNumber(t_, "t") + " s: " + e.what());
}

SimulationSample Simulation::sample() {
  SimulationSample s;
  s.t = t_;
  try {  // a step can reach a pose where a loop cannot close: the kinematics here say so first
    s.energy = kineticEnergy(model_, kinematics_, q_, v_) + potentialEnergy(model_, kinematics_, q_);
  } catch (const Error& e) {
    failAtThisTime(e);
  }
  s.loopResidual = loopClosureError(model_, kinematics_);  // potentialEnergy ran the kinematics at q
  const std::vector<Vec3> now =
      constrainedPoints(dynamics_, dynamicsKinematics_, runner_.constraints(), dynamicsPositions(q_));
  for (size_t i = 0; i < now.size(); ++i) s.contactDrift = std::max(s.contactDrift, (now[i] - startPoints_[i]).norm());
  return s;
}

}  // namespace grbda::cli
