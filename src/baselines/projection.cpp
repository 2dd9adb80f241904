#include "grbda/baselines/projection.hpp"

#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "../kernels/checks.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/algorithms/tree.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda {

void projectionMatrices(const Model& model, Data& data, const VecRef& q, const VecRef& v, ProjectionMatrices& out) {
  detail::prepareState(model, data, q, &v, "projectionMatrices");
  const int nc = model.nvSpanning() - model.nv();
  out.G.setZero(model.nvSpanning(), model.nv());
  out.g.setZero(model.nvSpanning());
  out.K.setZero(nc, model.nvSpanning());
  out.k.setZero(nc);
  int row = 0;
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& cl = model.cluster(c);
    const ClusterData& cd = data.work().clusters[static_cast<size_t>(c)];
    out.G.block(cl.vSpanIndex, cl.vIndex, cl.nvSpan, cl.nv) = cd.G;
    out.g.segment(cl.vSpanIndex, cl.nvSpan) = cd.g;
    const int m = cl.nvSpan - cl.nv;
    out.K.block(row, cl.vSpanIndex, m, cl.nvSpan) = cd.K;
    out.k.segment(row, m) = cd.k;
    row += m;
  }
}

namespace {
struct TreeTerms {
  ProjectionMatrices cm;
  MatX H;
  VecX C;
};
TreeTerms treeTerms(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  TreeTerms t;
  projectionMatrices(model, data, q, v, t.cm);
  const VecX qs = data.qSpan, vs = data.vSpan;
  t.H = tree::crba(model, data, qs);
  t.C = tree::nonLinearEffects(model, data, qs, vs);
  return t;
}
}  // namespace

VecX projectionInverseDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd) {
  detail::checkVector(qdd, model.nv(), "qdd", "projectionInverseDynamics");
  ProjectionMatrices cm;
  projectionMatrices(model, data, q, v, cm);
  const VecX qs = data.qSpan, vs = data.vSpan;
  const VecX qddSpan = cm.G * qdd + cm.g;
  return cm.G.transpose() * tree::rnea(model, data, qs, vs, qddSpan);
}

VecX projectionForwardDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau) {
  detail::checkVector(tau, model.nv(), "tau", "projectionForwardDynamics");
  const TreeTerms t = treeTerms(model, data, q, v);
  const MatX A = t.cm.G.transpose() * t.H * t.cm.G;
  const VecX b = tau - t.cm.G.transpose() * (t.C + t.H * t.cm.g);
  Eigen::LLT<MatX> llt(A);
  if (llt.info() != Eigen::Success) throw NumericalError("projectionForwardDynamics: GᵀHG is not positive definite");
  return llt.solve(b);
}

VecX lagrangeForwardDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau) {
  detail::checkVector(tau, model.nv(), "tau", "lagrangeForwardDynamics");
  const TreeTerms t = treeTerms(model, data, q, v);
  // No degree of freedom, nothing to solve (and Eigen's decompositions of an empty matrix crash;
  // found by the random-model test: a program whose only joint is fixed).
  if (model.nv() == 0) return VecX(0);
  // τ_tree = pinv(Gᵀ) τ, then H q̈ = τ_tree − C + Kᵀ λ, K q̈ = k
  const VecX tauTree = t.cm.G.transpose().completeOrthogonalDecomposition().solve(tau);
  const VecX rhs = tauTree - t.C;
  Eigen::LLT<MatX> lltH(t.H);
  if (lltH.info() != Eigen::Success) throw NumericalError("lagrangeForwardDynamics: H_tree is not positive definite");
  if (t.cm.K.rows() == 0) return lltH.solve(rhs);  // a tree: no multipliers
  const MatX HinvKt = lltH.solve(t.cm.K.transpose());
  // K H⁻¹ Kᵀ λ = b, with rows and columns scaled to a unit diagonal first: a rotor of 1e-6 kg
  // beside a link of 1e6 kg makes its diagonal span 1e12, and the rank test of the QR (relative
  // to the largest pivot) would then call independent rows redundant.
  const MatX A = t.cm.K * HinvKt;
  const VecX b = t.cm.k - t.cm.K * lltH.solve(rhs);
  const VecX scale = A.diagonal().unaryExpr([](double a) { return a > 0.0 ? 1.0 / std::sqrt(a) : 1.0; });
  Eigen::ColPivHouseholderQR<MatX> qr(scale.asDiagonal() * A * scale.asDiagonal());
  if (qr.rank() < A.rows())
    throw NumericalError("lagrangeForwardDynamics: K H⁻¹ Kᵀ is singular (redundant constraints)");
  const VecX lambda = scale.cwiseProduct(qr.solve(VecX(scale.cwiseProduct(b))));
  const VecX qddSpan = lltH.solve(rhs + t.cm.K.transpose() * lambda);
  // ÿ = the independent coordinates of q̈ (G has an identity row for each of them)
  VecX ydd(model.nv());
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& cl = model.cluster(c);
    int col = 0;
    for (int r = 0; r < cl.numBodies; ++r) {
      const Body& b = model.body(cl.firstBody + r);
      if (!b.independent) continue;
      for (int j = 0; j < b.joint.nv(); ++j) ydd[cl.vIndex + col++] = qddSpan[b.vIndex + j];
    }
  }
  return ydd;
}

MatX projectionMassMatrix(const Model& model, Data& data, const VecRef& q) {
  const TreeTerms t = treeTerms(model, data, q, VecX::Zero(model.nv()));
  return t.cm.G.transpose() * t.H * t.cm.G;
}

VecX projectionBiasForces(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  const TreeTerms t = treeTerms(model, data, q, v);
  return t.cm.G.transpose() * (t.C + t.H * t.cm.g);
}

}  // namespace grbda
