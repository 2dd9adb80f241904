// The regularised KKT matrix [H Kᵀ; K −μ1] on the pattern of ProximalData, its in-place
// Lᵀ D L factorisation (Featherstone's LTDL, RBDA Table 6.3, with supp(e) in place of the
// ancestor walk) and the two triangular solves. Quasi-definite: D > 0 on coordinates, D < 0 on
// constraint rows, whatever the rank of K, as long as μ > 0.
#include <cmath>
#include <string>

#include "grbda/errors.hpp"
#include "proximal_internal.hpp"

namespace grbda::detail {

void assembleKkt(const MatX& H, double mu, ProximalData& pd) {
  for (int e = 0; e < pd.numNodes; ++e) {
    const int ce = pd.nodeCoordinate[static_cast<size_t>(e)];
    pd.A(e, e) = ce >= 0 ? H(ce, ce) : -mu;
    for (int p = pd.suppStart[static_cast<size_t>(e)]; p < pd.suppStart[static_cast<size_t>(e) + 1]; ++p) {
      const int i = pd.supp[static_cast<size_t>(p)];
      const int ci = pd.nodeCoordinate[static_cast<size_t>(i)];
      double value = 0.0;  // rows never touch earlier unknowns initially
      if (ce >= 0) value = ci >= 0 ? H(ce, ci) : pd.K(pd.nodeRow[static_cast<size_t>(i)], ce);
      pd.A(e, i) = value;
    }
  }
}

void factorKkt(double mu, const MatX& H, ProximalData& pd, const char* algorithm) {
  // (maxCoeff of an empty diagonal is undefined: a model without degrees of freedom has H 0 x 0)
  const double hScale = std::max(H.size() > 0 ? H.diagonal().cwiseAbs().maxCoeff() : 0.0, 1e-300);
  const double kScale = pd.numRows > 0 ? pd.rowNormSq.maxCoeff() : 0.0;
  const double rowPivotFloor = 1e-10 * kScale / hScale;  // only used when μ = 0
  for (int e = pd.numNodes - 1; e >= 0; --e) {
    const double d = pd.A(e, e);
    const int row = pd.nodeRow[static_cast<size_t>(e)];
    if (row < 0 && !(d > 0.0 && std::isfinite(d)))
      throw NumericalError(std::string(algorithm) + ": H_tree is not positive definite (pivot " + std::to_string(d) +
                           " at spanning coordinate " + std::to_string(pd.nodeCoordinate[static_cast<size_t>(e)]) + ")");
    // a row pivot is −μ − (the row's part independent of the rows eliminated before, in the H⁻¹
    // metric): with μ = 0 a redundant row leaves roundoff only, judged against the largest row
    if (row >= 0 && !(d < 0.0 && std::isfinite(d) && (mu > 0.0 || -d > rowPivotFloor)))
      throw NumericalError(std::string(algorithm) + ": the constraint rows are redundant or singular (KKT pivot " +
                           std::to_string(d) + " at constraint row " + std::to_string(row) +
                           "); use a proximal regularisation mu > 0");
    pd.D[e] = d;
    const int begin = pd.suppStart[static_cast<size_t>(e)], end = pd.suppStart[static_cast<size_t>(e) + 1];
    for (int p = begin; p < end; ++p) {
      const int i = pd.supp[static_cast<size_t>(p)];
      const double a = pd.A(e, i) / d;
      if (a != 0.0)
        for (int q = p; q < end; ++q) {
          const int j = pd.supp[static_cast<size_t>(q)];
          pd.A(i, j) -= a * pd.A(e, j);
        }
      pd.A(e, i) = a;
    }
  }
}

void solveKkt(ProximalData& pd) {
  VecX& z = pd.z;
  z = pd.rhs;
  for (int e = pd.numNodes - 1; e >= 0; --e)  // Lᵀ w = b
    for (int p = pd.suppStart[static_cast<size_t>(e)]; p < pd.suppStart[static_cast<size_t>(e) + 1]; ++p)
      z[pd.supp[static_cast<size_t>(p)]] -= pd.A(e, pd.supp[static_cast<size_t>(p)]) * z[e];
  for (int e = 0; e < pd.numNodes; ++e) z[e] /= pd.D[e];
  for (int e = 0; e < pd.numNodes; ++e)  // L x = D⁻¹ w
    for (int p = pd.suppStart[static_cast<size_t>(e)]; p < pd.suppStart[static_cast<size_t>(e) + 1]; ++p)
      z[e] -= pd.A(e, pd.supp[static_cast<size_t>(p)]) * z[pd.supp[static_cast<size_t>(p)]];
}

}  // namespace grbda::detail
