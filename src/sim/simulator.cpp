// Simulator: the step of simulator.hpp, one function per arrow of the pipeline.
#include "grbda/sim/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "../kernels/checks.hpp"
#include "../kernels/tangent_rate.hpp"
#include "grbda/algorithms/dynamics.hpp"
#include "grbda/algorithms/integration.hpp"
#include "grbda/algorithms/kinematics.hpp"
#include "grbda/collision/self_collision.hpp"
#include "grbda/errors.hpp"
#include "grbda/spatial/inertia.hpp"
#include "row_innovations.hpp"
#include "data_workspace.hpp"

namespace grbda {
namespace {

bool isFreeCluster(const Model& model, const Cluster& c) {
  return c.numBodies == 1 && model.body(c.firstBody).joint.type == JointType::Free;
}

bool isOneDof(const Body& b) { return !b.joint.hasQuaternion(); }  // not free, not spherical

/// Two unit tangents completing the normal n to a right-handed frame [t1 t2 n], a fixed function
/// of n (so a contact keeps its frame from step to step).
void tangents(const Vec3& n, Vec3& t1, Vec3& t2) {
  const Vec3 a = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  t1 = n.cross(a).normalized();
  t2 = n.cross(t1);
}

std::string at(double t) { return "t = " + std::to_string(t) + " s"; }

/// A contact's three unit forces (`directions`, world) at `worldPoint` as forces on `body` (its
/// coordinates, times `sign`), and the point's world velocity under v_f (V_f: bodyVelocity) and v.
inline void bodyPointRows(const Data& data, const std::vector<Vec6>& bodyVelocity, int body, const Vec3& worldPoint,
                          const Vec3 (&directions)[3], double sign, detail::Mat63& P, Vec3& pointVf, Vec3& pointV) {
  const Transform& Xa = data.Xa[static_cast<size_t>(body)];  // ^b X_0
  const Vec3 point = Xa.transformPoint(worldPoint);           // body coordinates
  const Vec6& Vf = bodyVelocity[static_cast<size_t>(body)];   // under v_f
  const Vec6& V = data.v[static_cast<size_t>(body)];          // under v (before the step)
  pointVf = Xa.E.transpose() * (Vf.tail<3>() + Vf.head<3>().cross(point));  // world
  pointV = Xa.E.transpose() * (V.tail<3>() + V.head<3>().cross(point));
  for (int k = 0; k < 3; ++k) {
    const Vec3 f = sign * (Xa.E * directions[k]);
    P.col(k) << point.cross(f), f;
  }
}

constexpr double kSlidingSpeed = 1e-6;  ///< [m/s]: a contact point slower than this sticks

}  // namespace

const char* integratorName(Integrator integrator) {
  return integrator == Integrator::RK4 ? "rk4" : "semi-implicit-euler";
}

Integrator integratorFromName(const std::string& name) {
  if (name == "semi-implicit-euler") return Integrator::SemiImplicitEuler;
  if (name == "rk4") return Integrator::RK4;
  throw InputError("unknown integrator '" + name + "' (expected semi-implicit-euler or rk4)");
}

void SimulatorOptions::validate() const {
  if (!(std::isfinite(dt) && dt > 0.0)) throw InputError("Simulator: dt must be > 0 and finite (got " + std::to_string(dt) + ")");
  solver.validate();
}

double StepResult::normalForceSum() const {
  double sum = 0.0;
  for (const ContactForce& c : contacts) sum += c.normalForce;
  return sum;
}

Simulator::Simulator(const Model& model, const World& world, const SimulatorOptions& options)
    : model_(model), world_(world), options_(options), data_(model_) {
  options_.validate();
  world_.validate();
  if (!model_.keptLoopGroups().empty())  // its steps would integrate the open tree
    throw InputError("Simulator: model '" + model_.name() + "' keeps its loops as constraint rows ('" +
                     model_.keptLoopGroups().front().name + "'), which the simulator does not solve; build it with "
                     "LoopTreatment::Embed");
  const int nv = model_.nv();
  q_ = model_.neutralConfiguration();
  v_ = VecX::Zero(nv);
  qNext_ = q_;
  for (VecX* x : {&vFree_, &tauHeld_, &tauApplied_, &kp_, &kd_, &vTarget_, &scratchV_}) x->setZero(nv);
  qTarget_ = q_;

  effortBody_.assign(static_cast<size_t>(nv), -1);
  int jointRowCapacity = 0, maxClusterDof = 1;
  for (const Cluster& cl : model_.clusters()) {
    maxClusterDof = std::max(maxClusterDof, cl.nv);
    if (isFreeCluster(model_, cl)) continue;  // the base is not actuated
    if (cl.nq == cl.nv)
      for (int j = 0; j < cl.nv; ++j) pdCoordinates_.push_back(PdCoordinate{cl.qIndex + j, cl.vIndex + j});
    int column = 0;
    for (int i = cl.firstBody; i < cl.firstBody + cl.numBodies; ++i)
      if (model_.body(i).independent && isOneDof(model_.body(i)) && column < cl.nv)
        effortBody_[static_cast<size_t>(cl.vIndex + column++)] = i;
  }
  for (int i = 0; i < model_.numBodies(); ++i) {
    const Body& b = model_.body(i);
    const bool limits = options_.jointLimits && b.limits.hasPositionLimits;
    const bool friction = options_.jointFriction && b.dynamics.friction > 0.0;
    const bool damping = options_.jointDamping && b.dynamics.damping > 0.0;
    if (!isOneDof(b) || !(limits || friction || damping)) continue;
    const Cluster& cl = model_.cluster(b.cluster);
    jointPhysics_.push_back(JointPhysics{i, b.cluster, b.vIndex - cl.vSpanIndex, limits, friction, damping});
    jointRowCapacity += 2 * limits + friction + damping;
  }
  rowScratch_.setZero(maxClusterDof);
  int contactCapacity = maxContacts(model_, world_);
  if (world_.selfCollision) {
    selfCollision_ = std::make_shared<SelfCollision>(model_);
    contactCapacity += static_cast<int>(selfCollision_->pairs().size());
  }
  contacts_.reserve(static_cast<size_t>(contactCapacity));
  previousContacts_.reserve(static_cast<size_t>(contactCapacity));
  previousLambda_.reserve(3 * static_cast<size_t>(contactCapacity));
  contactRow_.reserve(static_cast<size_t>(contactCapacity));
  jointRows_.reserve(static_cast<size_t>(jointRowCapacity));
  result_.contacts.reserve(static_cast<size_t>(contactCapacity));
  result_.joints.reserve(static_cast<size_t>(jointRowCapacity));
  const int maxRows = 3 * contactCapacity + jointRowCapacity;
  problem_.reserve(maxRows);
  innovations_ = std::make_shared<detail::RowInnovations>();
  innovations_->reserve(model_, maxRows);
  rowFreeVelocity_.setZero(std::max(maxRows, 1));
  bodyVelocity_.assign(static_cast<size_t>(model_.numBodies()), Vec6::Zero());
  for (VecX* x : {&rkQ_, &rkV2_, &rkV3_, &rkV4_, &rkA1_, &rkA2_, &rkA3_, &rkA4_}) x->setZero(x == &rkQ_ ? q_.size() : nv);
}

Simulator::Simulator(const Simulator& other) : Simulator(other.model_, other.world_, other.options_) { copyState(other); }

Simulator& Simulator::operator=(const Simulator& other) {
  if (this != &other) *this = Simulator(other);
  return *this;
}

Simulator::~Simulator() = default;

void Simulator::copyState(const Simulator& o) {
  q_ = o.q_;
  v_ = o.v_;
  time_ = o.time_;
  tauHeld_ = o.tauHeld_;
  kp_ = o.kp_;
  kd_ = o.kd_;
  qTarget_ = o.qTarget_;
  vTarget_ = o.vTarget_;
  pdOn_ = o.pdOn_;
  controller_ = o.controller_;
  previousContacts_ = o.previousContacts_;  // the warm start: a copy steps exactly as the original
  previousLambda_ = o.previousLambda_;
  result_ = o.result_;
  recording_ = o.recording_;
  passiveEnergyStart_ = o.passiveEnergyStart_;
  trajectory_ = o.trajectory_;
}

// ---- state and control ----

void Simulator::setState(const VecRef& q, const VecRef& v) {
  if (q.size() != model_.nq()) throw InputError("Simulator::setState: q has " + std::to_string(q.size()) + " entries, expected " + std::to_string(model_.nq()));
  if (v.size() != model_.nv()) throw InputError("Simulator::setState: v has " + std::to_string(v.size()) + " entries, expected " + std::to_string(model_.nv()));
  if (!q.allFinite() || !v.allFinite()) throw InputError("Simulator::setState: the state is not finite");
  completeConfiguration(model_, data_, q);  // a loop that cannot close is refused here, not mid-run
  q_ = q;
  v_ = v;
}

void Simulator::setTime(double t) {
  if (!std::isfinite(t)) throw InputError("Simulator::setTime: t is not finite");
  time_ = t;
}

const VecX& Simulator::spanningPositions() { return completeConfiguration(model_, data_, q_); }

double Simulator::energy() { return kineticEnergy(model_, data_, q_, v_) + potentialEnergy(model_, data_, q_); }

void Simulator::setTorque(const VecRef& tau) {
  if (tau.size() != model_.nv()) throw InputError("Simulator::setTorque: tau has " + std::to_string(tau.size()) + " entries, expected " + std::to_string(model_.nv()));
  if (!tau.allFinite()) throw InputError("Simulator::setTorque: tau is not finite");
  tauHeld_ = tau;
}

void Simulator::setPd(const VecRef& kp, const VecRef& kd) {
  const int nv = model_.nv();
  for (const auto& [gain, name] : {std::pair<const VecRef*, const char*>{&kp, "kp"}, {&kd, "kd"}}) {
    if (gain->size() != nv && gain->size() != 1)
      throw InputError(std::string("Simulator::setPd: ") + name + " has " + std::to_string(gain->size()) + " entries, expected 1 or " + std::to_string(nv));
    if (!gain->allFinite() || gain->minCoeff() < 0.0) throw InputError(std::string("Simulator::setPd: ") + name + " must be finite and >= 0");
  }
  kp_ = kp.size() == 1 ? VecX::Constant(nv, kp[0]) : kp;
  kd_ = kd.size() == 1 ? VecX::Constant(nv, kd[0]) : kd;
  if (!pdOn_) {  // the default target: hold the state the PD was switched on at
    qTarget_ = q_;
    vTarget_.setZero();
  }
  pdOn_ = true;
}

void Simulator::setPd(double kp, double kd) { setPd(VecX::Constant(1, kp), VecX::Constant(1, kd)); }

void Simulator::setPdTarget(const VecRef& qTarget, const VecRef& vTarget) {
  if (qTarget.size() != model_.nq() || vTarget.size() != model_.nv())
    throw InputError("Simulator::setPdTarget: targets have " + std::to_string(qTarget.size()) + " and " + std::to_string(vTarget.size()) +
                     " entries, expected nq = " + std::to_string(model_.nq()) + " and nv = " + std::to_string(model_.nv()));
  if (!qTarget.allFinite() || !vTarget.allFinite()) throw InputError("Simulator::setPdTarget: the targets are not finite");
  qTarget_ = qTarget;
  vTarget_ = vTarget;
}

void Simulator::computeTorque() {
  tauApplied_ = tauHeld_;
  if (pdOn_)
    for (const PdCoordinate& c : pdCoordinates_)
      tauApplied_[c.v] += kp_[c.v] * (qTarget_[c.q] - q_[c.q]) - kd_[c.v] * (v_[c.v] - vTarget_[c.v]);
  if (controller_) {
    scratchV_.setZero();
    controller_->compute(*this, scratchV_);
    if (scratchV_.size() != model_.nv() || !detail::allFinite(scratchV_))
      throw InputError("Simulator: the controller's tau at " + at(time_) + " has the wrong size or is not finite");
    tauApplied_ += scratchV_;
  }
  if (!options_.saturateEffort) return;
  for (int iv = 0; iv < model_.nv(); ++iv) {
    const int body = effortBody_[static_cast<size_t>(iv)];
    if (body < 0) continue;
    const double effort = model_.body(body).limits.effort;
    tauApplied_[iv] = std::clamp(tauApplied_[iv], -effort, effort);
  }
}

// ---- the step ----

const StepResult& Simulator::step() {
  computeTorque();
  if (options_.integrator == Integrator::RK4) {
    stepRk4();
  } else {
    freeVelocity();
    watchPassiveEnergy();
    gatherRows();
    if (problem_.m > 0) {
      warmStart();
      buildDelassus();
      result_.solver = solveContactProblem(problem_, options_.solver);
      innovations_->velocityChange(model_, data_, problem_.lambda.head(problem_.m), scratchV_);
      v_ = vFree_ + scratchV_;
    } else {
      result_.solver = ContactSolveStats();
      v_ = vFree_;
    }
    if (!detail::allFinite(v_))
      throw NumericalError("Simulator: the run diverged at " + at(time_) + ": the velocities after the contact solve are not finite");
    integrate(model_, q_, v_, options_.dt, qNext_);
    report();
  }
  q_.swap(qNext_);
  time_ += options_.dt;
  result_.time = time_;
  checkFinite();
  if (recording_) {
    trajectory_.time.push_back(time_);
    trajectory_.q.push_back(q_);
    trajectory_.v.push_back(v_);
  }
  return result_;
}

void Simulator::step(int n) {
  if (n < 0) throw InputError("Simulator::step: n must be >= 0 (got " + std::to_string(n) + ")");
  for (int i = 0; i < n; ++i) step();
}

void Simulator::checkFinite() const {
  if (!detail::allFinite(q_) || !detail::allFinite(v_))
    throw NumericalError("Simulator: the run diverged at " + at(time_) + ": the state is not finite");
}

// A run without input (no held torque, PD or controller) may lose energy to friction, damping and
// impacts, but not gain it beyond what position correction restores: more than 10 % above where
// the passive run started means it diverged (energy from the kinematics C-ABA just computed).
void Simulator::watchPassiveEnergy() {
  const bool passive = !pdOn_ && controller_ == nullptr && tauHeld_.isZero(0.0);
  if (!passive) {
    passiveEnergyStart_ = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  const Vec3& g = data_.gravity(model_);
  double energy = 0.0, scale = 0.0;
  for (int i = 0; i < model_.numBodies(); ++i) {
    const Mat6& I = model_.body(i).inertia;
    const double m = inertiaMass(I);
    energy += 0.5 * data_.v[i].dot(I * data_.v[i]);
    if (m <= 0.0) continue;
    energy -= m * g.dot(data_.Xa[i].inverseTransformPoint(inertiaCom(I)));
    scale += m * g.norm() * 1e-2;  // 1 cm of the weight: a floor for a run starting near zero energy
  }
  if (std::isnan(passiveEnergyStart_)) {
    passiveEnergyStart_ = energy;
    return;
  }
  if (energy > passiveEnergyStart_ + 0.1 * std::abs(passiveEnergyStart_) + scale)
    throw NumericalError("Simulator: the run diverged at " + at(time_) + ": its energy grew from " +
                         std::to_string(passiveEnergyStart_) + " J to " + std::to_string(energy) + " J without input");
}

void Simulator::freeVelocity() {
  rkA1_ = forwardDynamics(model_, data_, q_, v_, tauApplied_);  // leaves kinematics and propagators
  vFree_ = v_ + options_.dt * rkA1_;
}

void Simulator::gatherRows() {
  problem_.clear();
  innovations_->clear();
  contactRow_.clear();
  jointRows_.clear();
  if (!model_.collisionGeometries().empty()) detectContacts(model_, data_, world_, contacts_);
  else contacts_.clear();
  if (selfCollision_) selfCollision_->detect(model_, data_, world_, contacts_);
  addContactRows();
  addJointRows();
}

void Simulator::addContactRows() {
  if (contacts_.empty()) return;
  detail::bodyVelocities(model_, data_, vFree_, bodyVelocity_);  // only the contact rows read them
  const double dt = options_.dt;
  for (const ContactPoint& c : contacts_) {
    const int row = problem_.addRows(RowSet::Cone, 3, c.friction);
    contactRow_.push_back(row);
    Vec3 t1, t2;
    tangents(c.normal, t1, t2);
    const Vec3 directions[3] = {c.normal, t1, t2};
    // the rows' unit forces on the body (+) and, for two of the robot's shapes, on body2 (−), and
    // the point's velocity relative to body2 under v_f and under v
    detail::Mat63 P, P2;
    Vec3 pointVf, pointV;
    bodyPointRows(data_, bodyVelocity_, c.body, c.point, directions, 1.0, P, pointVf, pointV);
    if (c.body2 >= 0) {
      Vec3 vf2, v2;
      bodyPointRows(data_, bodyVelocity_, c.body2, c.point, directions, -1.0, P2, vf2, v2);
      pointVf -= vf2;
      pointV -= v2;
      innovations_->addBodyPairForceRows(model_, data_, c.body, P, c.body2, P2);
    } else {
      innovations_->addBodyForceRows(model_, data_, c.body, P);
    }
    for (int k = 0; k < 3; ++k) rowFreeVelocity_[row + k] = directions[k].dot(pointVf);
    // the smallest normal velocity the step may end with: close the gap at most (d > 0), push a
    // penetration out at erp (d ≤ 0), and bounce with restitution e from the approach speed
    double target = c.distance > 0.0 ? -c.distance / dt : -options_.solver.erp * c.distance / dt;
    const double approach = c.normal.dot(pointV);
    if (c.restitution > 0.0 && approach < 0.0 && c.distance + approach * dt <= 0.0)
      target = std::max(target, -c.restitution * approach);
    problem_.b[row] = rowFreeVelocity_[row] - target;
    problem_.b[row + 1] = rowFreeVelocity_[row + 1];
    problem_.b[row + 2] = rowFreeVelocity_[row + 2];
  }
}

void Simulator::addJointRows() {
  const double dt = options_.dt;
  for (const JointPhysics& jp : jointPhysics_) {
    const int i = jp.body, localRow = jp.localRow;
    const Body& b = model_.body(i);
    const Cluster& cl = model_.cluster(jp.cluster);
    const double qs = data_.qSpan[b.qIndex], vs = data_.vSpan[b.vIndex];
    const auto add = [&](RowSet set, JointRowKind kind, double sign, double target, double bound, double R) {
      const int row = problem_.addRows(set, 1, 0.0, bound);
      // the joint's coordinate is row localRow of the cluster's G: q̇_joint = G_row ẏ
      auto t = rowScratch_.head(cl.nv);
      t = sign * data_.work().clusters[static_cast<size_t>(b.cluster)].G.row(localRow).transpose();
      innovations_->addClusterForceRow(model_, data_, b.cluster, t);
      rowFreeVelocity_[row] = t.dot(vFree_.segment(cl.vIndex, cl.nv));
      problem_.b[row] = rowFreeVelocity_[row] - target;
      problem_.R[row] = R;
      jointRows_.push_back(JointRow{i, b.cluster, localRow, kind, row});
    };
    if (jp.limits) {
      const double reach = world_.margin + std::abs(vs) * dt;  // rows for limits the step could reach
      const double lowerGap = qs - b.limits.lower, upperGap = b.limits.upper - qs;
      const auto targetFor = [&](double gap) { return gap > 0.0 ? -gap / dt : -options_.solver.erp * gap / dt; };
      if (lowerGap <= reach) add(RowSet::Unilateral, JointRowKind::LowerLimit, 1.0, targetFor(lowerGap), 0.0, 0.0);
      if (upperGap <= reach) add(RowSet::Unilateral, JointRowKind::UpperLimit, -1.0, targetFor(upperGap), 0.0, 0.0);
    }
    if (jp.friction) add(RowSet::Box, JointRowKind::Friction, 1.0, 0.0, b.dynamics.friction * dt, 0.0);
    if (jp.damping) add(RowSet::Free, JointRowKind::Damping, 1.0, 0.0, 0.0, 1.0 / (b.dynamics.damping * dt));
  }
}

void Simulator::warmStart() {
  problem_.lambda.head(problem_.m).setZero();
  if (!options_.solver.warmStart) return;
  for (size_t c = 0; c < contacts_.size(); ++c)
    for (size_t p = 0; p < previousContacts_.size(); ++p) {
      const ContactPoint &now = contacts_[c], &before = previousContacts_[p];
      if (now.geometry != before.geometry || now.obstacle != before.obstacle || now.feature != before.feature ||
          now.geometry2 != before.geometry2)
        continue;
      for (int k = 0; k < 3; ++k) problem_.lambda[contactRow_[c] + k] = previousLambda_[3 * p + static_cast<size_t>(k)];
      break;
    }
}

void Simulator::buildDelassus() {
  innovations_->delassus(model_, problem_.G);
  if (options_.solver.type != ContactSolverType::Compliant) return;
  // compliant contacts: each normal row becomes an implicit spring–damper on its effective mass
  const double dt = options_.dt, T = options_.solver.timeConstant, zeta = options_.solver.dampingRatio;
  for (size_t c = 0; c < contacts_.size(); ++c) {
    const int row = contactRow_[c];
    const double meff = 1.0 / std::max(problem_.G(row, row), 1e-300);
    const double k = meff / (T * zeta * T * zeta), damping = 2.0 * meff / T;
    problem_.R[row] = 1.0 / (dt * (damping + dt * k));
    problem_.b[row] = rowFreeVelocity_[row] + k * contacts_[c].distance / (damping + dt * k);
  }
}

void Simulator::report() {
  const double dt = options_.dt;
  result_.contacts.clear();
  for (size_t c = 0; c < contacts_.size(); ++c) {
    const int row = contactRow_[c];
    Vec3 t1, t2;
    tangents(contacts_[c].normal, t1, t2);
    ContactForce f;
    f.contact = contacts_[c];
    f.normalForce = problem_.lambda[row] / dt;
    f.frictionForce = (problem_.lambda[row + 1] * t1 + problem_.lambda[row + 2] * t2) / dt;
    f.slipVelocity = problem_.c[row + 1] * t1 + problem_.c[row + 2] * t2;  // tangent rows: c = J_t v⁺
    f.sliding = f.slipVelocity.norm() > kSlidingSpeed;
    result_.contacts.push_back(f);
  }
  result_.joints.clear();
  for (const JointRow& jr : jointRows_) {
    const double sign = jr.kind == JointRowKind::UpperLimit ? -1.0 : 1.0;
    result_.joints.push_back(JointRowForce{jr.body, jr.kind, sign * problem_.lambda[jr.row] / dt});
  }
  // keep this step's contact impulses for the next warm start
  previousContacts_ = contacts_;
  previousLambda_.clear();
  for (size_t c = 0; c < contacts_.size(); ++c)
    for (int k = 0; k < 3; ++k) previousLambda_.push_back(problem_.lambda[contactRow_[c] + k]);
}

// RK4 in the tangent space at q (Runge–Kutta–Munthe-Kaas): stage configurations are q ⊕ u_s with
// offsets u_2 = h/2 K_1, u_3 = h/2 K_2, u_4 = h K_3; a stage's position rate is K_s = dexp⁻¹ of its
// velocity V_s at u_s (detail::tangentRate: V_s itself on additive joints, the corrected rate on
// quaternion joints, without which the step is second order on rotations); the step moves q by
// h/6 (K_1 + 2K_2 + 2K_3 + K_4). v is a vector: classical RK4. Fourth order on every joint.
void Simulator::stepRk4() {
  freeVelocity();
  gatherRows();
  if (problem_.m > 0)
    throw InputError("Simulator: rk4 integrates only motion without contact, limit, friction or damping rows, and " +
                     std::to_string(problem_.m) + " rows are active at " + at(time_) + " (use semi-implicit-euler)");
  const double h = options_.dt;
  // The scratch vectors take turns (no allocation): scratchV_ sums the K_s, rkV4_ holds u_s.
  scratchV_ = v_;                                        // K_1 = V_1 = v (u_1 = 0)
  rkV4_ = 0.5 * h * v_;                                  // u_2
  integrate(model_, q_, rkV4_, 1.0, rkQ_);
  rkV2_ = v_ + 0.5 * h * rkA1_;                          // V_2
  rkA2_ = forwardDynamics(model_, data_, rkQ_, rkV2_, tauApplied_);
  detail::tangentRate(model_, rkV4_, rkV2_, rkV3_);      // K_2
  scratchV_ += 2.0 * rkV3_;
  rkV4_ = 0.5 * h * rkV3_;                               // u_3
  integrate(model_, q_, rkV4_, 1.0, rkQ_);
  rkV3_ = v_ + 0.5 * h * rkA2_;                          // V_3
  rkA3_ = forwardDynamics(model_, data_, rkQ_, rkV3_, tauApplied_);
  detail::tangentRate(model_, rkV4_, rkV3_, rkV2_);      // K_3
  scratchV_ += 2.0 * rkV2_;
  rkV4_ = h * rkV2_;                                     // u_4
  integrate(model_, q_, rkV4_, 1.0, rkQ_);
  rkV3_ = v_ + h * rkA3_;                                // V_4
  rkA4_ = forwardDynamics(model_, data_, rkQ_, rkV3_, tauApplied_);
  detail::tangentRate(model_, rkV4_, rkV3_, rkV2_);      // K_4
  scratchV_ += rkV2_;
  integrate(model_, q_, scratchV_, h / 6.0, qNext_);
  v_ += (h / 6.0) * (rkA1_ + 2.0 * rkA2_ + 2.0 * rkA3_ + rkA4_);
  result_.contacts.clear();
  result_.joints.clear();
  result_.solver = ContactSolveStats();
}

void Simulator::startRecording() {
  recording_ = true;
  trajectory_ = Trajectory();
  trajectory_.time.push_back(time_);
  trajectory_.q.push_back(q_);
  trajectory_.v.push_back(v_);
}

}  // namespace grbda
