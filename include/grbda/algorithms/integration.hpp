#pragma once
// Time stepping in independent coordinates: the configuration-space arithmetic a simulator needs
// (moving q along v, the rate of q, renormalising quaternions) and the mechanical energy it
// should conserve. Independent positions add up entry by entry, except a floating base, whose
// q = [x y z qw qx qy qz] holds a unit quaternion and whose v = [ω; v] is in the body frame.
// Local loops need nothing here: their independent coordinates are the state, and
// completeConfiguration closes the loop at every q.
#include "grbda/data.hpp"

namespace grbda {

/// Independent positions after moving with the constant independent velocity v for dt seconds:
/// q + v dt, except a free cluster, whose position moves by R v_lin dt (R: body -> world at q) and
/// whose quaternion turns by the body-frame angular velocity, exactly (q ⊗ exp(ω dt / 2)).
/// InputError for sizes or non-finite values.
VecX integrate(const Model& model, const VecRef& q, const VecRef& v, double dt);
/// The same into `out` (which may be q itself); allocates nothing once out has nq entries.
void integrate(const Model& model, const VecRef& q, const VecRef& v, double dt, VecX& out);

/// The constant independent velocity that moves q0 to q1 in unit time, integrate(q0, v, 1) = q1:
/// q1 − q0, except a free cluster, whose angular part is log(quat0⁻¹ quat1) (the shorter turn,
/// body frame) and whose linear part is R0ᵀ (p1 − p0). The inverse of integrate; with it, finite
/// differences on the quaternion manifold. InputError for sizes or non-finite values.
VecX difference(const Model& model, const VecRef& q0, const VecRef& q1);

/// dq/dt of the independent positions for velocity v (nq entries): v, except a free cluster,
/// whose position moves at R v_lin and whose quaternion at ½ q ⊗ (0, ω). For Runge–Kutta schemes
/// on the embedding (renormalise the result with normalizeConfiguration).
VecX positionRate(const Model& model, const VecRef& q, const VecRef& v);

/// Scales every free cluster's quaternion to unit length (InputError for a zero one).
void normalizeConfiguration(const Model& model, VecX& q);

/// Kinetic energy ½ vᵀ H(q) v = ½ Σ v_iᵀ I_i v_i over the bodies [J]; runs forwardKinematics.
/// \note this overwrites the cluster kinematics with velocities.
double kineticEnergy(const Model& model, Data& data, const VecRef& q, const VecRef& v);
/// Gravitational potential energy −Σ m_i g · c_i (g = data.gravity(model); c_i: body i's centre
/// of mass in the world) [J]; zero at the world origin. Runs forwardKinematics.
/// \note this overwrites the cluster kinematics.
double potentialEnergy(const Model& model, Data& data, const VecRef& q);

/// How far the URDF+ loops are from closed at the kinematics in `data` (after forwardKinematics):
/// the largest gap between the two frames a `<loop>` joins [m] (0 without loops): their distance,
/// except a prismatic loop's (its part normal to the axis) and a planar loop's (along the normal). Independent
/// positions are completed by Newton, so this stays at its tolerance; simulators report it.
/// \note this overwrites nothing; it reads data.Xa.
double loopClosureError(const Model& model, const Data& data);

}  // namespace grbda
