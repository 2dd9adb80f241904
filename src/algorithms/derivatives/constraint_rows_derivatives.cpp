// The constraint rows' terms of the constrained-dynamics derivatives
// (algorithms/constrained_derivatives.hpp): λ as forces for the ∂RNEA pass, and the derivatives of
// the rows' accelerations at fixed ÿ from that pass's world-frame kinematics.
//
// A point p fixed in body k (world coordinates), with the world velocity v_k = [ω; v_O] and
// gravity-biased acceleration a_k = [ω̇; a_O] (spatial, about the world origin). Writing
// pt(x) = x_lin + x_ang × p (the linear part at p), the classical acceleration is
//   p̈ = pt(a_k) + ω × ṗ,   ṗ = pt(v_k)                                    (constraint_rows.cpp)
// and with ∂p = pt(S_j), ∂v_k, ∂a_k from the spanning pass (spanning_rnea_derivatives.cpp):
//   ∂v_k/∂q_j = S_j × v_k + dVdq_j,   ∂a_k/∂q_j = S_j × a_k + dAdq_j + dVdq_j × v_k
//   ∂a_k/∂q̇_j = Ṡ_j + dVdq_j − v_k × S_j,   ∂v_k/∂q̇_j = S_j
//   ∂p̈/∂q_j = pt(∂a_k) + ω̇ × ∂p + ∂ω × ṗ + ω × (pt(∂v_k) + ω × ∂p)
//   ∂p̈/∂q̇_j = pt(∂a_k/∂q̇_j) + ω_{S_j} × ṗ + ω × pt(S_j)
// (the gravity bias cancels in the differences that make a_k's derivative). Angular rows take the
// angular parts of ∂a_k. A custom row K (body coordinates, on the true spatial acceleration) is
// the world force-like K_w = ^kX_0ᵀ K turning with the body, so ∂(K_w · (a_k − a_0))/∂q_j =
// K_w · (dAdq_j + dVdq_j × v_k + S_j × a_0).
//
// Baumgarte (T > 0) adds k_v ė + k_p e to each row (k_v = 2/T, k_p = 1/T², constraint_rows.cpp):
// point rows e = p_A − p_B − const, ė = ṗ_A − ṗ_B, with ∂ṗ/∂q_j = pt(∂v_k) + ω × ∂p,
// ∂ṗ/∂q̇_j = pt(S_j); angular rows ė = ω_A − ω_B and e = log(R_A R_Bᵀ R_ref), whose change under
// world rotations δθ_A, δθ_B of the two links is J_l⁻¹(e) (δθ_A − R_A R_Bᵀ δθ_B) (J_l: the left
// Jacobian of SO(3)).
#include "constraint_rows_derivatives.hpp"

#include <cmath>

#include <Eigen/Geometry>

#include "../cluster_state.hpp"
#include "grbda/spatial/cross.hpp"

namespace grbda::detail {

namespace {

Vec3 pointPart(const Vec6& x, const Vec3& p) { return x.tail<3>() + x.head<3>().cross(p); }

/// Adds the world force (moment m, force f at point p) and its E term to body b.
void addWorldForce(ConstraintDerivativesData& D, int b, const Vec3& p, const Vec3& m, const Vec3& f) {
  if (b < 0) return;  // the world's side of a relative constraint
  const auto ib = static_cast<size_t>(b);
  D.Fext[ib].head<3>() += m + p.cross(f);
  D.Fext[ib].tail<3>() += f;
  D.Eext[ib].topLeftCorner<3, 3>() += skew(m) + skew(p) * skew(f);
  D.Eext[ib].block<3, 3>(3, 0) += skew(f);
}

/// One side of a contact/weld row block: sign ±1; Baumgarte gains and, for angular rows, the map
/// from the link's world rotation increment to the rotation error (times sign).
struct SideRows {
  int body;
  Vec3 p;
  double sign;
  double kv = 0.0, kp = 0.0;
  Mat3 errorMap = Mat3::Zero();
};

/// J_l⁻¹(φ) = 1 − ½ φ× + (1/θ² − (1 + cos θ) / (2θ sin θ)) (φ×)², θ = |φ| (series below 1e-4).
Mat3 inverseLeftJacobian(const Vec3& phi) {
  const double t = phi.norm();
  const Mat3 P = skew(phi);
  const double c = t < 1e-4 ? 1.0 / 12.0 + t * t / 720.0 : 1.0 / (t * t) - (1.0 + std::cos(t)) / (2.0 * t * std::sin(t));
  return Mat3::Identity() - 0.5 * P + c * P * P;
}

Vec3 rotationVector(const Mat3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

/// Adds sign · (∂/∂q_s, ∂/∂q̇_s, J_s) of the three rows at `row` (point or angular) of one side.
void sideDerivatives(const Model& model, const DerivativesData& d, ConstraintDerivativesData& D, const SideRows& s,
                     int row, bool angular) {
  if (s.body < 0) return;
  const Vec6 &vk = d.vw[static_cast<size_t>(s.body)], &ak = d.aw[static_cast<size_t>(s.body)];
  const Vec3 w = vk.head<3>(), wd = ak.head<3>(), pd = pointPart(vk, s.p);
  for (int j = s.body; j >= 0; j = model.body(j).parent) {
    const int jv = model.body(j).vIndex;
    for (int c = 0; c < model.body(j).joint.nv(); ++c) {
      const int col = jv + c;
      const Vec6 S = d.J.col(col), dV = d.dVdq.col(col);
      const Vec6 dv = crossMotion(S, vk) + dV;
      const Vec6 da = crossMotion(S, ak) + d.dAdq.col(col) + crossMotion(dV, vk);
      const Vec6 dadv = d.dJ.col(col) + dV - crossMotion(vk, S);
      Vec3 gq, gv, js;
      if (angular) {
        gq = da.head<3>() + s.kv * dv.head<3>() + s.kp * (s.errorMap * S.head<3>());
        gv = dadv.head<3>() + s.kv * S.head<3>();
        js = S.head<3>();
      } else {
        const Vec3 dp = pointPart(S, s.p), dpd = pointPart(dv, s.p) + w.cross(dp);
        gq = pointPart(da, s.p) + wd.cross(dp) + dv.head<3>().cross(pd) + w.cross(dpd) + s.kv * dpd + s.kp * dp;
        gv = pointPart(dadv, s.p) + S.head<3>().cross(pd) + w.cross(dp) + s.kv * dp;
        js = dp;
      }
      D.das_dq.block<3, 1>(row, col) += s.sign * gq;
      D.das_dv.block<3, 1>(row, col) += s.sign * gv;
      D.Js.block<3, 1>(row, col) += s.sign * js;
    }
  }
}

void customRowDerivatives(const Model& model, const Data& data, const ConstraintData& cd, ConstraintDerivativesData& D,
                          int row) {
  const DerivativesData& d = data.derivatives;
  const Vec6 a0 = gravityBias(model, data);
  const ConstraintData::RowPart& part = cd.parts[static_cast<size_t>(cd.rowFirstPart[static_cast<size_t>(row)])];
  const Vec6 Kw = data.Xa[static_cast<size_t>(part.body)].applyTranspose(part.K);
  const Vec6& vk = d.vw[static_cast<size_t>(part.body)];
  for (int j = part.body; j >= 0; j = model.body(j).parent) {
    const int jv = model.body(j).vIndex;
    for (int c = 0; c < model.body(j).joint.nv(); ++c) {
      const int col = jv + c;
      const Vec6 S = d.J.col(col), dV = d.dVdq.col(col);
      D.das_dq(row, col) = Kw.dot(d.dAdq.col(col) + crossMotion(dV, vk) + crossMotion(S, a0));
      D.das_dv(row, col) = Kw.dot(d.dJ.col(col) + dV - crossMotion(vk, S));
      D.Js(row, col) = Kw.dot(S);
    }
  }
}

/// Body -> world rotation (the identity for the world, body < 0).
Mat3 rotationOf(const Data& data, int body) {
  return body < 0 ? Mat3::Identity() : Mat3(data.Xa[static_cast<size_t>(body)].E.transpose());
}

SideRows sideOf(const Data& data, int body, const Vec3& bodyPoint, double sign) {
  if (body < 0) return {body, Vec3::Zero(), sign};
  return {body, data.Xa[static_cast<size_t>(body)].inverseTransformPoint(bodyPoint), sign};
}

}  // namespace

void constraintForcesAsExternal(const Model& model, const Data& data, const ConstraintModel& constraints,
                                const ConstraintData& cd, ConstraintDerivativesData& D) {
  (void)model;
  for (size_t b = 0; b < D.Fext.size(); ++b) {
    D.Fext[b].setZero();
    D.Eext[b].setZero();
  }
  for (const Constraint& c : constraints.constraints()) {
    if (c.kind == ConstraintKind::Custom) {  // Kᵀλ on the body (body coordinates): turns with it, E = 0
      for (int r = 0; r < c.numRows; ++r) {
        const ConstraintData::RowPart& part = cd.parts[static_cast<size_t>(cd.rowFirstPart[static_cast<size_t>(c.row + r)])];
        D.Fext[static_cast<size_t>(part.body)] += data.Xa[static_cast<size_t>(part.body)].applyTranspose(part.K * cd.lambda[c.row + r]);
      }
      continue;
    }
    const Vec3 m = c.hasAngularRows() ? Vec3(cd.lambda.segment<3>(c.row)) : Vec3::Zero();
    const Vec3 f = cd.lambda.segment<3>(c.row + (c.hasAngularRows() ? 3 : 0));
    const SideRows A = sideOf(data, c.body, c.bodyPoint, 1.0);
    addWorldForce(D, A.body, A.p, m, f);
    if (c.isRelative()) {
      const SideRows B = sideOf(data, c.body2, c.bodyPoint2, -1.0);
      addWorldForce(D, B.body, B.p, -m, -f);
    }
  }
}

void constraintAccelerationDerivatives(const Model& model, const Data& data, const ConstraintModel& constraints,
                                       const ConstraintData& cd, ConstraintDerivativesData& D) {
  D.das_dq.setZero();
  D.das_dv.setZero();
  D.Js.setZero();
  for (const Constraint& c : constraints.constraints()) {
    if (c.kind == ConstraintKind::Custom) {
      for (int r = 0; r < c.numRows; ++r) customRowDerivatives(model, data, cd, D, c.row + r);
      continue;
    }
    SideRows A = sideOf(data, c.body, c.bodyPoint, 1.0);
    SideRows B = c.isRelative() ? sideOf(data, c.body2, c.bodyPoint2, -1.0) : SideRows{-1, Vec3::Zero(), -1.0};
    if (const double T = constraints.baumgarte(); T > 0.0) {
      A.kv = B.kv = 2.0 / T;
      A.kp = B.kp = 1.0 / (T * T);
      if (c.hasAngularRows()) {  // e = log(R_A R_Bᵀ (R_refA R_refBᵀ)ᵀ), as gatherConstraintRows measures it
        const auto ic = static_cast<size_t>(&c - constraints.constraints().data());
        const Mat3 RA = rotationOf(data, c.body), RB = rotationOf(data, c.body2);
        const Mat3 Jinv = inverseLeftJacobian(
            rotationVector(RA * RB.transpose() * (cd.refRotation[ic] * cd.refRotation2[ic].transpose()).transpose()));
        A.errorMap = Jinv;
        B.errorMap = Jinv * RA * RB.transpose();
      }
    }
    int row = c.row;
    if (c.hasAngularRows()) {
      sideDerivatives(model, data.derivatives, D, A, row, true);
      sideDerivatives(model, data.derivatives, D, B, row, true);
      row += 3;
    }
    sideDerivatives(model, data.derivatives, D, A, row, false);
    sideDerivatives(model, data.derivatives, D, B, row, false);
  }
}

}  // namespace grbda::detail
