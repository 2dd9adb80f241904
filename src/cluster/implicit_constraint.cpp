// The default directional derivatives of an ImplicitConstraint's K and k: central differences
// (the interim for constraints without second derivatives at hand, e.g. URDF <loop> clusters
// built from transforms). Fixed-capacity buffers: nothing is allocated.
#include "grbda/cluster/implicit_constraint.hpp"

#include "constraint_set.hpp"

namespace grbda {

namespace {
constexpr double kStep = 1e-5;  ///< along u (radians or model length units): error ~1e-10 relative
using Coordinates = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, detail::ConstraintSet::kMaxCoordinates, 1>;
using Rows = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, detail::ConstraintSet::kMaxRows, 1>;
using Jacobian = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, detail::ConstraintSet::kMaxRows,
                               detail::ConstraintSet::kMaxCoordinates>;
}  // namespace

void ImplicitConstraint::jacobianDerivative(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& u,
                                            Eigen::Ref<MatX> dK) const {
  Coordinates x = q + kStep * u;
  Jacobian minus(numRows(), numCoordinates());
  jacobian(x, dK);
  x = q - kStep * u;
  jacobian(x, minus);
  dK -= minus;
  dK /= 2.0 * kStep;
}

void ImplicitConstraint::biasDerivative(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                                        const Eigen::Ref<const VecX>& u, Eigen::Ref<VecX> dk) const {
  Coordinates x = q + kStep * u;
  Rows minus(numRows());
  bias(x, qd, dk);
  x = q - kStep * u;
  bias(x, qd, minus);
  dk -= minus;
  dk /= 2.0 * kStep;
}

}  // namespace grbda
