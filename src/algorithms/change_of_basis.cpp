// Change of basis (seed 004, spec §3.2-3.3; Featherstone & Fijany Eq. 1-10). Dense Eigen.
#include "grbda/algorithms/change_of_basis.hpp"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <string>

#include "grbda/errors.hpp"

namespace grbda::cob {

namespace {

std::string shape(const MatX& A) { return std::to_string(A.rows()) + "x" + std::to_string(A.cols()); }

void checkFinite(const MatX& A, const char* what, const char* fn) {
  if (!A.allFinite()) throw InputError(std::string("cob::") + fn + ": " + what + " has a non-finite entry");
}

/// Cholesky of an SPD matrix, or NumericalError naming it.
Eigen::LLT<MatX> spd(const MatX& A, const char* what, const char* fn) {
  Eigen::LLT<MatX> llt(A);
  if (llt.info() != Eigen::Success)
    throw NumericalError(std::string("cob::") + fn + ": " + what + " (" + shape(A) +
                         ") is not symmetric positive definite");
  return llt;
}

void checkM(const MatX& M, const char* fn) {
  if (M.rows() != M.cols() || M.rows() == 0)
    throw InputError(std::string("cob::") + fn + ": M must be square and non-empty, got " + shape(M));
  checkFinite(M, "M", fn);
  if (!M.isApprox(M.transpose(), 1e-10))
    throw InputError(std::string("cob::") + fn + ": M is not symmetric");
}

void checkBasis(const MatX& M, const MatX& B, const char* what, const char* fn) {
  if (B.rows() != M.rows())
    throw InputError(std::string("cob::") + fn + ": " + what + " has " + std::to_string(B.rows()) +
                     " rows, M is " + shape(M));
  checkFinite(B, what, fn);
  if (B.cols() > 0 && Eigen::ColPivHouseholderQR<MatX>(B).rank() < B.cols())
    throw NumericalError(std::string("cob::") + fn + ": the columns of " + what + " (" + shape(B) +
                         ") are linearly dependent (not a basis)");
}

}  // namespace

MatX reciprocalComplement(const MatX& S) {
  checkFinite(S, "S", "reciprocalComplement");
  // null(Sᵀ) from a full QR of S: the last n − r columns of Q
  Eigen::ColPivHouseholderQR<MatX> qr(S);
  const Eigen::Index r = qr.rank(), n = S.rows();
  const MatX Q = qr.householderQ() * MatX::Identity(n, n);
  return Q.rightCols(n - r);
}

MatX immobilisedOperator(const MatX& M, const MatX& T2) {
  checkM(M, "immobilisedOperator");
  checkBasis(M, T2, "T2", "immobilisedOperator");
  const Eigen::LLT<MatX> llt = spd(M, "M", "immobilisedOperator");
  const MatX MinvT2 = llt.solve(T2);                                          // M⁻¹ T_2
  const Eigen::LLT<MatX> A = spd(T2.transpose() * MinvT2, "T2ᵀ M⁻¹ T2", "immobilisedOperator");
  return MinvT2 * A.solve(MinvT2.transpose());                                // Eq. 3, 2nd term
}

MatX constrainedOperatorImplicit(const MatX& M, const MatX& T2) {
  const MatX immobilised = immobilisedOperator(M, T2);
  const MatX Minv = spd(M, "M", "constrainedOperatorImplicit").solve(MatX::Identity(M.rows(), M.cols()));
  return Minv - immobilised;                                                  // Eq. 8, right
}

MatX constrainedOperatorExplicit(const MatX& M, const MatX& S1) {
  checkM(M, "constrainedOperatorExplicit");
  checkBasis(M, S1, "S1", "constrainedOperatorExplicit");
  const Eigen::LLT<MatX> A = spd(S1.transpose() * M * S1, "S1ᵀ M S1", "constrainedOperatorExplicit");
  return S1 * A.solve(S1.transpose());                                        // Eq. 7
}

Bases changeOfBasis(const MatX& M, const MatX& S1) {
  checkM(M, "changeOfBasis");
  checkBasis(M, S1, "S1", "changeOfBasis");
  const Eigen::LLT<MatX> llt = spd(M, "M", "changeOfBasis");
  Bases b;
  b.S1 = S1;
  b.T2 = reciprocalComplement(S1);                                            // T_2 = S_1^⊥
  b.T1 = M * S1 * spd(S1.transpose() * M * S1, "S1ᵀ M S1", "changeOfBasis").solve(MatX::Identity(S1.cols(), S1.cols()));
  const MatX MinvT2 = llt.solve(b.T2);
  b.S2 = MinvT2 * spd(b.T2.transpose() * MinvT2, "T2ᵀ M⁻¹ T2", "changeOfBasis")
                      .solve(MatX::Identity(b.T2.cols(), b.T2.cols()));      // Eq. 2
  return b;
}

MatX reducedInverse(const MatX& M, const MatX& T2, const MatX& T1prime, const MatX& S1) {
  checkBasis(M, T1prime, "T1'", "reducedInverse");
  checkBasis(M, S1, "S1", "reducedInverse");
  if (T1prime.cols() != S1.cols())
    throw InputError("cob::reducedInverse: T1' has " + std::to_string(T1prime.cols()) + " columns, S1 has " +
                     std::to_string(S1.cols()));
  const double err = (S1.transpose() * T1prime - MatX::Identity(S1.cols(), S1.cols())).norm();
  if (!(err <= 1e-9 * (1.0 + S1.norm() * T1prime.norm())))
    throw InputError("cob::reducedInverse: S1ᵀ T1' is not the identity (|S1ᵀ T1' - 1| = " + std::to_string(err) + ")");
  return T1prime.transpose() * constrainedOperatorImplicit(M, T2) * T1prime;  // Eq. 10
}

}  // namespace grbda::cob
