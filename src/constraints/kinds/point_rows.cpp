// The rows of the point kinds (contact, weld, relative point, relative weld) and their
// derivative terms.
//
// Rows. A point p fixed in body b (body coordinates), world axis e_a, n = R_bᵀ e_a:
//   classical p̈ = R_b (a_O + ω̇ × p + ω × v_p),  v_p = v_O + ω × p        (seed 003 §2.9: spatial
//   e_aᵀ p̈ = [p × n; n] · a_b + n · (ω × v_p)                              vs classical)
// so K = [p × n; n] and k = −n · (ω × v_p) (+ Baumgarte). An angular row: K = [n; 0], k = 0
// (d/dt (R ω) = R ω̇). Side B (relative kinds) enters with the opposite sign.
//
// Derivatives. A point p fixed in body k (world coordinates), with the world velocity
// v_k = [ω; v_O] and gravity-biased acceleration a_k = [ω̇; a_O] (spatial, about the world
// origin). Writing pt(x) = x_lin + x_ang × p (the linear part at p), p̈ = pt(a_k) + ω × ṗ,
// ṗ = pt(v_k), and with ∂p = pt(S_j), ∂v_k, ∂a_k from the spanning pass (spanning_rnea_derivatives.cpp):
//   ∂v_k/∂q_j = S_j × v_k + dVdq_j,   ∂a_k/∂q_j = S_j × a_k + dAdq_j + dVdq_j × v_k
//   ∂a_k/∂q̇_j = Ṡ_j + dVdq_j − v_k × S_j,   ∂v_k/∂q̇_j = S_j
//   ∂p̈/∂q_j = pt(∂a_k) + ω̇ × ∂p + ∂ω × ṗ + ω × (pt(∂v_k) + ω × ∂p)
//   ∂p̈/∂q̇_j = pt(∂a_k/∂q̇_j) + ω_{S_j} × ṗ + ω × pt(S_j)
// (the gravity bias cancels in the differences that make a_k's derivative). Angular rows take the
// angular parts of ∂a_k. Baumgarte (T > 0) adds k_v ė + k_p e to each row (k_v = 2/T, k_p = 1/T²):
// point rows e = p_A − p_B − const, ė = ṗ_A − ṗ_B, with ∂ṗ/∂q_j = pt(∂v_k) + ω × ∂p,
// ∂ṗ/∂q̇_j = pt(S_j); angular rows ė = ω_A − ω_B and e = log(R_A R_Bᵀ R_ref), whose change under
// world rotations δθ_A, δθ_B of the two links is J_l⁻¹(e) (δθ_A − R_A R_Bᵀ δθ_B) (J_l: the left
// Jacobian of SO(3)).
#include "point_rows.hpp"

#include <cmath>
#include <string>

#include <Eigen/Geometry>

#include "grbda/errors.hpp"
#include "grbda/spatial/cross.hpp"

namespace grbda::detail {

namespace {

/// One side of a constraint at the current state.
struct Side {
  Mat3 R = Mat3::Identity();  ///< body -> world rotation
  Vec3 p = Vec3::Zero();      ///< the point, world coordinates
  Vec3 pointVelocity = Vec3::Zero(), angularVelocity = Vec3::Zero();  ///< world axes
  Vec3 omega = Vec3::Zero(), vp = Vec3::Zero();                       ///< body axes
  bool moving = false;
};

Side side(const Data& data, int body, const Vec3& point, bool velocities = true) {
  Side s;
  if (body < 0) {  // the world: the point is in world coordinates already
    s.p = point;
    return s;
  }
  const Transform& Xa = data.Xa[static_cast<size_t>(body)];
  s.moving = true;
  s.R = Xa.E.transpose();
  s.p = Xa.inverseTransformPoint(point);
  if (!velocities) return s;
  s.omega = data.v[static_cast<size_t>(body)].head<3>();
  s.vp = data.v[static_cast<size_t>(body)].tail<3>() + s.omega.cross(point);
  s.pointVelocity = s.R * s.vp;
  s.angularVelocity = s.R * s.omega;
  return s;
}

Vec3 rotationVector(const Mat3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

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

/// One side of a row block's derivatives: sign ±1; Baumgarte gains and, for angular rows, the
/// map from the link's world rotation increment to the rotation error (times sign).
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

/// Body -> world rotation (the identity for the world, body < 0).
Mat3 rotationOf(const Data& data, int body) {
  return body < 0 ? Mat3::Identity() : Mat3(data.Xa[static_cast<size_t>(body)].E.transpose());
}

SideRows sideOf(const Data& data, int body, const Vec3& bodyPoint, double sign) {
  if (body < 0) return {body, Vec3::Zero(), sign};
  return {body, data.Xa[static_cast<size_t>(body)].inverseTransformPoint(bodyPoint), sign};
}

}  // namespace

int PointRowsType::resolve(const Model& model, Constraint& c) const {
  resolveConstraintLink(model, c, relative_);
  if (relative_) {
    resolveConstraintLink2(model, c);
    if (c.body == c.body2)
      throw InputError(describeConstraint(c) + ": links '" + c.link + "' and '" + c.link2 +
                       "' are parts of one rigid body; the constraint would do nothing");
    if (c.body < 0)  // keep the moving link first: the force is reported on it
      throw InputError(describeConstraint(c) + ": link '" + c.link +
                       "' is fixed to the world; give the moving link first (or use a contact or weld)");
  }
  return angular_ ? 6 : 3;
}

void PointRowsType::rowBodies(const Model&, const Constraint& c, int, std::vector<int>& bodies) const {
  bodies.push_back(c.body);
  if (relative_ && c.body2 >= 0) bodies.push_back(c.body2);
}

std::unique_ptr<ConstraintTypeData> PointRowsType::createData(const Model&, const Constraint&) const {
  return std::make_unique<PointRowsData>();
}

void PointRowsType::calc(const Model&, const Data& data, const Constraint& c, ConstraintTypeData* d,
                         const ConstraintRowSettings& s, ConstraintRowsOut out) const {
  const auto& ref = static_cast<const PointRowsData&>(*d);
  const bool baumgarte = s.kv != 0.0 || s.kp != 0.0;
  const Side A = side(data, c.body, c.bodyPoint, s.rightHandSides);
  const Side B = relative_ ? side(data, c.body2, c.bodyPoint2, s.rightHandSides) : Side();
  int row = 0;
  if (angular_) {  // ω̇_A − ω̇_B = 0, world axes
    Vec3 error = Vec3::Zero();
    if (baumgarte)
      error = rotationVector(A.R * B.R.transpose() * (ref.refRotation * ref.refRotation2.transpose()).transpose());
    const Vec3 rate = A.angularVelocity - B.angularVelocity;
    for (int a = 0; a < 3; ++a, ++row) {
      out.K(row) << A.R.row(a).transpose(), Vec3::Zero();
      if (B.moving) out.K(row, 1) << -B.R.row(a).transpose(), Vec3::Zero();
      if (s.rightHandSides) out.k(row) = -s.kv * rate[a] - s.kp * error[a];
    }
  }
  // p̈_A − p̈_B = 0, world axes
  const Vec3 error = baumgarte ? Vec3((A.p - B.p) - (ref.refPoint - ref.refPoint2)) : Vec3::Zero();
  const Vec3 rate = A.pointVelocity - B.pointVelocity;
  const Vec3 biasA = A.R * A.omega.cross(A.vp), biasB = B.R * B.omega.cross(B.vp);
  for (int a = 0; a < 3; ++a, ++row) {
    const Vec3 nA = A.R.row(a).transpose();
    out.K(row) << c.bodyPoint.cross(nA), nA;
    if (B.moving) {
      const Vec3 nB = B.R.row(a).transpose();
      out.K(row, 1) << -c.bodyPoint2.cross(nB), -nB;
    }
    if (s.rightHandSides) out.k(row) = -(biasA[a] - biasB[a]) - s.kv * rate[a] - s.kp * error[a];
  }
}

void PointRowsType::setReference(const Model&, const Data& data, const Constraint& c, ConstraintTypeData* d) const {
  auto& ref = static_cast<PointRowsData&>(*d);
  const Side A = side(data, c.body, c.bodyPoint);
  const Side B = relative_ ? side(data, c.body2, c.bodyPoint2) : Side();
  ref.refPoint = A.p;
  ref.refRotation = A.R;
  ref.refPoint2 = relative_ ? B.p : Vec3::Zero();
  ref.refRotation2 = B.R;
}

bool PointRowsType::softPointMass(const Constraint& c, Vec3& point, bool& angular) const {
  if (relative_) return false;
  point = c.bodyPoint;
  angular = angular_;
  return true;
}

void PointRowsType::addForcesAsExternal(const Model&, const Data& data, const Constraint& c,
                                        const ConstraintTypeData*, const ConstraintData& cd,
                                        ConstraintDerivativesData& D) const {
  const Vec3 m = angular_ ? Vec3(cd.lambda.segment<3>(c.row)) : Vec3::Zero();
  const Vec3 f = cd.lambda.segment<3>(c.row + (angular_ ? 3 : 0));
  const SideRows A = sideOf(data, c.body, c.bodyPoint, 1.0);
  addWorldForce(D, A.body, A.p, m, f);
  if (relative_) {
    const SideRows B = sideOf(data, c.body2, c.bodyPoint2, -1.0);
    addWorldForce(D, B.body, B.p, -m, -f);
  }
}

void PointRowsType::addAccelerationDerivatives(const Model& model, const Data& data, const Constraint& c,
                                               const ConstraintTypeData* d, const ConstraintData&,
                                               double baumgarte, ConstraintDerivativesData& D) const {
  const auto& ref = static_cast<const PointRowsData&>(*d);
  SideRows A = sideOf(data, c.body, c.bodyPoint, 1.0);
  SideRows B = relative_ ? sideOf(data, c.body2, c.bodyPoint2, -1.0) : SideRows{-1, Vec3::Zero(), -1.0};
  if (const double T = baumgarte; T > 0.0) {
    A.kv = B.kv = 2.0 / T;
    A.kp = B.kp = 1.0 / (T * T);
    if (angular_) {  // e = log(R_A R_Bᵀ (R_refA R_refBᵀ)ᵀ), as calc measures it
      const Mat3 RA = rotationOf(data, c.body), RB = rotationOf(data, c.body2);
      const Mat3 Jinv = inverseLeftJacobian(
          rotationVector(RA * RB.transpose() * (ref.refRotation * ref.refRotation2.transpose()).transpose()));
      A.errorMap = Jinv;
      B.errorMap = Jinv * RA * RB.transpose();
    }
  }
  int row = c.row;
  if (angular_) {
    sideDerivatives(model, data.derivatives, D, A, row, true);
    sideDerivatives(model, data.derivatives, D, B, row, true);
    row += 3;
  }
  sideDerivatives(model, data.derivatives, D, A, row, false);
  sideDerivatives(model, data.derivatives, D, B, row, false);
}

}  // namespace grbda::detail
