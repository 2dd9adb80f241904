#pragma once
// Internal: constraint rows propagated through the articulated-cluster pass (seed 003 eq. 42c-e),
// the hook PV, PV-soft, the proximal variant (pv.cpp) and PV-OSIM / PV-OSIM-fast (pv_osim.cpp)
// hand to articulatedPass.
//
// Rows travel towards the root as force-like 6-vectors F on the body they are attached to (the
// K_i^A of eq. 42c, transposed). At cluster k, with t = Sᵀ F (d_k x m_k; SF below):
//   e  += Fᵀ c + tᵀ D⁻¹ w        free motion of the row (w = u − Uᵀ c)          (42d, l = −k + e)
//   L  += tᵀ D⁻¹ t               Delassus matrix J H⁻¹ Jᵀ of the rows             (42e)
//   F  ← Xoutᵀ F − XU D⁻¹ t      the row seen from the output body                (42c)
// so that K a = e + Fᵀ a_o + L λ with λ the force the environment applies. F is stored in world
// coordinates (startRowPropagation), where Xoutᵀ is the identity and (42c) is F −= U₀ D⁻¹ t, U₀
// = XU seen from the world: a 6-vector update per row instead of a spatial transform (step). A root cluster sees
// a_o = a_0 (= −a_g; a free base's F vanishes). Without bias terms (Bias = false: PV-OSIM) only
// L and F are propagated. Where L goes is the Sink's business: the lower triangle of a dense
// matrix (PV), a symmetric dense matrix (PV-OSIM) or per-branch blocks (PV-OSIM-fast, which also
// leaves the root clusters' terms out: atRoot = false).
#include "../kernels/articulated_pass.hpp"
#include "grbda/constraints/constraint_data.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

/// L(i, j) += v into the lower triangle of a dense matrix (rows of the system).
struct LowerTriangleSink {
  static constexpr bool dense = true;
  MatX& L;
  void add(int ri, int rj, double value) const {
    if (ri >= rj) L(ri, rj) += value;
    else L(rj, ri) += value;
  }
  /// &L(j, j): the column below it is L(j .. j + n − 1, j), the lower triangle
  double* column(int j) const { return &L(j, j); }
  void mirror(int, int) const {}
};

/// L(i, j) += v and L(j, i) += v: a full symmetric dense matrix.
struct SymmetricSink {
  static constexpr bool dense = true;
  MatX& L;
  void add(int ri, int rj, double value) const {
    L(ri, rj) += value;
    if (ri != rj) L(rj, ri) += value;
  }
  /// &L(j, j); after adding to L(j .. j + n − 1, j), mirror(j, n) copies them to row j (L stays
  /// symmetric, so copying is adding)
  double* column(int j) const { return &L(j, j); }
  void mirror(int j, int n) const {
    for (int i = 1; i < n; ++i) L(j, j + i) = L(j + i, j);
  }
};

/// F = K for every part of the rows of `sys`, in world coordinates (X_{0←b}* K; see
/// RowPropagation::step): the start of the propagation. Rows outside `sys` (PV-soft's leaf rows)
/// are not propagated, so not transformed either.
inline void startRowPropagation(const Data& data, ConstraintData& cd, const ConstraintWorkspace::RowSystem& sys) {
  const auto start = [&](size_t p) { cd.work().F[p] = data.Xa[static_cast<size_t>(cd.work().parts[p].body)].applyTranspose(cd.work().parts[p].K); };
  if (sys.size() == cd.work().numRows) {  // every row (PV, PV-OSIM): every part, in order
    for (size_t p = 0; p < cd.work().parts.size(); ++p) start(p);
    return;
  }
  for (int r : sys.rowOf)
    for (int p = cd.work().rowFirstPart[static_cast<size_t>(r)]; p < cd.work().rowFirstPart[static_cast<size_t>(r) + 1]; ++p)
      start(static_cast<size_t>(p));
}

/// Body i's acceleration with ÿ = 0 and a_o = 0 (c_i), or a_o = a_0 for a root cluster (its
/// bodies' a' = Xout a_0 + c, put in data.a by freeMotion; the outward pass rewrites it).
inline const Vec6& predictedAcceleration(const Data& data, int i, bool root) {
  return root ? data.a[static_cast<size_t>(i)] : data.work().c[static_cast<size_t>(i)];
}

/// z = D⁻¹ w, cluster k's free ÿ with a_o = 0 (a_0 at a root: w' = u − Uᵀ a', a' = Xout a_0 + c),
/// in kd.scratchD6's column 1 (column 0 holds w) — the free-motion term of PV's rows (42d).
template <int D>
void freeMotion(const Cluster& cl, ClusterData& kd, Data& data, const Vec6& a0) {
  using Sz = Sizes<D>;
  const int d = cl.nv;
  Eigen::Map<typename Sz::VecD> w(kd.scratchD6.col(0).data(), d), z(kd.scratchD6.col(1).data(), d);
  if (cl.output < 0) {
    predictAccelerations(cl, data, a0);
    w = Eigen::Map<const typename Sz::VecD>(kd.u.data(), d);
    for (int r = 0; r < cl.numBodies; ++r)
      w.noalias() -= rowsOf<D>(kd.U, r).transpose() * data.a[static_cast<size_t>(cl.firstBody + r)];
  } else {
    w = Eigen::Map<const typename Sz::VecD>(kd.w.data(), d);
  }
  z.noalias() = Eigen::Map<const typename Sz::MatD>(kd.Dinv.data(), d, d) * w;
}

/// The articulated pass hook that propagates the rows of `sys` (eq. 42c-e).
template <bool Bias, class Sink>
struct RowPropagation {
  Data& data;
  ConstraintData& cd;
  ConstraintWorkspace::RowSystem& sys;
  Sink sink;
  Vec6 a0 = Vec6::Zero();  ///< gravity-biased base acceleration (Bias only)
  bool atRoot = true;      ///< root clusters add their tᵀ D⁻¹ t to L too

  void operator()(int k, const Cluster& cl, ClusterData& kd) const {
    ConstraintWorkspace::ClusterRows& cr = sys.clusters[static_cast<size_t>(k)];
    if (cr.rows.empty()) return;
    withClusterDof(cl.nv, [&](auto D) { step<decltype(D)::value>(cl, kd, cr); });
  }

  /// Cluster k's rows with d_k = D known at compile time (fixed-size blocks for 1, 2, 3, 6).
  /// F is kept in world coordinates (startRowPropagation), so (42c) needs no transform per row:
  /// Xoutᵀ F is the same force, and XU D⁻¹ t = Xoutᵀ U D⁻¹ t is U₀ D⁻¹ t with U₀ = Σ_i U_i in
  /// world coordinates, made once per cluster; t = Sᵀ F = S₀ᵀ F₀ and Fᵀ c = F₀ᵀ c₀ with S₀ and
  /// c₀ made once per body. A row costs three 6-vector operations instead of a spatial
  /// transform. Rows where a relative row's two halves meet, and a dynamic d_k, go through
  /// generalRow (body coordinates, one transform per part).
  template <int D>
  void step(const Cluster& cl, ClusterData& kd, ConstraintWorkspace::ClusterRows& cr) const {
    using Sz = Sizes<D>;
    const int d = cl.nv, m = static_cast<int>(cr.rows.size());
    const bool root = cl.output < 0;
    const Eigen::Map<const typename Sz::MatD> Dinv(kd.Dinv.data(), d, d);
    // d-vectors in the cluster's scratch columns (no allocation for a dynamic d either)
    Eigen::Map<typename Sz::VecD> z(kd.scratchD6.col(1).data(), d), t(kd.scratchD6.col(2).data(), d);
    if constexpr (Bias) freeMotion<D>(cl, kd, data, a0);
    using MatDX = Eigen::Matrix<double, D, Eigen::Dynamic>;
    Eigen::Map<MatDX> SF(cr.SF.data(), d, m), DinvSF(cr.DinvSF.data(), d, m);
    const int* slotStart = cr.slotStart.data();
    const int* slots = cr.slots.data();
    const int* slotBody = cr.slotBody.data();
    if constexpr (D == Eigen::Dynamic) {
      for (int j = 0; j < m; ++j) generalRow<D>(cl, kd, cr, j, z, t, root);
    } else {
      typename Sz::Mat6D U0;  // Σ_i U_i in world coordinates (XU seen from the world)
      if (!root) {  // X_{0←o}* XU = [Eᵀ f_a + r × Eᵀ f_l; Eᵀ f_l] per column, Xa_o = (E, r)
        const Transform& Xo = data.Xa[static_cast<size_t>(cl.output)];
        const Mat3 Et = Xo.E.transpose();  // column-major copy: Eᵀ v as scaled columns
        const Eigen::Map<const typename Sz::Mat6D> XU(kd.XU.data());
        U0.template bottomRows<3>().noalias() = Et * XU.template bottomRows<3>();
        U0.template topRows<3>().noalias() = Et * XU.template topRows<3>();
        for (int i = 0; i < D; ++i) U0.col(i).template head<3>() += Xo.r.cross(U0.col(i).template tail<3>());
      }
      for (int j = 0; j < m;) {
        const int s = slotStart[j];
        if (slotStart[j + 1] - s != 1) {  // the two halves of a relative row meet here
          generalRow<D>(cl, kd, cr, j, z, t, root);
          ++j;
          continue;
        }
        // rows j .. j1 − 1: one part each, all on body b
        const int b = slotBody[s];
        int j1 = j + 1;
        while (j1 < m && slotStart[j1 + 1] - slotStart[j1] == 1 && slotBody[slotStart[j1]] == b) ++j1;
        // S_b and c_b (a' at a root) in world coordinates: X_{0←b} m = [Eᵀ m_a; Eᵀ m_l + r × Eᵀ m_a]
        const Transform& Xb = data.Xa[static_cast<size_t>(b)];
        const Mat3 Et = Xb.E.transpose();
        const auto Sb = rowsOf<D>(kd.S, b - cl.firstBody);
        typename Sz::Mat6D S0;
        S0.template topRows<3>().noalias() = Et * Sb.template topRows<3>();
        S0.template bottomRows<3>().noalias() = Et * Sb.template bottomRows<3>();
        for (int i = 0; i < D; ++i) S0.col(i).template tail<3>() += Xb.r.cross(S0.col(i).template head<3>());
        Vec6 c0 = Vec6::Zero();
        if constexpr (Bias) {
          const Vec6& c = predictedAcceleration(data, b, root);
          c0.template head<3>().noalias() = Et * c.template head<3>();
          c0.template tail<3>().noalias() = Et * c.template tail<3>();
          c0.template tail<3>() += Xb.r.cross(c0.template head<3>());
        }
        for (; j < j1; ++j) {
          Vec6& F = cd.work().F[static_cast<size_t>(slots[slotStart[j]])];
          t.noalias() = S0.transpose() * F;                                  // t = Sᵀ F
          if constexpr (Bias) sys.e[cr.rows[static_cast<size_t>(j)]] += F.dot(c0) + t.dot(z);  // (42d)
          SF.col(j) = t;
          DinvSF.col(j).noalias() = Dinv * t;
          if (!root) F.noalias() -= U0 * DinvSF.col(j);                     // (42c)
        }
      }
    }
    if (!root || atRoot) addDelassus<D>(cr, SF, DinvSF);
  }

  /// Row j in body coordinates: each part F_s brought to its body b (f_b = X_b F_s), t = Σ S_bᵀ f_b,
  /// e += Σ f_bᵀ c_b + tᵀ z, and the row's new F = Σ F_s − (XU D⁻¹ t seen from the world) in its
  /// first slot, from where on it travels as one part.
  template <int D, class Z, class T>
  void generalRow(const Cluster& cl, ClusterData& kd, ConstraintWorkspace::ClusterRows& cr, int j, const Z& z, T& t,
                  bool root) const {
    const int s0 = cr.slotStart[static_cast<size_t>(j)], s1 = cr.slotStart[static_cast<size_t>(j) + 1];
    t.setZero();
    Vec6 Fo = Vec6::Zero();
    for (int s = s0; s < s1; ++s) {
      const int b = cr.slotBody[static_cast<size_t>(s)];
      const Vec6& F0 = cd.work().F[static_cast<size_t>(cr.slots[static_cast<size_t>(s)])];
      const Vec6 F = data.Xa[static_cast<size_t>(b)].applyForce(F0);
      t.noalias() += rowsOf<D>(kd.S, b - cl.firstBody).transpose() * F;
      if constexpr (Bias) sys.e[cr.rows[static_cast<size_t>(j)]] += F.dot(predictedAcceleration(data, b, root));
      Fo += F0;
    }
    if constexpr (Bias) sys.e[cr.rows[static_cast<size_t>(j)]] += t.dot(z);
    const int d = cl.nv;
    Eigen::Map<Eigen::Matrix<double, D, Eigen::Dynamic>> SF(cr.SF.data(), d, cr.SF.cols()),
        DinvSF(cr.DinvSF.data(), d, cr.DinvSF.cols());
    SF.col(j) = t;
    DinvSF.col(j).noalias() = Eigen::Map<const typename Sizes<D>::MatD>(kd.Dinv.data(), d, d) * t;
    if (root) return;
    const Vec6 XUy = Eigen::Map<const typename Sizes<D>::Mat6D>(kd.XU.data(), 6, d) * DinvSF.col(j);
    cd.work().F[static_cast<size_t>(cr.slots[static_cast<size_t>(s0)])] =
        Fo - data.Xa[static_cast<size_t>(cl.output)].applyTranspose(XUy);
  }

  /// L += tᵀ D⁻¹ t over the cluster's rows (42e): straight into the column of a dense sink
  /// when the rows are consecutive in the system (a chain's, a limb's), pair by pair otherwise.
  template <int D, class A, class B>
  void addDelassus(const ConstraintWorkspace::ClusterRows& cr, const A& SF, const B& DinvSF) const {
    const int m = static_cast<int>(cr.rows.size());
    const int r0 = cr.rows.front();
    if constexpr (Sink::dense && D != Eigen::Dynamic) {
      if (cr.rows.back() - r0 == m - 1) {
        for (int j = 0; j < m; ++j) {
          double* Lj = sink.column(r0 + j) - j;  // Lj[i] = L(r0 + i, r0 + j), i ≥ j
          const double* y = DinvSF.data() + D * j;
          for (int i = j; i < m; ++i) {
            const double* ti = SF.data() + D * i;
            double v = 0.0;
            for (int c = 0; c < D; ++c) v += ti[c] * y[c];
            Lj[i] += v;
          }
          sink.mirror(r0 + j, m - j);
        }
        return;
      }
    }
    for (int j = 0; j < m; ++j)
      for (int i = j; i < m; ++i)
        sink.add(cr.rows[static_cast<size_t>(i)], cr.rows[static_cast<size_t>(j)], SF.col(i).dot(DinvSF.col(j)));
  }

};

}  // namespace grbda::detail
