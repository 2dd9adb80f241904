#pragma once
// Internal: the cluster algorithms on a prepared state (detail::prepareState already ran). Each
// lives in its own file and reads beside its pseudo-code in spec §6.
#include "grbda/data.hpp"

namespace grbda::detail {

/// C-ABA (spec §6.3, [P0] Alg. 1): data.qdd = ÿ. False if some D_k is not positive definite.
bool clusterAba(const Model& model, Data& data, const VecRef& tau, const ExternalForces* fext);
/// C-RNEA (spec §6.2): data.tau.
void clusterRnea(const Model& model, Data& data, const VecRef& ydd, const ExternalForces* fext);
/// Cluster CRBA (spec §6.4): data.H.
void clusterCrba(const Model& model, Data& data);
/// ℳ⁻¹ (minv.cpp): data.Minv. Throws NumericalError naming `algorithm` if some D_k is not
/// positive definite.
void inverseMassMatrix(const Model& model, Data& data, const char* algorithm);

}  // namespace grbda::detail
