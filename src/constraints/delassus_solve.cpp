// L λ = b for the Delassus matrix L = J H⁻¹ Jᵀ (symmetric positive semi-definite, m x m), shared by
// PV, KKT and the proximal solver. Full-rank L: one Cholesky factorisation. Redundant rows make
// L singular; then the minimum-norm λ from L's eigen-decomposition, and the part of b outside
// L's range judges whether the rows are consistent. The proximal solver iterates
// (L + μ1) λ_{j+1} = b + μ λ_j from λ_0 = 0 and falls back to the same minimum-norm solution
// when that does not converge.
#include <algorithm>
#include <cmath>
#include <string>

#include "../kernels/small_spd.hpp"
#include "../log.hpp"
#include "../kernels/constraint_rows.hpp"
#include "grbda/errors.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

namespace {

/// Eigen-decomposition of the symmetric L (lower triangle read) into A's diagonal w and V's columns by cyclic Jacobi rotations, in place
/// in preallocated buffers (Eigen's SelfAdjointEigenSolver allocates when it forms the vectors).
void symmetricEigen(const MatX& L, MatX& A, MatX& V, VecX& w) {
  const Eigen::Index n = L.rows();
  A = L.selfadjointView<Eigen::Lower>();
  V.setIdentity();
  for (int sweep = 0; sweep < 60; ++sweep) {
    double off = 0.0;
    for (Eigen::Index p = 0; p < n; ++p)
      for (Eigen::Index q = p + 1; q < n; ++q) off += A(p, q) * A(p, q);
    if (off <= 1e-30 * (A.diagonal().squaredNorm() + 1e-300)) break;
    for (Eigen::Index p = 0; p < n; ++p)
      for (Eigen::Index q = p + 1; q < n; ++q) {
        if (A(p, q) == 0.0) continue;
        const double theta = 0.5 * (A(q, q) - A(p, p)) / A(p, q);
        const double t = (theta >= 0.0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (Eigen::Index k = 0; k < n; ++k) {  // A ← Jᵀ A J on columns then rows p, q
          const double akp = A(k, p), akq = A(k, q);
          A(k, p) = c * akp - s * akq;
          A(k, q) = s * akp + c * akq;
        }
        for (Eigen::Index k = 0; k < n; ++k) {
          const double apk = A(p, k), aqk = A(q, k);
          A(p, k) = c * apk - s * aqk;
          A(q, k) = s * apk + c * aqk;
        }
        for (Eigen::Index k = 0; k < n; ++k) {
          const double vkp = V(k, p), vkq = V(k, q);
          V(k, p) = c * vkp - s * vkq;
          V(k, q) = s * vkp + c * vkq;
        }
      }
  }
  w = A.diagonal();
}

/// The minimum-norm least-squares λ of L λ = b (L symmetric positive semi-definite, lower
/// triangle read), from its eigen-decomposition with eigenvalues below 1e-10 of the largest
/// diagonal entry taken as zero: λ = Σ_{σ_i > tol} v_i (v_iᵀ b) / σ_i. Sets cd.rank and returns
/// ‖L λ − b‖∞, the part of b no force can meet (0 for consistent rows, to rounding).
double leastNormSolve(ConstraintWorkspace::RowSystem& sys, ConstraintData& cd, double scale) {
  symmetricEigen(sys.L, sys.eigA, sys.eigV, sys.eigW);  // buffers sized once (constraint_data.cpp)
  const VecX& sigma = sys.eigW;
  const MatX& V = sys.eigV;
  const double tol = 1e-10 * scale;
  sys.lambdaPrev.noalias() = V.transpose() * sys.b;
  int rank = 0;
  for (Eigen::Index i = 0; i < sigma.size(); ++i) {
    if (sigma[i] > tol) {
      sys.lambdaPrev[i] /= sigma[i];
      ++rank;
    } else {
      sys.lambdaPrev[i] = 0.0;
    }
  }
  sys.lambda.noalias() = V * sys.lambdaPrev;
  cd.rank = rank;
  sys.lambdaPrev.noalias() = sys.L.selfadjointView<Eigen::Lower>() * sys.lambda;
  sys.lambdaPrev -= sys.b;
  return sys.lambdaPrev.cwiseAbs().maxCoeff();
}

}  // namespace

void solveDelassus(ConstraintWorkspace::RowSystem& sys, ConstraintData& cd, const ConstraintSolverSettings& settings,
                   bool proximal, const char* algorithm) {
  const int m = sys.size();
  cd.iterations = 0;
  cd.rank = proximal ? -1 : m;  // the proximal method measures it only when it does not converge
  cd.redundant = false;
  cd.inconsistent = false;
  cd.inconsistency = 0.0;
  if (m == 0) return;
  double scale = 0.0;
  for (int i = 0; i < m; ++i) scale = std::max(scale, sys.L(i, i));
  if (!(scale > 0.0)) scale = 1.0;
  const double bNorm = sys.b.cwiseAbs().maxCoeff();
  const double allowed = allowedInconsistency(bNorm, settings);
  if (!proximal) {
    if (choleskyLower(sys.L, sys.factor, m, 1e-10 * scale)) {  // pivots C_ii² against the matrix scale
      sys.lambda = sys.b;
      forwardSubstitute(sys.factor, m, sys.lambda);
      backSubstitute(sys.factor, m, sys.lambda);
      return;
    }
    // Redundant rows: the minimum-norm λ (the proximal iteration converges to it only at the rate
    // μ / (σ + μ), far too slowly for eigenvalues σ near μ, and diverges for inconsistent rows).
    cd.inconsistency = leastNormSolve(sys, cd, scale);
    cd.redundant = cd.rank < m;
    if (cd.inconsistency > allowed)
      throw NumericalError(std::string(algorithm) + ": the constraint rows are inconsistent (rank " +
                           std::to_string(cd.rank) + " of " + std::to_string(m) +
                           "): no constraint force satisfies them all (the least-squares residual " +
                           std::to_string(cd.inconsistency) + " exceeds the " + std::to_string(allowed) +
                           " that drift and stabilisation explain); soft rows (method pv-soft, with a compliance) "
                           "or the proximal solver (a flagged least-squares force) accept such a set");
    if (cd.redundant && !cd.work().warnedRedundant) {
      cd.work().warnedRedundant = true;
      log().warn("{}: the constraint rows are redundant (rank {} of {} rows); the constraint force is the "
                 "minimum-norm one (cdata.redundant)",
                 algorithm, cd.rank, m);
    }
    return;
  }
  // proximal method of multipliers
  const double mu = std::max(settings.mu, 1e-14) * scale;
  for (int i = 0; i < m; ++i) sys.L(i, i) += mu;
  sys.llt.compute(sys.L);
  if (sys.llt.info() != Eigen::Success)
    throw NumericalError(std::string(algorithm) + ": the regularised Delassus matrix is not positive definite");
  sys.lambda.setZero();
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
  if (residual <= 1e-6 * (1.0 + bNorm)) return;
  // Not converged: redundant rows with eigenvalues near μ, or inconsistent rows (then λ grows
  // without bound). The same contract as the hard solvers, except that an inconsistent set is
  // not an error here: λ is the minimum-norm least-squares force, flagged in cd.inconsistent.
  cd.inconsistency = leastNormSolve(sys, cd, scale);
  cd.redundant = cd.rank < m;
  cd.inconsistent = cd.inconsistency > allowed;
  if (cd.inconsistent && !cd.work().warnedRedundant) {
    cd.work().warnedRedundant = true;
    log().warn("{}: the constraint rows are inconsistent (rank {} of {} rows, least-squares residual {}); the "
               "constraint force is the minimum-norm least-squares one (cdata.inconsistent)",
               algorithm, cd.rank, m, cd.inconsistency);
  }
}

void solveSoftDelassus(ConstraintWorkspace::RowSystem& sys, const char* algorithm) {
  if (sys.size() == 0) return;
  sys.llt.compute(sys.L);
  if (sys.llt.info() != Eigen::Success)
    throw NumericalError(std::string(algorithm) +
                         ": the soft Delassus matrix J H⁻¹ Jᵀ + R is not positive definite (non-finite state)");
  sys.lambda = sys.b;
  sys.llt.solveInPlace(sys.lambda);
}

}  // namespace grbda::detail
