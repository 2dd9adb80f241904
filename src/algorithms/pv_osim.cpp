// PV-OSIM and PV-OSIM-fast (seed 003 Alg. 2, eqs. 48 and 54; spec §2.5) on the articulated-cluster
// pass without bias terms, the rows propagated by row_propagation.hpp: its L is J H⁻¹ Jᵀ.
#include "grbda/algorithms/pv_osim.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "../kernels/constraint_rows.hpp"
#include "../kernels/checks.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/errors.hpp"
#include "row_propagation.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda {

namespace detail {

namespace {

/// L(i, j) += v into the branch blocks of PV-OSIM-fast (lower triangles).
struct BranchSink {
  static constexpr bool dense = false;  // rows pair by pair (RowPropagation::addDelassus)
  std::vector<MatX>& blocks;
  const std::vector<int>& blockOf;
  const std::vector<int>& localOf;
  void add(int ri, int rj, double value) const {
    MatX& B = blocks[static_cast<size_t>(blockOf[static_cast<size_t>(ri)])];
    const int a = localOf[static_cast<size_t>(ri)], b = localOf[static_cast<size_t>(rj)];
    if (a >= b) B(a, b) += value;
    else B(b, a) += value;
  }
};

/// The pass of PV-OSIM at q: the rows' K gathered, propagated with `sink` receiving L.
template <class Sink>
void osimPass(const Model& model, Data& data, const ConstraintModel& constraints, ConstraintData& cd, const VecRef& q,
              const Sink& sink, bool atRoot, const char* algorithm) {
  checkData(model, data, algorithm);
  checkConstraintWorkspace(model, constraints, cd, algorithm);
  prepareState(model, data, q, nullptr, algorithm);
  gatherConstraintRows(model, data, constraints, cd, false);
  startRowPropagation(data, cd, cd.work().hard);
  const ArticulatedPassInputs in;  // no bias terms
  if (!articulatedPass<false>(model, data, in, NoLeafTerms{},
                              RowPropagation<false, Sink>{data, cd, cd.work().hard, sink, Vec6::Zero(), atRoot}))
    throwArticulatedInertiaNotPositive(model, data, algorithm);
}

/// Cholesky of the symmetric L (lower triangle read): false if a pivot² is not above 1e-10 of
/// the largest diagonal entry (a singular or nearly singular L).
bool factorWellConditioned(const MatX& L, Eigen::LLT<MatX>& llt) {
  double scale = 0.0;
  for (Eigen::Index i = 0; i < L.rows(); ++i) scale = std::max(scale, L(i, i));
  llt.compute(L);
  if (llt.info() != Eigen::Success || !(scale > 0.0)) return L.rows() == 0;
  for (Eigen::Index i = 0; i < L.rows(); ++i)
    if (!(llt.matrixLLT()(i, i) * llt.matrixLLT()(i, i) > 1e-10 * scale)) return false;
  return true;
}

[[noreturn]] void throwRedundant(const MatX& L, const char* algorithm) {
  Eigen::LDLT<MatX> ldlt(L);
  double scale = 0.0;
  for (Eigen::Index i = 0; i < L.rows(); ++i) scale = std::max(scale, L(i, i));
  int rank = 0;
  for (Eigen::Index i = 0; i < ldlt.vectorD().size(); ++i)
    if (std::abs(ldlt.vectorD()[i]) > 1e-10 * scale) ++rank;
  throw NumericalError(std::string(algorithm) + ": Λ⁻¹ = J H⁻¹ Jᵀ is singular (rank " + std::to_string(rank) +
                       " of " + std::to_string(L.rows()) +
                       " rows): the rows are redundant (J has not full row rank), so Λ does not exist");
}

}  // namespace

}  // namespace detail

const MatX& pvInverseOperationalSpaceInertia(const Model& model, Data& data, const ConstraintModel& constraints,
                                             ConstraintData& cdata, const VecRef& q) {
  constexpr const char* alg = "pvInverseOperationalSpaceInertia";
  cdata.LambdaInv.setZero();
  detail::osimPass(model, data, constraints, cdata, q, detail::SymmetricSink{cdata.LambdaInv}, true, alg);
  if (!cdata.LambdaInv.allFinite()) throw NumericalError(std::string(alg) + ": Λ⁻¹ is not finite (singular inertia)");
  return cdata.LambdaInv;
}

const MatX& pvOperationalSpaceInertia(const Model& model, Data& data, const ConstraintModel& constraints,
                                      ConstraintData& cdata, const VecRef& q) {
  constexpr const char* alg = "pvOperationalSpaceInertia";
  cdata.LambdaInv.setZero();
  detail::osimPass(model, data, constraints, cdata, q, detail::SymmetricSink{cdata.LambdaInv}, true, alg);
  Eigen::LLT<MatX>& llt = cdata.work().hard.llt;
  if (!detail::factorWellConditioned(cdata.LambdaInv, llt)) detail::throwRedundant(cdata.LambdaInv, alg);
  cdata.Lambda.setIdentity();
  llt.solveInPlace(cdata.Lambda);
  return cdata.Lambda;
}

// ---------------------------------------------------------------------------------------------
// PV-OSIM-fast

PvOsimFast::PvOsimFast(const Model& model, const ConstraintModel& constraints)
    : modelId_(model.id()), constraintsVersion_(constraints.version()), m_(constraints.numRows()) {
  if (constraints.modelId() != model.id())
    throw InputError("PvOsimFast: the ConstraintModel was made for another model than '" + model.name() + "'");
  int roots = 0;
  for (int k = 0; k < model.numClusters(); ++k)
    if (model.cluster(k).parent < 0) {
      ++roots;
      root_ = k;
    }
  floating_ = model.isFloatingBase() && roots == 1 && model.cluster(root_).nv == 6;
  const ConstraintData analysis(model, constraints);  // which rows each cluster propagates
  // branches: rows that meet in a cluster below the base (union-find over the rows)
  std::vector<int> parent(static_cast<size_t>(m_));
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&parent](int r) {
    while (parent[static_cast<size_t>(r)] != r) r = parent[static_cast<size_t>(r)] = parent[static_cast<size_t>(parent[static_cast<size_t>(r)])];
    return r;
  };
  if (floating_)
    for (int k = 0; k < model.numClusters(); ++k) {
      if (k == root_) continue;
      const std::vector<int>& rows = analysis.work().hard.clusters[static_cast<size_t>(k)].rows;
      for (size_t j = 1; j < rows.size(); ++j) {
        const int a = find(rows[0]), b = find(rows[j]);
        parent[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
      }
    }
  else  // one block: the dense path
    for (int r = 1; r < m_; ++r) parent[static_cast<size_t>(r)] = 0;
  blockOf_.assign(static_cast<size_t>(m_), -1);
  localOf_.assign(static_cast<size_t>(m_), 0);
  std::vector<int> blockOfRoot(static_cast<size_t>(m_), -1), sizes;
  for (int r = 0; r < m_; ++r) {  // branches numbered by their first row
    const int root = find(r);
    int& b = blockOfRoot[static_cast<size_t>(root)];
    if (b < 0) {
      b = static_cast<int>(sizes.size());
      sizes.push_back(0);
    }
    blockOf_[static_cast<size_t>(r)] = b;
    localOf_[static_cast<size_t>(r)] = sizes[static_cast<size_t>(b)]++;
  }
  offset_.assign(sizes.size() + 1, 0);
  for (size_t b = 0; b < sizes.size(); ++b) offset_[b + 1] = offset_[b] + sizes[b];
  rowAt_.assign(static_cast<size_t>(m_), 0);
  position_.assign(static_cast<size_t>(m_), 0);
  for (int r = 0; r < m_; ++r) {
    const int p = offset_[static_cast<size_t>(blockOf_[static_cast<size_t>(r)])] + localOf_[static_cast<size_t>(r)];
    rowAt_[static_cast<size_t>(p)] = r;
    position_[static_cast<size_t>(r)] = p;
  }
  if (floating_) {
    for (int s : sizes) {
      blocks_.push_back(MatX::Zero(s, s));
      blockLlt_.emplace_back(MatX::Identity(s, s));
    }
    T_ = MatX::Zero(m_, 6);
    LK_ = MatX::Zero(m_, 6);
  }
  dense_ = MatX::Zero(m_, m_);
  denseLlt_.compute(MatX::Identity(m_, m_));
  xp_ = VecX::Zero(m_);
  zp_ = VecX::Zero(m_);
}

void PvOsimFast::factorDense() { invertible_ = detail::factorWellConditioned(dense_, denseLlt_); }

void PvOsimFast::compute(const Model& model, Data& data, const ConstraintModel& constraints, ConstraintData& cdata,
                         const VecRef& q) {
  DataWorkspace& ws = data.work();
  constexpr const char* alg = "PvOsimFast::compute";
  if (model.id() != modelId_ || constraints.version() != constraintsVersion_ || constraints.numRows() != m_)
    throw InputError(std::string(alg) +
                     ": the operator was made for another model or constraint set (or the constraints changed since)");
  computed_ = false;
  fellBack_ = false;
  invertible_ = true;
  if (!floating_) {  // plain PV-OSIM and the dense factorisation
    dense_.setZero();
    detail::osimPass(model, data, constraints, cdata, q, detail::SymmetricSink{dense_}, true, alg);
    factorDense();
    computed_ = true;
    return;
  }
  for (MatX& B : blocks_) B.setZero();
  detail::osimPass(model, data, constraints, cdata, q, detail::BranchSink{blocks_, blockOf_, localOf_}, false, alg);
  // the rows at the base (t = Sᵀ F of the root cluster's step) and its articulated inertia
  const ConstraintWorkspace::ClusterRows& cr = cdata.work().hard.clusters[static_cast<size_t>(root_)];
  T_.setZero();
  for (size_t j = 0; j < cr.rows.size(); ++j)
    T_.row(position_[static_cast<size_t>(cr.rows[j])]) = cr.SF.col(static_cast<Eigen::Index>(j)).transpose();
  const ClusterData& kd = ws.clusters[static_cast<size_t>(root_)];
  D_ = kd.D;
  Dinv_ = kd.Dinv;
  bool ok = T_.allFinite();
  for (MatX& B : blocks_)  // symmetric, for the products of applyInverse and the fallback
    for (Eigen::Index j = 0; j < B.cols(); ++j)
      for (Eigen::Index i = j + 1; i < B.rows(); ++i) B(j, i) = B(i, j);
  for (size_t b = 0; ok && b < blocks_.size(); ++b)
    ok = blocks_[b].allFinite() && detail::factorWellConditioned(blocks_[b], blockLlt_[b]);
  if (ok) {  // L_K = Λ_b K_b, then the 6 x 6 H_b^A + K_bᵀ L_K          (eq. 54)
    LK_ = T_;
    for (size_t b = 0; b < blocks_.size(); ++b) {
      auto rows = LK_.middleRows(offset_[b], offset_[b + 1] - offset_[b]);
      blockLlt_[b].solveInPlace(rows);
    }
    Mat6 M = D_;
    M.noalias() += T_.transpose() * LK_;
    baseLlt_.compute(M);
    ok = baseLlt_.info() == Eigen::Success;
  }
  if (!ok) {  // L_b^A singular: the dense L_0^A = L_b^A + K_b H_b^A⁻¹ K_bᵀ      (eq. 48)
    fellBack_ = true;
    for (int i = 0; i < m_; ++i)
      for (int j = 0; j < m_; ++j) {
        const int pi = position_[static_cast<size_t>(i)], pj = position_[static_cast<size_t>(j)];
        const int b = blockOf_[static_cast<size_t>(i)];
        double value = T_.row(pi).dot(Dinv_ * T_.row(pj).transpose());
        if (b == blockOf_[static_cast<size_t>(j)])
          value += blocks_[static_cast<size_t>(b)](localOf_[static_cast<size_t>(i)], localOf_[static_cast<size_t>(j)]);
        dense_(i, j) = value;
      }
    if (!dense_.allFinite()) throw NumericalError(std::string(alg) + ": Λ⁻¹ is not finite (singular inertia)");
    factorDense();
  }
  computed_ = true;
}

void PvOsimFast::checkInput(const VecRef& x, const char* function) const {
  if (!computed_) throw InputError(std::string(function) + ": call compute(...) first");
  if (x.size() != m_)
    throw InputError(std::string(function) + ": x has " + std::to_string(x.size()) + " entries, expected " +
                     std::to_string(m_) + " (the rows of the ConstraintModel)");
}

void PvOsimFast::permute(const VecRef& x) const {
  for (int p = 0; p < m_; ++p) xp_[p] = x[rowAt_[static_cast<size_t>(p)]];
}

void PvOsimFast::unpermute(const VecRef& z, VecX& y) const {
  if (y.size() != m_) y.resize(m_);
  for (int p = 0; p < m_; ++p) y[rowAt_[static_cast<size_t>(p)]] = z[p];
}

void PvOsimFast::applyInverse(const VecRef& x, VecX& y) const {
  checkInput(x, "PvOsimFast::applyInverse");
  if (!fast()) {
    if (y.size() != m_) y.resize(m_);
    y.noalias() = dense_ * x;
    return;
  }
  permute(x);
  for (size_t b = 0; b < blocks_.size(); ++b) {  // L_b^A x
    const int o = offset_[b], s = offset_[b + 1] - offset_[b];
    zp_.segment(o, s).noalias() = blocks_[b] * xp_.segment(o, s);
  }
  Vec6 f;
  f.noalias() = T_.transpose() * xp_;  // + K_b H_b^A⁻¹ K_bᵀ x
  const Vec6 a = Dinv_ * f;
  zp_.noalias() += T_ * a;
  unpermute(zp_, y);
}

void PvOsimFast::applyLambda(const VecRef& x, VecX& y) const {
  checkInput(x, "PvOsimFast::applyLambda");
  if (!invertible_) detail::throwRedundant(dense_, "PvOsimFast::applyLambda");
  if (!fast()) {
    if (y.size() != m_) y.resize(m_);
    y = x;
    denseLlt_.solveInPlace(y);
    return;
  }
  permute(x);
  for (size_t b = 0; b < blocks_.size(); ++b) {  // z = Λ_b x
    auto z = xp_.segment(offset_[b], offset_[b + 1] - offset_[b]);
    blockLlt_[b].solveInPlace(z);
  }
  Vec6 f;
  f.noalias() = T_.transpose() * xp_;  // L_Kᵀ x = K_bᵀ Λ_b x
  baseLlt_.solveInPlace(f);
  xp_.noalias() -= LK_ * f;
  unpermute(xp_, y);
}

MatX PvOsimFast::branchDelassus() const {
  MatX L = MatX::Zero(m_, m_);
  if (!floating_) return L;
  for (int i = 0; i < m_; ++i)
    for (int j = 0; j < m_; ++j)
      if (blockOf_[static_cast<size_t>(i)] == blockOf_[static_cast<size_t>(j)])
        L(i, j) = blocks_[static_cast<size_t>(blockOf_[static_cast<size_t>(i)])](localOf_[static_cast<size_t>(i)],
                                                                                 localOf_[static_cast<size_t>(j)]);
  return L;
}

MatX PvOsimFast::baseRows() const {
  MatX K = MatX::Zero(m_, 6);
  if (!floating_) return K;
  for (int r = 0; r < m_; ++r) K.row(r) = T_.row(position_[static_cast<size_t>(r)]);
  return K;
}

}  // namespace grbda
