#pragma once
// Fixed-size Eigen types used throughout. Spatial 6-vectors are angular-first
// (Featherstone): motion m = [w; v_O], force f = [n_O; f].
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace grbda {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
using Mat6X = Eigen::Matrix<double, 6, Eigen::Dynamic>;
using Mat3X = Eigen::Matrix<double, 3, Eigen::Dynamic>;
/// How the library takes a vector it only reads (q, v, τ, q̈, ...): a view of any contiguous
/// vector of doubles (a VecX, a segment of one, a Map over a numpy array), so that calling it
/// copies nothing. A VecX binds to it as before.
using VecRef = Eigen::Ref<const VecX>;

/// r̂: the skew-symmetric matrix with r̂ x = r × x.
inline Mat3 skew(const Vec3& r) {
  Mat3 S;
  S << 0.0, -r.z(), r.y(),  //
      r.z(), 0.0, -r.x(),   //
      -r.y(), r.x(), 0.0;
  return S;
}

}  // namespace grbda
