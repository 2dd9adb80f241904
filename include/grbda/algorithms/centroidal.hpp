#pragma once
// Centroidal momentum on the cluster tree (Orin, Goswami & Lee 2013; Pinocchio's ccrba, dccrba):
// h_G = [linear momentum; angular momentum about the centre of mass p_G], world axes (Pinocchio's
// order), the centroidal momentum matrix A_G (6 x nv, independent coordinates) with h_G = A_G v,
// Ȧ_G v = dh_G/dt at q̈ = 0 (gravity not included, loop-closure accelerations included), and the
// centroidal composite inertia. Rotors are bodies: a spinning rotor's momentum I_r ω_r is part
// of the angular momentum, exactly (an armature model drops it). q independent or spanning, v
// independent. Results in data.centroidal, no allocation per call.
#include "grbda/data.hpp"

namespace grbda {

/// h_G (data.centroidal.hg), with com and mass: Σ_i ^iX_0ᵀ I_i v_i shifted to p_G.
/// \note this overwrites data.centroidal's hg, com, mass, its scratch, and the cluster kinematics.
const Vec6& centroidalMomentum(const Model& model, Data& data, const VecRef& q, const VecRef& v);
/// A_G (data.centroidal.Ag), with the centroidal composite inertia Ig = diag(Ī_G, M 1) (angular
/// first), com and mass. A cluster's columns: Σ over its bodies of ^iX_0ᵀ Ic_i S_k (composite
/// inertias folded over the cluster tree, as the cluster CRBA) — H is never formed.
/// \note this overwrites data.centroidal's Ag, Ig, com, mass and the cluster kinematics.
const Mat6X& centroidalMomentumMatrix(const Model& model, Data& data, const VecRef& q);
/// Ȧ_G v (data.centroidal.dhg), and h_G: Σ_i ^iX_0ᵀ (I_i a_i + v_i ×* I_i v_i) with a_i the body
/// accelerations at q̈ = 0, no gravity; the moment shifted to p_G (ṗ_G × m ṗ_G = 0).
/// \note this overwrites data.centroidal's dhg, hg, com, mass, its scratch, and the cluster kinematics.
const Vec6& centroidalMomentumBias(const Model& model, Data& data, const VecRef& q, const VecRef& v);
/// A_G, h_G = A_G v, Ȧ_G v and Ig in one pass over the clusters (what `grbda centroidal` runs).
/// When every cluster's motion subspace is constant in body axes and hangs from its output body
/// (revolute, free and spherical joints, geared rotors: the Mini Cheetah), the pass runs in world
/// axes from the positions alone: velocities, velocity products and composite inertias then add
/// along the tree without a transform; other models take the body-axes pass of the calls above.
/// \note this overwrites what the three calls above do. It leaves data.Xa at q; data.v is at (q, v)
/// only on the body-axes pass (the world-axes pass, like the positions-only calls, leaves it as it was).
void centroidalDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v);

}  // namespace grbda
