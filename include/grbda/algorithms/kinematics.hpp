#pragma once
// Frame and point kinematics. Call forwardKinematics first (positions only for poses and
// Jacobians; with velocities for frameVelocity; with accelerations for frameAcceleration).
#include "grbda/data.hpp"

namespace grbda {

/// Axes in which 6-D frame quantities are expressed. Local: the frame's own axes, reference point
/// the frame point. LocalWorldAligned: world axes, reference point the frame point. World
/// (Pinocchio's WORLD): the spatial quantity of the frame's body at the world origin in world
/// axes — independent of the point; accelerations in World are spatial (v̇ of the spatial velocity
/// field), not classical.
enum class ReferenceFrame { Local, LocalWorldAligned, World };

/// Forward kinematics: poses. q independent or spanning positions (as in dynamics.hpp).
/// \note this overwrites the cluster kinematics (dynamics.hpp), positions only.
void forwardKinematics(const Model& model, Data& data, const VecRef& q);
/// Poses and velocities; v independent.
/// \note this overwrites the cluster kinematics with velocities (data.v, data.vSpan too).
void forwardKinematics(const Model& model, Data& data, const VecRef& q, const VecRef& v);
/// Poses, velocities and true accelerations (gravity not included); v and qdd independent.
/// \note this overwrites the cluster kinematics with velocities, and data.a (true accelerations).
void forwardKinematics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd);

/// ^F X_0 of frame F (world -> frame coordinates).
/// \note this overwrites nothing; it reads the kinematics of the last forwardKinematics.
Transform frameTransform(const Model& model, const Data& data, int frame);
/// Position in world coordinates of `point` (frame coordinates) of frame F.
/// \note this overwrites nothing; it reads the kinematics of the last forwardKinematics.
Vec3 framePosition(const Model& model, const Data& data, int frame, const Vec3& point = Vec3::Zero());
/// Rotation frame -> world (columns are the frame axes in world coordinates).
/// \note this overwrites nothing; it reads the kinematics of the last forwardKinematics.
Mat3 frameRotation(const Model& model, const Data& data, int frame);
/// [angular velocity; linear velocity of the point].
/// \note this overwrites nothing; it reads the kinematics of the last forwardKinematics.
Vec6 frameVelocity(const Model& model, const Data& data, int frame, const Vec3& point = Vec3::Zero(),
                   ReferenceFrame axes = ReferenceFrame::LocalWorldAligned);
/// [angular acceleration; classical linear acceleration of the point] (true accelerations).
/// \note this overwrites nothing; it reads the data.a of the last forwardKinematics with accelerations.
Vec6 frameAcceleration(const Model& model, const Data& data, int frame, const Vec3& point = Vec3::Zero(),
                       ReferenceFrame axes = ReferenceFrame::LocalWorldAligned);

/// J̇ v of frame F's point: its [angular; classical linear] acceleration with q̈ = 0 (gravity not
/// included), from the velocity-product terms c_i along its support path — no J̇ formed, no
/// finite difference. Needs forwardKinematics with velocities; frameAcceleration = J q̈ + this.
/// \note this overwrites nothing; it reads the kinematics of the last forwardKinematics with velocities.
Vec6 frameAccelerationBias(const Model& model, const Data& data, int frame, const Vec3& point = Vec3::Zero(),
                           ReferenceFrame axes = ReferenceFrame::LocalWorldAligned);

/// Convenience: forward kinematics at (q, v, qdd), then frameAcceleration.
/// \note this overwrites what forwardKinematics(q, v, qdd) does.
Vec6 frameAcceleration(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd, int frame,
                       const Vec3& point = Vec3::Zero(), ReferenceFrame axes = ReferenceFrame::LocalWorldAligned);

/// 6 x nv Jacobian J (independent coordinates) with J v = frameVelocity(frame, point, axes).
/// J is resized to 6 x nv if needed. Uses the state of the last forwardKinematics call.
/// \note this overwrites J only.
void frameJacobian(const Model& model, const Data& data, int frame, const Vec3& point, ReferenceFrame axes,
                   Mat6X& J);
/// Convenience: runs forward kinematics at q and returns a new Jacobian.
/// \note this overwrites what forwardKinematics(q) does.
Mat6X frameJacobian(const Model& model, Data& data, const VecRef& q, int frame, const Vec3& point = Vec3::Zero(),
                    ReferenceFrame axes = ReferenceFrame::LocalWorldAligned);

/// J̇ (6 x nv): the time derivative of frameJacobian(frame, point, axes) along the motion of the
/// last forwardKinematics with velocities, so that d/dt (J v) = J q̈ + J̇ v. Built as J = J_s Ĝ on
/// the spanning tree, J̇ = J̇_s Ĝ + J_s Ĝ̇ (Ĝ̇ = Σ_j ∂G/∂y_j ẏ_j of the clusters whose G varies),
/// exact through rotors and loops. For LocalWorldAligned and World, J̇ v is the acceleration bias
/// of frameAccelerationBias in those axes; for Local it is the time derivative of the local-axes
/// velocity (spatial acceleration, as Pinocchio's LOCAL), not the classical one. dJ is resized to
/// 6 x nv if needed; writes data.coriolis scratch.
/// \note this overwrites dJ and data.coriolis's S, Gdot and work (scratch; its C, g, staticTau stay).
void frameJacobianTimeVariation(const Model& model, Data& data, int frame, const Vec3& point, ReferenceFrame axes,
                                Mat6X& dJ);
/// Convenience: forward kinematics at (q, v), then a new J̇.
/// \note this overwrites what forwardKinematics(q, v) and the call above do.
Mat6X frameJacobianTimeVariation(const Model& model, Data& data, const VecRef& q, const VecRef& v, int frame,
                                 const Vec3& point = Vec3::Zero(), ReferenceFrame axes = ReferenceFrame::LocalWorldAligned);

}  // namespace grbda
