// The CFA kernel on a world-frame chain (seed 004 Eq. 16; spec §3.4 steps 1-6) and the block
// odd-even cyclic reduction of A = T_2ᵀ I⁻¹ T_2. With T_2 = Pᵀ H^⊥ (P: 1 on the diagonal, −1
// below) the blocks are A_ii = h_i^⊥ᵀ (I_i⁻¹ + I_{i−1}⁻¹) h_i^⊥, A_{i,i−1} = −h_i^⊥ᵀ I_{i−1}⁻¹ h_{i−1}^⊥.
#include "cfa_chain.hpp"

#include "../kernels/small_spd.hpp"

namespace grbda::detail {

namespace {
/// f = T_1' τ' per joint: g_i = h̃_i τ'_i (zero outside the chain)
inline Vec6 gOf(const CfaChain& c, int i) {
  if (i < 0 || i >= c.N) return Vec6::Zero();
  return c.ht[i] * c.tau[i];
}
/// Padding: 1 on the diagonal of A_ii beyond the m_i constraint directions.
inline void padDiagonal(Mat6& D, int n) {
  for (int k = 6 - n; k < 6; ++k) D(k, k) += 1.0;
}
}  // namespace

void CfaChain::resize(int size) {
  N = size;
  const auto z6 = Mat6::Zero().eval();
  const auto v6 = Vec6::Zero().eval();
  n.assign(N, 1);
  for (auto* m : {&Iinv, &h, &ht, &hp, &D, &L, &U, &Dinv}) m->assign(N, z6);
  for (auto* x : {&tau, &b, &mu, &y, &w, &a, &qdd}) x->assign(N, v6);
}

void CfaChain::assemble(int i0, int i1) {
  for (int i = i0; i < i1; ++i) {
    const Mat6 Y = Iinv[i] * hp[i];                                   // I_i⁻¹ h_i^⊥
    const Vec6 gi = gOf(*this, i);
    b[i].noalias() = Y.transpose() * (gi - gOf(*this, i + 1));      // h_i^⊥ᵀ a_free,i  (steps 1-3)
    D[i].noalias() = hp[i].transpose() * Y;                          // A_ii
    if (i > 0) {
      const Mat6 Z = Iinv[i - 1] * hp[i];                            // I_{i−1}⁻¹ h_i^⊥
      b[i].noalias() -= Z.transpose() * (gOf(*this, i - 1) - gi);    // − h_i^⊥ᵀ a_free,i−1
      D[i].noalias() += hp[i].transpose() * Z;
      L[i].noalias() = -Z.transpose() * hp[i - 1];                   // A_{i,i−1}
    } else {
      L[i].setZero();
    }
    if (i + 1 < N) U[i].noalias() = -Y.transpose() * hp[i + 1];  // A_{i,i+1} = A_{i+1,i}ᵀ
    else U[i].setZero();
    padDiagonal(D[i], n[i]);
  }
}

bool CfaChain::solveThomas() {
  // block LDLᵀ: S_i = D_i − L_i S_{i−1}⁻¹ L_iᵀ, y_i = b_i − L_i S_{i−1}⁻¹ y_{i−1}
  for (int i = 0; i < N; ++i) {
    Mat6 S = D[i];
    y[i] = b[i];
    if (i > 0) {
      const Mat6 LS = L[i] * Dinv[i - 1];
      S.noalias() -= LS * L[i].transpose();
      y[i].noalias() -= LS * y[i - 1];
    }
    if (!spdInverse<6>(S, Dinv[i])) return false;
  }
  for (int i = N - 1; i >= 0; --i) {  // μ_i = S_i⁻¹ (y_i − L_{i+1}ᵀ μ_{i+1})
    Vec6 r = y[i];
    if (i + 1 < N) r.noalias() -= L[i + 1].transpose() * mu[i + 1];
    mu[i].noalias() = Dinv[i] * r;
  }
  return true;
}

void CfaChain::accelerations(int i0, int i1) {
  for (int i = i0; i < i1; ++i) {
    w[i] = gOf(*this, i) - hp[i] * mu[i];                            // step 5: f_J = T_1' τ' − h^⊥ μ
    Vec6 wNext = gOf(*this, i + 1);
    if (i + 1 < N) wNext.noalias() -= hp[i + 1] * mu[i + 1];
    a[i].noalias() = Iinv[i] * (w[i] - wNext);                       // a = I⁻¹ (T_1' τ' − T_2 μ)
  }
}

void CfaChain::jointAccelerations(int i0, int i1) {
  for (int i = i0; i < i1; ++i) {
    const Vec6 rel = i > 0 ? Vec6(a[i] - a[i - 1]) : a[i];
    qdd[i].noalias() = ht[i].transpose() * rel;                      // step 6: q̈ = T_1'ᵀ a
  }
}

// ---- block odd-even cyclic reduction ----

int CyclicReduction::levelCount(int N) {
  int levels = 0;
  while ((2 << levels) <= N) ++levels;  // largest ℓ with 2^ℓ ≤ N
  return levels;
}

namespace {
/// Indices of level ℓ: active p = 0..A−1 at i = s(p+1) − 1; p even eliminated, p odd kept.
struct Level {
  int s, active, eliminated, kept;
  Level(int N, int level) : s(1 << level), active(N / s), eliminated((active + 1) / 2), kept(active / 2) {}
  int eliminatedIndex(int m) const { return s * (2 * m + 1) - 1; }
  int keptIndex(int m) const { return s * (2 * m + 2) - 1; }
};
inline int partBegin(int count, int t, int T) { return static_cast<int>(static_cast<long>(count) * t / T); }
}  // namespace

bool CyclicReduction::invertEliminated(CfaChain& c, int level, int t, int T) {
  const Level lv(c.N, level);
  bool ok = true;
  for (int m = partBegin(lv.eliminated, t, T); m < partBegin(lv.eliminated, t + 1, T); ++m) {
    const int j = lv.eliminatedIndex(m);
    ok = spdInverse<6>(c.D[j], c.Dinv[j]) && ok;
  }
  return ok;
}

void CyclicReduction::reduceKept(CfaChain& c, int level, int t, int T) {
  const Level lv(c.N, level);
  for (int m = partBegin(lv.kept, t, T); m < partBegin(lv.kept, t + 1, T); ++m) {
    const int i = lv.keptIndex(m), j = i - lv.s, k = i + lv.s;  // j always exists (eliminated)
    const Mat6 alpha = c.L[i] * c.Dinv[j];
    c.D[i].noalias() -= alpha * c.U[j];
    c.b[i].noalias() -= alpha * c.b[j];
    c.L[i] = -alpha * c.L[j];                                        // couples i to i − 2s
    if (k < c.N) {
      const Mat6 beta = c.U[i] * c.Dinv[k];
      c.D[i].noalias() -= beta * c.L[k];
      c.b[i].noalias() -= beta * c.b[k];
      c.U[i] = -beta * c.U[k];                                       // couples i to i + 2s
    } else {
      c.U[i].setZero();
    }
  }
}

bool CyclicReduction::solveRoot(CfaChain& c, int t) {
  if (t != 0) return true;
  const int r = (1 << c.levels) - 1;
  if (!spdInverse<6>(c.D[r], c.Dinv[r])) return false;
  c.mu[r].noalias() = c.Dinv[r] * c.b[r];
  return true;
}

void CyclicReduction::backSubstitute(CfaChain& c, int level, int t, int T) {
  const Level lv(c.N, level);
  for (int m = partBegin(lv.eliminated, t, T); m < partBegin(lv.eliminated, t + 1, T); ++m) {
    const int j = lv.eliminatedIndex(m);
    Vec6 r = c.b[j];
    if (j - lv.s >= 0) r.noalias() -= c.L[j] * c.mu[j - lv.s];
    if (j + lv.s < c.N) r.noalias() -= c.U[j] * c.mu[j + lv.s];
    c.mu[j].noalias() = c.Dinv[j] * r;
  }
}

}  // namespace grbda::detail
