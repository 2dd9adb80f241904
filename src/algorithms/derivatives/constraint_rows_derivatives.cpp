// The constraint rows' terms of the constrained-dynamics derivatives
// (algorithms/constrained_derivatives.hpp): λ as forces for the ∂RNEA pass, and the derivatives of
// the rows' accelerations at fixed ÿ from that pass's world-frame kinematics. Each constraint's
// kind writes its own terms (ConstraintType::addForcesAsExternal, addAccelerationDerivatives; the
// formulas are in src/constraints/kinds/point_rows.cpp and custom_rows.cpp).
#include "constraint_rows_derivatives.hpp"

#include "grbda/constraints/constraint_type.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

void constraintForcesAsExternal(const Model& model, const Data& data, const ConstraintModel& constraints,
                                const ConstraintData& cd, ConstraintDerivativesData& D) {
  for (size_t b = 0; b < D.Fext.size(); ++b) {
    D.Fext[b].setZero();
    D.Eext[b].setZero();
  }
  for (int ci = 0; ci < constraints.size(); ++ci) {
    const Constraint& c = constraints.constraint(ci);
    c.type->addForcesAsExternal(model, data, c, cd.work().typeData[static_cast<size_t>(ci)].get(), cd, D);
  }
}

void constraintAccelerationDerivatives(const Model& model, const Data& data, const ConstraintModel& constraints,
                                       const ConstraintData& cd, ConstraintDerivativesData& D) {
  D.das_dq.setZero();
  D.das_dv.setZero();
  D.Js.setZero();
  for (int ci = 0; ci < constraints.size(); ++ci) {
    const Constraint& c = constraints.constraint(ci);
    c.type->addAccelerationDerivatives(model, data, c, cd.work().typeData[static_cast<size_t>(ci)].get(), cd,
                                       constraints.baumgarte(), D);
  }
}

}  // namespace grbda::detail
