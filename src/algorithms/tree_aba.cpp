// Articulated-body algorithm on the spanning tree (RBDA Table 7.1; spec §6.3 with one body per
// cluster). D_i = S^T IA S is a scalar for 1-DoF joints, IA itself for the free joint and IA's
// top-left 3x3 block for a spherical joint (S = the first three columns of 1_6).
#include <Eigen/Cholesky>
#include <cmath>

#include "grbda/algorithms/tree.hpp"
#include "grbda/errors.hpp"
#include "grbda/spatial/cross.hpp"
#include "../kernels/checks.hpp"
#include "../kernels/tree_joint.hpp"
#include "data_workspace.hpp"

namespace grbda::tree {

namespace {
/// A public entry point must not hand back NaN: a joint whose articulated inertia about its own
/// motion is not positive (nothing with mass moves with it) leaves qdd undetermined.
[[noreturn]] void zeroPivot(const Body& b) {
  throw NumericalError("tree::aba: the articulated inertia about joint '" + b.jointName +
                       "' is not positive definite (the bodies it moves are massless, or the inertias are not "
                       "finite); its acceleration is undetermined");
}
}  // namespace

const VecX& aba(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau,
                const ExternalForces* fext, const VecX* armature) {
  DataWorkspace& ws = data.work();
  detail::checkData(model, data, "tree::aba");
  ++ws.kinematicsVersion;  // Xup, Xa, v, c now hold the spanning tree's state
  const bool hasFext = fext && !fext->empty();
  const int nb = model.numBodies();
  for (int i = 0; i < nb; ++i) {  // outward pass 1: kinematics, IA = I, pA = v ×* I v
    const Body& b = model.body(i);
    const Transform& X = ws.Xup[i] = b.joint.transformAfter(q.data() + b.qIndex, b.Xtree);
    const Vec6 vJ = detail::jointVelocity(b, v);
    if (b.parent < 0) {
      data.Xa[i] = X;
      data.v[i] = vJ;
    } else {
      data.Xa[i] = X * data.Xa[b.parent];
      data.v[i] = X.apply(data.v[b.parent]) + vJ;
    }
    ws.c[i] = crossMotion(data.v[i], vJ);
    ws.IA[i] = b.inertia;
    ws.pA[i] = crossForce(data.v[i], b.inertia * data.v[i]);
    if (hasFext) ws.pA[i] -= data.Xa[i].applyForce((*fext)[i]);
  }
  for (int i = nb - 1; i >= 0; --i) {  // inward pass: articulated inertias and bias forces
    const Body& b = model.body(i);
    const Mat6& IA = ws.IA[i];
    const Vec6& pA = ws.pA[i];
    Mat6 Ia;
    Vec6 pa;
    if (b.joint.type == JointType::Free) {
      // S = 1: D = IA; U = IA; u = tau - pA. The parent is the ground, nothing to pass on.
      Eigen::LLT<Mat6> llt(IA);
      if (llt.info() != Eigen::Success) zeroPivot(b);
      ws.treeAba.Dinv[i] = llt.solve(Mat6::Identity());
      ws.treeAba.u[i] = tau.segment<6>(b.vIndex) - pA;
      continue;
    }
    if (b.joint.type == JointType::Spherical) {
      // S = [1_3; 0]: U = IA S, D = Sᵀ IA S, u = τ − Sᵀ pA (RBDA Table 7.1 with a 3-column S)
      const Eigen::Matrix<double, 6, 3> U = IA.leftCols<3>();
      Mat3 D = IA.topLeftCorner<3, 3>();
      if (armature) D.diagonal() += armature->segment<3>(b.vIndex);
      Eigen::LLT<Mat3> llt(D);
      if (llt.info() != Eigen::Success) zeroPivot(b);
      const Mat3 Dinv = llt.solve(Mat3::Identity());
      const Vec3 u = tau.segment<3>(b.vIndex) - pA.head<3>();
      ws.treeAba.U[i].leftCols<3>() = U;
      ws.treeAba.Dinv[i].topLeftCorner<3, 3>() = Dinv;
      ws.treeAba.u[i].head<3>() = u;
      if (b.parent < 0) continue;
      Ia.noalias() = IA - U * Dinv * U.transpose();
      pa = pA + Ia * ws.c[i] + U * (Dinv * u);
      ws.Xup[i].addTransformedInertia(Ia, ws.IA[b.parent]);
      ws.pA[b.parent] += ws.Xup[i].applyTranspose(pa);
      continue;
    }
    const Vec6 S = b.joint.subspace();
    Vec6 U = IA * S;
    double D = S.dot(U);
    if (armature) D += (*armature)[b.vIndex];
    if (!(D > 0.0) || !std::isfinite(1.0 / D)) zeroPivot(b);
    const double Dinv = 1.0 / D;
    const double u = tau[b.vIndex] - S.dot(pA);
    ws.treeAba.U[i].col(0) = U;
    ws.treeAba.Dinv[i](0, 0) = Dinv;
    ws.treeAba.u[i][0] = u;
    if (b.parent < 0) continue;
    Ia.noalias() = IA - (Dinv * U) * U.transpose();
    pa = pA + Ia * ws.c[i] + (u * Dinv) * U;
    ws.Xup[i].addTransformedInertia(Ia, ws.IA[b.parent]);
    ws.pA[b.parent] += ws.Xup[i].applyTranspose(pa);
  }
  const Vec6 a0 = detail::gravityBias(model, data);
  for (int i = 0; i < nb; ++i) {  // outward pass 2: accelerations
    const Body& b = model.body(i);
    const Vec6 aParent = b.parent < 0 ? a0 : data.a[b.parent];
    const Vec6 ap = ws.Xup[i].apply(aParent) + ws.c[i];
    if (b.joint.type == JointType::Free) {
      const Vec6 qdd = ws.treeAba.Dinv[i] * (ws.treeAba.u[i] - ws.IA[i] * ap);
      data.qddTree.segment<6>(b.vIndex) = qdd;
      data.a[i] = ap + qdd;
    } else if (b.joint.type == JointType::Spherical) {
      const Vec3 qdd = ws.treeAba.Dinv[i].topLeftCorner<3, 3>() *
                       (ws.treeAba.u[i].head<3>() - ws.treeAba.U[i].leftCols<3>().transpose() * ap);
      data.qddTree.segment<3>(b.vIndex) = qdd;
      data.a[i] = ap;
      data.a[i].head<3>() += qdd;
    } else {
      const double qdd = ws.treeAba.Dinv[i](0, 0) * (ws.treeAba.u[i][0] - ws.treeAba.U[i].col(0).dot(ap));
      data.qddTree[b.vIndex] = qdd;
      data.a[i] = ap + b.joint.subspace() * qdd;
    }
  }
  return data.qddTree;
}

}  // namespace grbda::tree
