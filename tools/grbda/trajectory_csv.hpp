#pragma once
// `grbda view --trajectory FILE`: a CSV of configurations over time. Two layouts:
//  - plain: `t`, then the model's independent position names in order (as `grbda info` prints
//    them), then any other columns, which are ignored;
//  - as `grbda simulate --out` writes it: `t` first and a `q:NAME` column for every position name
//    (any order, among other columns such as `v:NAME`, `energy`, `fn:LINK`).
// Either layout may carry the contacts of a run with a world (cmd_simulate_world.cpp): per link
// `cp:LINK:x,y,z` (centre of pressure, world; nan or empty when the link touches nothing) and
// `cf:LINK:x,y,z` (resultant contact force, world), and `ground_height` (nan or empty: no ground).
// One row per configuration; times must not decrease.
#include <optional>
#include <string>
#include <vector>

#include "grbda/model.hpp"

namespace grbda::cli {

/// One link's contacts at one row: where the resultant acts and what it is (world coordinates).
struct LinkContactSample {
  int link = 0;  ///< index into Trajectory::contactLinks
  Vec3 point = Vec3::Zero();
  Vec3 force = Vec3::Zero();
};

struct Trajectory {
  std::vector<double> times;
  std::vector<VecX> positions;  ///< independent positions, nq each
  std::vector<int> lines;       ///< the file line of each row, for errors found later
  std::vector<std::string> contactLinks;                ///< links with cp:/cf: columns, in header order
  std::vector<std::vector<LinkContactSample>> contacts;  ///< per row, the links touching something
  std::optional<double> groundHeight;                   ///< from a `ground_height` column (first row)
};

/// Reads and checks the file. A UsageError (exit 2) naming FILE:LINE for an unreadable file, a
/// header that does not match the model's position names, a row of the wrong length, a
/// non-number, a non-finite number, a time that goes back, or no rows at all.
Trajectory readTrajectoryCsv(const std::string& path, const Model& model);

}  // namespace grbda::cli
