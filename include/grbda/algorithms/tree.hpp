#pragma once
// Featherstone's recursive algorithms on the spanning tree (RBDA ch. 5-7; spec §6.9.1):
// forward kinematics, RNEA, ABA, CRBA. They ignore loop constraints and couplings; for a model
// without loops they are the ground truth the cluster algorithms reduce to, and for constrained
// models they give H_tree, C_tree for the projection and Lagrange baselines.
// Inputs are spanning coordinates (model.nq(), model.nv()); they are not validated here — the
// public entry points in dynamics.hpp check sizes and finiteness first.
// Each call overwrites data.Xup and data.Xa (and v, c, a, f, IA, pA as it computes them) with the
// spanning tree's state and bumps data.kinematicsVersion: what an earlier cluster pass left (the
// force propagators of updateForcePropagators) is then invalid, and applyTestForce refuses it.
#include "grbda/algorithms/kinematics.hpp"
#include "grbda/data.hpp"

namespace grbda::tree {

/// Poses: data.Xup, data.Xa.
void forwardKinematics(const Model& model, Data& data, const VecX& q);
/// Poses and velocities: + data.v, data.c.
void forwardKinematics(const Model& model, Data& data, const VecX& q, const VecX& v);
/// Poses, velocities and true (not gravity-biased) accelerations data.a.
void forwardKinematics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& qdd);

/// RNEA: tau = H(q) qdd + C(q, v) - J^T fext. Result in data.tau.
const VecX& rnea(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& qdd,
                 const ExternalForces* fext = nullptr);

/// ABA: qdd = H^{-1}(tau - C + J^T fext). With `armature` (size nv), H + diag(armature) is used
/// (the reflected-inertia approximation, spec §6.9.3). Result in data.qdd. Throws
/// NumericalError naming the joint when an articulated inertia is not positive (a massless
/// subtree) instead of returning NaN.
const VecX& aba(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau,
                const ExternalForces* fext = nullptr, const VecX* armature = nullptr);

/// CRBA: joint-space mass matrix, both triangles filled. Result in data.H.
const MatX& crba(const Model& model, Data& data, const VecX& q);

/// Bias forces C(q, v) (gravity and velocity products) = RNEA with qdd = 0. Result in data.C.
const VecX& nonLinearEffects(const Model& model, Data& data, const VecX& q, const VecX& v,
                             const ExternalForces* fext = nullptr);

/// Spanning-tree Jacobian (6 x nvSpanning) of a frame point, from the poses of the last
/// tree::forwardKinematics (data.Xup = parent transforms, data.Xa).
void frameJacobian(const Model& model, const Data& data, int frame, const Vec3& point, ReferenceFrame axes,
                   Mat6X& J);

}  // namespace grbda::tree
