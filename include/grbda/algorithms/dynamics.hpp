#pragma once
// The dynamics calls every user writes. Inputs are validated (sizes, finiteness: InputError);
// singular results raise NumericalError instead of returning NaN. Results live in `data` and are
// returned by reference, so calling these in a loop allocates nothing.
#include "grbda/data.hpp"

namespace grbda {

/// Forward dynamics: qdd = H^{-1}(tau - C + J^T fext).
const VecX& forwardDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau);
const VecX& forwardDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau,
                            const ExternalForces& fext);

/// Inverse dynamics: tau = H qdd + C - J^T fext.
const VecX& inverseDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& qdd);
const VecX& inverseDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& qdd,
                            const ExternalForces& fext);

/// Joint-space mass matrix H(q) (symmetric, both triangles).
const MatX& massMatrix(const Model& model, Data& data, const VecX& q);
/// Bias forces C(q, v): gravity, Coriolis and centrifugal terms.
const VecX& biasForces(const Model& model, Data& data, const VecX& q, const VecX& v);

}  // namespace grbda
