#include "grbda/algorithms/dynamics.hpp"

#include "checks.hpp"
#include "grbda/algorithms/tree.hpp"

namespace grbda {

namespace {
void checkState(const Model& m, const VecX& q, const VecX& v, const char* alg) {
  detail::checkConfiguration(m, q, alg);
  detail::checkVector(v, m.nv(), "v", alg);
}
}  // namespace

const VecX& forwardDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau) {
  return forwardDynamics(model, data, q, v, tau, ExternalForces());
}

const VecX& forwardDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau,
                            const ExternalForces& fext) {
  constexpr const char* alg = "forwardDynamics";
  checkState(model, q, v, alg);
  detail::checkVector(tau, model.nv(), "tau", alg);
  detail::checkExternalForces(model, &fext, alg);
  tree::aba(model, data, q, v, tau, &fext);
  detail::checkResult(data.qdd, "qdd", alg);
  return data.qdd;
}

const VecX& inverseDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& qdd) {
  return inverseDynamics(model, data, q, v, qdd, ExternalForces());
}

const VecX& inverseDynamics(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& qdd,
                            const ExternalForces& fext) {
  constexpr const char* alg = "inverseDynamics";
  checkState(model, q, v, alg);
  detail::checkVector(qdd, model.nv(), "qdd", alg);
  detail::checkExternalForces(model, &fext, alg);
  tree::rnea(model, data, q, v, qdd, &fext);
  detail::checkResult(data.tau, "tau", alg);
  return data.tau;
}

const MatX& massMatrix(const Model& model, Data& data, const VecX& q) {
  detail::checkConfiguration(model, q, "massMatrix");
  return tree::crba(model, data, q);
}

const VecX& biasForces(const Model& model, Data& data, const VecX& q, const VecX& v) {
  checkState(model, q, v, "biasForces");
  tree::nonLinearEffects(model, data, q, v);
  detail::checkResult(data.C, "C", "biasForces");
  return data.C;
}

}  // namespace grbda
