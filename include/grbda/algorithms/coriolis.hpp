#pragma once
// The terms of H(q) q̈ + C(q, v) v + g(q) = τ + Jᵀ f_ext in independent coordinates, exact through
// rotors and loops: the Coriolis matrix (with Ḣ − 2C skew-symmetric), the gravity vector and the
// static torque. q independent or spanning, v independent. Results in data.coriolis, no
// allocation per call.
#include "grbda/data.hpp"

namespace grbda {

/// C(q, v) (nv x nv) with C v + g = biasForces and Ḣ = C + Cᵀ. With H = Ĝᵀ H_s Ĝ (H_s, C_s of the
/// spanning tree, Ĝ the block-diagonal cluster G): C = Ĝᵀ C_s Ĝ + Ĝᵀ H_s Ĝ̇, where C_s is the
/// spanning tree's Coriolis matrix in world axes (Echeandia & Wensing 2021; Pinocchio's
/// computeCoriolisMatrix): C_s = Σ_i J_iᵀ (I_i J̇_i + B_i J_i), B = ½ (v ×* I − I v× + (· ×* I v)).
/// \note this overwrites data.coriolis's C and its spanning-tree scratch, and the cluster kinematics.
const MatX& coriolisMatrix(const Model& model, Data& data, const VecRef& q, const VecRef& v);
/// g(q) (nv): the generalized gravity forces, τ = g(q) holds the robot still.
/// \note this overwrites data.coriolis.g, data.tau, data.a, data.f and the cluster kinematics.
const VecX& gravityVector(const Model& model, Data& data, const VecRef& q);
/// τ = g(q) − Jᵀ f_ext: the torques that hold the robot still under the external forces (world
/// spatial forces per body, ExternalForces; empty: none).
/// \note this overwrites data.coriolis.staticTau, data.tau, data.a, data.f and the cluster kinematics.
const VecX& staticTorque(const Model& model, Data& data, const VecRef& q, const ExternalForces& fext);

}  // namespace grbda
