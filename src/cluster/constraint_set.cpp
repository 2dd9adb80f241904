#include "constraint_set.hpp"

#include <cmath>
#include <string>

#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

namespace {
// Fixed-capacity buffers: gathering a constraint's coordinates allocates nothing.
using LocalVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, ConstraintSet::kMaxCoordinates, 1>;
using LocalJacobian =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, ConstraintSet::kMaxRows, ConstraintSet::kMaxCoordinates>;
using LocalRows = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, ConstraintSet::kMaxRows, 1>;

/// Local row i of the constraint that fills row r of the entry's block.
int sourceRow(const ImplicitEntry& e, int r) { return e.rowsSelected ? e.keptRows[static_cast<size_t>(r)] : r; }

/// Copies the entry's used rows of a full local evaluation into its block of `out`.
template <typename Full, typename Out>
void scatterRows(const ImplicitEntry& e, const Full& full, Out&& out) {
  for (int r = 0; r < e.numRows(); ++r) out.row(e.row + r) = full.row(sourceRow(e, r));
}
}  // namespace

ConstraintSet::ConstraintSet(int numSpanning, std::vector<bool> independent, MatX couplingRows,
                             std::vector<ImplicitEntry> implicit)
    : nspan_(numSpanning), Kcoupling_(std::move(couplingRows)), implicit_(std::move(implicit)) {
  nrows_ = static_cast<int>(Kcoupling_.rows());
  for (const auto& e : implicit_) {
    if (e.constraint->numRows() > kMaxRows || e.constraint->numCoordinates() > kMaxCoordinates)
      throw ModelError("constraint too large: " + std::to_string(e.constraint->numRows()) + " rows over " +
                       std::to_string(e.constraint->numCoordinates()) + " coordinates (at most " +
                       std::to_string(kMaxRows) + " x " + std::to_string(kMaxCoordinates) + ")");
    nrows_ += e.numRows();
  }
  for (int c = 0; c < nspan_; ++c) (independent[static_cast<size_t>(c)] ? independent_ : dependent_).push_back(c);
  if (isStatic() && nrows_ > 0 && static_cast<int>(dependent_.size()) == nrows_) {
    ClusterData cd;
    cd.K = Kcoupling_;
    cd.k = VecX::Zero(nrows_);
    cd.Kd.resize(nrows_, nrows_);
    cd.Ki.resize(nrows_, numIndependent());
    cd.KdInvKi.resize(nrows_, numIndependent());
    cd.G.resize(nspan_, numIndependent());
    cd.g.resize(nspan_);
    if (explicitFormG(cd)) Gstatic_ = cd.G;
  } else if (isStatic() && nrows_ == 0) {
    Gstatic_ = MatX::Identity(nspan_, nspan_);
  }
}

namespace {
/// The entry's coordinates of a cluster-local vector.
LocalVector gather(const ImplicitEntry& e, const double* x) {
  const int n = e.constraint->numCoordinates();
  LocalVector local(n);
  for (int j = 0; j < n; ++j) local[j] = x[e.columns[static_cast<size_t>(j)]];
  return local;
}

/// Every entry's rows of a K-shaped matrix from eval(entry, local m x n block).
template <class Eval>
void stackJacobians(const std::vector<ImplicitEntry>& implicit, MatX& K, Eval eval) {
  for (const auto& e : implicit) {
    const int n = e.constraint->numCoordinates();
    LocalJacobian Klocal(e.constraint->numRows(), n);
    eval(e, Klocal);
    const int used = e.numRows();
    K.middleRows(e.row, used).setZero();
    for (int r = 0; r < used; ++r)
      for (int j = 0; j < n; ++j) K(e.row + r, e.columns[static_cast<size_t>(j)]) += Klocal(sourceRow(e, r), j);
  }
}

/// Every entry's rows of a k-shaped vector from eval(entry, local rows).
template <class Eval>
void stackRows(const std::vector<ImplicitEntry>& implicit, VecX& k, Eval eval) {
  for (const auto& e : implicit) {
    const int m = e.constraint->numRows();
    if (!e.rowsSelected) {
      eval(e, k.segment(e.row, m));
    } else {
      LocalRows full(m);
      eval(e, full);
      scatterRows(e, full, k);
    }
  }
}
}  // namespace

void ConstraintSet::jacobian(const double* q, ClusterData& cd) const {
  const Eigen::Index nc = Kcoupling_.rows();
  if (nc > 0) cd.K.topRows(nc) = Kcoupling_;
  stackJacobians(implicit_, cd.K, [&](const ImplicitEntry& e, auto& K) { e.constraint->jacobian(gather(e, q), K); });
}

void ConstraintSet::bias(const double* q, const double* qd, ClusterData& cd) const {
  const Eigen::Index nc = Kcoupling_.rows();
  if (nc > 0) cd.k.head(nc).setZero();
  stackRows(implicit_, cd.k,
            [&](const ImplicitEntry& e, auto&& k) { e.constraint->bias(gather(e, q), gather(e, qd), k); });
}

void ConstraintSet::jacobianDerivative(const double* q, const double* u, ClusterData& cd) const {
  const Eigen::Index nc = Kcoupling_.rows();
  if (nc > 0) cd.K.topRows(nc).setZero();  // couplings are constant
  stackJacobians(implicit_, cd.K, [&](const ImplicitEntry& e, auto& dK) {
    e.constraint->jacobianDerivative(gather(e, q), gather(e, u), dK);
  });
}

void ConstraintSet::biasDerivative(const double* q, const double* qd, const double* u, ClusterData& cd) const {
  const Eigen::Index nc = Kcoupling_.rows();
  if (nc > 0) cd.k.head(nc).setZero();
  stackRows(implicit_, cd.k, [&](const ImplicitEntry& e, auto&& dk) {
    e.constraint->biasDerivative(gather(e, q), gather(e, qd), gather(e, u), dk);
  });
}

void ConstraintSet::residual(const double* q, ClusterData& cd) const {
  const Eigen::Index nc = Kcoupling_.rows();
  if (nc > 0) cd.phi.head(nc).noalias() = Kcoupling_ * Eigen::Map<const VecX>(q, nspan_);
  for (const auto& e : implicit_) {
    const int m = e.constraint->numRows(), n = e.constraint->numCoordinates();
    LocalVector qLocal(n);
    for (int j = 0; j < n; ++j) qLocal[j] = q[e.columns[static_cast<size_t>(j)]];
    if (!e.rowsSelected) {
      e.constraint->residual(qLocal, cd.phi.segment(e.row, m));
    } else {
      LocalRows full(m);
      e.constraint->residual(qLocal, full);
      scatterRows(e, full, cd.phi);
    }
  }
}

bool ConstraintSet::factorKd(ClusterData& cd) const {
  for (size_t c = 0; c < dependent_.size(); ++c) cd.Kd.col(static_cast<Eigen::Index>(c)) = cd.K.col(dependent_[c]);
  cd.luKd.compute(cd.Kd);
  return kdPivotsAbove(cd, 1e-10);
}

bool ConstraintSet::kdPivotsAbove(const ClusterData& cd, double relative) const {
  // PartialPivLU does not report singularity: judge by the pivots of U relative to K's scale
  const auto piv = cd.luKd.matrixLU().diagonal().cwiseAbs();
  const double scale = std::max(1.0, cd.K.cwiseAbs().maxCoeff());
  return nrows_ == 0 || piv.minCoeff() > relative * scale;
}

bool ConstraintSet::explicitFormG(ClusterData& cd) const {
  if (!factorKd(cd)) return false;
  for (size_t c = 0; c < independent_.size(); ++c) cd.Ki.col(static_cast<Eigen::Index>(c)) = cd.K.col(independent_[c]);
  if (!independent_.empty()) cd.KdInvKi.noalias() = cd.luKd.solve(cd.Ki);  // Eigen: no solve with 0 columns
  cd.G.setZero();
  for (size_t c = 0; c < independent_.size(); ++c) cd.G(independent_[c], static_cast<Eigen::Index>(c)) = 1.0;
  for (size_t r = 0; r < dependent_.size(); ++r) cd.G.row(dependent_[r]) = -cd.KdInvKi.row(static_cast<Eigen::Index>(r));
  return true;
}

void ConstraintSet::explicitFormg(ClusterData& cd) const {
  cd.dq = cd.luKd.solve(cd.k);  // K_d^{-1} k
  cd.g.setZero();
  for (size_t r = 0; r < dependent_.size(); ++r) cd.g[dependent_[r]] = cd.dq[static_cast<Eigen::Index>(r)];
}

bool ConstraintSet::complete(double* q, ClusterData& cd, double tol, int maxIterations) const {
  // Newton on the dependent coordinates with a backtracking line search on |φ|: near a nearly
  // singular K_d (a pose close to a mechanism singularity) a full step can throw the linkage
  // onto another branch or a mirror root, while halving it keeps the iterate in the basin.
  const auto stepDependent = [&](double scale) {
    for (size_t r = 0; r < dependent_.size(); ++r) q[dependent_[r]] -= scale * cd.dq[static_cast<Eigen::Index>(r)];
  };
  residual(q, cd);
  double norm = cd.phi.norm();
  for (int it = 0; it <= maxIterations; ++it) {
    if (!std::isfinite(norm)) return false;
    // Converged. Near a singular root (a four-bar toggle) Newton creeps in linearly and stops
    // ~sqrt(tol) away, where K_d is nearly singular and G, g would be huge garbage instead of an
    // error: the last Newton K_d must have pivots clearly above that level.
    if (norm < tol) return (it == 0 || kdPivotsAbove(cd, 10.0 * std::sqrt(tol))) && isIntendedRoot(q);
    jacobian(q, cd);
    if (!factorKd(cd)) return false;
    cd.dq = cd.luKd.solve(cd.phi);
    double scale = 1.0;
    bool decreased = false;
    for (int halving = 0; halving < 12 && !decreased; ++halving, scale *= 0.5) {
      stepDependent(scale);
      residual(q, cd);
      const double trial = cd.phi.norm();
      if (trial < norm) {
        norm = trial;
        decreased = true;
      } else {
        stepDependent(-scale);  // undo
      }
    }
    if (!decreased) return false;  // a local minimum of |φ| that is not a root: no closure nearby
  }
  return false;
}

bool ConstraintSet::isIntendedRoot(const double* q) const {
  for (const auto& e : implicit_) {
    const int n = e.constraint->numCoordinates();
    LocalVector qLocal(n);
    for (int j = 0; j < n; ++j) qLocal[j] = q[e.columns[static_cast<size_t>(j)]];
    if (!e.constraint->isIntendedRoot(qLocal)) return false;
    if (!e.rowsSelected) continue;
    // redundant rows hold wherever the used ones do on the assembly's branch; elsewhere they
    // tell a configuration the redundancy does not survive (an inconsistent duplicate)
    LocalRows full(e.constraint->numRows());
    e.constraint->residual(qLocal, full);
    if (full.cwiseAbs().maxCoeff() > kRedundantRowTolerance) return false;
  }
  return true;
}

}  // namespace grbda::detail
