#pragma once
// Centre of mass of the robot and of its spanning subtrees, its velocity, its acceleration bias
// J̇_c v and its Jacobian J_c (3 x nv, independent coordinates), on the cluster tree. Every body
// counts with its mass, rotors included; links welded to the world are merged into the ground
// when the model is built, so they do not count (as in Pinocchio). World coordinates. q holds
// independent or spanning positions, v independent velocities (as in dynamics.hpp). Results
// live in data.centroidal (no allocation per call). A model without mass is a NumericalError.
#include "grbda/data.hpp"

namespace grbda {

/// p_G, and data.centroidal.mass, subtreeMass and subtreeCom (per body: its spanning subtree —
/// the body and every body whose spanning-tree path passes through it; Pinocchio's data.com[i]).
/// \note this overwrites data.centroidal's mass, com, subtreeMass, subtreeCom and the cluster kinematics.
const Vec3& centerOfMass(const Model& model, Data& data, const VecRef& q);
/// p_G, and also ṗ_G (centroidal.vcom) and J̇_c v (centroidal.acomBias: p̈_G at q̈ = 0, gravity
/// not included; loop-closure accelerations included), so that p̈_G = J_c q̈ + J̇_c v.
/// \note this overwrites what the call above does, data.centroidal's vcom, acomBias, aBias, and the
/// cluster kinematics with velocities.
const Vec3& centerOfMass(const Model& model, Data& data, const VecRef& q, const VecRef& v);
/// J_c (3 x nv) with ṗ_G = J_c v; also p_G and M (not the subtree quantities).
/// \note this overwrites data.centroidal's Jcom, com, mass, its scratch, and the cluster kinematics.
const Mat3X& centerOfMassJacobian(const Model& model, Data& data, const VecRef& q);

}  // namespace grbda
