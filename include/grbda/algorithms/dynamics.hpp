#pragma once
// The dynamics calls every user writes, run by the cluster algorithms (C-ABA, C-RNEA, cluster
// CRBA). q holds either the independent positions (model.nq(); loops are closed on the as-built
// assembly branch, by closed forms or by Newton continuation from the model's reference pose, so
// every result is a function of the call's inputs alone, bit for bit, whatever the Data computed
// before) or the spanning positions (model.nqSpanning(); checked
// against the constraints). v, tau, qdd are independent (model.nv()). Inputs are validated
// (InputError); singular states raise NumericalError instead of returning NaN. Results live in
// `data` and are returned by reference, so calling these in a loop allocates nothing.
//
// Each call's \note says what it overwrites in Data, in two groups the notes of every header use:
//  * the cluster kinematics: data.qSpan, data.Xa (with velocities also data.vSpan, data.v) and
//    the workspace's transforms, subspaces and constraint terms per cluster; the call bumps the
//    workspace's kinematics version, so an articulated pass made earlier no longer counts as valid
//    (applyTestForce refuses it);
//  * the articulated-cluster pass: the workspace's articulated inertias and bias forces per body,
//    each cluster's U, D, D⁻¹ and fold terms, and the pass's stamp.
// Everything else in Data keeps what the last call that wrote it left. The workspace
// (Data::Workspace) is the library's; it is named here only to say what a call invalidates.
#include "grbda/data.hpp"

namespace grbda {

/// Forward dynamics: qdd = H^{-1}(tau - C + J^T fext). InputError for a model that keeps loops as
/// constraint rows (Model::keptLoopGroups(): this call would ignore them; solve them with
/// constrainedForwardDynamics and ConstraintModel(model)). massMatrix, biasForces and
/// inverseDynamics of such a model are the open tree's H, C and τ, which those solvers build on.
/// \note this overwrites data.qdd, data.a (gravity-biased), the cluster kinematics and the articulated-cluster pass.
const VecX& forwardDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau);
const VecX& forwardDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau,
                            const ExternalForces& fext);

/// Inverse dynamics: tau = H qdd + C - J^T fext.
/// \note this overwrites data.tau, data.a (gravity-biased), data.f (read by clusterJointForce and
/// jointReactions) and the cluster kinematics.
const VecX& inverseDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd);
const VecX& inverseDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd,
                            const ExternalForces& fext);

/// After inverseDynamics: the spatial force that cluster k's joint transmits from its output
/// body to the cluster (the reaction wrench of the cluster joint, [P0] eq. 65 summed over the
/// cluster's bodies), in the output body's coordinates, or in world coordinates for a cluster
/// on the ground. Throws InputError for k out of range.
/// \note this overwrites nothing; it reads data.f and the cluster transforms of the last inverseDynamics.
Vec6 clusterJointForce(const Model& model, const Data& data, int k);

/// Joint-space mass matrix H(q) (symmetric, both triangles).
/// \note this overwrites data.H, the workspace's composite inertias and the cluster kinematics.
const MatX& massMatrix(const Model& model, Data& data, const VecRef& q);
/// Inverse mass matrix H(q)⁻¹ (symmetric, both triangles) by the articulated-cluster pass and one
/// outward sweep (Jain's innovations factorisation, seed 001 §1.8; Pinocchio's computeMinverse for
/// trees), without forming or factorising H. Lives in data.Minv; the first call sizes it, later
/// calls allocate nothing. NumericalError if some D_k is not positive definite.
/// \note this overwrites data.Minv, the cluster kinematics and the articulated-cluster pass
/// (without bias terms).
const MatX& inverseMassMatrix(const Model& model, Data& data, const VecRef& q);
/// log det H(q) = Σ_k log det D_k over the articulated-cluster pivots (seed 001: det ℳ = Π det D(k)),
/// without forming H. NumericalError if some D_k is not positive definite.
/// \note this overwrites the cluster kinematics and the articulated-cluster pass (without bias terms).
double logDetMassMatrix(const Model& model, Data& data, const VecRef& q);

/// Bias forces C(q, v): gravity, Coriolis and centrifugal terms.
/// \note this overwrites data.C, data.tau (= C), data.a, data.f and the cluster kinematics.
const VecX& biasForces(const Model& model, Data& data, const VecRef& q, const VecRef& v);

/// Spanning positions for independent positions q (closes the loops; NumericalError if they
/// cannot be closed). Also accepts spanning positions, which it checks and returns.
/// \note this overwrites data.qSpan (returned) and the clusters' loop-closure scratch only; it does
/// not bump the kinematics version.
const VecX& completeConfiguration(const Model& model, Data& data, const VecRef& q);

}  // namespace grbda
