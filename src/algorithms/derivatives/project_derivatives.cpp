// From spanning-tree to cluster derivatives through the block-diagonal G (spec §2.3), whose
// blocks are tiny (a rotor pair: G = [1; N]):
//   ∂τ/∂y = Gᵀ (A G + B ∂(G ẏ)/∂y + H ∂(G ÿ + g)/∂y) + ∂Gᵀ/∂y τ_s
//   ∂τ/∂ẏ = Gᵀ (B G + H ∂g/∂ẏ)
//   ℳ     = Gᵀ H G
// with A = ∂τ_s/∂q_s, B = ∂τ_s/∂q̇_s, H = H_s. Each product with G is a few column (then row)
// combinations per cluster; the ∂/∂y terms of G and g exist only for clusters whose G varies.
#include "derivatives_internal.hpp"
#include "../../cluster/cluster_joint.hpp"
#include "data_workspace.hpp"

#include <algorithm>

namespace grbda::detail {

/// T = X Ĝ: per cluster, its columns of T are combinations of its spanning columns of X. Raw
/// column-major loops: the blocks of Ĝ are tiny (1 or [1; N]) and Eigen's per-expression set-up
/// cost more than the arithmetic.
void timesG(const Model& model, const Data& data, const MatX& X, MatX& T) {
  const Eigen::Index ld = X.rows();
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& C = model.cluster(c);
    const double* x = X.data() + C.vSpanIndex * ld;
    double* t = T.data() + C.vIndex * T.rows();
    if (C.nvSpan == C.nv) {  // no constraints (free, revolute): G = 1
      std::copy(x, x + C.nv * ld, t);
      continue;
    }
    const MatX& G = data.work().clusters[static_cast<size_t>(c)].G;
    for (int b = 0; b < C.nv; ++b, t += T.rows()) {
      const double* g = G.col(b).data();
      for (Eigen::Index r = 0; r < ld; ++r) t[r] = g[0] * x[r];
      for (int j = 1; j < C.nvSpan; ++j)
        if (g[j] != 0.0)
          for (Eigen::Index r = 0; r < ld; ++r) t[r] += g[j] * x[j * ld + r];
    }
  }
}

namespace {

/// out = Ĝᵀ T for the first `cols` columns (T: nvSpanning rows, out: nv rows; leading
/// dimensions ldt, ldo): per cluster, its rows of out combine its spanning rows of T.
void transposeGTimes(const Model& model, const Data& data, const double* T, Eigen::Index ldt, Eigen::Index cols,
                     double* out, Eigen::Index ldo) {
  for (int r = 0; r < model.numClusters(); ++r) {
    const Cluster& R = model.cluster(r);
    const double* t = T + R.vSpanIndex;
    double* o = out + R.vIndex;
    if (R.nvSpan == R.nv) {
      for (Eigen::Index col = 0; col < cols; ++col)
        for (int a = 0; a < R.nv; ++a) o[col * ldo + a] = t[col * ldt + a];
      continue;
    }
    const MatX& G = data.work().clusters[static_cast<size_t>(r)].G;
    for (int a = 0; a < R.nv; ++a) {
      const double* g = G.col(a).data();
      for (Eigen::Index col = 0; col < cols; ++col) {
        const double* tc = t + col * ldt;
        double sum = g[0] * tc[0];
        for (int i = 1; i < R.nvSpan; ++i) sum += g[i] * tc[i];
        o[col * ldo + a] = sum;
      }
    }
  }
}

void transposeGTimes(const Model& model, const Data& data, const MatX& T, MatX& out) {
  transposeGTimes(model, data, T.data(), T.rows(), T.cols(), out.data(), out.rows());
}

}  // namespace

void projectDerivatives(const Model& model, Data& data) {
  DataWorkspace& ws = data.work();
  DerivativesData& d = data.derivatives;
  MatX& T = d.scratch;  // nvSpanning x nv
  transposeGTimes(model, data, d.tauSpan.data(), d.tauSpan.size(), 1, d.tau.data(), d.tau.size());
  // ∂τ/∂y
  timesG(model, data, d.dtauSpan_dq, T);
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& C = model.cluster(c);
    if (C.joint->constraints().isStatic()) continue;
    const ClusterDerivativesData& w = ws.derivativeClusters[static_cast<size_t>(c)];
    T.middleCols(C.vIndex, C.nv).noalias() += d.dtauSpan_dv.middleCols(C.vSpanIndex, C.nvSpan) * w.dGyd;
    T.middleCols(C.vIndex, C.nv).noalias() += d.HSpan.middleCols(C.vSpanIndex, C.nvSpan) * w.dAcc;
  }
  transposeGTimes(model, data, T, d.dtau_dq);
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& C = model.cluster(c);
    if (C.joint->constraints().isStatic()) continue;
    const ClusterDerivativesData& w = ws.derivativeClusters[static_cast<size_t>(c)];
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
        d.HSpan.middleCols(C.vSpanIndex, C.nvSpan) * ws.derivativeClusters[static_cast<size_t>(c)].dgdv;
  }
  transposeGTimes(model, data, T, d.dtau_dv);
  // ℳ
  timesG(model, data, d.HSpan, T);
  transposeGTimes(model, data, T, d.M);
}

}  // namespace grbda::detail
