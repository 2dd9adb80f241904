// The row gatherer shared by every constrained solver (PV, PV-soft, proximal, KKT): each row as
// its parts K (a 6-vector on one body's spatial acceleration, body coordinates) and its
// right-hand side k for true accelerations, then kBiased for the gravity-biased accelerations
// the articulated pass computes.
//
// A point p fixed in body b (body coordinates), world axis e_a, n = R_bᵀ e_a:
//   classical p̈ = R_b (a_O + ω̇ × p + ω × v_p),  v_p = v_O + ω × p        (seed 003 §2.9: spatial
//   e_aᵀ p̈ = [p × n; n] · a_b + n · (ω × v_p)                              vs classical)
// so K = [p × n; n] and k = −n · (ω × v_p) (+ Baumgarte). An angular row: K = [n; 0], k = 0
// (d/dt (R ω) = R ω̇). Gravity trick (§2.9): the solvers see a_b + ^bX_0 a_0 with a_0 = −a_g,
// so kBiased = k + K · (^bX_0 a_0).
#include "constraint_rows.hpp"

#include <string>

#include <Eigen/Geometry>
#include <string>

#include "grbda/errors.hpp"

#include "../algorithms/cluster_state.hpp"
#include "../cluster/cluster_joint.hpp"

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

Vec3 rotationError(const Mat3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

/// A kept loop group's rows Σ_j K_rj q̈_j = k_r as parts: a generalised force K_rj on joint j is
/// the spatial force F = K_rj S_j on body j and −F on its parent (their power is K_rj q̇_j), so
///   Σ_parts Kᵀ a = Σ_j K_rj S_jᵀ (a_j − ^jX_λ a_λ) = Σ_j K_rj q̈_j
/// (S_jᵀ (v_j × S_j q̇_j) = 0 for a revolute or prismatic joint): the right-hand side is the
/// loop's own k = −K̇ q̇, with Baumgarte −(2/T) K q̇ − (1/T²) φ.
void gatherLoopRows(const Model& model, const Data& data, const Constraint& c, ConstraintData& cd, bool rightHandSides,
                    double kv, double kp) {
  const LoopConstraint& lc = model.loopConstraints()[static_cast<size_t>(c.loop)];
  ClusterData& w = cd.loopWork[static_cast<size_t>(c.loop)];
  const ConstraintSet& set = lc.embedded.joint->constraints();
  const double* q = data.qSpan.data() + lc.embedded.qSpanIndex;
  set.jacobian(q, w);
  const int nb = lc.numBodies;
  for (int r = 0; r < c.numRows; ++r) {
    const int p0 = cd.rowFirstPart[static_cast<size_t>(c.row + r)];
    for (int j = 0; j <= nb && p0 + j < cd.rowFirstPart[static_cast<size_t>(c.row + r) + 1]; ++j)
      cd.parts[static_cast<size_t>(p0 + j)].K.setZero();
    for (int j = 0; j < nb; ++j) {
      const Body& b = model.body(lc.firstBody + j);
      const Vec6 F = w.K(r, j) * b.joint.subspace();
      cd.parts[static_cast<size_t>(p0 + j)].K += F;
      if (b.parent < 0) continue;
      const int onParent = b.parent >= lc.firstBody ? b.parent - lc.firstBody : nb;  // in the group, or its support
      cd.parts[static_cast<size_t>(p0 + onParent)].K -= data.Xup[static_cast<size_t>(lc.firstBody + j)].applyTranspose(F);
    }
  }
  if (!rightHandSides) return;
  const double* qd = data.vSpan.data() + lc.embedded.vSpanIndex;
  set.bias(q, qd, w);
  cd.k.segment(c.row, c.numRows) = w.k;
  if (kv == 0.0) return;
  set.residual(q, w);
  const Eigen::Map<const VecX> rate(qd, nb);
  for (int r = 0; r < c.numRows; ++r) cd.k[c.row + r] -= kv * w.K.row(r).dot(rate) + kp * w.phi[r];
}

}  // namespace

void checkConstraintWorkspace(const Model& model, const ConstraintModel& constraints, const ConstraintData& cd,
                              const char* algorithm) {
  if (constraints.modelId() != model.id())
    throw InputError(std::string(algorithm) + ": the ConstraintModel was made for another model than '" +
                     model.name() + "'");
  if (cd.modelId != model.id() || cd.constraintsVersion != constraints.version() ||
      cd.numRows != constraints.numRows())
    throw InputError(std::string(algorithm) +
                     ": the ConstraintData does not match the ConstraintModel (made for another model, or the "
                     "constraints changed since); make a new ConstraintData(model, constraints)");
}

void gatherConstraintRows(const Model& model, const Data& data, const ConstraintModel& constraints,
                          ConstraintData& cd, bool rightHandSides) {
  if (rightHandSides && constraints.baumgarte() > 0.0 && !cd.hasReference) cd.setReference(model, data, constraints);
  const double T = rightHandSides ? constraints.baumgarte() : 0.0;
  const double kv = T > 0.0 ? 2.0 / T : 0.0, kp = T > 0.0 ? 1.0 / (T * T) : 0.0;
  for (int ci = 0; ci < constraints.size(); ++ci) {
    const Constraint& c = constraints.constraint(ci);
    const auto ic = static_cast<size_t>(ci);
    int part = cd.rowFirstPart[static_cast<size_t>(c.row)];
    if (c.kind == ConstraintKind::Loop) {
      gatherLoopRows(model, data, c, cd, rightHandSides, kv, kp);
      continue;
    }
    if (c.kind == ConstraintKind::Custom) {
      const Transform& placement = model.frame(c.frame).placement;  // ^link X_body
      for (int r = 0; r < c.numRows; ++r, ++part) {
        cd.parts[static_cast<size_t>(part)].K = placement.applyTranspose(c.K.row(r).transpose());
        cd.k[c.row + r] = c.k[r];
      }
      continue;
    }
    const Side A = side(data, c.body, c.bodyPoint, rightHandSides);
    const Side B = c.isRelative() ? side(data, c.body2, c.bodyPoint2, rightHandSides) : Side();
    int row = c.row;
    if (c.hasAngularRows()) {  // ω̇_A − ω̇_B = 0, world axes
      Vec3 error = Vec3::Zero();
      if (T > 0.0)
        error = rotationError(A.R * B.R.transpose() * (cd.refRotation[ic] * cd.refRotation2[ic].transpose()).transpose());
      const Vec3 rate = A.angularVelocity - B.angularVelocity;
      for (int a = 0; a < 3; ++a, ++row) {
        const int p0 = cd.rowFirstPart[static_cast<size_t>(row)];
        cd.parts[static_cast<size_t>(p0)].K << A.R.row(a).transpose(), Vec3::Zero();
        if (B.moving) cd.parts[static_cast<size_t>(p0) + 1].K << -B.R.row(a).transpose(), Vec3::Zero();
        cd.k[row] = -kv * rate[a] - kp * error[a];
      }
    }
    // p̈_A − p̈_B = 0, world axes
    const Vec3 error = T > 0.0 ? Vec3((A.p - B.p) - (cd.refPoint[ic] - cd.refPoint2[ic])) : Vec3::Zero();
    const Vec3 rate = A.pointVelocity - B.pointVelocity;
    const Vec3 biasA = A.R * A.omega.cross(A.vp), biasB = B.R * B.omega.cross(B.vp);
    for (int a = 0; a < 3; ++a, ++row) {
      const int p0 = cd.rowFirstPart[static_cast<size_t>(row)];
      const Vec3 nA = A.R.row(a).transpose();
      cd.parts[static_cast<size_t>(p0)].K << c.bodyPoint.cross(nA), nA;
      if (B.moving) {
        const Vec3 nB = B.R.row(a).transpose();
        cd.parts[static_cast<size_t>(p0) + 1].K << -c.bodyPoint2.cross(nB), -nB;
      }
      cd.k[row] = -(biasA[a] - biasB[a]) - kv * rate[a] - kp * error[a];
    }
  }
  if (!rightHandSides) return;
  const Vec6 a0 = gravityBias(model, data);
  cd.kBiased = cd.k;
  for (const ConstraintData::RowPart& p : cd.parts)
    cd.kBiased[p.row] += p.K.dot(data.Xa[static_cast<size_t>(p.body)].apply(a0));
}

double constraintResidual(const Data& data, ConstraintData& cd) {
  double worst = 0.0;
  for (int r = 0; r < cd.numRows; ++r) {
    double value = -cd.kBiased[r];
    for (int p = cd.rowFirstPart[static_cast<size_t>(r)]; p < cd.rowFirstPart[static_cast<size_t>(r) + 1]; ++p)
      value += cd.parts[static_cast<size_t>(p)].K.dot(data.a[static_cast<size_t>(cd.parts[static_cast<size_t>(p)].body)]);
    worst = std::max(worst, std::abs(value));
  }
  return worst;
}

}  // namespace grbda::detail

namespace grbda {

void ConstraintData::setReference(const Model& model, const Data& data, const ConstraintModel& constraints) {
  (void)model;
  for (int ci = 0; ci < constraints.size(); ++ci) {
    const Constraint& c = constraints.constraint(ci);
    const auto ic = static_cast<size_t>(ci);
    const detail::Side A = detail::side(data, c.body, c.bodyPoint);
    const detail::Side B = c.isRelative() ? detail::side(data, c.body2, c.bodyPoint2) : detail::Side();
    refPoint[ic] = A.p;
    refRotation[ic] = A.R;
    refPoint2[ic] = c.isRelative() ? B.p : Vec3::Zero();
    refRotation2[ic] = B.R;
  }
  hasReference = true;
}

}  // namespace grbda
