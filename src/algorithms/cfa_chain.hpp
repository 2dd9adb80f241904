#pragma once
// Internal: the Constraint Force Algorithm on a chain in absolute (world) coordinates — seed 004
// Eq. 16 with the corrected T_1' (spec §3.4, steps 1-6). Body i hangs from body i−1 by joint i
// (joint 0 from the ground, whose acceleration here is zero: the velocity, gravity and branch
// terms were removed before, τ' = τ − ID(q, q̇, 0)).
//
// Every block is padded to 6 x 6 so that all arithmetic is fixed-size: h_i, h̃_i use their first
// n_i columns (zero after), h_i^⊥ its first m_i = 6 − n_i columns (zero after), and the padded
// entries of A_ii = h_i^⊥ᵀ (I_i⁻¹ + I_{i−1}⁻¹) h_i^⊥ get a 1 on the diagonal, so the padded μ
// entries decouple and stay 0. A floating base (n_0 = 6) has no constraint rows at all.
//
// The stages work on an index range [i0, i1) so that the parallel CFA can split them between
// threads; between stages every index of the previous stage must be done (a barrier).
#include <vector>

#include "grbda/spatial/types.hpp"

namespace grbda::detail {

struct CfaChain {
  int N = 0;
  // inputs, per joint / body i
  std::vector<int> n;          ///< degrees of freedom n_i of joint i
  std::vector<Mat6> Iinv;      ///< I_i⁻¹: inverse (articulated) inertia of body i, world coordinates
  std::vector<Mat6> h;         ///< h_i: motion subspace of joint i, world coordinates
  std::vector<Mat6> ht;        ///< h̃_i: the T_1' block, h_iᵀ h̃_i = 1 (Eq. 16)
  std::vector<Mat6> hp;        ///< h_i^⊥: constraint-force subspace, h_iᵀ h_i^⊥ = 0
  std::vector<Vec6> tau;       ///< τ'_i (first n_i entries)
  // stage results
  std::vector<Mat6> D, L, U;   ///< A_ii, A_{i,i−1}, A_{i,i+1} (during reduction: to the active neighbours)
  std::vector<Vec6> b, mu;     ///< right side T_2ᵀ I⁻¹ T_1' τ' and multipliers μ
  std::vector<Mat6> Dinv;      ///< Thomas: S_i⁻¹; cyclic reduction: D_j⁻¹ of the eliminated j
  std::vector<Vec6> y;         ///< Thomas forward-substitution vector
  std::vector<Vec6> w;         ///< wrench through joint i onto body i: h̃_i τ'_i − h_i^⊥ μ_i
  std::vector<Vec6> a;         ///< body accelerations a = I⁻¹ Pᵀ w
  std::vector<Vec6> qdd;       ///< q̈_i = h̃_iᵀ (a_i − a_{i−1}) (first n_i entries)
  int levels = 0;              ///< elimination levels of the last cyclic reduction

  void resize(int size);

  /// Steps 1-4 assembled per joint (Eq. 16): D_i, L_i, U_i, b_i. Reads I⁻¹, h^⊥, h̃, τ' of i−1, i, i+1.
  void assemble(int i0, int i1);
  /// Serial block Thomas (block LDLᵀ) solve of A μ = b. false if a pivot is not SPD.
  bool solveThomas();
  /// Steps 5-6, first half: w_i and a_i = I_i⁻¹ (w_i − w_{i+1}). Reads μ of i, i+1.
  void accelerations(int i0, int i1);
  /// Step 6, second half: q̈_i = h̃_iᵀ (a_i − a_{i−1}).
  void jointAccelerations(int i0, int i1);
};

/// Block odd-even cyclic reduction of the same system (spec §3.4 step 4, parallel form). Level
/// ℓ (stride s = 2^ℓ) has the active indices i with (i+1) mod s = 0; those with (i+1)/s odd are
/// eliminated, the others are kept and coupled to their neighbours at distance 2s. On N = 2^k
/// blocks it takes k levels. Each stage below is independent over its index set, so it can be
/// split between threads; all threads call them in the same order with a barrier between.
struct CyclicReduction {
  /// Number of elimination levels for N blocks: ⌊log2 N⌋ (k for N = 2^k).
  static int levelCount(int N);
  /// Level ℓ, phase 1: D_j⁻¹ of the eliminated j, split as the t-th of T parts. false: not SPD.
  static bool invertEliminated(CfaChain& c, int level, int t, int T);
  /// Level ℓ, phase 2: update the kept equations (Schur complement).
  static void reduceKept(CfaChain& c, int level, int t, int T);
  /// After the last level: solve the one remaining equation (every thread may call; t = 0 works).
  static bool solveRoot(CfaChain& c, int t);
  /// Back substitution of level ℓ (call for ℓ = levels−1 … 0).
  static void backSubstitute(CfaChain& c, int level, int t, int T);
};

}  // namespace grbda::detail
