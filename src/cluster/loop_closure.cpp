#include "loop_closure.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "grbda/errors.hpp"
#include "grbda/spatial/cross.hpp"
#include "math_constants.hpp"

namespace grbda::detail {

namespace {

/// Kinematics of a loop frame relative to the NCA, all in NCA coordinates.
struct ChainState {
  Mat3 R;       ///< loop frame -> NCA rotation
  Vec3 p;       ///< loop frame origin
  Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, LoopClosureConstraint::kMaxChain> cols;  ///< joint columns (NCA origin)
  Vec6 V;       ///< spatial velocity of the last body (about the NCA origin)
  Vec6 Abias;   ///< spatial acceleration of the last body with q̈ = 0
};

void walkChain(const std::vector<ChainJoint>& chain, const Transform& origin, const double* q, const double* qd,
               ChainState& s) {
  Transform X;  // ^j X_NCA
  s.cols.resize(6, static_cast<Eigen::Index>(chain.size()));  // within kMaxChain (checked at build)
  s.V.setZero();
  s.Abias.setZero();
  for (size_t j = 0; j < chain.size(); ++j) {
    X = chain[j].joint.transformAfter(q + j, chain[j].Xtree) * X;
    const Vec6 col = X.applyInverse(chain[j].joint.subspace());
    s.cols.col(static_cast<Eigen::Index>(j)) = col;
    if (qd) {
      s.Abias += crossMotion(s.V, col) * qd[j];  // d/dt of a column fixed in body j: V_{j-1} × col
      s.V += col * qd[j];
    }
  }
  const Transform F = origin * X;
  s.R = F.E.transpose();
  s.p = F.r;
}

/// Point velocity row of a spatial column at point p: c_v + c_w × p.
Vec3 pointColumn(const Vec6& c, const Vec3& p) { return c.tail<3>() + c.head<3>().cross(p); }

/// Classical acceleration of point p with q̈ = 0.
Vec3 pointBias(const ChainState& s) {
  const Vec3 w = s.V.head<3>();
  const Vec3 vp = s.V.tail<3>() + w.cross(s.p);
  return s.Abias.tail<3>() + s.Abias.head<3>().cross(s.p) + w.cross(vp);
}

/// Classical velocity of point p.
Vec3 pointVelocity(const ChainState& s) { return s.V.tail<3>() + s.V.head<3>().cross(s.p); }

/// Position rows φ = N·d along directions N = R_P m fixed in the predecessor loop frame, with
/// d = (p_P − p_S)/L (prismatic and planar loops): φ̇ = ω_P·(N × d) + N·ḋ, and with Ṅ = ω_P × N
/// φ̈ = ω̇_P·(N × d) + ω_P·(Ṅ × d) + 2 Ṅ·ḋ + N·d̈, whose q̈ = 0 part is −k.
void directedPositionRows(const std::vector<Vec3>& directions, const ChainState& P, const ChainState& S,
                          Eigen::Index np, Eigen::Index ns, double perLength, LoopClosureConstraint::RowsBuffer* phi,
                          LoopClosureConstraint::JacobianBuffer* K, LoopClosureConstraint::RowsBuffer* k) {
  const Vec3 d = perLength * (P.p - S.p);
  for (size_t r = 0; r < directions.size(); ++r) {
    const auto row = static_cast<Eigen::Index>(r);
    const Vec3 N = P.R * directions[r], Nxd = N.cross(d);
    if (phi) (*phi)[row] = N.dot(d);
    if (K) {
      for (Eigen::Index j = 0; j < np; ++j)
        (*K)(row, j) = Nxd.dot(P.cols.col(j).head<3>()) + perLength * N.dot(pointColumn(P.cols.col(j), P.p));
      for (Eigen::Index j = 0; j < ns; ++j) (*K)(row, np + j) = -perLength * N.dot(pointColumn(S.cols.col(j), S.p));
    }
    if (k) {
      const Vec3 wP = P.V.head<3>(), dN = wP.cross(N);
      const Vec3 dd = perLength * (pointVelocity(P) - pointVelocity(S));
      const Vec3 ddBias = perLength * (pointBias(P) - pointBias(S));
      (*k)[row] = -(P.Abias.head<3>().dot(Nxd) + wP.dot(dN.cross(d)) + 2.0 * dN.dot(dd) + N.dot(ddBias));
    }
  }
}

}  // namespace

LoopClosureConstraint::LoopClosureConstraint(std::vector<ChainJoint> predecessorChain,
                                             const Transform& predecessorOrigin,
                                             std::vector<ChainJoint> successorChain,
                                             const Transform& successorOrigin, LoopType type, const Vec3& axis,
                                             const Vec3& axis2)
    : pred_(std::move(predecessorChain)),
      succ_(std::move(successorChain)),
      predOrigin_(predecessorOrigin),
      succOrigin_(successorOrigin) {
  if (pred_.size() > kMaxChain || succ_.size() > kMaxChain)
    throw ModelError("loop chain longer than " + std::to_string(kMaxChain) + " joints below the common ancestor");
  // Length scale: the longest offset along the loop (joint placements and loop frames).
  double longest = std::max(predOrigin_.r.norm(), succOrigin_.r.norm());
  for (const auto* chain : {&pred_, &succ_})
    for (const ChainJoint& j : *chain) longest = std::max(longest, j.Xtree.r.norm());
  length_ = longest > 0.0 ? longest : 1.0;
  const Vec3 a = axis.normalized();
  axis_ = a;
  const Vec3 n1 = a.unitOrthogonal(), n2 = a.cross(n1);  // normals of the axis
  const std::vector<OrientationPair> allThree = {
      {Vec3::UnitY(), Vec3::UnitZ()}, {Vec3::UnitZ(), Vec3::UnitX()}, {Vec3::UnitX(), Vec3::UnitY()}};
  fixedOrientation_ = type == LoopType::Fixed || type == LoopType::Prismatic;
  hasAlignment_ = type != LoopType::Spherical && type != LoopType::Universal;
  switch (type) {
    case LoopType::Revolute:
    case LoopType::Continuous:  // the loop axis must stay aligned: two normals fixed in the predecessor
      orientationPairs_ = {{n1, a}, {n2, a}};
      break;
    case LoopType::Fixed:
      orientationPairs_ = allThree;
      break;
    case LoopType::Prismatic:  // orientation locked, the origins may slide along the axis only
      orientationPairs_ = allThree;
      positionDirections_ = {n1, n2};
      break;
    case LoopType::Planar:  // the plane normals stay parallel and the origins stay in one plane
      orientationPairs_ = {{n1, a}, {n2, a}};
      positionDirections_ = {a};
      break;
    case LoopType::Spherical:  // the origins coincide, any relative orientation
      break;
    case LoopType::Universal:  // the predecessor's axis stays perpendicular to the successor's axis2
      orientationPairs_ = {{a, axis2.normalized()}};
      break;
  }
  selectIndependentRows();
  // the axes at q = 0 in NCA coordinates: revolute joints' columns, and a revolute loop's axis
  const VecX zero = VecX::Zero(numCoordinates());
  ChainState P, S;
  walkChain(pred_, predOrigin_, zero.data(), nullptr, P);
  walkChain(succ_, succOrigin_, zero.data() + pred_.size(), nullptr, S);
  std::vector<Vec3> axes;
  for (const ChainState* c : {&P, &S})
    for (Eigen::Index j = 0; j < c->cols.cols(); ++j)
      if (c->cols.col(j).head<3>().norm() > 0.5) axes.push_back(c->cols.col(j).head<3>().normalized());
  if (type == LoopType::Revolute || type == LoopType::Continuous || type == LoopType::Planar)
    axes.push_back((P.R * axis_).normalized());
  if (type == LoopType::Universal) {  // SDFormat: the two axes are perpendicular in the model's pose
    const double c = (P.R * axis_).dot(S.R * axis2.normalized());
    if (std::abs(c) > kPerpendicularTolerance) {
      char angle[32];
      std::snprintf(angle, sizeof angle, "%.6g", std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / detail::kPi);
      throw ModelError(std::string("universal loop: <axis> and <axis2> are not perpendicular in the file's pose (") +
                       angle + " deg apart; SDFormat's universal joint needs 90)");
    }
  }
  // The intended relative orientation is the file's: a revolute loop whose axis points the other
  // way in one loop frame (a coupler turned by rpy="3.14159 0 0", a joint written with
  // rpy="-1.5708 0 0" and axis="0 0 -1") is the same hinge, and a fixed loop's frames may differ
  // by a half turn about a frame axis. Exactly planar files reached the FourBar joint, which never
  // asked; rounded ones (Generic) were refused "cannot be closed" at every pose (issue #27, item 7).
  if (fixedOrientation_) {
    const Mat3 rel = P.R.transpose() * S.R;
    for (int i = 0; i < 3; ++i) flip_[i] = rel(i, i) < -0.99 ? -1.0 : 1.0;
    if (flip_.prod() < 0.0) flip_.setOnes();  // not a half turn (a reflection): keep the identity
  } else if (hasAlignment_) {
    axisSign_ = (P.R * axis_).dot(S.R * axis_) < -0.99 ? -1.0 : 1.0;
  }
  axisMisalignment_ = 0.0;
  for (size_t i = 0; i < axes.size(); ++i)
    for (size_t j = i + 1; j < axes.size(); ++j)
      axisMisalignment_ = std::max(axisMisalignment_, std::asin(std::min(1.0, axes[i].cross(axes[j]).norm())));
}

void LoopClosureConstraint::evaluate(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>* qd,
                                     RowsBuffer* phi, JacobianBuffer* K, RowsBuffer* k, bool* aligned) const {
  const auto np = static_cast<Eigen::Index>(pred_.size());
  const auto ns = static_cast<Eigen::Index>(succ_.size());
  ChainState P, S;
  walkChain(pred_, predOrigin_, q.data(), qd ? qd->data() : nullptr, P);
  walkChain(succ_, succOrigin_, q.data() + np, qd ? qd->data() + np : nullptr, S);
  if (aligned)  // fixed: within 90° of the file's relative rotation; revolute: axes as in the file
    *aligned = !hasAlignment_       ? true
               : fixedOrientation_ ? ((P.R.transpose() * S.R) * flip_.asDiagonal()).trace() > 1.0
                                   : axisSign_ * (P.R * axis_).dot(S.R * axis_) > 0.0;
  if (K) K->setZero(6, np + ns);
  const double perLength = 1.0 / length_;  // position rows in loop lengths (dimensionless)
  if (positionDirections_.empty()) {
    if (phi) phi->head<3>() = perLength * (P.p - S.p);
    if (K) {
      for (Eigen::Index j = 0; j < np; ++j) K->block<3, 1>(0, j) = perLength * pointColumn(P.cols.col(j), P.p);
      for (Eigen::Index j = 0; j < ns; ++j) K->block<3, 1>(0, np + j) = -perLength * pointColumn(S.cols.col(j), S.p);
    }
    if (k) k->head<3>() = -perLength * (pointBias(P) - pointBias(S));
  } else {
    directedPositionRows(positionDirections_, P, S, np, ns, perLength, phi, K, k);
  }
  const int r0 = numPositionRows();
  for (size_t r = 0; r < orientationPairs_.size(); ++r) {
    const auto row = static_cast<Eigen::Index>(r0 + r);
    const Vec3 N = P.R * orientationPairs_[r].u, W = S.R * orientationPairs_[r].w;
    const Vec3 NxW = N.cross(W);
    if (phi) (*phi)[row] = N.dot(W);
    if (K) {  // d/dt (N·W) = (N × W)·(ω_P − ω_S)
      for (Eigen::Index j = 0; j < np; ++j) (*K)(row, j) = NxW.dot(P.cols.col(j).head<3>());
      for (Eigen::Index j = 0; j < ns; ++j) (*K)(row, np + j) = -NxW.dot(S.cols.col(j).head<3>());
    }
    if (k) {
      const Vec3 wP = P.V.head<3>(), wS = S.V.head<3>();
      const Vec3 dNxW = wP.cross(N).cross(W) + N.cross(wS.cross(W));
      (*k)[row] = -(dNxW.dot(wP - wS) + NxW.dot(P.Abias.head<3>() - S.Abias.head<3>()));
    }
  }
}

void LoopClosureConstraint::selectIndependentRows() {
  // Rows that vanish identically (e.g. the out-of-plane rows of a planar loop) or repeat others
  // are removed once here: sample K at a few configurations and keep a maximal independent set.
  const int nc = numCandidateRows(), n = numCoordinates();
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> U(-3.0, 3.0);
  const int samples = 4;
  MatX stacked(nc, samples * n);
  for (int s = 0; s < samples; ++s) {
    VecX q(n);
    for (int i = 0; i < n; ++i) q[i] = U(rng);
    JacobianBuffer K;
    evaluate(q, nullptr, nullptr, &K, nullptr);
    stacked.middleCols(s * n, n) = K.topRows(nc);
  }
  rows_.clear();
  if (n == 0) return;
  // Rows are dimensionless (see lengthScale), so a pivot below kParallelTolerance of the largest
  // is a row that only a misalignment within that angle keeps from being redundant.
  Eigen::ColPivHouseholderQR<MatX> qr(stacked.transpose());
  qr.setThreshold(kParallelTolerance);
  const auto rank = qr.rank();
  for (Eigen::Index i = 0; i < rank; ++i) rows_.push_back(static_cast<int>(qr.colsPermutation().indices()[i]));
  std::sort(rows_.begin(), rows_.end());
  const auto pivots = qr.matrixQR().diagonal().cwiseAbs();
  const double largest = pivots.size() > 0 ? pivots.maxCoeff() : 0.0;
  nearRedundancy_ = 0.0;
  for (Eigen::Index i = rank; i < pivots.size() && largest > 0.0; ++i)
    nearRedundancy_ = std::max(nearRedundancy_, pivots[i] / largest);
  if (nearRedundancy_ < 1e-12) nearRedundancy_ = 0.0;  // rounding of an exactly planar loop
}

bool LoopClosureConstraint::isIntendedRoot(const Eigen::Ref<const VecX>& q) const {
  // Rows removed as redundant have a zero derivative, not necessarily a zero value: a planar loop
  // whose two frames sit at different heights along the axis satisfies its in-plane rows while
  // the out-of-plane gap stays constant. The full candidate residual must vanish too.
  // A nearly planar loop (axes parallel within kParallelTolerance) keeps a small out-of-plane
  // error on the dropped rows, bounded by its misalignment over a turn of its joints.
  RowsBuffer all;
  bool aligned = false;
  evaluate(q, nullptr, &all, nullptr, nullptr, &aligned);
  const double droppedTolerance = 1e-9 + 10.0 * nearRedundancy_;
  size_t kept = 0;
  for (int r = 0; r < numCandidateRows(); ++r) {
    const bool isKept = kept < rows_.size() && rows_[kept] == r;
    if (isKept) ++kept;
    if (std::abs(all[r]) > (isKept ? 1e-9 : droppedTolerance)) return false;
  }
  return aligned;
}

void LoopClosureConstraint::residual(const Eigen::Ref<const VecX>& q, Eigen::Ref<VecX> phi) const {
  RowsBuffer all;
  evaluate(q, nullptr, &all, nullptr, nullptr);
  for (size_t r = 0; r < rows_.size(); ++r) phi[static_cast<Eigen::Index>(r)] = all[rows_[r]];
}

void LoopClosureConstraint::jacobian(const Eigen::Ref<const VecX>& q, Eigen::Ref<MatX> K) const {
  JacobianBuffer all;
  evaluate(q, nullptr, nullptr, &all, nullptr);
  for (size_t r = 0; r < rows_.size(); ++r) K.row(static_cast<Eigen::Index>(r)) = all.row(rows_[r]);
}

void LoopClosureConstraint::bias(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                                 Eigen::Ref<VecX> k) const {
  RowsBuffer all;
  evaluate(q, &qd, nullptr, nullptr, &all);
  for (size_t r = 0; r < rows_.size(); ++r) k[static_cast<Eigen::Index>(r)] = all[rows_[r]];
}

}  // namespace grbda::detail
