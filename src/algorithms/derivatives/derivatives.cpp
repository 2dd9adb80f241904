// Public entry points of the dynamics derivatives (algorithms/derivatives.hpp).
#include "grbda/algorithms/derivatives.hpp"

#include <string>

#include "derivatives_internal.hpp"
#include "../checks.hpp"
#include "../cluster_algorithms.hpp"
#include "../cluster_state.hpp"
#include "../../cluster/cluster_joint.hpp"
#include "grbda/algorithms/dynamics.hpp"

namespace grbda {

namespace detail {

void sizeDerivatives(const Model& model, Data& data) {
  DerivativesData& d = data.derivatives;
  const int nv = model.nv(), ns = model.nvSpanning();
  if (d.dtau_dq.rows() == nv && d.J.cols() == ns) return;
  const auto nb = static_cast<size_t>(model.numBodies());
  d.dtau_dq = d.dtau_dv = d.M = d.ddq_dq = d.ddq_dv = MatX::Zero(nv, nv);
  d.tau = d.ddq = VecX::Zero(nv);
  d.J = d.dJ = d.dVdq = d.dAdq = Mat6X::Zero(6, ns);
  d.IC.assign(nb, Mat6::Zero());
  d.BC.assign(nb, Mat6::Zero());
  d.vw.assign(nb, Vec6::Zero());
  d.aw.assign(nb, Vec6::Zero());
  d.F.assign(nb, Vec6::Zero());
  d.qddSpan = d.tauSpan = VecX::Zero(ns);
  d.dtauSpan_dq = d.dtauSpan_dv = d.HSpan = MatX::Zero(ns, ns);
  d.scratch = MatX::Zero(ns, nv);
  d.clusters.assign(static_cast<size_t>(model.numClusters()), ClusterDerivativesData());
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    if (cl.joint->constraints().isStatic()) continue;
    ClusterDerivativesData& w = d.clusters[static_cast<size_t>(k)];
    const int n = cl.nvSpan, m = cl.nvSpan - cl.nv;
    w.work = data.clusters[static_cast<size_t>(k)];
    w.dG = MatX::Zero(n, cl.nv * cl.nv);
    w.dGyd = w.dAcc = w.dgdv = MatX::Zero(n, cl.nv);
    w.K0 = w.dK = MatX::Zero(m, n);
    w.dk = w.dkv = w.rhs = VecX::Zero(m);
    w.q = w.qd = VecX::Zero(n);
  }
}

/// q̈_s = G ÿ + g, cluster by cluster (at the kinematics in data).
void spanningAccelerations(const Model& model, Data& data, const VecX& ydd) {
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = data.clusters[static_cast<size_t>(k)];
    auto qdd = data.derivatives.qddSpan.segment(cl.vSpanIndex, cl.nvSpan);
    qdd.noalias() = cd.G * ydd.segment(cl.vIndex, cl.nv);
    qdd += cd.g;
  }
}

void rneaDerivativesPrepared(const Model& model, Data& data, const VecX& ydd, const WorldFixedForces* ext) {
  sizeDerivatives(model, data);
  spanningAccelerations(model, data, ydd);
  spanningRneaDerivatives(model, data, ext);
  clusterLocalDerivatives(model, data, ydd);
  projectDerivatives(model, data);
}

}  // namespace detail

void computeRNEADerivatives(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& qdd) {
  constexpr const char* alg = "computeRNEADerivatives";
  detail::checkVector(qdd, model.nv(), "qdd", alg);
  detail::prepareState(model, data, q, &v, alg);
  detail::rneaDerivativesPrepared(model, data, qdd);
  detail::checkResult(data.derivatives.tau, "tau", alg);
}

void computeABADerivatives(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau) {
  constexpr const char* alg = "computeABADerivatives";
  detail::checkVector(tau, model.nv(), "tau", alg);
  detail::prepareState(model, data, q, &v, alg);
  if (!detail::clusterAba(model, data, tau, nullptr))
    throw NumericalError(std::string(alg) + ": an articulated joint-space inertia D_k is not positive definite");
  detail::sizeDerivatives(model, data);
  DerivativesData& d = data.derivatives;
  d.ddq = data.qdd;
  detail::rneaDerivativesPrepared(model, data, d.ddq);  // at forwardDynamics' kinematics
  detail::inverseMassMatrix(model, data, alg);  // at the same kinematics
  d.ddq_dq.noalias() = -data.Minv * d.dtau_dq;  // ∂ÿ/∂y = −ℳ⁻¹ ∂τ/∂y at the solved ÿ
  d.ddq_dv.noalias() = -data.Minv * d.dtau_dv;
  detail::checkResult(d.ddq, "qdd", alg);
}

}  // namespace grbda
