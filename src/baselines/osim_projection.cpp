// Projected inverse operational-space inertia (spec §6.9.6), dense on the spanning tree.
#include <Eigen/Cholesky>
#include <string>

#include "grbda/algorithms/tree.hpp"
#include "grbda/baselines/osim_baselines.hpp"
#include "grbda/baselines/projection.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda {

MatX projectionInverseOperationalSpaceInertia(const Model& model, Data& data,
                                             const std::vector<EndEffector>& endEffectors, const VecRef& q,
                                             bool linearOnly) {
  constexpr const char* alg = "projectionInverseOperationalSpaceInertia";
  ProjectionMatrices cm;
  projectionMatrices(model, data, q, VecX::Zero(model.nv()), cm);
  const VecX qSpan = data.qSpan;
  const MatX Htree = tree::crba(model, data, qSpan);  // also leaves the tree poses in the workspace's Xup
  const Eigen::LLT<MatX> llt(cm.G.transpose() * Htree * cm.G);
  if (llt.info() != Eigen::Success) throw NumericalError(std::string(alg) + ": GᵀHG is not positive definite");

  const int R = linearOnly ? 3 : 6, ne = static_cast<int>(endEffectors.size());
  MatX Jy(R * ne, model.nv());
  Mat6X Jtree;
  for (int e = 0; e < ne; ++e) {
    const EndEffector& ee = endEffectors[static_cast<size_t>(e)];
    if (ee.frame < 0 || ee.frame >= static_cast<int>(model.frames().size()))
      throw InputError(std::string(alg) + ": end-effector " + std::to_string(e) + " has an unknown frame index");
    tree::frameJacobian(model, data, ee.frame, ee.point, ReferenceFrame::Local, Jtree);
    Jy.middleRows(R * e, R) = Jtree.bottomRows(R) * cm.G;
  }
  return Jy * llt.solve(Jy.transpose());
}

}  // namespace grbda
