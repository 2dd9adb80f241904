#pragma once
// Internal: the constraint rows' part of the constrained-dynamics derivatives
// (constraint_rows_derivatives.cpp).
#include "grbda/constraints/constraint_data.hpp"

namespace grbda::detail {

/// D.Fext, D.Eext: cd.lambda as world forces per body (points at the poses in data) and their
/// pose-derivative terms (derivatives_internal.hpp, WorldFixedForces).
void constraintForcesAsExternal(const Model& model, const Data& data, const ConstraintModel& constraints,
                                const ConstraintData& cd, ConstraintDerivativesData& D);

/// D.Js, D.das_dq, D.das_dv (m x nvSpanning): the rows' spanning Jacobian and the derivatives of
/// their accelerations at fixed q̈_s, from the world kinematics the spanning ∂RNEA pass left in
/// data.derivatives.
void constraintAccelerationDerivatives(const Model& model, const Data& data, const ConstraintModel& constraints,
                                       const ConstraintData& cd, ConstraintDerivativesData& D);

}  // namespace grbda::detail
