#pragma once
// Internal: which joints of an MJCF loop (`<equality connect|weld>`) become dependent. MJCF has no
// independent flags; the reader takes as many joints as the loop's constraint has rank at generic
// configurations (random joint values, so that a file drawn at a singular pose, such as a
// four-bar with its links in line, does not hide a row), preferring the joints nearest the loop's
// two ends and taking each only if it raises the rank of those already taken.
#include <string>
#include <vector>

#include "mjcf/reader.hpp"

namespace grbda::mjcf_detail {

/// The loop: a point of each link (in the link frame) that must coincide; `fixed` adds the
/// relative rotation (a weld).
struct LoopEnds {
  std::string link1, link2;
  Vec3 p1 = Vec3::Zero(), p2 = Vec3::Zero();
  bool fixed = false;
};

/// The joints to make dependent (nearest the ends first), and the rank they must reach.
struct LoopDependents {
  std::vector<std::string> joints;
  int rank = 0;
};

/// `taken(joint)` says a joint is already dependent (another equality made it so).
template <typename Taken>
LoopDependents loopDependents(const Reader& r, const LoopEnds& ends, Taken&& taken);

/// The two chains from each end up to (not including) their nearest common ancestor, nearest first.
void loopChains(const Reader& r, const std::string& link1, const std::string& link2, std::vector<std::string>& pred,
                std::vector<std::string>& succ);

/// The constraint Jacobian of the loop at joint values q (by joint name; absent = 0), columns in
/// the order of `joints` (pred chain joints enter with +, succ chain joints with −).
MatX loopJacobian(const Reader& r, const LoopEnds& ends, const std::vector<std::string>& pred,
                  const std::vector<std::string>& succ, const std::vector<double>& qPred, const std::vector<double>& qSucc);

/// Rank of a matrix (relative threshold 1e-9).
int numericalRank(const MatX& J);

template <typename Taken>
LoopDependents loopDependents(const Reader& r, const LoopEnds& ends, Taken&& taken) {
  std::vector<std::string> pred, succ;
  loopChains(r, ends.link1, ends.link2, pred, succ);
  // three generic configurations (a fixed seed: the same file always picks the same joints); the
  // rank is that of the best of them (a stack of several would count rows no single pose has)
  unsigned state = 12345u;
  auto next = [&state]() {
    state = state * 1103515245u + 12345u;
    return static_cast<double>((state >> 8) & 0xffff) / 65535.0 * 2.0 - 1.0;
  };
  MatX J;
  int best = -1;
  for (int s = 0; s < 3; ++s) {
    std::vector<double> qp(pred.size()), qs(succ.size());
    for (double& v : qp) v = next();
    for (double& v : qs) v = next();
    MatX Js = loopJacobian(r, ends, pred, succ, qp, qs);
    const int rank = numericalRank(Js);
    if (rank > best) best = rank, J = std::move(Js);
  }
  LoopDependents out;
  out.rank = best;
  std::vector<int> order;  // nearest the ends first, alternating between the chains
  for (size_t k = 0; k < std::max(pred.size(), succ.size()); ++k) {
    if (k < pred.size()) order.push_back(static_cast<int>(k));
    if (k < succ.size()) order.push_back(static_cast<int>(pred.size() + k));
  }
  std::vector<int> cols;
  int have = 0;
  for (int c : order) {
    if (have == out.rank) break;
    const std::string& name = c < static_cast<int>(pred.size()) ? pred[static_cast<size_t>(c)]
                                                                 : succ[static_cast<size_t>(c) - pred.size()];
    if (taken(name)) continue;
    std::vector<int> trial = cols;
    trial.push_back(c);
    MatX sub(J.rows(), static_cast<Eigen::Index>(trial.size()));
    for (size_t k = 0; k < trial.size(); ++k) sub.col(static_cast<Eigen::Index>(k)) = J.col(trial[k]);
    if (numericalRank(sub) > have) {
      cols = trial;
      ++have;
      out.joints.push_back(name);
    }
  }
  return out;
}

}  // namespace grbda::mjcf_detail
