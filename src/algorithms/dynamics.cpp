// Public entry points: validate, prepare the cluster state, run the cluster algorithm.
#include "grbda/algorithms/dynamics.hpp"

#include <string>

#include "../kernels/articulated_pass.hpp"
#include "../kernels/checks.hpp"
#include "../kernels/rnea_forces_check.hpp"
#include "kept_loops_check.hpp"
#include "../kernels/cluster_algorithms.hpp"
#include "../kernels/cluster_state.hpp"
#include "data_workspace.hpp"

namespace grbda {

const VecX& forwardDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau) {
  return forwardDynamics(model, data, q, v, tau, ExternalForces());
}

const VecX& forwardDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& tau,
                            const ExternalForces& fext) {
  constexpr const char* alg = "forwardDynamics";
  detail::refuseKeptLoops(model, alg);
  detail::checkVector(tau, model.nv(), "tau", alg);
  detail::checkExternalForces(model, &fext, alg);
  detail::prepareState(model, data, q, &v, alg);
  if (!detail::clusterAba(model, data, tau, &fext)) detail::throwArticulatedInertiaNotPositive(model, data, alg);
  detail::checkResult(data.qdd, "qdd", alg);
  return data.qdd;
}

const VecX& inverseDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd) {
  return inverseDynamics(model, data, q, v, qdd, ExternalForces());
}

const VecX& inverseDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v, const VecRef& qdd,
                            const ExternalForces& fext) {
  constexpr const char* alg = "inverseDynamics";
  detail::checkVector(qdd, model.nv(), "qdd", alg);
  detail::checkExternalForces(model, &fext, alg);
  detail::prepareState(model, data, q, &v, alg);
  detail::clusterRnea(model, data, qdd, &fext);
  detail::checkResult(data.tau, "tau", alg);
  return data.tau;
}

Vec6 clusterJointForce(const Model& model, const Data& data, int k) {
  detail::checkData(model, data, "clusterJointForce");
  detail::checkRneaForces(data, "clusterJointForce");
  if (k < 0 || k >= model.numClusters())
    throw InputError("clusterJointForce: cluster index " + std::to_string(k) + " out of range [0, " +
                     std::to_string(model.numClusters()) + ")");
  // data.f[i] is the force on body i across the cluster joint once C-RNEA's inward pass is done
  const Cluster& cl = model.cluster(k);
  Vec6 f = Vec6::Zero();
  for (int i = cl.firstBody; i < cl.firstBody + cl.numBodies; ++i) f += data.work().Xout[i].applyTranspose(data.f[i]);
  return f;
}

const MatX& massMatrix(const Model& model, Data& data, const VecRef& q) {
  detail::prepareState(model, data, q, nullptr, "massMatrix");
  detail::clusterCrba(model, data);
  return data.H;
}

const VecX& biasForces(const Model& model, Data& data, const VecRef& q, const VecRef& v) {
  detail::prepareState(model, data, q, &v, "biasForces");
  detail::clusterRnea(model, data, data.work().zeroV, nullptr);
  data.C = data.tau;
  detail::checkResult(data.C, "C", "biasForces");
  return data.C;
}

const VecX& completeConfiguration(const Model& model, Data& data, const VecRef& q) {
  detail::setConfiguration(model, data, q, "completeConfiguration");
  return data.qSpan;
}

}  // namespace grbda
