// PV-early on the cluster tree (seed 003 §VIII, eqs. 56-68 with the sign of eq. 63 corrected;
// spec §2.6): Popov–Vereshchagin in which each cluster eliminates the constraint rows it
// determines as soon as it has seen them. No m x m Delassus matrix is formed: O(n + m) while at
// most six rows pass through any output body.
//
// Inward, after cluster k's articulated step, the m rows entering k (forces F on its bodies: the
// combinations its children passed on, then the rows on its own bodies) satisfy
//   b = Foᵀ a_o + Tᵀ D⁻¹ T λ,   T = Sᵀ F (d x m),   Fo = Xoutᵀ F − XU D⁻¹ T at the output body,
// once b = κ − e has taken this cluster's part, b −= Fᵀ c + Tᵀ D⁻¹ w (42c-e; a root cluster folds
// its known a_o = a_0 into c and w). Column-pivoted Householder Tᵀ Π = Q R splits the rows:
// U1 (rank r ≤ d) spans the range of Tᵀ D⁻¹ T, U2 its null space (65-67 are the d = 1 case).
// With M = U1ᵀ Tᵀ and Σ = M D⁻¹ Mᵀ = C Cᵀ:
//   λ̃ = Σ⁻¹ (U1ᵀ b − (Fo U1)ᵀ a_o)                                            (62)
// is a force Fo U1 λ̃ on the output body, affine in a_o, that folds into the parent as
//   IA_o += Gᵀ G,   pA_o −= Gᵀ g,   G = C⁻¹ (Fo U1)ᵀ,  g = C⁻¹ U1ᵀ b           (63, minus sign)
// while U2ᵀ b = (Fo U2)ᵀ a_o are rows the parent receives (F ← Fo U2, b ← U2ᵀ b). At a root no
// force can meet the rows U2 that remain: U2ᵀ b must vanish (redundant rows, their λ̂ = 0) or the
// set is infeasible (Remark 9: NumericalError).
// Outward, a_o known: λ̃ = C⁻ᵀ (g − G a_o), λ = Q [λ̃; λ̂] (64), ÿ_k gets D⁻¹ T λ, and λ is handed
// on: its first entries are the λ̂ of the children's passed rows, the rest the rows on k's bodies.
//
// Output bodies always fold with the general inertia transform (articulated_pass.hpp), so the
// added Gᵀ G needs no flag. Relative rows (two bodies) are solved by PV instead: their halves
// only become one row where the two support paths meet.
#include <algorithm>
#include <cmath>
#include <string>

#include "../kernels/articulated_pass.hpp"
#include "../kernels/constraint_rows.hpp"
#include "../kernels/constraint_solvers.hpp"
#include "row_propagation.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/errors.hpp"
#include "../kernels/small_spd.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

namespace {

using EarlyCluster = ConstraintWorkspace::EarlyCluster;

/// An elimination may add at most this multiple of the output body's articulated inertia (by
/// trace); stiffer ones are deferred to the parent (see EarlyElimination::eliminate).
constexpr double kMaxAddedInertia = 1e2;

/// Tᵀ Π = Q R in place on `a` (m x d, holding Tᵀ) by Householder reflections with column
/// pivoting, stopping at the first pivot column whose remaining norm is ≤ tol. Reflector j is
/// H_j = 1 − β_j v_j v_jᵀ with v_j = column j of `v` (zero above row j); Q = H_0 ⋯ H_{r−1}.
/// Returns the rank r; a(i, c) for i ≤ c < d, i < r holds R.
int pivotedHouseholder(Eigen::Ref<MatX> a, Eigen::Ref<MatX> v, Eigen::Ref<VecX> beta, int* perm, double tol) {
  const int m = static_cast<int>(a.rows()), d = static_cast<int>(a.cols());
  for (int c = 0; c < d; ++c) perm[c] = c;
  int r = 0;
  for (; r < std::min(m, d); ++r) {
    int pivot = r;
    double best = -1.0;
    for (int c = r; c < d; ++c) {
      const double n2 = a.col(c).tail(m - r).squaredNorm();
      if (n2 > best) best = n2, pivot = c;
    }
    const double norm = std::sqrt(best);
    if (!(norm > tol)) break;
    if (pivot != r) {
      a.col(pivot).swap(a.col(r));
      std::swap(perm[pivot], perm[r]);
    }
    auto vr = v.col(r);
    vr.head(r).setZero();
    vr.tail(m - r) = a.col(r).tail(m - r);
    vr[r] += vr[r] >= 0.0 ? norm : -norm;  // v = x − α e1 with α = −sign(x1) ‖x‖: no cancellation
    beta[r] = 2.0 / vr.tail(m - r).squaredNorm();
    for (int c = r; c < d; ++c) a.col(c).tail(m - r) -= (beta[r] * vr.tail(m - r).dot(a.col(c).tail(m - r))) * vr.tail(m - r);
  }
  return r;
}

/// x ← Qᵀ x = H_{r−1} ⋯ H_0 x.
template <class Vec>
void applyQt(const EarlyCluster& ec, int m, Vec&& x) {
  for (int j = 0; j < ec.rank; ++j) x -= (ec.beta[j] * ec.V.col(j).head(m).dot(x)) * ec.V.col(j).head(m);
}
/// x ← Q x = H_0 ⋯ H_{r−1} x.
template <class Vec>
void applyQ(const EarlyCluster& ec, int m, Vec&& x) {
  for (int j = ec.rank - 1; j >= 0; --j) x -= (ec.beta[j] * ec.V.col(j).head(m).dot(x)) * ec.V.col(j).head(m);
}

/// The inward hook: gather the rows entering cluster k, take its part of b, eliminate.
struct EarlyElimination {
  const Model& model;
  Data& data;
  ConstraintData& cd;
  Vec6 a0;
  const ConstraintSolverSettings& settings;
  const char* algorithm;
  bool* unstable;  ///< set when an elimination would lose digits and its rows cannot be deferred
  double* bScale;  ///< the largest |b| met so far: the scale the consistency test uses, as PV's max |b|

  void operator()(int k, const Cluster& cl, ClusterData& kd) const {
    EarlyCluster& ec = cd.work().early[static_cast<size_t>(k)];
    if (*unstable) {  // the solve goes to PV: finish the pass as plain ABA
      ec.m = ec.rank = ec.passed = ec.qout = 0;
      return;
    }
    int m = 0, q = 0;
    for (int child : ec.children) {
      const EarlyCluster& ch = cd.work().early[static_cast<size_t>(child)];
      m += ch.passed;
      q += ch.qout;
    }
    // a deferring child's rows bring their inverse inertia L = Boutᵀ Bout: W's first q columns
    if (q > 0) ec.W.topLeftCorner(m, q).setZero();
    m = q = 0;
    for (int child : ec.children) {
      const EarlyCluster& ch = cd.work().early[static_cast<size_t>(child)];
      const int o = model.cluster(child).output;
      if (ch.qout > 0) ec.W.block(m, q, ch.passed, ch.qout) = ch.Bout.topLeftCorner(ch.qout, ch.passed).transpose();
      q += ch.qout;
      for (int j = 0; j < ch.passed; ++j, ++m) {
        ec.F.col(m) = ch.Fout.col(j);
        ec.b[m] = ch.bout[j];
        ec.bodyOf[static_cast<size_t>(m)] = o;
      }
    }
    ec.qin = q;
    for (size_t j = 0; j < ec.ownRows.size(); ++j, ++m) {
      const int r = ec.ownRows[j];
      ec.F.col(m) = cd.work().parts[static_cast<size_t>(cd.work().rowFirstPart[static_cast<size_t>(r)])].K;
      ec.b[m] = cd.work().kBiased[r];
      ec.bodyOf[static_cast<size_t>(m)] = ec.ownBody[j];
    }
    ec.m = m;
    ec.rank = ec.passed = ec.qout = 0;
    if (m > 0) withClusterDof(cl.nv, [&](auto D) { eliminate<decltype(D)::value>(cl, kd, ec); });
  }

  template <int D>
  void eliminate(const Cluster& cl, ClusterData& kd, EarlyCluster& ec) const {
    using Sz = Sizes<D>;
    const int d = cl.nv, m = ec.m;
    const bool root = cl.output < 0;
    const Eigen::Map<const typename Sz::MatD> Dinv(kd.Dinv.data(), d, d);
    freeMotion<D>(cl, kd, data, a0);
    const Eigen::Map<const typename Sz::VecD> z(kd.scratchD6.col(1).data(), d);
    Eigen::Map<Eigen::Matrix<double, D, Eigen::Dynamic>> T(ec.T.data(), d, m);
    double scaleF = 0.0, scaleB = 0.0;
    for (int j = 0; j < m; ++j) {  // t = Sᵀ F,  b −= Fᵀ c + tᵀ D⁻¹ w   (42d)
      const int body = ec.bodyOf[static_cast<size_t>(j)];
      T.col(j).noalias() = rowsOf<D>(kd.S, body - cl.firstBody).transpose() * ec.F.col(j);
      ec.b[j] -= ec.F.col(j).dot(predictedAcceleration(data, body, root)) + T.col(j).dot(z);
      scaleF = std::max(scaleF, ec.F.col(j).norm());
      scaleB = std::max(scaleB, std::abs(ec.b[j]));
    }
    // rank of T D⁻¹ Tᵀ = rank of T: pivots against the size of F and of S (gear ratios scale S)
    double scaleS = 0.0;  // (a zero-DoF cluster has no S to measure: every row passes through it)
    for (int r = 0; d > 0 && r < cl.numBodies; ++r) scaleS = std::max(scaleS, rowsOf<D>(kd.S, r).cwiseAbs().maxCoeff());
    const double tol = 1e-10 * scaleF * std::max(scaleS, 1.0);
    const int q = ec.qin, p = q + d;
    if (q > 0) {
      stackedFactor<D>(kd, ec, T);
    } else if constexpr (D == 1) {  // one reflection maps t to α e1; Σ = α² D⁻¹ (65-67)
      const double norm = T.row(0).norm();
      ec.rank = norm > tol ? 1 : 0;
      if (ec.rank == 1) {
        auto v = ec.V.col(0).head(m);
        v = T.row(0).transpose();
        v[0] += v[0] >= 0.0 ? norm : -norm;
        ec.beta[0] = 2.0 / v.squaredNorm();
        ec.C(0, 0) = norm * std::sqrt(Dinv(0, 0));
      }
    } else {
      auto qr = ec.QR.topLeftCorner(m, d);
      qr = T.transpose();
      ec.rank = pivotedHouseholder(qr, ec.V.topLeftCorner(m, d), ec.beta.head(d), ec.perm.data(), tol);
      // M = U1ᵀ Tᵀ = R Πᵀ (r x d), Σ = M D⁻¹ Mᵀ = C Cᵀ
      const int r = ec.rank;
      auto M = ec.M.topLeftCorner(r, d);
      M.setZero();
      for (int c = 0; c < d; ++c)
        for (int i = 0; i <= std::min(c, r - 1); ++i) M(i, ec.perm[static_cast<size_t>(c)]) = qr(i, c);
      auto DinvMt = ec.DinvMt.topLeftCorner(d, r);
      DinvMt.noalias() = Dinv * M.transpose();
      auto Sigma = ec.C.topLeftCorner(r, r);
      Sigma.noalias() = M * DinvMt;
      if (!choleskyLower(Sigma, Sigma, r))
        throw NumericalError(std::string(algorithm) + ": pv-early: the eliminated rows' inverse inertia is not "
                             "positive definite at cluster " + std::to_string(&ec - cd.work().early.data()) +
                             " (non-finite state?)");
    }
    const int r = ec.rank;
    ec.passed = m - r;
    *bScale = std::max(*bScale, scaleB);
    if (root) {  // the rows no force meets: consistent (redundant) or infeasible
      applyQtToB(ec, m, r);
      for (int j = 0; j < ec.passed; ++j)
        if (!(std::abs(ec.bout[j]) <= allowedInconsistency(*bScale, settings)))
          throw NumericalError(std::string(algorithm) + ": the constraint rows are inconsistent: " +
                               std::to_string(ec.passed) + " combination(s) of them cannot be met by any constraint "
                               "force (residual " + std::to_string(std::abs(ec.bout[j])) + ")");
      return;
    }
    // Fo = Xoutᵀ F − XU D⁻¹ T, then Fo Q = [Fo U1, Fo U2]
    const Eigen::Map<const Eigen::Matrix<double, D, 6>> DinvXUt(kd.DinvXUt.data(), d, 6);
    auto Fo = ec.Fout.leftCols(m);
    for (int j = 0; j < m; ++j) {
      Fo.col(j) = data.work().Xout[static_cast<size_t>(ec.bodyOf[static_cast<size_t>(j)])].applyTranspose(Vec6(ec.F.col(j)));
      Fo.col(j).noalias() -= DinvXUt.transpose() * T.col(j);
    }
    for (int j = 0; j < r; ++j) reflectForces(ec, m, j);
    for (int i = 0; i < r; ++i) ec.G.row(i) = Fo.col(i).transpose();
    forwardSubstitute(ec.C, r, ec.G);
    Mat6& IAo = data.work().IA[static_cast<size_t>(cl.output)];
    Vec6& pAo = data.work().pA[static_cast<size_t>(cl.output)];
    // Pivoting by deferral. Paired with a joint that barely moves them (|Sᵀ F u| small against
    // |F u|: the rows' point near the joint's axis line), eliminated rows put a stiff rank-r
    // inertia Gᵀ G = (Fo U1) Σ⁻¹ (Fo U1)ᵀ into the parent, which the next joint folds away
    // again: each such pair cancels log10(|Gᵀ G| / |IA_o|) digits of IA and pA, and every
    // ancestor inherits the loss (issue #27 item 2: a chain of 100 links with a contact on every
    // 4th, one pivot of 1.5e-3 m against links of ~0.3 m put 4e7 into an IA of ~30, and q̈
    // rootward of it was 1e-8…1e-6 off). Such rows go on to the parent unreduced, carrying
    // their inverse inertia L = W Wᵀ; there the parent's joint joins the elimination.
    // More rows than a deferral may carry: the elimination would still lose the digits, so the
    // whole solve goes to PV, whose rows never enter an articulated inertia (pvEarlyForwardDynamics).
    if (r > 0 && ec.G.topRows(r).squaredNorm() > kMaxAddedInertia * IAo.trace()) {
      if (std::min(p, m) > EarlyCluster::kMaxCarried) {
        *unstable = true;
        ec.m = ec.rank = ec.passed = ec.qout = 0;
        return;
      }
      for (int j = r - 1; j >= 0; --j) reflectForces(ec, m, j);  // Fo again (reflections are involutions)
      defer<D>(kd, ec, T);
      return;
    }
    applyQtToB(ec, m, r);
    for (int j = 0; j < ec.passed; ++j) ec.Fout.col(j) = ec.Fout.col(r + j);
    for (int i = 0; i < r; ++i) {
      const Vec6 Gi = ec.G.row(i).transpose();
      IAo.noalias() += Gi * Gi.transpose();  // (63)
      pAo -= ec.g[i] * Gi;                   // (63), sign corrected
    }
  }

  /// Fo ← Fo H_j for the j-th reflector (fixed-size 6-vector steps: the sizes are too small for
  /// Eigen's GEMV).
  static void reflectForces(EarlyCluster& ec, int m, int j) {
    auto Fo = ec.Fout.leftCols(m);
    const double* vj = ec.V.col(j).data();
    Vec6 Fv = Vec6::Zero();
    for (int c = j; c < m; ++c) Fv += vj[c] * Fo.col(c);
    Fv *= ec.beta[j];
    for (int c = j; c < m; ++c) Fo.col(c) -= vj[c] * Fv;
  }

  /// Qᵀ b in place: g = C⁻¹ U1ᵀ b, and U2ᵀ b for the parent.
  static void applyQtToB(EarlyCluster& ec, int m, int r) {
    auto qb = ec.b.head(m);
    applyQt(ec, m, qb);
    for (int i = 0; i < r; ++i) ec.g[i] = qb[i];
    forwardSubstitute(ec.C, r, ec.g);
    for (int j = 0; j < m - r; ++j) ec.bout[j] = qb[r + j];
  }

  /// W's last d columns: Tᵀ C with D⁻¹ = C Cᵀ, so that L = W Wᵀ = Lin + Tᵀ D⁻¹ T.
  template <int D>
  static void jointFactor(const ClusterData& kd, EarlyCluster& ec, const Eigen::Map<Eigen::Matrix<double, D, Eigen::Dynamic>>& T) {
    const int d = static_cast<int>(T.rows()), m = ec.m, q = ec.qin;
    auto C = ec.DinvMt.topLeftCorner(d, d);
    C.setZero();
    choleskyLower(kd.Dinv, C, d);  // D⁻¹ is positive definite (the pass checked D)
    for (int c = 0; c < d; ++c)  // plain loops: no product temporaries in a dynamics call
      for (int j = 0; j < m; ++j) {
        double s = 0.0;
        for (int i = c; i < d; ++i) s += T(i, j) * C(i, c);
        ec.W(j, q + c) = s;
      }
  }

  /// Rows entering with carried inverse inertias (a child deferred them): the rank-revealing
  /// split of L = W Wᵀ by column-pivoted Householder on W, Π-free Σ = U1ᵀ L U1 = R1 R1ᵀ.
  template <int D>
  void stackedFactor(const ClusterData& kd, EarlyCluster& ec, const Eigen::Map<Eigen::Matrix<double, D, Eigen::Dynamic>>& T) const {
    const int m = ec.m, p = ec.qin + static_cast<int>(T.rows());
    jointFactor<D>(kd, ec, T);
    auto qr = ec.Wqr.topLeftCorner(m, p);
    qr = ec.W.topLeftCorner(m, p);
    double scale = 0.0;
    for (int c = 0; c < p; ++c) scale = std::max(scale, qr.col(c).norm());
    ec.rank = pivotedHouseholder(qr, ec.V.topLeftCorner(m, p), ec.beta.head(p), ec.perm.data(), 1e-10 * scale);
    const int r = ec.rank;
    auto Sigma = ec.C.topLeftCorner(r, r);
    for (int i = 0; i < r; ++i)
      for (int j = 0; j <= i; ++j) Sigma(i, j) = qr.row(i).tail(p - i).dot(qr.row(j).tail(p - i));  // R upper: cols ≥ i
    if (!choleskyLower(Sigma, Sigma, r))
      throw NumericalError(std::string(algorithm) + ": pv-early: the eliminated rows' inverse inertia is not "
                           "positive definite at cluster " + std::to_string(&ec - cd.work().early.data()) +
                           " (non-finite state?)");
  }

  /// Hand every entering row on unreduced: Fo (restored by the caller), b, and a factor of L =
  /// W Wᵀ with at most m rows (Householder triangularisation of Wᵀ when p > m: L = Sᵀ S), so that a
  /// run of deferrals carries no more rows than it passes.
  template <int D>
  void defer(const ClusterData& kd, EarlyCluster& ec, const Eigen::Map<Eigen::Matrix<double, D, Eigen::Dynamic>>& T) const {
    const int m = ec.m, p = ec.qin + static_cast<int>(T.rows());
    if (ec.qin == 0) jointFactor<D>(kd, ec, T);  // (stackedFactor wrote it otherwise)
    if (p <= m) {
      ec.Bout.topLeftCorner(p, m) = ec.W.topLeftCorner(m, p).transpose();
      ec.qout = p;
    } else {
      Eigen::Map<MatX> S(ec.Wqr.data(), p, m);  // Wqr is free: nothing is eliminated here
      S = ec.W.topLeftCorner(m, p).transpose();
      for (int j = 0; j < m; ++j) {
        const double norm = S.col(j).tail(p - j).norm();
        if (norm == 0.0) continue;
        const double alpha = S(j, j) >= 0.0 ? -norm : norm;  // no cancellation in v_j
        const double v0 = S(j, j) - alpha, vv = v0 * v0 + S.col(j).tail(p - j - 1).squaredNorm();
        for (int c = j + 1; c < m; ++c) {  // S_c ← (1 − 2 v vᵀ / vᵀv) S_c, v = [v0; S(j+1:, j)]
          const double f = 2.0 * (v0 * S(j, c) + S.col(j).tail(p - j - 1).dot(S.col(c).tail(p - j - 1))) / vv;
          S(j, c) -= f * v0;
          S.col(c).tail(p - j - 1) -= f * S.col(j).tail(p - j - 1);
        }
        S(j, j) = alpha;
      }
      for (int i = 0; i < m; ++i)
        for (int c = 0; c < m; ++c) ec.Bout(i, c) = c >= i ? S(i, c) : 0.0;
      ec.qout = m;
    }
    ec.rank = 0;
    ec.passed = m;
    ec.bout.head(m) = ec.b.head(m);
  }
};

/// The outward hook at cluster k: λ of its entering rows (62, 64), t += T λ, hand λ on.
struct EarlyRollOut {
  const Model& model;
  const Data& data;
  ConstraintData& cd;

  template <class Vec>
  void operator()(int k, Vec& t) const {
    EarlyCluster& ec = cd.work().early[static_cast<size_t>(k)];
    const int m = ec.m, r = ec.rank, d = static_cast<int>(t.size());
    if (m == 0) return;
    const int o = model.cluster(k).output;
    auto lambda = ec.lambda.head(m);
    lambda.head(r) = ec.g.head(r);  // λ̃ = C⁻ᵀ (g − G a_o)
    if (o >= 0)
      for (int i = 0; i < r; ++i) lambda[i] -= ec.G.row(i).dot(data.a[static_cast<size_t>(o)].transpose());
    backSubstitute(ec.C, r, lambda);
    if (o >= 0) lambda.tail(ec.passed) = ec.lambdaOut.head(ec.passed);
    else lambda.tail(ec.passed).setZero();  // redundant combinations: no force
    applyQ(ec, m, lambda);
    for (int j = 0; j < m; ++j) t += lambda[j] * ec.T.col(j).head(d);
    int at = 0;
    for (int child : ec.children) {
      EarlyCluster& ch = cd.work().early[static_cast<size_t>(child)];
      ch.lambdaOut.head(ch.passed) = lambda.segment(at, ch.passed);
      at += ch.passed;
    }
    for (size_t j = 0; j < ec.ownRows.size(); ++j) cd.lambda[ec.ownRows[j]] = lambda[at + static_cast<int>(j)];
  }
};

}  // namespace

/// PV-early on the prepared state and gathered rows; PV when some row acts on two bodies.
void pvEarlyForwardDynamics(const Model& model, Data& data, ConstraintData& cd, const VecRef& tau,
                            const ExternalForces* fext, const ConstraintSolverSettings& settings,
                            const char* algorithm) {
  if (!cd.work().earlySupported) {
    pvForwardDynamics(model, data, cd, tau, fext, settings, false, algorithm);
    return;
  }
  const Vec6 a0 = gravityBias(model, data);
  ArticulatedPassInputs in;
  in.tau = &tau;
  in.fext = fext;
  // not a plain pass: the eliminated rows' inertias sit in the output bodies' IA
  bool unstable = false;
  double bScale = 0.0;
  const bool positive =
      articulatedPass<true>(model, data, in, NoLeafTerms{}, EarlyElimination{model, data, cd, a0, settings, algorithm, &unstable, &bScale}, false);
  if (unstable) {  // an ill-conditioned elimination that deferral could not take (rare): PV's answer
    pvForwardDynamics(model, data, cd, tau, fext, settings, false, algorithm);
    return;
  }
  if (!positive) throwArticulatedInertiaNotPositive(model, data, algorithm);
  outwardPass(model, data, a0, EarlyRollOut{model, data, cd});
  int rank = cd.work().numRows;
  for (int k = 0; k < model.numClusters(); ++k)
    if (model.cluster(k).output < 0) rank -= cd.work().early[static_cast<size_t>(k)].passed;
  cd.rank = rank;
  cd.redundant = rank < cd.work().numRows;
  cd.iterations = 0;
}

}  // namespace grbda::detail
