// Public entry points of the dynamics derivatives (algorithms/derivatives.hpp).
#include "grbda/algorithms/derivatives.hpp"

#include <cmath>
#include <string>

#include "derivatives_internal.hpp"
#include "../../kernels/checks.hpp"
#include "../kept_loops_check.hpp"
#include "../../kernels/cluster_algorithms.hpp"
#include "../../kernels/cluster_state.hpp"
#include "../../cluster/cluster_joint.hpp"
#include "grbda/algorithms/dynamics.hpp"
#include "data_workspace.hpp"

namespace grbda {

namespace detail {

void sizeDerivatives(const Model& model, Data& data) {
  DataWorkspace& ws = data.work();
  DerivativesData& d = data.derivatives;
  const int nv = model.nv(), ns = model.nvSpanning();
  if (d.dtau_dq.rows() == nv && d.J.cols() == ns) return;
  const auto nb = static_cast<size_t>(model.numBodies());
  d.dtau_dq = d.dtau_dv = d.M = d.ddq_dq = d.ddq_dv = MatX::Zero(nv, nv);
  d.tau = d.ddq = VecX::Zero(nv);
  d.J = d.dJ = d.dVdq = d.dAdq = Mat6X::Zero(6, ns);
  d.IC.assign(nb, Mat6::Zero());
  d.BC.assign(nb, Mat6::Zero());
  d.vw.assign(nb, Vec6::Zero());
  d.aw.assign(nb, Vec6::Zero());
  d.F.assign(nb, Vec6::Zero());
  d.qddSpan = d.tauSpan = VecX::Zero(ns);
  d.dtauSpan_dq = d.dtauSpan_dv = d.HSpan = MatX::Zero(ns, ns);
  d.scratch = MatX::Zero(ns, nv);
  ws.derivativeClusters.assign(static_cast<size_t>(model.numClusters()), ClusterDerivativesData());
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    if (cl.joint->constraints().isStatic()) continue;
    ClusterDerivativesData& w = ws.derivativeClusters[static_cast<size_t>(k)];
    const int n = cl.nvSpan, m = cl.nvSpan - cl.nv;
    w.work = ws.clusters[static_cast<size_t>(k)];
    w.dG = MatX::Zero(n, cl.nv * cl.nv);
    w.dGyd = w.dAcc = w.dgdv = MatX::Zero(n, cl.nv);
    w.K0 = w.dK = MatX::Zero(m, n);
    w.dk = w.dkv = w.rhs = VecX::Zero(m);
    w.q = w.qd = VecX::Zero(n);
  }
}

/// q̈_s = G ÿ + g, cluster by cluster (at the kinematics in data).
void spanningAccelerations(const Model& model, Data& data, const VecRef& ydd) {
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = data.work().clusters[static_cast<size_t>(k)];
    auto qdd = data.derivatives.qddSpan.segment(cl.vSpanIndex, cl.nvSpan);
    qdd.noalias() = cd.G * ydd.segment(cl.vIndex, cl.nv);
    qdd += cd.g;
  }
}

void rneaDerivativesPrepared(const Model& model, Data& data, const VecRef& ydd, const WorldFixedForces* ext) {
  sizeDerivatives(model, data);
  spanningAccelerations(model, data, ydd);
  if (projectsInPass(model)) {  // constant Ĝ: projected inside the pass
    spanningRneaDerivatives(model, data, ext, true);
    return;
  }
  spanningRneaDerivatives(model, data, ext);
  clusterLocalDerivatives(model, data, ydd);
  projectDerivatives(model, data);
}

namespace {

/// A column-major n×n matrix in raw storage with leading dimension ld (a block of a MatX).
struct Dense {
  double* p;
  Eigen::Index ld;
  double& operator()(Eigen::Index r, Eigen::Index c) const { return p[c * ld + r]; }
  double* col(Eigen::Index c) const { return p + c * ld; }
};

/// In place: A = Lᵀ L with L lower triangular (Featherstone, RBDA §6.5, the LTL factorisation),
/// A's upper triangle read and L left in both triangles (Lᵀ above the diagonal, L below).
/// Factoring from the last coordinate up, a coordinate's row only meets the coordinates that
/// support it, so ℳ's zeros between unrelated branches stay zeros (no fill-in); they are skipped
/// as exact zeros. Worked on the upper triangle, where row k of L is column k of Lᵀ and every
/// update is a contiguous column segment. False if ℳ is not positive definite.
bool factorLtl(Dense A, int n) {
  for (int k = n - 1; k >= 0; --k) {
    const double akk = A(k, k);
    if (!(akk > 0.0)) return false;
    const double a = std::sqrt(akk), inv = 1.0 / a;
    A(k, k) = a;
    double* lk = A.col(k);  // L(k, 0..k-1) = Lᵀ(0..k-1, k)
    for (int i = 0; i < k; ++i) lk[i] *= inv;
    for (int i = 0; i < k; ++i) {
      const double lki = lk[i];
      if (lki == 0.0) continue;
      double* ai = A.col(i);  // A(0..i, i), the upper triangle's column i
      for (int j = 0; j <= i; ++j) ai[j] -= lki * lk[j];
    }
  }
  for (int c = 0; c < n; ++c)  // L below the diagonal, for the column-wise substitutions
    for (int r = c + 1; r < n; ++r) A(r, c) = A(c, r);
  return true;
}

/// W = L⁻¹ (lower triangular, upper triangle zeroed), column by column by forward substitution;
/// L⁻¹ has L's sparsity, so most updates are skipped as exact zeros.
void invertLower(Dense L, Dense W, int n) {
  for (int j = 0; j < n; ++j) {
    double* w = W.col(j);
    for (int i = 0; i < n; ++i) w[i] = 0.0;
    w[j] = 1.0;
    for (int i = j; i < n; ++i) {
      if (w[i] == 0.0) continue;
      const double xi = w[i] / L(i, i);
      w[i] = xi;
      const double* l = L.col(i);
      for (int k = i + 1; k < n; ++k) w[k] -= l[k] * xi;
    }
  }
}

/// The right-hand factor of a product: B(k, j) = p[k·rowStep + j·colStep].
struct Factor {
  const double* p;
  Eigen::Index rowStep, colStep;
  double operator()(int k, int j) const { return p[k * rowStep + j * colStep]; }
};

/// Rows r .. r+R of columns j .. j+C of out = sign · A B, summing over the k in `terms` (the
/// rows of B's columns j .. j+C not all exact zeros, as doubles): an R×C block of partial sums
/// held in registers while k runs, each column of A loaded once for C columns of out.
template <int R, int C>
void productBlock(Dense A, Factor B, const double* terms, int count, int r, int j, double sign, Dense out) {
  using Column = Eigen::Matrix<double, R, 1>;
  Eigen::Matrix<double, R, C> acc = Eigen::Matrix<double, R, C>::Zero();
  for (int t = 0; t < count; ++t) {
    const int k = static_cast<int>(terms[t]);
    const Eigen::Map<const Column> a(A.col(k) + r);
    for (int c = 0; c < C; ++c) acc.col(c).noalias() += a * B(k, j + c);
  }
  for (int c = 0; c < C; ++c) Eigen::Map<Column>(out.col(j + c) + r) = sign * acc.col(c);
}

/// Rows [rFirst, n) of columns j .. j+C of out = sign · A B (k < kEnd). The k whose C entries of
/// B are all exact zeros are dropped once, into `terms` (workspace of kEnd doubles), rather than
/// tested in every row block; then row blocks of 8, 4, 2, 1.
template <int C>
void productColumns(Dense A, Factor B, int kEnd, int rFirst, int n, int j, double sign, Dense out, double* terms) {
  int count = 0;
  for (int k = 0; k < kEnd; ++k) {
    bool any = false;
    for (int c = 0; c < C; ++c) any |= B(k, j + c) != 0.0;
    if (any) terms[count++] = k;
  }
  int r = rFirst;
  for (; r + 8 <= n; r += 8) productBlock<8, C>(A, B, terms, count, r, j, sign, out);
  if (r + 4 <= n) productBlock<4, C>(A, B, terms, count, r, j, sign, out), r += 4;
  if (r + 2 <= n) productBlock<2, C>(A, B, terms, count, r, j, sign, out), r += 2;
  if (r < n) productBlock<1, C>(A, B, terms, count, r, j, sign, out);
}

/// ℳ⁻¹ = L⁻¹ L⁻ᵀ = W Wᵀ. Its lower triangle, column j from row j: Σ_{k ≤ j} W.col(k) W(j, k)
/// (W is lower triangular, and W(j, k) ≠ 0 only for k supporting j), two columns at a time;
/// then mirrored, so exactly symmetric.
void inverseFromFactor(Dense W, MatX& Minv, int n, double* terms) {
  const Dense M{Minv.data(), Minv.rows()};
  const Factor Wt{W.p, W.ld, 1};  // Wᵀ(k, j) = W(j, k)
  int j = 0;
  for (; j + 2 <= n; j += 2) productColumns<2>(W, Wt, j + 2, j, n, j, 1.0, M, terms);
  if (j < n) productColumns<1>(W, Wt, j + 1, j, n, j, 1.0, M, terms);
  Minv.triangularView<Eigen::StrictlyUpper>() = Minv.transpose();
}

/// out = −ℳ⁻¹ B, two columns at a time, skipping B's exact zeros: ∂τ/∂y and ∂τ/∂ẏ vanish
/// between clusters of which neither supports the other (a third of the entries on a
/// quadruped), and a floating base's translation columns of ∂τ/∂y are zero.
void negativeMinvTimes(const MatX& Minv, const MatX& B, MatX& out, double* terms) {
  const int n = static_cast<int>(Minv.rows());
  const Dense A{const_cast<double*>(Minv.data()), Minv.rows()}, O{out.data(), out.rows()};
  const Factor F{B.data(), 1, B.rows()};
  int j = 0;
  for (; j + 2 <= n; j += 2) productColumns<2>(A, F, n, 0, n, j, -1.0, O, terms);
  if (j < n) productColumns<1>(A, F, n, 0, n, j, -1.0, O, terms);
}

}  // namespace

/// ℳ⁻¹, ∂ÿ/∂y = −ℳ⁻¹ ∂τ/∂y and ∂ÿ/∂ẏ = −ℳ⁻¹ ∂τ/∂ẏ (at the solved ÿ) from ℳ = ∂τ/∂ÿ, which the
/// RNEA-derivative pass has just formed. A sparse LTL factor of ℳ (no fill-in, O(n d²)) and its
/// inverse cost a fraction of the articulated ℳ⁻¹ pass; the two products with ℳ⁻¹ skip the
/// structural zeros of ∂τ/∂y, ∂τ/∂ẏ. Workspace: the factor in ddq_dq (overwritten last), L⁻¹ in
/// derivatives.scratch (nvSpanning × nv ⊇ nv × nv, free once the projection is done), the
/// products' lists of nonzero terms in whichever of ddq_dv and scratch is free at the time.
void solveWithMassMatrix(const Model& model, Data& data, const char* alg) {
  DerivativesData& d = data.derivatives;
  const int n = model.nv();
  d.ddq_dq.triangularView<Eigen::Upper>() = d.M;
  const Dense L{d.ddq_dq.data(), d.ddq_dq.rows()}, W{d.scratch.data(), d.scratch.rows()};
  if (!factorLtl(L, n)) throw NumericalError(std::string(alg) + ": the mass matrix is not positive definite");
  invertLower(L, W, n);
  if (data.Minv.rows() != n) data.Minv.resize(n, n);
  inverseFromFactor(W, data.Minv, n, d.ddq_dv.data());  // ddq_dv: free until the last product
  if (!std::isfinite(data.Minv.sum())) throw NumericalError(std::string(alg) + ": the result is not finite (singular inertia)");
  negativeMinvTimes(data.Minv, d.dtau_dq, d.ddq_dq, d.scratch.data());  // scratch: free once W is used
  negativeMinvTimes(data.Minv, d.dtau_dv, d.ddq_dv, d.scratch.data());
}

}  // namespace detail

void computeRNEADerivatives(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd) {
  constexpr const char* alg = "computeRNEADerivatives";
  detail::checkVector(qdd, model.nv(), "qdd", alg);
  detail::prepareState(model, data, q, &v, alg);
  detail::rneaDerivativesPrepared(model, data, qdd);
  detail::checkResult(data.derivatives.tau, "tau", alg);
}

void computeABADerivatives(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau) {
  constexpr const char* alg = "computeABADerivatives";
  detail::refuseKeptLoops(model, alg);
  detail::checkVector(tau, model.nv(), "tau", alg);
  detail::prepareState(model, data, q, &v, alg);
  if (!detail::clusterAba(model, data, tau, nullptr))
    throw NumericalError(std::string(alg) + ": an articulated joint-space inertia D_k is not positive definite");
  detail::sizeDerivatives(model, data);
  DerivativesData& d = data.derivatives;
  d.ddq = data.qdd;
  detail::rneaDerivativesPrepared(model, data, d.ddq);  // at forwardDynamics' kinematics
  detail::solveWithMassMatrix(model, data, alg);
  detail::checkResult(d.ddq, "qdd", alg);
}

}  // namespace grbda
