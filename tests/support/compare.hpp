#pragma once
// Test support: error measures shared by the algorithm cross-checks.
#include <algorithm>

#include "grbda/grbda.hpp"

namespace grbda::testsupport {

/// ‖a - b‖ / (1 + ‖b‖): relative for large results, absolute near zero.
template <typename A, typename B>
double relErr(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  return (a - b).norm() / (1.0 + b.norm());
}

/// The largest |entry| (0 for an empty matrix).
inline double maxAbs(const MatX& a) { return a.size() ? a.cwiseAbs().maxCoeff() : 0.0; }

/// max |a − b| / max(1, max |b|): the entry-wise measure (derivatives, whole-body-control results).
inline double maxRelErr(const MatX& a, const MatX& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

/// ‖a - b‖ / ‖b‖ with no absolute floor (b is never zero where it is used): for operational-space
/// inertias, whose entries can be far below 1.
inline double strictRelErr(const MatX& a, const MatX& b) { return (a - b).norm() / std::max(1e-12, b.norm()); }

}  // namespace grbda::testsupport
