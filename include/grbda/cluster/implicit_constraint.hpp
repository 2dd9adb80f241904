#pragma once
// A holonomic loop constraint in implicit form (spec §2.2): φ(q) = 0 on some spanning joint
// coordinates, with K = ∂φ/∂q and k = −K̇ q̇ so that K q̈ = k. URDF <loop> elements become one of
// these; builders may supply their own (e.g. the Tello differentials) through
// ModelBuilder::addConstraint. K and k must be exact (analytic or automatic differentiation).
#include <string>

#include "grbda/spatial/types.hpp"

namespace grbda {

/// An implicit constraint φ(q) = 0 over some joint coordinates, with its Jacobian K = ∂φ/∂q and bias k.
class ImplicitConstraint {
 public:
  virtual ~ImplicitConstraint() = default;
  /// Number of rows of φ.
  virtual int numRows() const = 0;
  /// Number of joint coordinates φ depends on (in the order given when the constraint is added).
  virtual int numCoordinates() const = 0;
  virtual void residual(const Eigen::Ref<const VecX>& q, Eigen::Ref<VecX> phi) const = 0;  ///< φ(q) (numRows)
  virtual void jacobian(const Eigen::Ref<const VecX>& q, Eigen::Ref<MatX> K) const = 0;  ///< K = ∂φ/∂q (numRows x numCoordinates)
  /// k = −K̇(q, q̇) q̇.
  virtual void bias(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd, Eigen::Ref<VecX> k) const = 0;
  /// ∂K/∂q · u (numRows x numCoordinates), for the dynamics derivatives (∂G/∂y). Default: central
  /// differences of jacobian() (step 1e-5); AutoDiffConstraint overrides it exactly.
  virtual void jacobianDerivative(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& u,
                                  Eigen::Ref<MatX> dK) const;
  /// ∂k/∂q · u at fixed q̇ (for ∂g/∂y). Default: central differences of bias().
  virtual void biasDerivative(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                              const Eigen::Ref<const VecX>& u, Eigen::Ref<VecX> dk) const;
  /// False at a root of φ that is not the intended closure (e.g. a loop whose frames meet
  /// rotated by 180°, which the orientation rows cannot tell from aligned). Position completion
  /// rejects such roots and tries other starting points. Default: every root is valid.
  virtual bool isIntendedRoot(const Eigen::Ref<const VecX>& q) const {
    (void)q;
    return true;
  }
};

}  // namespace grbda
