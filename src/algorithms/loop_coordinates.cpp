// Moving between a model's coordinates and the reduced ones when it keeps loops as constraint
// rows (see the header). Not a hot path: these allocate.
#include "grbda/algorithms/loop_coordinates.hpp"

#include <algorithm>

#include "../cluster/cluster_joint.hpp"
#include "../kernels/checks.hpp"
#include "data_workspace.hpp"

namespace grbda {

namespace {

/// Whether velocity (= position, 1-DoF joints) coordinate i of the model is a dependent joint of
/// a kept group.
std::vector<bool> dependentMask(const Model& model, int size, bool positions) {
  std::vector<bool> dependent(static_cast<size_t>(size), false);
  for (const KeptLoopGroup& lc : model.keptLoopGroups())
    for (int j : lc.dependent) dependent[static_cast<size_t>((positions ? lc.qIndex : lc.vIndex) + j)] = true;
  return dependent;
}

std::vector<std::string> keptNames(const std::vector<std::string>& names, const std::vector<bool>& dependent) {
  std::vector<std::string> out;
  for (size_t i = 0; i < names.size(); ++i)
    if (!dependent[i]) out.push_back(names[i]);
  return out;
}

/// x (reduced) spread over the model's coordinates, zeros on the dependent ones.
VecX spread(const VecRef& x, const std::vector<bool>& dependent) {
  VecX out = VecX::Zero(static_cast<Eigen::Index>(dependent.size()));
  Eigen::Index next = 0;
  for (size_t i = 0; i < dependent.size(); ++i)
    if (!dependent[i]) out[static_cast<Eigen::Index>(i)] = x[next++];
  return out;
}

void checkReduced(const VecRef& x, int expected, const char* what, const char* algorithm) {
  detail::checkVector(x, expected, what, algorithm);
}

/// The group's independent values (in its local order) out of a model-sized vector.
VecX groupIndependent(const KeptLoopGroup& lc, const VecRef& x, int first) {
  VecX y(lc.numDof);
  Eigen::Index next = 0;
  for (int j = 0; j < lc.numBodies; ++j)
    if (std::find(lc.dependent.begin(), lc.dependent.end(), j) == lc.dependent.end()) y[next++] = x[first + j];
  return y;
}

}  // namespace

int reducedNq(const Model& model) {
  int n = model.nq();
  for (const KeptLoopGroup& lc : model.keptLoopGroups()) n -= static_cast<int>(lc.dependent.size());
  return n;
}

int reducedNv(const Model& model) {
  int n = model.nv();
  for (const KeptLoopGroup& lc : model.keptLoopGroups()) n -= static_cast<int>(lc.dependent.size());
  return n;
}

std::vector<std::string> reducedPositionNames(const Model& model) {
  return keptNames(model.positionNames(), dependentMask(model, model.nq(), true));
}

std::vector<std::string> reducedVelocityNames(const Model& model) {
  return keptNames(model.velocityNames(), dependentMask(model, model.nv(), false));
}

VecX expandPositions(const Model& model, const VecRef& qReduced) {
  checkReduced(qReduced, reducedNq(model), "reduced q", "expandPositions");
  VecX q = spread(qReduced, dependentMask(model, model.nq(), true));
  for (const KeptLoopGroup& lc : model.keptLoopGroups()) {
    ClusterData cd;
    detail::sizeClusterData(model, lc.embedded, cd);
    const VecX yk = groupIndependent(lc, q, lc.qIndex);
    VecX qs = VecX::Zero(lc.embedded.nqSpan);
    if (!lc.embedded.joint->completePositions(lc.embedded, yk.data(), qs.data(), cd))
      throw NumericalError("expandPositions: cannot close the loops of '" + lc.name +
                           "' at the given independent positions (no solution or singular constraint Jacobian)");
    q.segment(lc.qIndex, lc.numBodies) = qs;
  }
  return q;
}

VecX expandVelocities(const Model& model, const VecRef& q, const VecRef& vReduced) {
  detail::checkVector(q, model.nq(), "q", "expandVelocities");
  checkReduced(vReduced, reducedNv(model), "reduced v", "expandVelocities");
  VecX v = spread(vReduced, dependentMask(model, model.nv(), false));
  for (const KeptLoopGroup& lc : model.keptLoopGroups()) {
    ClusterData cd;
    detail::sizeClusterData(model, lc.embedded, cd);
    const detail::ConstraintSet& set = lc.embedded.joint->constraints();
    set.jacobian(q.data() + lc.qIndex, cd);
    if (!set.explicitFormG(cd))
      throw NumericalError("expandVelocities: the loops of '" + lc.name +
                           "' are singular at q (the dependent joints' constraint Jacobian is singular)");
    v.segment(lc.vIndex, lc.numBodies) = cd.G * groupIndependent(lc, v, lc.vIndex);
  }
  return v;
}

VecX expandForces(const Model& model, const VecRef& tau) {
  checkReduced(tau, reducedNv(model), "reduced tau", "expandForces");
  return spread(tau, dependentMask(model, model.nv(), false));
}

namespace {
VecX gatherKept(const VecRef& x, const std::vector<bool>& dependent, int size) {
  VecX out(size);
  Eigen::Index next = 0;
  for (size_t i = 0; i < dependent.size(); ++i)
    if (!dependent[i]) out[next++] = x[static_cast<Eigen::Index>(i)];
  return out;
}
}  // namespace

VecX reduceVelocities(const Model& model, const VecRef& x) {
  detail::checkVector(x, model.nv(), "x", "reduceVelocities");
  return gatherKept(x, dependentMask(model, model.nv(), false), reducedNv(model));
}

VecX reducePositions(const Model& model, const VecRef& q) {
  detail::checkVector(q, model.nq(), "q", "reducePositions");
  return gatherKept(q, dependentMask(model, model.nq(), true), reducedNq(model));
}

}  // namespace grbda
