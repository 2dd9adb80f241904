// The dense reference of PV-OSIM: Λ⁻¹ = J H⁻¹ Jᵀ with H from the cluster CRBA and J from the
// body Jacobians of the gathered rows (kkt.cpp's constraintJacobian).
#include <string>

#include "../kernels/checks.hpp"
#include "../kernels/cluster_algorithms.hpp"
#include "../kernels/cluster_state.hpp"
#include "../kernels/constraint_rows.hpp"
#include "dense_constraint_terms.hpp"
#include "grbda/baselines/osim_baselines.hpp"
#include "grbda/errors.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda {

const MatX& denseInverseOperationalSpaceInertia(const Model& model, Data& data, const ConstraintModel& constraints,
                                                ConstraintData& cd, const VecRef& q) {
  constexpr const char* alg = "denseInverseOperationalSpaceInertia";
  detail::checkData(model, data, alg);
  detail::checkConstraintWorkspace(model, constraints, cd, alg);
  detail::prepareState(model, data, q, nullptr, alg);
  detail::gatherConstraintRows(model, data, constraints, cd, false);
  detail::clusterCrba(model, data);  // data.H
  detail::constraintJacobian(model, data, cd);
  cd.work().lltH.compute(data.H);
  if (cd.work().lltH.info() != Eigen::Success)
    throw NumericalError(std::string(alg) + ": the mass matrix is not positive definite");
  cd.work().HinvJt = cd.work().J.transpose();
  cd.work().lltH.solveInPlace(cd.work().HinvJt);
  cd.LambdaInv.noalias() = cd.work().J * cd.work().HinvJt;
  return cd.LambdaInv;
}

}  // namespace grbda
