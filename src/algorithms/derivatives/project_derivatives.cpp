// From spanning-tree to cluster derivatives through the block-diagonal G (spec §2.3), whose
// blocks are tiny (a rotor pair: G = [1; N]):
//   ∂τ/∂y = Gᵀ (A G + B ∂(G ẏ)/∂y + H ∂(G ÿ + g)/∂y) + ∂Gᵀ/∂y τ_s
//   ∂τ/∂ẏ = Gᵀ (B G + H ∂g/∂ẏ)
//   ℳ     = Gᵀ H G
// with A = ∂τ_s/∂q_s, B = ∂τ_s/∂q̇_s, H = H_s. Each product with G is a few column (then row)
// combinations per cluster; the ∂/∂y terms of G and g exist only for clusters whose G varies.
#include "derivatives_internal.hpp"
#include "../../cluster/cluster_joint.hpp"

namespace grbda::detail {

/// T = X Ĝ: per cluster, its columns of T are combinations of its spanning columns of X.
void timesG(const Model& model, const Data& data, const MatX& X, MatX& T) {
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& C = model.cluster(c);
    if (C.nvSpan == C.nv) {  // no constraints (free, revolute): G = 1
      T.middleCols(C.vIndex, C.nv) = X.middleCols(C.vSpanIndex, C.nvSpan);
      continue;
    }
    const MatX& G = data.clusters[static_cast<size_t>(c)].G;
    for (int b = 0; b < C.nv; ++b) {
      auto t = T.col(C.vIndex + b);
      t = G(0, b) * X.col(C.vSpanIndex);
      for (int j = 1; j < C.nvSpan; ++j) t += G(j, b) * X.col(C.vSpanIndex + j);
    }
  }
}

namespace {

/// out = Ĝᵀ T: per cluster, its rows of out are combinations of its spanning rows of T.
void transposeGTimes(const Model& model, const Data& data, const MatX& T, MatX& out) {
  for (int r = 0; r < model.numClusters(); ++r) {
    const Cluster& R = model.cluster(r);
    if (R.nvSpan == R.nv) {
      out.middleRows(R.vIndex, R.nv) = T.middleRows(R.vSpanIndex, R.nvSpan);
      continue;
    }
    const MatX& G = data.clusters[static_cast<size_t>(r)].G;
    for (int a = 0; a < R.nv; ++a) {
      auto o = out.row(R.vIndex + a);
      o = G(0, a) * T.row(R.vSpanIndex);
      for (int i = 1; i < R.nvSpan; ++i) o += G(i, a) * T.row(R.vSpanIndex + i);
    }
  }
}

}  // namespace

void projectDerivatives(const Model& model, Data& data) {
  DerivativesData& d = data.derivatives;
  MatX& T = d.scratch;  // nvSpanning x nv
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& C = model.cluster(c);
    d.tau.segment(C.vIndex, C.nv).noalias() =
        data.clusters[static_cast<size_t>(c)].G.transpose() * d.tauSpan.segment(C.vSpanIndex, C.nvSpan);
  }
  // ∂τ/∂y
  timesG(model, data, d.dtauSpan_dq, T);
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& C = model.cluster(c);
    if (C.joint->constraints().isStatic()) continue;
    const ClusterDerivativesData& w = d.clusters[static_cast<size_t>(c)];
    T.middleCols(C.vIndex, C.nv).noalias() += d.dtauSpan_dv.middleCols(C.vSpanIndex, C.nvSpan) * w.dGyd;
    T.middleCols(C.vIndex, C.nv).noalias() += d.HSpan.middleCols(C.vSpanIndex, C.nvSpan) * w.dAcc;
  }
  transposeGTimes(model, data, T, d.dtau_dq);
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& C = model.cluster(c);
    if (C.joint->constraints().isStatic()) continue;
    const ClusterDerivativesData& w = d.clusters[static_cast<size_t>(c)];
    const auto tauS = d.tauSpan.segment(C.vSpanIndex, C.nvSpan);
    for (int j = 0; j < C.nv; ++j)  // column j of ∂Gᵀ/∂y τ_s: (∂G/∂y_j)ᵀ τ_s
      d.dtau_dq.block(C.vIndex, C.vIndex + j, C.nv, 1).noalias() += w.dG.middleCols(j * C.nv, C.nv).transpose() * tauS;
  }
  // ∂τ/∂ẏ
  timesG(model, data, d.dtauSpan_dv, T);
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& C = model.cluster(c);
    if (C.joint->constraints().isStatic()) continue;
    T.middleCols(C.vIndex, C.nv).noalias() +=
        d.HSpan.middleCols(C.vSpanIndex, C.nvSpan) * d.clusters[static_cast<size_t>(c)].dgdv;
  }
  transposeGTimes(model, data, T, d.dtau_dv);
  // ℳ
  timesG(model, data, d.HSpan, T);
  transposeGTimes(model, data, T, d.M);
}

}  // namespace grbda::detail
