#pragma once
// Internal: how many of a cluster's stacked constraint rows are independent, counted by rank
// rather than by the number of rows written. Redundant rows are common and consistent: the same
// loop or coupling written twice, or a pantograph (a bar on three equal parallel cranks: two
// loops, four rows, rank three). The rank is revealed with column-pivoted QR of Kᵀ at closed
// configurations (loop rows are dimensionless, see LoopClosureConstraint::lengthScale); a
// singular pose such as a four-bar with its links on one line loses rank, so the largest rank
// over a few closed poses near the first one is the cluster's.
#include <vector>

#include "constraint_set.hpp"

namespace grbda::detail {

struct RowSelection {
  bool closed = true;  ///< a closed configuration was found (always, without implicit rows)
  int rank = 0;        ///< independent rows
  std::vector<int> couplingRows;               ///< kept rows of the coupling matrix, ascending
  std::vector<std::vector<int>> implicitRows;  ///< kept local rows of each implicit entry, ascending
};

/// Rank and a maximal independent subset of the rows of `couplingRows` and `implicit` (entries
/// with their full rows, stacked in that order) over `numSpanning` coordinates.
RowSelection selectIndependentRows(int numSpanning, const MatX& couplingRows, const std::vector<ImplicitEntry>& implicit);

}  // namespace grbda::detail
