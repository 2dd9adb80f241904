// From spanning-tree to cluster derivatives, one (row cluster r, column cluster c) block at a
// time; G is block-diagonal with tiny blocks, and blocks of unrelated clusters are zero:
//   ∂τ/∂y [r, c] = G_rᵀ (A_rc G_c + B_rc ∂(G ẏ)/∂y_c + H_rc ∂(G ÿ + g)/∂y_c) (+ ∂G_cᵀ/∂y τ_s,c if r = c)
//   ∂τ/∂ẏ [r, c] = G_rᵀ (B_rc G_c + H_rc ∂g/∂ẏ_c)
//   ℳ     [r, c] = G_rᵀ H_rc G_c
// with A = ∂τ_s/∂q_s, B = ∂τ_s/∂q̇_s, H = H_s.
#include "derivatives_internal.hpp"
#include "../../cluster/cluster_joint.hpp"

namespace grbda::detail {

namespace {

/// T = X G_c; a cluster without constraints (free, revolute) has G = 1.
template <class X, class Out>
void timesG(const X& x, const Cluster& C, const MatX& G, Out&& T) {
  if (C.nvSpan == C.nv) T = x;
  else T.noalias() = x.lazyProduct(G);
}

/// out = G_rᵀ T.
template <class T, class Out>
void transposeGTimes(const Cluster& R, const MatX& G, const T& t, Out&& out) {
  if (R.nvSpan == R.nv) out = t;
  else out.noalias() = G.transpose().lazyProduct(t);
}

void block(const Model& model, Data& data, int r, int c) {
  DerivativesData& d = data.derivatives;
  const Cluster &R = model.cluster(r), &C = model.cluster(c);
  const MatX &Gr = data.clusters[static_cast<size_t>(r)].G, &Gc = data.clusters[static_cast<size_t>(c)].G;
  const int rs = R.vSpanIndex, nr = R.nvSpan, cs = C.vSpanIndex, nc = C.nvSpan;
  const auto A = d.dtauSpan_dq.block(rs, cs, nr, nc);
  const auto B = d.dtauSpan_dv.block(rs, cs, nr, nc);
  const auto H = d.HSpan.block(rs, cs, nr, nc);
  auto T = d.scratch.topLeftCorner(nr, C.nv);
  const bool varying = !C.joint->constraints().isStatic();
  const ClusterDerivativesData* w = varying ? &d.clusters[static_cast<size_t>(c)] : nullptr;

  timesG(A, C, Gc, T);
  if (varying) {
    T.noalias() += B.lazyProduct(w->dGyd);
    T.noalias() += H.lazyProduct(w->dAcc);
  }
  auto dq = d.dtau_dq.block(R.vIndex, C.vIndex, R.nv, C.nv);
  transposeGTimes(R, Gr, T, dq);
  if (varying && r == c) {
    const auto tauS = d.tauSpan.segment(cs, nc);
    for (int j = 0; j < C.nv; ++j) dq.col(j).noalias() += w->dG.middleCols(j * C.nv, C.nv).transpose() * tauS;
  }

  timesG(B, C, Gc, T);
  if (varying) T.noalias() += H.lazyProduct(w->dgdv);
  transposeGTimes(R, Gr, T, d.dtau_dv.block(R.vIndex, C.vIndex, R.nv, C.nv));

  timesG(H, C, Gc, T);
  transposeGTimes(R, Gr, T, d.M.block(R.vIndex, C.vIndex, R.nv, C.nv));
}

}  // namespace

void projectDerivatives(const Model& model, Data& data) {
  DerivativesData& d = data.derivatives;
  d.dtau_dq.setZero();
  d.dtau_dv.setZero();
  d.M.setZero();
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& C = model.cluster(c);
    d.tau.segment(C.vIndex, C.nv).noalias() =
        data.clusters[static_cast<size_t>(c)].G.transpose() * d.tauSpan.segment(C.vSpanIndex, C.nvSpan);
    for (int r = c; r >= 0; r = model.cluster(r).parent) {  // c and its ancestors, both ways
      block(model, data, r, c);
      if (r != c) block(model, data, c, r);
    }
  }
}

}  // namespace grbda::detail
