// ∂RNEA on the spanning tree, world frame (Carpentier & Mansard, RSS 2018, §IV). With every
// quantity in world coordinates, moving joint j (column S_j) transports its whole subtree
// rigidly, ∂S_k/∂q_j = S_j × S_k, and what is left is independent of the descendant k:
//   ∂v_k/∂q_j − S_j × v_k = v_λ(j) × S_j                      =: dVdq_j
//   ∂a_k/∂q_j − S_j × a_k = a_λ(j) × S_j + v_λ(j) × dVdq_j + dVdq_j × v_k
//   ∂a_k/∂q̇_j            = Ṡ_j + dVdq_j − v_k × S_j
// Summed over a subtree, f_k = I_k a_k + v_k ×* I_k v_k gives the composite inertia IC and the
// composite Coriolis matrix BC (B_k u = v_k ×* I_k u − I_k (v_k × u) + u ×* I_k v_k), so
//   j ⪯ i:  ∂τ_i/∂q_j = S_iᵀ (IC_i dAdq_j + BC_i dVdq_j)        (the S_j ×* F_i terms cancel)
//   i ≺ j:  ∂τ_i/∂q_j = S_iᵀ (S_j ×* F_j + IC_j dAdq_j + BC_j dVdq_j)
// and likewise for q̇ with (Ṡ_j + dVdq_j, S_j) in place of (dAdq_j, dVdq_j).
//
// Forces held fixed in world axes at points of the bodies (constraint forces at fixed λ,
// algorithms/constrained_derivatives.hpp) enter F_k with a minus sign. They do not turn with the
// subtree: ∂F^ext_k/∂q_j = S_j ×* F^ext_k + E_k S_j (derivatives_internal.hpp), so with EC_i the
// subtree sum of E_k the rules above gain −S_iᵀ EC_i S_j (j ⪯ i) and −S_iᵀ EC_j S_j (i ≺ j).
#include "derivatives_internal.hpp"
#include "../cluster_state.hpp"
#include "grbda/spatial/cross.hpp"

namespace grbda::detail {

namespace {

/// The matrix of u ↦ u ×* h for a fixed force h = [n; f].
Mat6 forceCrossFixedForce(const Vec6& h) {
  Mat6 M = Mat6::Zero();
  const Mat3 n = skew(h.head<3>()), f = skew(h.tail<3>());
  M.topLeftCorner<3, 3>() = -n;
  M.topRightCorner<3, 3>() = -f;
  M.bottomLeftCorner<3, 3>() = -f;
  return M;
}

/// Outward: world S, v, a and the per-column terms; each body's own IC, BC, f.
void outward(const Model& model, Data& data, const WorldFixedForces* ext) {
  DerivativesData& d = data.derivatives;
  const Vec6 a0 = gravityBias(model, data);
  for (int i = 0; i < model.numBodies(); ++i) {
    const Body& b = model.body(i);
    const int iv = b.vIndex, n = b.joint.nv();
    const Vec6 vp = b.parent < 0 ? Vec6::Zero() : d.vw[b.parent];
    const Vec6 ap = b.parent < 0 ? a0 : d.aw[b.parent];
    const Transform& X = data.Xa[i];  // world -> body
    if (n == 6)
      for (int c = 0; c < 6; ++c) d.J.col(iv + c) = X.applyInverse(Vec6::Unit(c));
    else
      d.J.col(iv) = X.applyInverse(b.joint.subspace());
    const auto S = d.J.middleCols(iv, n);
    const Vec6 vJ = S * data.vSpan.segment(iv, n);
    const Vec6 v = vp + vJ;
    d.vw[i] = v;
    d.aw[i] = ap + S * d.qddSpan.segment(iv, n) + crossMotion(v, vJ);  // Ṡ q̇ = v × S q̇
    for (int c = 0; c < n; ++c) {
      const Vec6 s = d.J.col(iv + c);
      d.dJ.col(iv + c) = crossMotion(v, s);
      const Vec6 dv = crossMotion(vp, s);
      d.dVdq.col(iv + c) = dv;
      d.dAdq.col(iv + c) = crossMotion(ap, s) + crossMotion(vp, dv);
    }
    Mat6& I = d.IC[i];
    I.setZero();
    X.addTransformedRigidInertia(b.inertia, I);  // world inertia (composite from here on)
    const Vec6 h = I * v;
    d.F[i] = I * d.aw[i] + crossForce(v, h);
    // B = v ×* I − I (v ×) + (· ×* I v); with W = v ×* I (column by column), I (v ×) = −Wᵀ
    Mat6& B = d.BC[i];
    for (int k = 0; k < 6; ++k) B.col(k) = crossForce(v, I.col(k));
    B += B.transpose().eval();
    B += forceCrossFixedForce(h);
    if (ext) d.F[i] -= (*ext->F)[static_cast<size_t>(i)];
  }
}

}  // namespace

void spanningRneaDerivatives(const Model& model, Data& data, const WorldFixedForces* ext) {
  DerivativesData& d = data.derivatives;
  outward(model, data, ext);
  d.dtauSpan_dq.setZero();
  d.dtauSpan_dv.setZero();
  d.HSpan.setZero();
  Mat6 Y, Z, Wq, Wv;  // per column of body i: IC_i S, BC_iᵀ S, and the i ≺ j terms
  Mat6 Ze = Mat6::Zero();  // EC_iᵀ S (external forces only)
  for (int i = model.numBodies() - 1; i >= 0; --i) {
    const Body& b = model.body(i);
    const int iv = b.vIndex, n = b.joint.nv();
    const Mat6 &IC = d.IC[i], &BC = d.BC[i];
    for (int c = 0; c < n; ++c) {
      const Vec6 s = d.J.col(iv + c);
      Y.col(c).noalias() = IC * s;
      Z.col(c).noalias() = BC.transpose() * s;
      d.tauSpan[iv + c] = s.dot(d.F[i]);
      Wq.col(c) = crossForce(s, d.F[i]) + IC * d.dAdq.col(iv + c) + BC * d.dVdq.col(iv + c);
      Wv.col(c) = IC * (d.dJ.col(iv + c) + d.dVdq.col(iv + c)) + BC * s;
      if (ext) {
        const Mat6& EC = (*ext->E)[static_cast<size_t>(i)];
        Ze.col(c).noalias() = EC.transpose() * s;
        Wq.col(c).noalias() -= EC * s;
      }
    }
    for (int j = i; j >= 0; j = model.body(j).parent) {
      const int jv = model.body(j).vIndex, m = model.body(j).joint.nv();
      for (int c = 0; c < n; ++c)
        for (int e = 0; e < m; ++e) {
          const int r = iv + c, col = jv + e;
          d.dtauSpan_dq(r, col) = Y.col(c).dot(d.dAdq.col(col)) + Z.col(c).dot(d.dVdq.col(col)) -
                                  Ze.col(c).dot(d.J.col(col));
          d.dtauSpan_dv(r, col) = Y.col(c).dot(d.dJ.col(col) + d.dVdq.col(col)) + Z.col(c).dot(d.J.col(col));
          d.HSpan(r, col) = Y.col(c).dot(d.J.col(col));
          if (j == i) continue;
          d.dtauSpan_dq(col, r) = d.J.col(col).dot(Wq.col(c));
          d.dtauSpan_dv(col, r) = d.J.col(col).dot(Wv.col(c));
          d.HSpan(col, r) = d.HSpan(r, col);
        }
    }
    if (b.parent >= 0) {
      d.IC[b.parent] += IC;
      d.BC[b.parent] += BC;
      d.F[b.parent] += d.F[i];
      if (ext) (*ext->E)[static_cast<size_t>(b.parent)] += (*ext->E)[static_cast<size_t>(i)];
    }
  }
}

}  // namespace grbda::detail
