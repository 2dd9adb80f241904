#pragma once
// `grbda view --trajectory FILE`: a CSV of configurations over time. Header: `t`, then the model's
// independent position names in order (as `grbda info` prints them), then any other columns,
// which are ignored. One row per configuration; times must not decrease.
#include <string>
#include <vector>

#include "grbda/model.hpp"

namespace grbda::cli {

struct Trajectory {
  std::vector<double> times;
  std::vector<VecX> positions;  ///< independent positions, nq each
  std::vector<int> lines;       ///< the file line of each row, for errors found later
};

/// Reads and checks the file. A UsageError (exit 2) naming FILE:LINE for an unreadable file, a
/// header that does not match the model's position names, a row of the wrong length, a
/// non-number, a non-finite number, a time that goes back, or no rows at all.
Trajectory readTrajectoryCsv(const std::string& path, const Model& model);

}  // namespace grbda::cli
