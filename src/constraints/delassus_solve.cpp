// L λ = b for the Delassus matrix L = J H⁻¹ Jᵀ (symmetric positive semi-definite, m x m), shared by
// PV, KKT and the proximal solver. Full-rank L: one Cholesky factorisation. Redundant rows make
// L singular; then the proximal method of multipliers (L + μ1) λ_{j+1} = b + μ λ_j, started at
// λ_0 = 0, converges to the least-norm λ when the rows are consistent (b ∈ range L).
#include <algorithm>
#include <string>

#include "../algorithms/small_spd.hpp"
#include "../log.hpp"
#include "constraint_rows.hpp"
#include "grbda/errors.hpp"

namespace grbda::detail {

namespace {

/// Rank of L from its pivoted LDLᵀ: pivots above 1e-10 of the largest diagonal entry.
int numericalRank(ConstraintData::RowSystem& sys, double scale) {
  sys.ldlt.compute(sys.L);
  int rank = 0;
  for (Eigen::Index i = 0; i < sys.ldlt.vectorD().size(); ++i)
    if (std::abs(sys.ldlt.vectorD()[i]) > 1e-10 * scale) ++rank;
  return rank;
}

}  // namespace

void solveDelassus(ConstraintData::RowSystem& sys, ConstraintData& cd, const ConstraintSolverSettings& settings,
                   bool proximal, const char* algorithm) {
  const int m = sys.size();
  cd.iterations = 0;
  cd.rank = proximal ? -1 : m;  // the proximal method does not measure it
  cd.redundant = false;
  if (m == 0) return;
  double scale = 0.0;
  for (int i = 0; i < m; ++i) scale = std::max(scale, sys.L(i, i));
  if (!(scale > 0.0)) scale = 1.0;
  if (!proximal) {
    if (choleskyLower(sys.L, sys.factor, m, 1e-10 * scale)) {  // pivots C_ii² against the matrix scale
      sys.lambda = sys.b;
      forwardSubstitute(sys.factor, m, sys.lambda);
      backSubstitute(sys.factor, m, sys.lambda);
      return;
    }
    cd.rank = numericalRank(sys, scale);
    cd.redundant = cd.rank < m;
    if (cd.redundant && !cd.warnedRedundant) {
      cd.warnedRedundant = true;
      log().warn("{}: the constraint rows are redundant (rank {} of {} rows); solving by proximal regularisation "
                 "for a least-norm force",
                 algorithm, cd.rank, m);
    }
  }
  // proximal method of multipliers
  const double mu = std::max(settings.mu, 1e-14) * scale;
  for (int i = 0; i < m; ++i) sys.L(i, i) += mu;
  sys.llt.compute(sys.L);
  if (sys.llt.info() != Eigen::Success)
    throw NumericalError(std::string(algorithm) + ": the regularised Delassus matrix is not positive definite");
  sys.lambda.setZero();
  const double bNorm = sys.b.cwiseAbs().maxCoeff();
  double residual = 0.0;
  for (int it = 0; it < std::max(settings.maxIterations, 1); ++it) {
    sys.lambdaPrev = sys.lambda;
    sys.lambda = sys.b + mu * sys.lambdaPrev;
    sys.llt.solveInPlace(sys.lambda);
    cd.iterations = it + 1;
    // ‖L λ − b‖∞ with L = (L + μ1) − μ1: the regularised matrix times λ is b + μ λ_prev
    residual = (mu * (sys.lambdaPrev - sys.lambda)).cwiseAbs().maxCoeff();
    if (residual <= settings.tolerance * (1.0 + bNorm)) break;
  }
  for (int i = 0; i < m; ++i) sys.L(i, i) -= mu;
  if (cd.redundant && residual > 1e-6 * (1.0 + bNorm))
    throw NumericalError(std::string(algorithm) + ": the constraint rows are inconsistent (rank " +
                         std::to_string(cd.rank) + " of " + std::to_string(m) +
                         "): no constraint force satisfies them all (residual " + std::to_string(residual) + ")");
}

void solveSoftDelassus(ConstraintData::RowSystem& sys, const char* algorithm) {
  if (sys.size() == 0) return;
  sys.llt.compute(sys.L);
  if (sys.llt.info() != Eigen::Success)
    throw NumericalError(std::string(algorithm) +
                         ": the soft Delassus matrix J H⁻¹ Jᵀ + R is not positive definite (non-finite state)");
  sys.lambda = sys.b;
  sys.llt.solveInPlace(sys.lambda);
}

}  // namespace grbda::detail
