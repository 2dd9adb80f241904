// Configuration arithmetic in independent coordinates and the mechanical energy (integration.hpp).
#include "grbda/algorithms/integration.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <string>

#include "../kernels/checks.hpp"
#include "../kernels/tangent_rate.hpp"
#include "grbda/algorithms/kinematics.hpp"
#include "grbda/spatial/inertia.hpp"

namespace grbda {

namespace {
/// A cluster of one body on a free joint (a floating base: q = [p; quat], v = [ω; v_lin]) or a
/// spherical joint (q = quat, v = ω): its positions are not added to entry by entry.
bool isFree(const Model& model, const Cluster& c) {
  return c.numBodies == 1 && model.body(c.firstBody).joint.hasQuaternion();
}
bool isSpherical(const Model& model, const Cluster& c) {
  return model.body(c.firstBody).joint.type == JointType::Spherical;
}
/// Offset of the cluster's position vector p (free) and of qw (free: 3, spherical: 0).
int quaternionIndex(const Model& model, const Cluster& c) {
  return c.qIndex + model.body(c.firstBody).joint.quaternionOffset();
}

Eigen::Quaterniond quaternionAt(const VecRef& q, int iw) {
  return Eigen::Quaterniond(q[iw], q[iw + 1], q[iw + 2], q[iw + 3]);
}

void storeQuaternion(VecX& q, int iw, const Eigen::Quaterniond& quat) {
  q.segment<4>(iw) << quat.w(), quat.x(), quat.y(), quat.z();
}

/// Every cluster but a free one must have as many positions as velocities to be added entry by entry.
void checkAdditive(const Cluster& c, const char* function) {
  if (c.nq != c.nv)
    throw InputError(std::string(function) + ": cluster '" + c.name + "' (" + c.typeName() + ") has nq = " +
                     std::to_string(c.nq) + " != nv = " + std::to_string(c.nv) + " and is not a free or spherical joint");
}

void checkState(const Model& model, const VecRef& q, const VecRef& v, const char* function) {
  detail::checkConfiguration(model, q, function);
  detail::checkVector(v, model.nv(), "v", function);
}
}  // namespace

void integrate(const Model& model, const VecRef& q, const VecRef& v, double dt, VecX& out) {
  checkState(model, q, v, "integrate");
  if (!std::isfinite(dt)) throw InputError("integrate: dt is not finite");
  if (out.data() != q.data()) out = q;  // out may be q itself; no allocation once out has nq entries
  for (const Cluster& c : model.clusters()) {
    if (!isFree(model, c)) {
      checkAdditive(c, "integrate");
      out.segment(c.qIndex, c.nq) += dt * v.segment(c.vIndex, c.nv);
      continue;
    }
    const int iw = quaternionIndex(model, c);
    const Eigen::Quaterniond quat = quaternionAt(out, iw).normalized();
    const Vec3 w = v.segment<3>(c.vIndex);
    const double angle = w.norm() * dt;  // dt < 0 turns back
    const Eigen::Quaterniond turn =
        angle != 0.0 ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, w.normalized())) : Eigen::Quaterniond::Identity();
    if (!isSpherical(model, c)) out.segment<3>(c.qIndex) += dt * (quat.toRotationMatrix() * v.segment<3>(c.vIndex + 3));
    storeQuaternion(out, iw, (quat * turn).normalized());
  }
}

VecX integrate(const Model& model, const VecRef& q, const VecRef& v, double dt) {
  VecX out(q.size());
  integrate(model, q, v, dt, out);
  return out;
}

namespace detail {

namespace {
/// J_r(u)⁻¹ ω for SO(3): ω + ½ u × ω + c(θ) u × (u × ω), c = 1/θ² − cot(θ/2)/(2θ) → 1/12 + θ²/720.
Vec3 inverseRightJacobianTimes(const Vec3& u, const Vec3& w) {
  const double theta = u.norm();
  const double c = theta < 1e-4 ? 1.0 / 12.0 + theta * theta / 720.0
                                 : 1.0 / (theta * theta) - 1.0 / (2.0 * theta * std::tan(0.5 * theta));
  const Vec3 uw = u.cross(w);
  return w + 0.5 * uw + c * u.cross(uw);
}
}  // namespace

void tangentRate(const Model& model, const VecRef& u, const VecRef& V, VecX& out) {
  out = V;  // additive joints: u̇ = V
  for (const Cluster& c : model.clusters()) {
    if (!isFree(model, c)) continue;
    const Vec3 uw = u.segment<3>(c.vIndex);
    out.segment<3>(c.vIndex) = inverseRightJacobianTimes(uw, V.segment<3>(c.vIndex));
    if (isSpherical(model, c)) continue;
    const double angle = uw.norm();
    if (angle != 0.0) out.segment<3>(c.vIndex + 3) = Eigen::AngleAxisd(angle, uw / angle) * V.segment<3>(c.vIndex + 3);
  }
}

}  // namespace detail

VecX difference(const Model& model, const VecRef& q0, const VecRef& q1) {
  detail::checkConfiguration(model, q0, "difference");
  detail::checkConfiguration(model, q1, "difference");
  VecX v(model.nv());
  for (const Cluster& c : model.clusters()) {
    if (!isFree(model, c)) {
      checkAdditive(c, "difference");
      v.segment(c.vIndex, c.nv) = q1.segment(c.qIndex, c.nq) - q0.segment(c.qIndex, c.nq);
      continue;
    }
    const int iw = quaternionIndex(model, c);
    const Eigen::Quaterniond quat0 = quaternionAt(q0, iw).normalized();
    Eigen::Quaterniond turn = quat0.conjugate() * quaternionAt(q1, iw).normalized();
    if (turn.w() < 0.0) turn.coeffs() *= -1.0;  // q and −q are one rotation: take the shorter turn
    const Eigen::AngleAxisd w(turn);
    v.segment<3>(c.vIndex) = w.angle() * w.axis();
    if (isSpherical(model, c)) continue;
    v.segment<3>(c.vIndex + 3) = quat0.toRotationMatrix().transpose() * (q1.segment<3>(c.qIndex) - q0.segment<3>(c.qIndex));
  }
  return v;
}

VecX positionRate(const Model& model, const VecRef& q, const VecRef& v) {
  checkState(model, q, v, "positionRate");
  VecX rate(model.nq());
  for (const Cluster& c : model.clusters()) {
    if (!isFree(model, c)) {
      checkAdditive(c, "positionRate");
      rate.segment(c.qIndex, c.nq) = v.segment(c.vIndex, c.nv);
      continue;
    }
    // q is not normalised here: the rate of q itself, so RK4 on the embedding stays consistent
    const int iw = quaternionIndex(model, c);
    const Eigen::Quaterniond quat = quaternionAt(q, iw);
    const Vec3 w = v.segment<3>(c.vIndex);
    if (!isSpherical(model, c)) rate.segment<3>(c.qIndex) = quat.normalized().toRotationMatrix() * v.segment<3>(c.vIndex + 3);
    const Eigen::Quaterniond d = quat * Eigen::Quaterniond(0.0, w.x(), w.y(), w.z());
    rate.segment<4>(iw) << 0.5 * d.w(), 0.5 * d.x(), 0.5 * d.y(), 0.5 * d.z();
  }
  return rate;
}

void normalizeConfiguration(const Model& model, VecX& q) {
  detail::checkConfiguration(model, q, "normalizeConfiguration");
  for (const Cluster& c : model.clusters())
    if (isFree(model, c)) q.segment<4>(quaternionIndex(model, c)).normalize();
}

double kineticEnergy(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  forwardKinematics(model, data, q, v);  // validates q, v and data
  double energy = 0.0;
  for (int i = 0; i < model.numBodies(); ++i) energy += 0.5 * data.v[i].dot(model.body(i).inertia * data.v[i]);
  return energy;
}

double potentialEnergy(const Model& model, Data& data, const VecRef& q) {
  forwardKinematics(model, data, q);
  double energy = 0.0;
  for (int i = 0; i < model.numBodies(); ++i) {
    const Mat6& I = model.body(i).inertia;
    const double m = inertiaMass(I);
    if (m > 0.0) energy -= m * data.gravity(model).dot(data.Xa[i].inverseTransformPoint(inertiaCom(I)));
  }
  return energy;
}

namespace {
/// World position of a loop frame: ^L X_0 = ^L X_body ^body X_0 (the ground when body = -1).
Vec3 loopFrameOrigin(const Data& data, int body, const Transform& placement) {
  return body < 0 ? placement.r : (placement * data.Xa[static_cast<size_t>(body)]).r;
}
/// World direction of a vector fixed in a loop frame.
Vec3 loopFrameDirection(const Data& data, int body, const Transform& placement, const Vec3& u) {
  return (body < 0 ? placement.E : (placement * data.Xa[static_cast<size_t>(body)]).E).transpose() * u;
}
}  // namespace

double loopClosureError(const Model& model, const Data& data) {
  detail::checkData(model, data, "loopClosureError");
  double worst = 0.0;
  for (const LoopFrames& loop : model.loops()) {
    const Vec3 a = loopFrameOrigin(data, loop.predecessorBody, loop.predecessorPlacement);
    const Vec3 b = loopFrameOrigin(data, loop.successorBody, loop.successorPlacement);
    Vec3 gap = a - b;  // a prismatic loop may slide along its axis, a planar one within its plane
    const Vec3 axis = loopFrameDirection(data, loop.predecessorBody, loop.predecessorPlacement, loop.axis);
    if (loop.type == LoopKind::Prismatic) gap -= axis * axis.dot(gap);
    if (loop.type == LoopKind::Planar) gap = axis * axis.dot(gap);
    worst = std::max(worst, gap.norm());
  }
  return worst;
}

}  // namespace grbda
