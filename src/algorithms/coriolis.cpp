// Coriolis matrix, gravity vector, static torque (algorithms/coriolis.hpp).
//
// Spanning tree, world axes at the world origin (every body's I_i, v_i, the columns s_a): with
// F1_c = IC_i ṡ_c + BC_i s_c, F2_c = IC_i s_c, F3_c = BC_iᵀ s_c for column c of body i (IC, BC
// summed over i's subtree),
//   a ⪯ c (a's body supports i, or is i):  C_s(a, c) = s_aᵀ F1_c,   H_s(a, c) = s_aᵀ F2_c
//   a ≺ c strictly, the transposed pair:    C_s(c, a) = ṡ_aᵀ F2_c + s_aᵀ F3_c
// since C_s(a, b) = Σ_{i ⪰ a, b} s_aᵀ (I_i ṡ_b + B_i s_b) and IC is symmetric. B + Bᵀ = İ gives
// C_s + C_sᵀ = Ḣ_s; B v = v ×* I v gives C_s v = the velocity-product forces.
#include "grbda/algorithms/coriolis.hpp"

#include "../cluster/cluster_joint.hpp"
#include "../kernels/checks.hpp"
#include "../kernels/cluster_algorithms.hpp"
#include "cluster_gdot.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/spatial/cross.hpp"
#include "data_workspace.hpp"

namespace grbda {

namespace {

/// f̄ with f̄ u = u ×* f, for f = [n; f_l]: [−n×, −f_l×; −f_l×, 0].
Mat6 forceBar(const Vec6& f) {
  Mat6 M = Mat6::Zero();
  M.topLeftCorner<3, 3>() = -skew(f.head<3>());
  M.topRightCorner<3, 3>() = -skew(f.tail<3>());
  M.bottomLeftCorner<3, 3>() = -skew(f.tail<3>());
  return M;
}

/// Outward: world columns s, ṡ = v_i × s, world inertia and B per body.
void spanningOutward(const Model& model, Data& data) {
  CoriolisScratch& co = data.work().coriolis;
  for (int i = 0; i < model.numBodies(); ++i) {
    const Body& b = model.body(i);
    const Transform& X = data.Xa[static_cast<size_t>(i)];
    const Vec6 vw = X.applyInverse(data.v[static_cast<size_t>(i)]);
    for (int c = 0; c < b.joint.nv(); ++c) {
      const Vec6 s = X.applyInverse(b.joint.subspaceColumn(c));
      co.S.col(b.vIndex + c) = s;
      co.dS.col(b.vIndex + c) = crossMotion(vw, s);
    }
    Mat6& I = co.IC[static_cast<size_t>(i)];
    I.setZero();
    X.addTransformedRigidInertia(b.inertia, I);
    Mat6& B = co.BC[static_cast<size_t>(i)];
    B.noalias() = crfMatrix(vw) * I;
    B.noalias() -= I * crmMatrix(vw);
    B += forceBar(I * vw);
    B *= 0.5;
  }
}

/// Inward: composites and the (row, column) pairs of C_s and H_s.
void spanningInward(const Model& model, Data& data) {
  CoriolisScratch& co = data.work().coriolis;
  for (int i = model.numBodies() - 1; i >= 0; --i) {
    const Body& b = model.body(i);
    const Mat6 &IC = co.IC[static_cast<size_t>(i)], &BC = co.BC[static_cast<size_t>(i)];
    for (int c = b.vIndex; c < b.vIndex + b.joint.nv(); ++c) {
      const Vec6 s = co.S.col(c);
      Vec6 F1 = IC * co.dS.col(c);
      F1.noalias() += BC * s;
      const Vec6 F2 = IC * s;
      const Vec6 F3 = BC.transpose() * s;
      for (int j = i; j >= 0; j = model.body(j).parent) {
        const Body& bj = model.body(j);
        for (int a = bj.vIndex; a < bj.vIndex + bj.joint.nv(); ++a) {
          co.Cs(a, c) = co.S.col(a).dot(F1);
          co.Hs(a, c) = co.Hs(c, a) = co.S.col(a).dot(F2);
          if (j != i) co.Cs(c, a) = co.dS.col(a).dot(F2) + co.S.col(a).dot(F3);
        }
      }
    }
    if (b.parent >= 0) {
      co.IC[static_cast<size_t>(b.parent)] += IC;
      co.BC[static_cast<size_t>(b.parent)] += BC;
    }
  }
}

}  // namespace

const MatX& coriolisMatrix(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  DataWorkspace& ws = data.work();
  detail::prepareState(model, data, q, &v, "coriolisMatrix");
  spanningOutward(model, data);
  spanningInward(model, data);
  detail::clusterGdot(model, data);
  CoriolisScratch& co = ws.coriolis;
  // W = C_s Ĝ + H_s Ĝ̇, then C = Ĝᵀ W, cluster block by cluster block
  for (int l = 0; l < model.numClusters(); ++l) {
    const Cluster& cl = model.cluster(l);
    auto W = co.W.middleCols(cl.vIndex, cl.nv);
    W.noalias() = co.Cs.middleCols(cl.vSpanIndex, cl.nvSpan) * ws.clusters[static_cast<size_t>(l)].G;
    if (!cl.joint->constraints().isStatic())
      W.noalias() += co.Hs.middleCols(cl.vSpanIndex, cl.nvSpan) * co.Gdot[static_cast<size_t>(l)];
  }
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    data.coriolis.C.middleRows(cl.vIndex, cl.nv).noalias() =
        ws.clusters[static_cast<size_t>(k)].G.transpose() * co.W.middleRows(cl.vSpanIndex, cl.nvSpan);
  }
  if (!data.coriolis.C.allFinite()) throw NumericalError("coriolisMatrix: C is not finite (singular configuration)");
  return data.coriolis.C;
}

const VecX& gravityVector(const Model& model, Data& data, const VecRef& q) {
  DataWorkspace& ws = data.work();
  const VecRef atRest(ws.zeroV);
  detail::prepareState(model, data, q, &atRest, "gravityVector");
  detail::clusterRnea(model, data, ws.zeroV, nullptr);
  data.coriolis.g = data.tau;
  return data.coriolis.g;
}

const VecX& staticTorque(const Model& model, Data& data, const VecRef& q, const ExternalForces& fext) {
  DataWorkspace& ws = data.work();
  detail::checkExternalForces(model, &fext, "staticTorque");
  const VecRef atRest(ws.zeroV);
  detail::prepareState(model, data, q, &atRest, "staticTorque");
  detail::clusterRnea(model, data, ws.zeroV, &fext);
  data.coriolis.staticTau = data.tau;
  return data.coriolis.staticTau;
}

}  // namespace grbda
