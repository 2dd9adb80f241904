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
//
// The (row, column) pairs go either into the spanning matrices, projected through Ĝ afterwards
// (project_derivatives.cpp), or — when every block of Ĝ is constant (projectsInPass) — straight
// into the cluster matrices, weighted by Ĝ's entries, a cluster's rows combined into one row per
// coordinate before they meet the ancestors outside it (inwardByCluster).
#include "derivatives_internal.hpp"

#include <array>

#include "../../kernels/cluster_state.hpp"
#include "grbda/spatial/cross.hpp"
#include "../../cluster/cluster_joint.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

namespace {

/// B = v ×* I − I (v ×) + (· ×* I v) of one rigid body (world frame), with I = [Ī, c×; −c×, m 1]
/// (c the first moment m p_com, Ī the rotational inertia about the world origin) and
/// h = I v = [n; f], f = w × c + m u for v = [w; u]. Expanding the 3 × 3 blocks, with
/// [a×, b×] = (a × b)× and u×c× = c uᵀ − (u·c) 1:
///   B = [ w×Ī − Ī w× − (c uᵀ + u cᵀ) + 2 (u·c) 1 − n×,   w×c× − c×w× + m u× − f× = 0 ;
///         −2 f×,                                          0 ]
/// so only B's left three columns are written; the right ones stay the zeros sizeDerivatives put
/// there, and so do the composite BC's (sums of these). w×Ī − Ī w× = P + Pᵀ with P = w×Ī.
void rigidCoriolis(const Mat6& I, const Vec6& v, const Vec6& h, Mat6& B) {
  const Vec3 w = v.head<3>(), u = v.tail<3>();
  const Vec3 c(I(2, 4), I(0, 5), I(1, 3));
  const Mat3 P = skew(w) * I.topLeftCorner<3, 3>();
  Mat3 B11 = P + P.transpose();
  B11.noalias() -= c * u.transpose();
  B11.noalias() -= u * c.transpose();
  B11.diagonal().array() += 2.0 * u.dot(c);
  B11 -= skew(h.head<3>());
  B.topLeftCorner<3, 3>() = B11;
  B.bottomLeftCorner<3, 3>() = -2.0 * skew(h.tail<3>());
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
    for (int c = 0; c < n; ++c) d.J.col(iv + c) = X.applyInverse(b.joint.subspaceColumn(c));  // free, ball: e_c
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
    rigidCoriolis(I, v, h, d.BC[i]);
    if (ext) d.F[i] -= (*ext->F)[static_cast<size_t>(i)];
  }
}

/// Per spanning column c of body i, the four vectors the inward pass pairs with the columns of
/// i's ancestors (world frame, IC_i, BC_i, F_i complete):
///   Y = IC_i S_c, Z = BC_iᵀ S_c                       (row c against ancestor column j, j ⪯ i)
///   Wq = S_c ×* F_i + IC_i dAdq_c + BC_i dVdq_c        (ancestor row j against column c, j ≺ i)
///   Wv = IC_i (Ṡ_c + dVdq_c) + BC_i S_c
/// With external world-fixed forces, Ze = EC_iᵀ S_c and Wq gains −EC_i S_c.
struct ColumnTerms {
  Vec6 Y, Z, Wq, Wv, Ze;
  static ColumnTerms zero() {
    ColumnTerms t;
    t.Y.setZero();
    t.Z.setZero();
    t.Wq.setZero();
    t.Wv.setZero();
    t.Ze.setZero();
    return t;
  }
  void addScaled(double w, const ColumnTerms& o) {
    Y += w * o.Y;
    Z += w * o.Z;
    Wq += w * o.Wq;
    Wv += w * o.Wv;
    Ze += w * o.Ze;
  }
};

ColumnTerms columnTerms(const DerivativesData& d, int i, int col, const Mat6* EC) {
  const Mat6 &IC = d.IC[static_cast<size_t>(i)], &BC = d.BC[static_cast<size_t>(i)];
  const Vec6 s = d.J.col(col), dV = d.dVdq.col(col);
  ColumnTerms t;
  const auto BCleft = BC.leftCols<3>();  // BC's right half is zero (rigidCoriolis)
  t.Y.noalias() = IC * s;
  t.Z.head<3>().noalias() = BCleft.transpose() * s;
  t.Z.tail<3>().setZero();
  t.Wq = crossForce(s, d.F[static_cast<size_t>(i)]);
  t.Wq.noalias() += IC * d.dAdq.col(col);
  t.Wq.noalias() += BCleft * dV.head<3>();
  const Vec6 dJv = d.dJ.col(col) + dV;
  t.Wv.noalias() = IC * dJv;
  t.Wv.noalias() += BCleft * s.head<3>();
  if (EC) {
    t.Ze.noalias() = EC->transpose() * s;
    t.Wq.noalias() -= *EC * s;
  }
  return t;
}

/// Where a spanning column's entries go: its index in the output and the weight they carry.
/// A spanning column that Ĝ spreads over several coordinates of its cluster (d_k > 1, G not the
/// identity) has index −1 − (its position in the spanning v) and takes its weights from G.
struct Slot {
  Eigen::Index index;
  double w;
  int body;  ///< the column's body (−1: a cluster's combined row)
  bool single() const { return index >= 0; }
};

/// The spanning matrices dtauSpan_dq, dtauSpan_dv, HSpan themselves (projected afterwards). Each
/// related pair is written once, the same set every call (sizeDerivatives zeroed the rest).
struct SpanningSink {
  double *dq, *dv, *h;
  Eigen::Index ld;
  Slot slot(int body, int col) const { return {col, 1.0, body}; }
  void put(Slot r, Slot c, double dqv, double dvv, double hv) const {
    const Eigen::Index k = c.index * ld + r.index;
    dq[k] = dqv;
    dv[k] = dvv;
    h[k] = hv;
  }
};

/// Straight into ∂τ/∂y, ∂τ/∂ẏ, ℳ when every cluster's Ĝ is constant: then Gᵀ A G is the sum
/// over spanning pairs of g_r A_rc g_cᵀ (g_r: row r of Ĝ), accumulated pair by pair, and neither
/// the nvSpanning² spanning matrices nor the projection (spec §2.3) are formed. Most columns go
/// to one coordinate (G = 1, or d_k = 1 as a rotor's [1; N]): one weighted entry; the others
/// (belt pairs, knee-ankle pairs) to every coordinate of their cluster, weighted by their row of G.
/// Spreads: whether any cluster has such columns (compile-time, so that models without them,
/// the quadrupeds and the rotor chains, run the single-coordinate code alone).
template <bool Spreads>
struct ClusterSink {
  const Model* model;
  const Data* data;
  const double* weight;  ///< per spanning column: its entry of Ĝ (single-coordinate columns)
  const double* index;   ///< per spanning column: its coordinate, or −1 − column (exact in a double)
  double *dq, *dv, *h;
  Eigen::Index ld;
  Slot slot(int body, int col) const { return {static_cast<Eigen::Index>(index[col]), weight[col], body}; }
  void put(Slot r, Slot c, double dqv, double dvv, double hv) const {
    if (!Spreads || (r.single() && c.single()))
      add(r.index, c.index, r.w * c.w, dqv, dvv, hv);
    else
      putSpread(r, c, dqv, dvv, hv);
  }
  /// Out of line: the rare case, kept out of the pair loop's code.
  __attribute__((noinline)) void putSpread(Slot r, Slot c, double dqv, double dvv, double hv) const {
    const Spread R = spread(r), C = spread(c);
    for (int a = 0; a < R.count; ++a)
      for (int b = 0; b < C.count; ++b)
        if (R.w(a) != 0.0 && C.w(b) != 0.0) add(R.first + a, C.first + b, R.w(a) * C.w(b), dqv, dvv, hv);
  }
  void add(Eigen::Index r, Eigen::Index c, double w, double dqv, double dvv, double hv) const {
    const Eigen::Index k = c * ld + r;
    dq[k] += w * dqv;
    dv[k] += w * dvv;
    h[k] += w * hv;
  }
  /// The coordinates a slot feeds and their weights.
  struct Spread {
    Eigen::Index first;
    int count;
    const double* g;  ///< G(local, 0), stride gStride; null: the single weight w
    Eigen::Index gStride;
    double single;
    double w(int a) const { return g ? g[a * gStride] : single; }
  };
  Spread spread(Slot s) const {
    if (!Spreads || s.single()) return {s.index, 1, nullptr, 0, s.w};
    const int col = static_cast<int>(-1 - s.index);
    const int k = model->body(s.body).cluster;
    const Cluster& C = model->cluster(k);
    const MatX& G = data->work().clusters[static_cast<size_t>(k)].G;
    return {C.vIndex, C.nv, G.data() + (col - C.vSpanIndex), G.rows(), 0.0};
  }
};

/// Row slot rs (terms t, of column r of body i; i = -1 for a cluster's combined terms) against
/// every column of body j0 and its ancestors (only those in cluster `onlyCluster` if ≥ 0): the
/// j ⪯ i rule gives entry (r, col), the i ≺ j rule entry (col, r) (the spanning-tree analogue of
/// Carpentier & Mansard's backward pass, one pair at a time; the pairs, n·depth of them, are the
/// whole cost of the pass).
template <class Sink>
void pairWithAncestors(const Model& model, const DerivativesData& d, int i, Slot rs, int j0, int onlyCluster,
                       const ColumnTerms& t, bool ext, const Sink& sink) {
  for (int j = j0; j >= 0 && (onlyCluster < 0 || model.body(j).cluster == onlyCluster); j = model.body(j).parent) {
    const int jv = model.body(j).vIndex, m = model.body(j).joint.nv();
    for (int col = jv; col < jv + m; ++col) {
      const auto S = d.J.col(col);
      const double h = t.Y.dot(S);
      double dq = t.Y.dot(d.dAdq.col(col)) + t.Z.dot(d.dVdq.col(col));
      if (ext) dq -= t.Ze.dot(S);
      const double dv = t.Y.dot(d.dJ.col(col) + d.dVdq.col(col)) + t.Z.dot(S);
      const Slot cs = sink.slot(j, col);
      sink.put(rs, cs, dq, dv, h);
      if (j != i) sink.put(cs, rs, S.dot(t.Wq), S.dot(t.Wv), h);
    }
  }
}

/// Composite inertia, Coriolis matrix, force (and external E) of body i into its parent.
void accumulateIntoParent(const Model& model, DerivativesData& d, int i, const WorldFixedForces* ext) {
  const int parent = model.body(i).parent;
  if (parent < 0) return;
  const auto p = static_cast<size_t>(parent), c = static_cast<size_t>(i);
  d.IC[p] += d.IC[c];
  d.BC[p].leftCols<3>() += d.BC[c].leftCols<3>();  // (right halves zero)
  d.F[p] += d.F[c];
  if (ext) (*ext->E)[p] += (*ext->E)[c];
}

/// Body by body, every row against all its ancestors, into the spanning matrices.
void inward(const Model& model, Data& data, const WorldFixedForces* ext, const SpanningSink& sink) {
  DerivativesData& d = data.derivatives;
  for (int i = model.numBodies() - 1; i >= 0; --i) {
    const Body& b = model.body(i);
    const Mat6* EC = ext ? &(*ext->E)[static_cast<size_t>(i)] : nullptr;
    for (int col = b.vIndex; col < b.vIndex + b.joint.nv(); ++col) {
      d.tauSpan[col] = d.J.col(col).dot(d.F[static_cast<size_t>(i)]);
      pairWithAncestors(model, d, i, sink.slot(i, col), i, -1, columnTerms(d, i, col, EC), ext != nullptr, sink);
    }
    accumulateIntoParent(model, d, i, ext);
  }
}

/// Cluster by cluster, straight into the cluster matrices. Every body of a cluster hangs from
/// the same output body, so against the ancestors outside the cluster a coordinate's rows enter
/// only through their sum weighted by Ĝ: the terms are combined first (linear in them) and
/// paired once per coordinate, not once per spanning column (half the pairs of a geared robot,
/// whose rotors double the spanning columns). Pairs inside the cluster stay per spanning column.
template <bool Spreads>
void inwardByCluster(const Model& model, Data& data, const WorldFixedForces* ext, const ClusterSink<Spreads>& sink,
                     double* tau) {
  DerivativesData& d = data.derivatives;
  std::array<ColumnTerms, 6> combined;  // per coordinate of the cluster (d_k ≤ 6: projectsInPass)
  for (int k = model.numClusters() - 1; k >= 0; --k) {
    const Cluster& C = model.cluster(k);
    for (int a = 0; a < C.nv; ++a) combined[static_cast<size_t>(a)] = ColumnTerms::zero();
    for (int i = C.firstBody + C.numBodies - 1; i >= C.firstBody; --i) {
      const Body& b = model.body(i);
      const Mat6* EC = ext ? &(*ext->E)[static_cast<size_t>(i)] : nullptr;
      for (int col = b.vIndex; col < b.vIndex + b.joint.nv(); ++col) {
        const Slot rs = sink.slot(i, col);
        const double tauS = d.J.col(col).dot(d.F[static_cast<size_t>(i)]);
        const ColumnTerms t = columnTerms(d, i, col, EC);
        pairWithAncestors(model, d, i, rs, i, k, t, ext != nullptr, sink);
        const typename ClusterSink<Spreads>::Spread sp = sink.spread(rs);
        for (int a = 0; a < sp.count; ++a) {
          if (sp.w(a) == 0.0) continue;
          tau[sp.first + a] += sp.w(a) * tauS;
          combined[static_cast<size_t>(sp.first + a - C.vIndex)].addScaled(sp.w(a), t);
        }
      }
      accumulateIntoParent(model, d, i, ext);
    }
    for (int a = 0; a < C.nv; ++a)
      pairWithAncestors(model, d, -1, Slot{C.vIndex + a, 1.0, -1}, C.output, -1, combined[static_cast<size_t>(a)],
                        ext != nullptr, sink);
  }
}

}  // namespace

bool projectsInPass(const Model& model) {
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& C = model.cluster(k);
    if (C.nvSpan != C.nv && !C.joint->constraints().isStatic()) return false;
    if (C.nv > 6) return false;
    for (int i = C.firstBody; i < C.firstBody + C.numBodies; ++i)
      if (model.body(i).output != C.output) return false;  // (inwardByCluster relies on it)
  }
  return true;
}

void spanningRneaDerivatives(const Model& model, Data& data, const WorldFixedForces* ext, bool intoClusters) {
  DerivativesData& d = data.derivatives;
  outward(model, data, ext);
  if (intoClusters) {
    d.dtau_dq.setZero();
    d.dtau_dv.setZero();
    d.M.setZero();
    d.tau.setZero();
    // Each spanning column's slot, looked up once per call instead of once per pair; the spanning
    // workspaces tauSpan and scratch are free in this mode and hold them.
    for (int k = 0; k < model.numClusters(); ++k) {
      const Cluster& C = model.cluster(k);
      for (int local = 0; local < C.nvSpan; ++local) {
        const int col = C.vSpanIndex + local;
        const bool identity = C.nvSpan == C.nv;
        d.tauSpan[col] = identity ? 1.0 : data.work().clusters[static_cast<size_t>(k)].G(local, 0);
        d.scratch(col, 0) = identity ? C.vIndex + local : C.nv == 1 ? C.vIndex : -1 - col;
      }
    }
    bool spreads = false;
    for (int k = 0; k < model.numClusters(); ++k)
      spreads |= model.cluster(k).nvSpan != model.cluster(k).nv && model.cluster(k).nv > 1;
    if (spreads) {
      const ClusterSink<true> sink{&model, &data, d.tauSpan.data(), d.scratch.data(), d.dtau_dq.data(),
                                   d.dtau_dv.data(), d.M.data(), d.M.rows()};
      inwardByCluster(model, data, ext, sink, d.tau.data());
    } else {
      const ClusterSink<false> sink{&model, &data, d.tauSpan.data(), d.scratch.data(), d.dtau_dq.data(),
                                    d.dtau_dv.data(), d.M.data(), d.M.rows()};
      inwardByCluster(model, data, ext, sink, d.tau.data());
    }
  } else {
    const SpanningSink sink{d.dtauSpan_dq.data(), d.dtauSpan_dv.data(), d.HSpan.data(), d.HSpan.rows()};
    inward(model, data, ext, sink);
  }
}

}  // namespace grbda::detail
