#pragma once
// Featherstone's recursive algorithms on the spanning tree (RBDA ch. 5-7; spec §6.9.1):
// forward kinematics, RNEA, ABA, CRBA. They ignore loop constraints and couplings; for a model
// without loops they are the ground truth the cluster algorithms reduce to, and for constrained
// models they give H_tree, C_tree for the projection and Lagrange baselines.
// Inputs are spanning coordinates (model.nqSpanning(), model.nvSpanning()); only the Data/Model
// match is checked here — the public entry points in dynamics.hpp check sizes and finiteness.
// Results go to the spanning-tree fields of Data (tauTree, qddTree, CTree, HTree), never to the
// cluster results (tau, qdd, C, H). Each call overwrites data.Xa (and v, a, f as it computes them,
// and the workspace's transforms) with the spanning tree's state and bumps the kinematics version: what an
// earlier cluster pass left (the force propagators of updateForcePropagators) is then invalid,
// and applyTestForce refuses it.
#include "grbda/algorithms/kinematics.hpp"
#include "grbda/data.hpp"

namespace grbda::tree {

/// Poses.
/// \note this overwrites data.Xa and bumps the kinematics version.
void forwardKinematics(const Model& model, Data& data, const VecRef& q);
/// Poses and velocities.
/// \note this overwrites data.Xa, data.v and bumps the kinematics version.
void forwardKinematics(const Model& model, Data& data, const VecRef& q, const VecRef& v);
/// Poses, velocities and true (not gravity-biased) accelerations.
/// \note this overwrites data.Xa, data.v, data.a and bumps the kinematics version.
void forwardKinematics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd);

/// RNEA: tau = H(q) qdd + C(q, v) - J^T fext. Result in data.tauTree.
/// \note this overwrites data.tauTree, data.Xa, data.v, data.a (gravity-biased), data.f and bumps
/// the kinematics version.
const VecX& rnea(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd,
                 const ExternalForces* fext = nullptr);

/// ABA: qdd = H^{-1}(tau - C + J^T fext). With `armature` (size nvSpanning), H + diag(armature)
/// is used (the reflected-inertia approximation, spec §6.9.3). Result in data.qddTree. Throws
/// NumericalError naming the joint when an articulated inertia is not positive (a massless
/// subtree) instead of returning NaN.
/// \note this overwrites data.qddTree, data.Xa, data.v, data.a (gravity-biased), the workspace's
/// articulated quantities and bumps the kinematics version; the cluster pass's stamp is left as it
/// was, so it no longer matches.
const VecX& aba(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau,
                const ExternalForces* fext = nullptr, const VecX* armature = nullptr);

/// CRBA: joint-space mass matrix, both triangles filled. Result in data.HTree.
/// \note this overwrites data.HTree, data.Xa and bumps the kinematics version.
const MatX& crba(const Model& model, Data& data, const VecRef& q);

/// Bias forces C(q, v) (gravity and velocity products) = RNEA with qdd = 0. Result in data.CTree.
/// \note this overwrites data.CTree and everything rnea does (data.tauTree holds C too).
const VecX& nonLinearEffects(const Model& model, Data& data, const VecRef& q, const VecRef& v,
                             const ExternalForces* fext = nullptr);

/// Spanning-tree Jacobian (6 x nvSpanning) of a frame point, from the poses of the last
/// tree::forwardKinematics (or any call above).
/// \note this overwrites only J; it reads the spanning tree's poses in data.
void frameJacobian(const Model& model, const Data& data, int frame, const Vec3& point, ReferenceFrame axes,
                   Mat6X& J);

}  // namespace grbda::tree
