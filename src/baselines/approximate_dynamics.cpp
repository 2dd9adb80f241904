// Dynamics of the approximate models (spec §6.9.3): the tree algorithms on the independent tree
// plus the constant offset H_off. On a Data of the tree, nothing here allocates.
#include <Eigen/Cholesky>

#include "../kernels/checks.hpp"
#include "grbda/algorithms/tree.hpp"
#include "grbda/baselines/approximate.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda {

namespace {

void checkState(const ApproximateModel& am, const Data& data, const VecRef& q, const VecRef* v,
                const ExternalForces* fext, const char* alg) {
  const Model& m = am.tree;
  if (static_cast<int>(data.work().Xup.size()) != m.numBodies() || data.tau.size() != m.nv() || data.H.rows() != m.nv())
    throw InputError(std::string(alg) + ": data was not created for the approximate model (use Data(approx.tree))");
  detail::checkConfiguration(m, q, alg);
  if (v) detail::checkVector(*v, m.nv(), "v", alg);
  detail::checkExternalForces(m, fext, alg);
}

/// out += H_off x.
void addOffset(const ApproximateModel& am, const VecRef& x, VecX& out) {
  switch (am.approximation) {
    case RotorApproximation::None: break;
    case RotorApproximation::Diagonal: out += am.armature.cwiseProduct(x); break;
    case RotorApproximation::BlockDiagonal: out.noalias() += am.massOffset * x; break;
  }
}

}  // namespace

const VecX& approximateInverseDynamics(const ApproximateModel& am, Data& data, const VecRef& q, const VecRef& v,
                                       const VecRef& qdd, const ExternalForces* fext) {
  constexpr const char* alg = "approximateInverseDynamics";
  checkState(am, data, q, &v, fext, alg);
  detail::checkVector(qdd, am.tree.nv(), "qdd", alg);
  data.tau = tree::rnea(am.tree, data, q, v, qdd, fext);
  addOffset(am, qdd, data.tau);
  detail::checkResult(data.tau, "tau", alg);
  return data.tau;
}

const VecX& approximateForwardDynamics(const ApproximateModel& am, Data& data, const VecRef& q, const VecRef& v,
                                       const VecRef& tau, const ExternalForces* fext) {
  constexpr const char* alg = "approximateForwardDynamics";
  checkState(am, data, q, &v, fext, alg);
  detail::checkVector(tau, am.tree.nv(), "tau", alg);
  switch (am.approximation) {
    case RotorApproximation::None: data.qdd = tree::aba(am.tree, data, q, v, tau, fext); break;
    case RotorApproximation::Diagonal: data.qdd = tree::aba(am.tree, data, q, v, tau, fext, &am.armature); break;
    case RotorApproximation::BlockDiagonal: {
      // Dense: (H_tree + R) qdd = τ − C, factorised in place in data.H.
      tree::nonLinearEffects(am.tree, data, q, v, fext);
      data.qdd = tau - data.CTree;
      data.H = tree::crba(am.tree, data, q);
      data.H += am.massOffset;
      Eigen::LLT<Eigen::Ref<MatX>> llt(data.H);
      if (llt.info() != Eigen::Success)
        throw NumericalError(std::string(alg) + ": H + R is not positive definite (massless subtree?)");
      llt.solveInPlace(data.qdd);
      break;
    }
  }
  detail::checkResult(data.qdd, "qdd", alg);
  return data.qdd;
}

const MatX& approximateMassMatrix(const ApproximateModel& am, Data& data, const VecRef& q) {
  checkState(am, data, q, nullptr, nullptr, "approximateMassMatrix");
  data.H = tree::crba(am.tree, data, q);
  data.H += am.massOffset;
  return data.H;
}

const VecX& approximateBiasForces(const ApproximateModel& am, Data& data, const VecRef& q, const VecRef& v) {
  checkState(am, data, q, &v, nullptr, "approximateBiasForces");
  data.C = tree::nonLinearEffects(am.tree, data, q, v);
  detail::checkResult(data.C, "C", "approximateBiasForces");
  return data.C;
}

}  // namespace grbda
