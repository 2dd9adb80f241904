#pragma once
// Internal: inverse of a small symmetric positive-definite matrix of compile-time size D
// (the D_k = S_k^T IA_k S_k of C-ABA, d_k ≤ 6). A Cholesky factorisation written as plain
// loops over compile-time bounds, so the compiler unrolls it: Eigen's LLT solve against an
// identity right-hand side goes through its blocked matrix-triangular-solve path, which costs
// several times more than the arithmetic for 6 x 6.
#include <Eigen/Core>
#include <cmath>

namespace grbda::detail {

/// Ainv = A^{-1} and det = det A for symmetric A (only the lower triangle is read); with Linv,
/// also the inverse L⁻¹ of A's Cholesky factor (A = L Lᵀ, lower triangular, upper part zero).
/// Returns false unless every Cholesky pivot is positive and finite (A not positive definite, or NaN).
template <int D, class In, class Out>
bool spdInverse(const In& A, Out& Ainv, double& det, Eigen::Matrix<double, D, D>* Linv = nullptr) {
  static_assert(D > 0, "fixed size only");
  if constexpr (D == 1) {
    if (!(A(0, 0) > 0.0) || !std::isfinite(A(0, 0))) return false;
    Ainv(0, 0) = 1.0 / A(0, 0);
    det = A(0, 0);
    if (Linv) (*Linv)(0, 0) = std::sqrt(Ainv(0, 0));
    return true;
  } else {
    // A = L L^T, then A^{-1} = L^{-T} L^{-1} with W = L^{-1} (lower triangular).
    double L[D][D] = {};
    double invDiag[D];
    det = 1.0;
    for (int j = 0; j < D; ++j) {
      double pivot = A(j, j);
      for (int k = 0; k < j; ++k) pivot -= L[j][k] * L[j][k];
      if (!(pivot > 0.0) || !std::isfinite(pivot)) return false;
      det *= pivot;
      const double ljj = std::sqrt(pivot);
      L[j][j] = ljj;
      invDiag[j] = 1.0 / ljj;
      for (int i = j + 1; i < D; ++i) {
        double s = A(i, j);
        for (int k = 0; k < j; ++k) s -= L[i][k] * L[j][k];
        L[i][j] = s * invDiag[j];
      }
    }
    double W[D][D] = {};
    for (int j = 0; j < D; ++j) {
      W[j][j] = invDiag[j];
      for (int i = j + 1; i < D; ++i) {
        double s = 0.0;
        for (int k = j; k < i; ++k) s -= L[i][k] * W[k][j];
        W[i][j] = s * invDiag[i];
      }
    }
    for (int i = 0; i < D; ++i)
      for (int j = 0; j <= i; ++j) {
        double s = 0.0;
        for (int k = i; k < D; ++k) s += W[k][i] * W[k][j];  // (W^T W)(i, j)
        Ainv(i, j) = s;
        Ainv(j, i) = s;
      }
    if (Linv)
      for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) (*Linv)(i, j) = j <= i ? W[i][j] : 0.0;
    return true;
  }
}

/// Ainv = A^{-1} without the determinant.
template <int D, class In, class Out>
bool spdInverse(const In& A, Out& Ainv) {
  double det = 0.0;
  return spdInverse<D>(A, Ainv, det);
}

/// C Cᵀ = A for the n x n leading block of symmetric A (lower triangle read; C may be A itself,
/// the factor then overwrites A's lower triangle). Returns false unless every pivot C_jj² exceeds
/// minPivot (≥ 0): A not positive definite, ill-conditioned, or NaN. Plain loops, for the small
/// dense systems of the constraint solvers, where Eigen's LLT spends more on bookkeeping than on
/// arithmetic.
template <class In, class Out>
bool choleskyLower(const In& A, Out& C, int n, double minPivot = 0.0) {
  for (int j = 0; j < n; ++j) {
    double pivot = A(j, j);
    for (int k = 0; k < j; ++k) pivot -= C(j, k) * C(j, k);
    if (!(pivot > minPivot) || !std::isfinite(pivot)) return false;
    const double cjj = std::sqrt(pivot), inv = 1.0 / cjj;
    C(j, j) = cjj;
    for (int i = j + 1; i < n; ++i) {
      double s = A(i, j);
      for (int k = 0; k < j; ++k) s -= C(i, k) * C(j, k);
      C(i, j) = s * inv;
    }
  }
  return true;
}

/// x ← C⁻¹ x for the lower-triangular n x n factor C (x: a vector or the rows of a matrix).
template <class Factor, class X>
void forwardSubstitute(const Factor& C, int n, X& x) {
  for (int i = 0; i < n; ++i) {
    if constexpr (X::ColsAtCompileTime == 1) {
      double s = x[i];
      for (int k = 0; k < i; ++k) s -= C(i, k) * x[k];
      x[i] = s / C(i, i);
    } else {
      for (int k = 0; k < i; ++k) x.row(i) -= C(i, k) * x.row(k);
      x.row(i) /= C(i, i);
    }
  }
}

/// x ← C⁻ᵀ x.
template <class Factor, class X>
void backSubstitute(const Factor& C, int n, X& x) {
  for (int i = n - 1; i >= 0; --i) {
    if constexpr (X::ColsAtCompileTime == 1) {
      double s = x[i];
      for (int k = i + 1; k < n; ++k) s -= C(k, i) * x[k];
      x[i] = s / C(i, i);
    } else {
      for (int k = i + 1; k < n; ++k) x.row(i) -= C(k, i) * x.row(k);
      x.row(i) /= C(i, i);
    }
  }
}

}  // namespace grbda::detail
