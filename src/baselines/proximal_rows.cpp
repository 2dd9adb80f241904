// Constraint rows K q̈ = k for the proximal solver. Cluster rows are the ones the cluster joints
// computed during prepareState (the workspace's clusters[c].K, k; cluster-local columns). Unreduced loop
// rows are stated the way Pinocchio states a loop (spec §7.2): the two loop frames' points must
// have equal classical accelerations (K = J_pred − J_succ, k = −(bias_pred − bias_succ) with
// q̈ = 0), plus, for LoopFull, the relative angular acceleration normal to a revolute axis (all
// of it for a fixed loop, along axis × axis2 for a universal one, none for a ball). Columns are
// filled for the cluster's coordinates only: the columns of the bodies above the loop are
// identical for the two coincident points and cancel.
#include "../kernels/tree_joint.hpp"
#include "../kernels/constraint_rows.hpp"
#include "proximal_internal.hpp"
#include "grbda/spatial/cross.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

namespace {

/// One loop frame at the current state, world coordinates.
struct LoopSide {
  Vec3 p = Vec3::Zero();               ///< origin
  Mat3 R = Mat3::Identity();           ///< frame -> world rotation
  Vec3 w = Vec3::Zero();               ///< angular velocity of its body
  Vec3 pointBias = Vec3::Zero();       ///< classical acceleration of p with q̈ = 0
  Vec3 angularBias = Vec3::Zero();     ///< angular acceleration with q̈ = 0
};

LoopSide loopSide(const Data& data, const ProximalData& pd, int body, const Transform& placement) {
  LoopSide s;
  if (body < 0) {  // attached to the ground: fixed point
    s.p = placement.r;
    s.R = placement.E.transpose();
    return s;
  }
  const Transform& Xa = data.Xa[static_cast<size_t>(body)];
  const Transform F = placement * Xa;  // world -> loop frame
  s.p = F.r;
  s.R = F.E.transpose();
  const Vec6 v0 = Xa.applyInverse(data.v[static_cast<size_t>(body)]);
  const Vec6 a0 = Xa.applyInverse(pd.biasAcceleration[static_cast<size_t>(body)]);
  s.w = v0.head<3>();
  const Vec3 vp = v0.tail<3>() + s.w.cross(s.p);
  s.pointBias = a0.tail<3>() + a0.head<3>().cross(s.p) + s.w.cross(vp);
  s.angularBias = a0.head<3>();
  return s;
}

/// Adds sign × (point rows; normal rows of the angular velocity) of the chain from `body` up to
/// the cluster's first body into K rows [row, row + 3 + numNormals).
void addColumns(const Model& model, const Data& data, const Cluster& cl, int body, const Vec3& p, const Vec3* normals,
                int numNormals, double sign, int row, MatX& K) {
  for (int j = body; j >= cl.firstBody; j = model.body(j).parent) {
    const Body& b = model.body(j);  // 1-DoF: free joints never belong to constrained clusters
    const Vec6 s0 = worldSubspaceColumn(b, data.Xa[static_cast<size_t>(j)], 0);
    const Vec3 linear = s0.tail<3>() + s0.head<3>().cross(p);
    for (int a = 0; a < 3; ++a) K(row + a, b.vIndex) += sign * linear[a];
    for (int n = 0; n < numNormals; ++n) K(row + 3 + n, b.vIndex) += sign * normals[n].dot(s0.head<3>());
  }
}

void loopRows(const Model& model, const Data& data, ProximalData& pd, int l) {
  const LoopFrames& loop = model.loops()[static_cast<size_t>(l)];
  const Cluster& cl = model.cluster(loop.cluster);
  const int row = pd.loopFirstRow[static_cast<size_t>(l)], n = pd.loopNumRows[static_cast<size_t>(l)];
  const LoopSide P = loopSide(data, pd, loop.predecessorBody, loop.predecessorPlacement);
  const LoopSide S = loopSide(data, pd, loop.successorBody, loop.successorPlacement);
  Vec3 normals[3];      // world directions n of the constrained relative angular accelerations
  Vec3 normalRates[3];  // their rates ṅ, for k
  const int numNormals = n - 3;
  if (loop.type == LoopKind::Universal && numNormals == 1) {
    // (R_P a)·(R_S a2) = 0 differentiates to (N × W)·(ω_P − ω_S) = 0
    const Vec3 N = P.R * loop.axis, W = S.R * loop.axis2;
    normals[0] = N.cross(W);
    normalRates[0] = P.w.cross(N).cross(W) + N.cross(S.w.cross(W));
  } else if (numNormals == 2) {  // revolute: the normals turn with the predecessor
    const Vec3 n1 = loop.axis.unitOrthogonal();
    normals[0] = P.R * n1;
    normals[1] = P.R * loop.axis.cross(n1);
    for (int a = 0; a < 2; ++a) normalRates[a] = P.w.cross(normals[a]);
  } else if (numNormals == 3) {  // fixed: constant world axes
    normals[0] = Vec3::UnitX(), normals[1] = Vec3::UnitY(), normals[2] = Vec3::UnitZ();
    for (Vec3& r : normalRates) r.setZero();
  }
  pd.K.block(row, cl.vSpanIndex, n, cl.nvSpan).setZero();
  addColumns(model, data, cl, loop.predecessorBody, P.p, normals, numNormals, 1.0, row, pd.K);
  addColumns(model, data, cl, loop.successorBody, S.p, normals, numNormals, -1.0, row, pd.K);
  pd.k.segment<3>(row) = -(P.pointBias - S.pointBias);
  const Vec3 dw = P.w - S.w, dalpha = P.angularBias - S.angularBias;
  for (int a = 0; a < numNormals; ++a)  // d/dt [n·(ω_P − ω_S)] = ṅ·dω + n·dα = 0
    pd.k[row + 3 + a] = -(normals[a].dot(dalpha) + normalRates[a].dot(dw));
}

/// The ConstraintModel's rows in spanning coordinates. The constraint layer states row r as
/// Σ_parts K · a_b = k_r (K a force on body b's spatial acceleration, body coordinates); with
/// a_b = Σ_j ^bX_j S_j q̈_j + a_b(q̈ = 0) over the joints j supporting b, the row of J is
/// (^bX_0ᵀ K) · (^0X_j S_j) — K as a world force once, each column a world motion — and the
/// right side k_r − Σ K · a_b(q̈ = 0).
void constraintModelRows(const Model& model, const Data& data, ProximalData& pd) {
  ConstraintData& cd = *pd.constraintData;
  gatherConstraintRows(model, data, *pd.constraints, cd);
  const int r0 = pd.firstConstraintRow;
  pd.K.bottomRows(cd.work().numRows).setZero();
  pd.k.tail(cd.work().numRows) = cd.work().k;
  for (const ConstraintWorkspace::RowPart& p : cd.work().parts) {
    const auto b = static_cast<size_t>(p.body);
    pd.k[r0 + p.row] -= p.K.dot(pd.biasAcceleration[b]);
    const Vec6 Kworld = data.Xa[b].applyTranspose(p.K);
    for (int j = p.body; j >= 0; j = model.body(j).parent) {
      const Body& body = model.body(j);
      for (int c = 0; c < body.joint.nv(); ++c)
        pd.K(r0 + p.row, body.vIndex + c) += Kworld.dot(worldSubspaceColumn(body, data.Xa[static_cast<size_t>(j)], c));
    }
  }
  for (int r = r0; r < pd.numRows; ++r) pd.rowNormSq[r] = pd.K.row(r).squaredNorm();
}

}  // namespace

void gatherConstraintRows(const Model& model, const Data& data, ProximalData& pd) {
  const DataWorkspace& ws = data.work();
  if ((pd.rows != ProximalConstraintRows::Cluster && !model.loops().empty()) || pd.constraints)
    for (int i = 0; i < model.numBodies(); ++i) {  // a_i(q̈ = 0) = X_i a_λ(i) + v_i × vJ_i, no gravity
      const int parent = model.body(i).parent;
      const Vec6& c = ws.c[static_cast<size_t>(i)];
      pd.biasAcceleration[static_cast<size_t>(i)] =
          parent < 0 ? c : Vec6(ws.Xup[static_cast<size_t>(i)].apply(pd.biasAcceleration[static_cast<size_t>(parent)]) + c);
    }
  for (int r = 0; r < pd.numRows; ++r) {
    const ProximalData::RowSource& src = pd.rowSource[static_cast<size_t>(r)];
    if (src.clusterRow < 0) continue;
    const Cluster& cl = model.cluster(src.cluster);
    const ClusterData& cd = ws.clusters[static_cast<size_t>(src.cluster)];
    for (int j = 0; j < cl.nvSpan; ++j) pd.K(r, cl.vSpanIndex + j) = cd.K(src.clusterRow, j);
    pd.k[r] = cd.k[src.clusterRow];
  }
  for (size_t l = 0; l < pd.loopFirstRow.size(); ++l)
    if (pd.loopNumRows[l] > 0) loopRows(model, data, pd, static_cast<int>(l));
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& cl = model.cluster(c);
    for (int r = pd.clusterRowStart[static_cast<size_t>(c)]; r < pd.clusterRowStart[static_cast<size_t>(c) + 1]; ++r)
      pd.rowNormSq[r] = pd.K.row(r).segment(cl.vSpanIndex, cl.nvSpan).squaredNorm();
  }
  if (pd.constraints) constraintModelRows(model, data, pd);
}

}  // namespace grbda::detail
