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
// so that K a = e + Fᵀ a_o + L λ with λ the force the environment applies. A root cluster sees
// a_o = a_0 (= −a_g; a free base's F vanishes). Without bias terms (Bias = false: PV-OSIM) only
// L and F are propagated. Where L goes is the Sink's business: the lower triangle of a dense
// matrix (PV), a symmetric dense matrix (PV-OSIM) or per-branch blocks (PV-OSIM-fast, which also
// leaves the root clusters' terms out: atRoot = false).
#include "articulated_pass.hpp"
#include "grbda/constraints/constraint_data.hpp"

namespace grbda::detail {

/// L(i, j) += v into the lower triangle of a dense matrix (rows of the system).
struct LowerTriangleSink {
  MatX& L;
  void add(int ri, int rj, double value) const {
    if (ri >= rj) L(ri, rj) += value;
    else L(rj, ri) += value;
  }
};

/// L(i, j) += v and L(j, i) += v: a full symmetric dense matrix.
struct SymmetricSink {
  MatX& L;
  void add(int ri, int rj, double value) const {
    L(ri, rj) += value;
    if (ri != rj) L(rj, ri) += value;
  }
};

/// F = K for every row part: the start of the propagation.
inline void startRowPropagation(ConstraintData& cd) {
  for (size_t j = 0; j < cd.parts.size(); ++j) cd.F[j] = cd.parts[j].K;
}

/// Body i's acceleration with ÿ = 0 and a_o = 0 (c_i), or a_o = a_0 for a root cluster (its
/// bodies' a' = Xout a_0 + c, put in data.a by freeMotion; the outward pass rewrites it).
inline const Vec6& predictedAcceleration(const Data& data, int i, bool root) {
  return root ? data.a[static_cast<size_t>(i)] : data.c[static_cast<size_t>(i)];
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
  ConstraintData::RowSystem& sys;
  Sink sink;
  Vec6 a0 = Vec6::Zero();  ///< gravity-biased base acceleration (Bias only)
  bool atRoot = true;      ///< root clusters add their tᵀ D⁻¹ t to L too

  void operator()(int k, const Cluster& cl, ClusterData& kd) const {
    ConstraintData::ClusterRows& cr = sys.clusters[static_cast<size_t>(k)];
    if (cr.rows.empty()) return;
    withClusterDof(cl.nv, [&](auto D) { step<decltype(D)::value>(cl, kd, cr); });
  }

  /// Cluster k's rows with d_k = D known at compile time (fixed-size blocks for 1, 2, 3, 6).
  template <int D>
  void step(const Cluster& cl, ClusterData& kd, ConstraintData::ClusterRows& cr) const {
    using Sz = Sizes<D>;
    const int d = cl.nv, m = static_cast<int>(cr.rows.size());
    const bool root = cl.output < 0;
    const Eigen::Map<const typename Sz::MatD> Dinv(kd.Dinv.data(), d, d);
    // d-vectors in the cluster's scratch columns (no allocation for a dynamic d either)
    Eigen::Map<typename Sz::VecD> z(kd.scratchD6.col(1).data(), d), t(kd.scratchD6.col(2).data(), d);
    if constexpr (Bias) freeMotion<D>(cl, kd, data, a0);
    using MatDX = Eigen::Matrix<double, D, Eigen::Dynamic>;
    Eigen::Map<MatDX> SF(cr.SF.data(), d, m), DinvSF(cr.DinvSF.data(), d, m);
    for (int j = 0; j < m; ++j) {
      t.setZero();
      for (int s = cr.slotStart[static_cast<size_t>(j)]; s < cr.slotStart[static_cast<size_t>(j) + 1]; ++s) {
        const int b = cr.slotBody[static_cast<size_t>(s)];
        const Vec6& F = cd.F[static_cast<size_t>(cr.slots[static_cast<size_t>(s)])];
        t.noalias() += rowsOf<D>(kd.S, b - cl.firstBody).transpose() * F;
        if constexpr (Bias) sys.e[cr.rows[static_cast<size_t>(j)]] += F.dot(predictedAcceleration(data, b, root));
      }
      if constexpr (Bias) sys.e[cr.rows[static_cast<size_t>(j)]] += t.dot(z);
      SF.col(j) = t;
      DinvSF.col(j).noalias() = Dinv * t;
    }
    if (!root || atRoot)
      for (int j = 0; j < m; ++j)  // L += tᵀ D⁻¹ t (lower triangle of the system's rows)
        for (int i = j; i < m; ++i)
          sink.add(cr.rows[static_cast<size_t>(i)], cr.rows[static_cast<size_t>(j)], SF.col(i).dot(DinvSF.col(j)));
    if (root) return;
    const Eigen::Map<const Eigen::Matrix<double, D, 6>> DinvXUt(kd.DinvXUt.data(), d, 6);
    for (int j = 0; j < m; ++j) {  // F ← Σ Xoutᵀ F − XU D⁻¹ t at the output body, in the first slot
      const int s0 = cr.slotStart[static_cast<size_t>(j)], s1 = cr.slotStart[static_cast<size_t>(j) + 1];
      Vec6 Fo;
      Fo.noalias() = -(DinvXUt.transpose() * SF.col(j));
      for (int s = s0; s < s1; ++s)
        Fo += data.Xout[static_cast<size_t>(cr.slotBody[static_cast<size_t>(s)])].applyTranspose(
            cd.F[static_cast<size_t>(cr.slots[static_cast<size_t>(s)])]);
      cd.F[static_cast<size_t>(cr.slots[static_cast<size_t>(s0)])] = Fo;
    }
  }

};

}  // namespace grbda::detail
