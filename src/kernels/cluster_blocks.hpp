#pragma once
// Internal: per-cluster blocks with the cluster's degrees of freedom d_k known at compile time.
// A cluster's S_k (6n x d_k) and U_k are stacked per body; body r owns rows 6r..6r+5. The
// algorithms dispatch once per cluster on d_k to fixed-size code for the common 1, 2, 3 and 6
// (rotors, belts, free base) and to Eigen::Dynamic otherwise.
#include <type_traits>

#include "grbda/spatial/types.hpp"

namespace grbda::detail {

template <int D>
struct Sizes {
  using MatD = Eigen::Matrix<double, D, D>;
  using VecD = Eigen::Matrix<double, D, 1>;
  using Mat6D = Eigen::Matrix<double, 6, D>;
  using Block = Eigen::Map<Mat6D, 0, Eigen::OuterStride<>>;
  using ConstBlock = Eigen::Map<const Mat6D, 0, Eigen::OuterStride<>>;
};

/// Rows of body r in a stacked 6n x d matrix.
template <int D>
typename Sizes<D>::Block rowsOf(MatX& M, int r) {
  return typename Sizes<D>::Block(M.data() + 6 * r, 6, M.cols(), Eigen::OuterStride<>(M.rows()));
}
template <int D>
typename Sizes<D>::ConstBlock rowsOf(const MatX& M, int r) {
  return typename Sizes<D>::ConstBlock(M.data() + 6 * r, 6, M.cols(), Eigen::OuterStride<>(M.rows()));
}

/// The d_k coordinates of a cluster in a vector of independent coordinates.
template <int D, class Vector>
auto clusterSegment(Vector& x, int start, int d) {
  return x.template segment<D>(start, d);
}

/// f(std::integral_constant<int, D>{}) with D = d for d ∈ {1, 2, 3, 6}, Eigen::Dynamic otherwise.
template <class F>
decltype(auto) withClusterDof(int d, F&& f) {
  switch (d) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 6: return f(std::integral_constant<int, 6>{});
    default: return f(std::integral_constant<int, Eigen::Dynamic>{});
  }
}

}  // namespace grbda::detail
