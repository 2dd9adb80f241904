#pragma once
// Test support: the dense reference of the contact tests — the rows' Jacobian J (m x nv) built
// from frameJacobian (world axes; a weld's angular rows first, as the ConstraintModel orders
// them), H and C from massMatrix / biasForces, and a contact's force as a world wrench. Nothing
// here uses the row gatherer or the articulated pass the algorithms under test run on.
#include "grbda/algorithms/contact_inverse_dynamics.hpp"
#include "grbda/algorithms/impulse_dynamics.hpp"
#include "grbda/algorithms/regressor.hpp"
#include "grbda/grbda.hpp"
#include "support/compare.hpp"

namespace grbda::testsupport {

/// J with J v = the rows' velocities (point contacts and welds only).
inline MatX denseRowJacobian(const Model& model, const ConstraintModel& cm, const VecX& q, const VecX& v) {
  Data d(model);
  forwardKinematics(model, d, q, v);
  MatX J = MatX::Zero(cm.numRows(), model.nv());
  Mat6X Jf;
  for (const Constraint& c : cm.constraints()) {
    if (c.kind != ConstraintKind::PointContact && c.kind != ConstraintKind::Weld) continue;
    frameJacobian(model, d, c.frame, c.point, ReferenceFrame::LocalWorldAligned, Jf);
    if (c.kind == ConstraintKind::Weld) J.middleRows(c.row, 6) = Jf;
    else J.middleRows(c.row, 3) = Jf.bottomRows<3>();
  }
  return J;
}

/// λ as world wrenches per body (moment about the world origin, force) for forwardDynamics's fext.
inline ExternalForces worldForces(const Model& model, const ConstraintModel& cm, const VecX& q, const VecX& lambda) {
  Data d(model);
  forwardKinematics(model, d, q);
  ExternalForces f(static_cast<size_t>(model.numBodies()), Vec6::Zero());
  for (const Constraint& c : cm.constraints()) {
    const Vec3 p = framePosition(model, d, c.frame, c.point);
    const bool weld = c.kind == ConstraintKind::Weld;
    const Vec3 force = lambda.segment<3>(c.row + (weld ? 3 : 0));
    Vec6 w;
    w << p.cross(force) + (weld ? Vec3(lambda.segment<3>(c.row)) : Vec3::Zero()), force;
    f[static_cast<size_t>(c.body)] += w;
  }
  return f;
}

inline double relDiff(const VecX& a, const VecX& b) { return maxAbs(a - b) / (1.0 + maxAbs(b)); }

}  // namespace grbda::testsupport
