#include "constraint_rank.hpp"
#include "data_workspace.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <random>

namespace grbda::detail {
namespace {

constexpr double kRankTolerance = 1e-8;  ///< pivot relative to the largest (rows are dimensionless)

/// Gauss-Newton with minimum-norm steps on all coordinates: the closed pose nearest (locally) to
/// q, so the assembly found is the one the file's pose is in.
bool closeAllCoordinates(const ConstraintSet& set, VecX& q, ClusterData& cd) {
  set.residual(q.data(), cd);
  double norm = cd.phi.norm();
  for (int it = 0; it < 100; ++it) {
    if (norm < 1e-12) return true;
    set.jacobian(q.data(), cd);
    const VecX step = cd.K.completeOrthogonalDecomposition().solve(cd.phi);
    double scale = 1.0;
    bool decreased = false;
    for (int halving = 0; halving < 20 && !decreased; ++halving, scale *= 0.5) {
      const VecX trial = q - scale * step;
      set.residual(trial.data(), cd);
      if (cd.phi.norm() < norm) {
        q = trial;
        norm = cd.phi.norm();
        decreased = true;
      }
    }
    if (!decreased) return false;
  }
  return norm < 1e-12;
}

/// Rank of the rows of K and the rows a pivoted QR of Kᵀ picks first.
int rankAndRows(const MatX& K, std::vector<int>& rows) {
  rows.clear();
  if (K.size() == 0) return 0;  // no row or no coordinate (Eigen's QR of an empty matrix reads nothing as a pivot)
  Eigen::ColPivHouseholderQR<MatX> qr(K.transpose());
  qr.setThreshold(kRankTolerance);
  const int rank = static_cast<int>(qr.rank());
  rows.assign(qr.colsPermutation().indices().data(), qr.colsPermutation().indices().data() + rank);
  std::sort(rows.begin(), rows.end());
  return rank;
}

}  // namespace

RowSelection selectIndependentRows(int numSpanning, const MatX& couplingRows, const std::vector<ImplicitEntry>& implicit) {
  RowSelection out;
  std::vector<ImplicitEntry> entries = implicit;
  int row = static_cast<int>(couplingRows.rows());
  for (auto& e : entries) {  // every row of every entry, stacked after the couplings
    e.keptRows.clear();
    e.rowsSelected = false;
    e.row = row;
    row += e.numRows();
  }
  const ConstraintSet all(numSpanning, std::vector<bool>(static_cast<size_t>(numSpanning), true), couplingRows, entries);
  ClusterData cd;
  cd.K = MatX::Zero(row, numSpanning);
  cd.phi = VecX::Zero(row);

  std::vector<int> chosen;
  if (entries.empty()) {
    out.rank = rankAndRows(couplingRows, chosen);
  } else {
    VecX q = VecX::Zero(numSpanning);  // the file's pose
    out.closed = closeAllCoordinates(all, q, cd);
    if (!out.closed) return out;
    std::mt19937 rng(2718);
    std::uniform_real_distribution<double> nudge(-0.3, 0.3);
    out.rank = -1;
    for (int sample = 0; sample < 6; ++sample) {  // the closed pose, then closed poses near it
      VecX qs = q;
      if (sample > 0) {
        for (Eigen::Index i = 0; i < qs.size(); ++i) qs[i] += nudge(rng);
        if (!closeAllCoordinates(all, qs, cd)) continue;
      }
      all.jacobian(qs.data(), cd);
      std::vector<int> rows;
      const int rank = rankAndRows(cd.K, rows);
      if (rank > out.rank) {
        out.rank = rank;
        chosen = rows;
      }
    }
  }
  out.implicitRows.resize(entries.size());
  for (int r : chosen) {
    if (r < couplingRows.rows()) {
      out.couplingRows.push_back(r);
      continue;
    }
    for (size_t e = 0; e < entries.size(); ++e)
      if (r >= entries[e].row && r < entries[e].row + entries[e].numRows())
        out.implicitRows[e].push_back(r - entries[e].row);
  }
  return out;
}

}  // namespace grbda::detail
