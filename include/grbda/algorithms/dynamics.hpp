#pragma once
// The dynamics calls every user writes, run by the cluster algorithms (C-ABA, C-RNEA, cluster
// CRBA). q holds either the independent positions (model.nq(); loops are closed on the as-built
// assembly branch, by closed forms or by Newton continuation from the model's reference pose, so
// every result is a function of the call's inputs alone, bit for bit, whatever the Data computed
// before) or the spanning positions (model.nqSpanning(); checked
// against the constraints). v, tau, qdd are independent (model.nv()). Inputs are validated
// (InputError); singular states raise NumericalError instead of returning NaN. Results live in
// `data` and are returned by reference, so calling these in a loop allocates nothing.
#include "grbda/data.hpp"

namespace grbda {

/// Forward dynamics: qdd = H^{-1}(tau - C + J^T fext). InputError for a model that keeps loops as
/// constraint rows (Model::loopConstraints(): this call would ignore them; solve them with
/// constrainedForwardDynamics and ConstraintModel(model)). massMatrix, biasForces and
/// inverseDynamics of such a model are the open tree's H, C and τ, which those solvers build on.
const VecX& forwardDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau);
const VecX& forwardDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau,
                            const ExternalForces& fext);

/// Inverse dynamics: tau = H qdd + C - J^T fext.
const VecX& inverseDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& qdd);
const VecX& inverseDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& qdd,
                            const ExternalForces& fext);

/// After inverseDynamics: the spatial force that cluster k's joint transmits from its output
/// body to the cluster (the reaction wrench of the cluster joint, [P0] eq. 65 summed over the
/// cluster's bodies), in the output body's coordinates, or in world coordinates for a cluster
/// on the ground. Throws InputError for k out of range.
Vec6 clusterJointForce(const Model& model, const Data& data, int k);

/// Joint-space mass matrix H(q) (symmetric, both triangles).
const MatX& massMatrix(const Model& model, Data& data, const VecX& q);
/// Inverse mass matrix H(q)⁻¹ (symmetric, both triangles) by the articulated-cluster pass and one
/// outward sweep (Jain's innovations factorisation, seed 001 §1.8; Pinocchio's computeMinverse for
/// trees), without forming or factorising H. Lives in data.Minv; the first call sizes it, later
/// calls allocate nothing. NumericalError if some D_k is not positive definite.
const MatX& inverseMassMatrix(const Model& model, Data& data, const VecX& q);
/// log det H(q) = Σ_k log det D_k over the articulated-cluster pivots (seed 001: det ℳ = Π det D(k)),
/// without forming H. NumericalError if some D_k is not positive definite.
double logDetMassMatrix(const Model& model, Data& data, const VecX& q);

/// Bias forces C(q, v): gravity, Coriolis and centrifugal terms.
const VecX& biasForces(const Model& model, Data& data, const VecX& q, const VecX& v);

/// Spanning positions for independent positions q (closes the loops; NumericalError if they
/// cannot be closed). Also accepts spanning positions, which it checks and returns.
const VecX& completeConfiguration(const Model& model, Data& data, const VecX& q);

}  // namespace grbda
