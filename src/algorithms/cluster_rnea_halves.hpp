#pragma once
// Internal: C-RNEA (cluster_rnea.cpp) in its two halves, for callers that change the body forces
// in between or only need the outward pass (contact-consistent inverse dynamics, the regressor).
#include "grbda/data.hpp"

namespace grbda::detail {

/// The outward pass: data.a (gravity-biased), data.f = I a + v ×* I v − fext (eqs. 62-63).
void clusterRneaOutward(const Model& model, Data& data, const VecRef& ydd, const ExternalForces* fext);
/// The inward pass on data.f: data.tau = Sᵀ f, the forces folded onto the output bodies (64-65).
void clusterRneaInward(const Model& model, Data& data);

}  // namespace grbda::detail
