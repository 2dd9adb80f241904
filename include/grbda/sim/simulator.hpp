#pragma once
// Simulator: time stepping of a model in a world with frictional contact, joint limits, damping and
// dry friction, rotors and loops exact (MuJoCo's mj_step, on the cluster tree). One step:
//
//   state (q, v) → C-ABA: free velocity v_f = v + dt ℳ⁻¹(τ − C)  → collision: contact points
//   → rows: contacts [n, t1, t2], limits, joint friction, damping → Delassus G = J ℳ⁻¹ Jᵀ from
//   the articulated-cluster pass (ℳ⁻¹Jᵀ by test forces, no dense ℳ⁻¹) → cone solver (ADMM, PGS,
//   compliant) → v⁺ = v_f + ℳ⁻¹ Jᵀ λ → q⁺ = integrate(q, v⁺ dt)   (semi-implicit Euler)
//
// RK4 is available for a simulation with no contact, limit, friction or damping rows.
// Conventions: SI units, world z up, forces are what the environment exerts on the robot in world
// axes at the contact point; the friction cone is ‖f_t‖ ≤ μ f_n. A Simulator owns a copy of its
// Model and its workspaces: a prepared step allocates nothing. One Simulator per thread.
#include <limits>
#include <memory>
#include <vector>

#include "grbda/collision/contacts.hpp"
#include "grbda/contact/contact_problem.hpp"
#include "grbda/data.hpp"

namespace grbda {

class SelfCollision;
namespace detail {
class RowInnovations;
}

enum class Integrator { SemiImplicitEuler, RK4 };
/// "semi-implicit-euler", "rk4".
const char* integratorName(Integrator integrator);
Integrator integratorFromName(const std::string& name);

/// Time step, integrator, contact solver and which joint physics apply.
struct SimulatorOptions {
  double dt = 1e-3;                                 ///< step [s], > 0
  Integrator integrator = Integrator::SemiImplicitEuler;  ///< semi-implicit Euler, or RK4 without rows
  ContactSolverSettings solver;                     ///< contact solver (ADMM by default)
  bool jointLimits = true;                          ///< enforce URDF `<limit lower upper>`
  bool jointFriction = true;                        ///< apply URDF `<dynamics friction>`
  bool jointDamping = true;                         ///< apply URDF `<dynamics damping>` (implicitly)
  bool saturateEffort = true;                       ///< clamp applied τ to URDF `<limit effort>`
  void validate() const;  ///< InputError naming the offending value
};

/// A contact of the last step with its force (world axes; forces, not impulses: λ / dt).
struct ContactForce {
  ContactPoint contact;              ///< where, and between what
  double normalForce = 0.0;          ///< ≥ 0 [N]
  Vec3 frictionForce = Vec3::Zero(); ///< tangential [N], ‖·‖ ≤ μ normalForce
  Vec3 slipVelocity = Vec3::Zero();  ///< tangential velocity of the robot's point after the step [m/s]
  bool sliding = false;              ///< slipVelocity exceeds 1e-6 m/s (the friction is then on the cone's surface)
};

/// What a joint row of a step was.
enum class JointRowKind { LowerLimit, UpperLimit, Friction, Damping };
/// A joint row of the last step: the generalised force it applied on its body's joint coordinate
/// (a rotor's joint included: then the force is on the rotor coordinate) [N·m or N].
struct JointRowForce {
  int body = -1;                                 ///< the body whose joint it acts on
  JointRowKind kind = JointRowKind::LowerLimit;  ///< what it is
  double force = 0.0;                            ///< generalised force on that joint coordinate
};

/// What one step did: contacts with their forces, joint rows, the contact solve.
struct StepResult {
  double time = 0.0;                       ///< after the step
  std::vector<ContactForce> contacts;      ///< the step's contacts (detection order)
  std::vector<JointRowForce> joints;       ///< the step's limit, friction and damping rows
  ContactSolveStats solver;                ///< the contact solve
  double normalForceSum() const;           ///< Σ normal forces [N]
};

class Simulator;
namespace detail {
struct SimulatorAccess;
}
/// A controller called at the start of every step with the state; it writes τ (nv, zeroed before
/// the call). Derive and override compute (Python: a callable).
class Controller {
 public:
  virtual ~Controller() = default;
  /// τ (nv, zeros on entry) for the state of `sim` (sim.q(), sim.v(), sim.time()).
  virtual void compute(const Simulator& sim, VecX& tau) = 0;
};

/// A recorded run: time, positions and velocities per step (the first row is the start).
struct Trajectory {
  std::vector<double> time;  ///< [s]
  std::vector<VecX> q;       ///< positions per row
  std::vector<VecX> v;       ///< velocities per row
};

/// Steps a model in a world: contact, limits, joint friction, controllers (see the file comment).
class Simulator {
 public:
  /// InputError for bad options or world, or a model that keeps loops as constraint rows
  /// (LoopTreatment::Constrain/Auto: build it with Embed); the state starts at the neutral
  /// configuration, at rest.
  Simulator(const Model& model, const World& world = World(), const SimulatorOptions& options = {});
  /// An independent copy: its own workspaces, the same state, controls and warm start (it steps
  /// exactly as the original would); the controller is shared, not copied.
  Simulator(const Simulator& other);
  Simulator& operator=(const Simulator& other);  ///< the same
  Simulator(Simulator&&) noexcept = default;     ///< moves
  Simulator& operator=(Simulator&&) noexcept = default;  ///< moves
  ~Simulator();                                  ///< releases the workspaces

  const Model& model() const { return model_; }                ///< its copy of the model
  const World& world() const { return world_; }                ///< the world
  const SimulatorOptions& options() const { return options_; }  ///< the options

  // ---- state ----
  /// q: independent positions (nq); v: independent velocities (nv). InputError for sizes, NaN.
  void setState(const VecRef& q, const VecRef& v);
  const VecX& q() const { return q_; }  ///< independent positions
  const VecX& v() const { return v_; }  ///< independent velocities
  double time() const { return time_; }  ///< simulated time [s]
  void setTime(double t);               ///< sets the clock (InputError if not finite)
  /// Every joint's position at the state (the spanning tree's, nqSpanning: rotors, belt and loop
  /// joints completed from q) — e.g. to measure a gear's slip, which is zero by construction.
  const VecX& spanningPositions();
  /// Kinetic + gravitational potential energy at the state [J].
  double energy();

  // ---- control: τ = held torque + PD + controller, then saturated by effort ----
  /// τ held from step to step (nv; the floating base's entries must be zero to mean "unactuated").
  void setTorque(const VecRef& tau);
  /// A joint PD on every actuated independent coordinate (not a floating base):
  /// τ = kp (q_target − q) − kd (v − v_target). kp, kd: one value for all or nv values.
  void setPd(const VecRef& kp, const VecRef& kd);
  void setPd(double kp, double kd);  ///< the same gains on every coordinate
  /// Targets: q (nq, like q()) and v (nv). Default: the state when the PD was switched on, v = 0.
  void setPdTarget(const VecRef& qTarget, const VecRef& vTarget);
  void clearPd() { pdOn_ = false; }         ///< switches the PD off
  bool pdEnabled() const { return pdOn_; }  ///< whether the PD is on
  /// A controller called every step (not owned; nullptr removes it). Its exceptions reach the
  /// caller of step() with the step's time; the state stays at the last good step.
  void setController(Controller* controller) { controller_ = controller; }
  Controller* controller() const { return controller_; }  ///< the controller (nullptr: none)
  /// τ applied in the last step (after saturation).
  const VecX& appliedTorque() const { return tauApplied_; }

  // ---- stepping ----
  /// One step of options().dt: the pipeline of the file comment. NumericalError naming the time if
  /// the state stops being finite, or if a run without input (no torque, PD or controller) gains
  /// more than 10 % of its starting energy (and 1 cm of its weight): it diverged.
  const StepResult& step();
  void step(int n);  ///< n steps
  const StepResult& lastStep() const { return result_; }  ///< what the last step did

  // ---- recording (allocates as it grows) ----
  void startRecording();                                        ///< a new trajectory from the current state
  void stopRecording() { recording_ = false; }                  ///< keeps what was recorded
  const Trajectory& trajectory() const { return trajectory_; }  ///< the recorded run

 private:
  friend struct detail::SimulatorAccess;  // serialisation and rollouts (src/sim/simulator_access.hpp)
  void computeTorque();
  void freeVelocity();
  void watchPassiveEnergy();
  void gatherRows();
  void addContactRows();
  void addJointRows();
  void buildDelassus();
  void solveAndIntegrate();
  void report();
  void stepRk4();
  void checkFinite() const;
  void warmStart();
  void copyState(const Simulator& other);

  Model model_;
  World world_;
  SimulatorOptions options_;
  Data data_;
  VecX q_, v_, qNext_, vFree_, tauHeld_, tauApplied_, kp_, kd_, qTarget_, vTarget_, scratchV_;
  VecX rowScratch_;                     ///< one joint row's generalised force on its cluster
  VecX rkQ_, rkV2_, rkV3_, rkV4_, rkA1_, rkA2_, rkA3_, rkA4_;  ///< RK4 stages (rkA1_: the free step's q̈)
  double time_ = 0.0;
  double passiveEnergyStart_ = std::numeric_limits<double>::quiet_NaN();  ///< energy when the run became passive (NaN: not passive)
  bool pdOn_ = false, recording_ = false;
  Controller* controller_ = nullptr;
  std::vector<ContactPoint> contacts_, previousContacts_;
  std::vector<double> previousLambda_;  ///< 3 per previous contact (warm start)
  std::vector<int> contactRow_;         ///< first row of each contact
  struct JointRow {
    int body = -1, cluster = -1, localRow = 0;
    JointRowKind kind = JointRowKind::LowerLimit;
    int row = 0;
  };
  std::vector<JointRow> jointRows_;
  struct JointPhysics {
    int body, cluster, localRow;  ///< a 1-DoF body, its cluster, its row in the cluster's G
    bool limits, friction, damping;  ///< which of its rows the model and the options ask for
  };
  std::vector<JointPhysics> jointPhysics_;  ///< bodies whose joint has limits, friction or damping (options on)
  std::vector<int> effortBody_;         ///< per independent velocity: the body whose effort bounds it (-1: none)
  struct PdCoordinate {
    int q, v;  ///< an actuated joint's position and velocity index
  };
  std::vector<PdCoordinate> pdCoordinates_;  ///< the coordinates the joint PD drives (not the base's)
  ContactProblem problem_;
  /// G and ℳ⁻¹Jᵀλ from the articulated pass (src/sim/row_innovations.hpp); a copy makes its own.
  std::shared_ptr<detail::RowInnovations> innovations_;
  std::shared_ptr<SelfCollision> selfCollision_;  ///< FCL pairs (World::selfCollision on); null when off
  VecX rowFreeVelocity_;                ///< per row: its velocity under v_f (J v_f)
  std::vector<Vec6> bodyVelocity_;      ///< per body: spatial velocity under v_f
  StepResult result_;
  Trajectory trajectory_;
  bool hasRows_ = false;                ///< the model and world can produce rows at all
};

}  // namespace grbda
