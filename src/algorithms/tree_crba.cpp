// Composite-rigid-body algorithm on the spanning tree (RBDA Table 6.2; spec §6.4).
#include "grbda/algorithms/tree.hpp"
#include "../kernels/checks.hpp"
#include "../kernels/tree_joint.hpp"
#include "data_workspace.hpp"

namespace grbda::tree {

namespace {
/// F = Ic S for body i; returns the number of columns used (1, 3 or 6).
int compositeForce(const Body& b, const Mat6& Ic, Mat6& F) {
  if (b.joint.hasQuaternion()) {  // S = the first nv columns of 1_6
    F = Ic;
    return b.joint.nv();
  }
  F.col(0) = Ic * b.joint.subspace();
  return 1;
}
/// H block rows of body j: S_j^T F (n columns of F).
void writeBlock(const Body& bj, const Mat6& F, int n, int colStart, MatX& H) {
  if (bj.joint.hasQuaternion()) H.block(bj.vIndex, colStart, bj.joint.nv(), n) = F.topLeftCorner(bj.joint.nv(), n);
  else
    for (int c = 0; c < n; ++c) H(bj.vIndex, colStart + c) = bj.joint.subspace().dot(F.col(c));
}
}  // namespace

const MatX& crba(const Model& model, Data& data, const VecRef& q) {
  DataWorkspace& ws = data.work();
  detail::checkData(model, data, "tree::crba");
  tree::forwardKinematics(model, data, q);
  for (int i = 0; i < model.numBodies(); ++i) ws.Ic[i] = model.body(i).inertia;
  for (int i = model.numBodies() - 1; i >= 0; --i) {
    const Body& b = model.body(i);
    if (b.parent >= 0) ws.Xup[i].addTransformedRigidInertia(ws.Ic[i], ws.Ic[b.parent]);  // composites are rigid
    Mat6 F;
    const int n = compositeForce(b, ws.Ic[i], F);
    writeBlock(b, F, n, b.vIndex, data.HTree);  // H_ii = S_i^T Ic_i S_i
    for (int j = i; model.body(j).parent >= 0;) {
      for (int c = 0; c < n; ++c) F.col(c) = ws.Xup[j].applyTranspose(F.col(c));
      j = model.body(j).parent;
      writeBlock(model.body(j), F, n, b.vIndex, data.HTree);  // H_ji
    }
  }
  // mirror: the loops above filled rows of ancestors j for columns of i (j < i): H(j, i)
  for (Eigen::Index c = 0; c < data.HTree.cols(); ++c)
    for (Eigen::Index r = c + 1; r < data.HTree.rows(); ++r) data.HTree(r, c) = data.HTree(c, r);
  return data.HTree;
}

}  // namespace grbda::tree
