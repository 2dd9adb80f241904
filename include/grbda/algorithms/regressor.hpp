#pragma once
// The inverse-dynamics regressor of the cluster dynamics: τ = Y(q, v, q̈) π, linear in ten
// inertial parameters per body (Pinocchio's order):
//
//   π_i = [m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]
//
// with c the centre of mass and I the rotational inertia about the body ORIGIN, body axes
// (Ī_O = I_c + m [c]×ᵀ [c]×). Bodies are grbda's (model.bodies()): links on fixed joints merged,
// links welded to the world left out, and rotor bodies included — so a rotor's inertia can be
// identified from joint data (Pinocchio's regressor covers links only and models rotors by an
// armature, which drops their gyroscopic terms). Gravity is in Y (τ includes it, as C-RNEA's).
//
// Y is the regressor of the cluster dynamics, not of the spanning tree: loops and couplings
// embedded in clusters stay exact. C-RNEA computes τ = Gᵀ τ_span with τ_span the spanning tree's
// RNEA at q̈_span = G ÿ + g; per body, its force f_i = I_i a_i + v_i ×* I_i v_i = Y_i(v_i, a_i) π_i
// (the 6 x 10 body regressor) reaches the coordinates of its own cluster through S_kᵀ (= Gᵀ of
// the cluster's spanning rows) and those of every supporting cluster through the output bodies
// (Xoutᵀ, then that cluster's S). One column block per body, O(n · depth).
#include <string>
#include <vector>

#include "grbda/data.hpp"

namespace grbda {

using Vec10 = Eigen::Matrix<double, 10, 1>;

/// π of one spatial inertia (body coordinates), Pinocchio's order.
Vec10 inertiaParameters(const Mat6& inertia);
/// The spatial inertia with parameters π (inverse of inertiaParameters; no physical check).
Mat6 inertiaFromParameters(const Vec10& pi);

/// π of the model: 10 · model.numBodies() entries, body by body.
VecX modelParameters(const Model& model);
/// "BODY.m", "BODY.mcx", "BODY.mcy", "BODY.mcz", "BODY.Ixx", "BODY.Ixy", "BODY.Iyy", "BODY.Ixz",
/// "BODY.Iyz", "BODY.Izz" per body (BODY the body's link name).
std::vector<std::string> parameterNames(const Model& model);
/// The spatial inertias of the bodies for parameters π (10 · numBodies entries).
std::vector<Mat6> bodyInertiasFromParameters(const Model& model, const VecRef& pi);
/// A copy of `model` whose bodies carry the inertias of π (same structure, so a Data made for
/// `model` serves it too). InputError for a wrong size or non-finite π; physical validity (a
/// positive mass, the triangle inequality) is not checked — identification may pass through
/// parameters that are not.
Model modelWithParameters(const Model& model, const VecRef& pi);

/// Y(q, v, q̈): model.nv() x 10 · numBodies, into Y (resized on the first call only). q
/// independent or spanning positions, v and qdd independent (as inverseDynamics). Returns Y.
/// \note this overwrites Y, data.a, data.f and the cluster kinematics.
const MatX& computeRegressor(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd, MatX& Y);

/// The 6 x 10 body regressor: Y_b π = I(π) a + v ×* I(π) v (spatial v, a in body coordinates).
Eigen::Matrix<double, 6, 10> bodyRegressor(const Vec6& v, const Vec6& a);

}  // namespace grbda
