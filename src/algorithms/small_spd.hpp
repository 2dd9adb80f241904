#pragma once
// Internal: inverse of a small symmetric positive-definite matrix of compile-time size D
// (the D_k = S_k^T IA_k S_k of C-ABA, d_k ≤ 6). A Cholesky factorisation written as plain
// loops over compile-time bounds, so the compiler unrolls it: Eigen's LLT solve against an
// identity right-hand side goes through its blocked matrix-triangular-solve path, which costs
// several times more than the arithmetic for 6 x 6.
#include <Eigen/Core>
#include <cmath>

namespace grbda::detail {

/// Ainv = A^{-1} and det = det A for symmetric A (only the lower triangle is read). Returns false
/// unless every Cholesky pivot is positive and finite (A not positive definite, or NaN).
template <int D, class In, class Out>
bool spdInverse(const In& A, Out& Ainv, double& det) {
  static_assert(D > 0, "fixed size only");
  if constexpr (D == 1) {
    if (!(A(0, 0) > 0.0) || !std::isfinite(A(0, 0))) return false;
    Ainv(0, 0) = 1.0 / A(0, 0);
    det = A(0, 0);
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
    return true;
  }
}

/// Ainv = A^{-1} without the determinant.
template <int D, class In, class Out>
bool spdInverse(const In& A, Out& Ainv) {
  double det = 0.0;
  return spdInverse<D>(A, Ainv, det);
}

}  // namespace grbda::detail
