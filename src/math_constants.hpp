#pragma once
// Internal: π as a double, one definition for the library's sources (Eigen's EIGEN_PI is a long
// double, which would change the precision of the expressions it appears in).

namespace grbda::detail {

inline constexpr double kPi = 3.14159265358979323846;

}  // namespace grbda::detail
