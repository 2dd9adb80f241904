// Proximal-and-sparse constrained forward dynamics (spec §7; proximal.hpp explains the method,
// the torque lift and the failure policy). One tree CRBA + bias pass, one sparse factorisation of
// the regularised KKT matrix, then up to maxIterations pairs of triangular solves that move the
// multiplier estimate λ_prev towards the exact multipliers.
#include <cmath>
#include <string>

#include "../kernels/checks.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/algorithms/tree.hpp"
#include "grbda/errors.hpp"
#include "proximal_internal.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda {

namespace {

constexpr const char* kName = "proximalSparseForwardDynamics";

void checkSettings(const ProximalSettings& s) {
  if (!(std::isfinite(s.mu) && s.mu >= 0.0))
    throw InputError(std::string(kName) + ": settings.mu must be finite and >= 0 (got " + std::to_string(s.mu) + ")");
  if (s.maxIterations < 1)
    throw InputError(std::string(kName) + ": settings.maxIterations must be >= 1 (got " +
                     std::to_string(s.maxIterations) + ")");
  if (!(std::isfinite(s.tolerance) && s.tolerance >= 0.0))
    throw InputError(std::string(kName) + ": settings.tolerance must be finite and >= 0 (got " +
                     std::to_string(s.tolerance) + ")");
}

/// ‖K q̈ − k‖∞ over the ConstraintModel's rows (whole rows).
double constraintModelResidual(const ProximalData& pd, const VecRef& qdd) {
  double worst = 0.0;
  for (int r = pd.firstConstraintRow; r < pd.numRows; ++r) worst = std::max(worst, std::abs(pd.K.row(r).dot(qdd) - pd.k[r]));
  return worst;
}

/// ‖K q̈ − k‖∞ over the cluster blocks of K and the ConstraintModel's rows.
double primalResidual(const Model& model, const ProximalData& pd, const VecRef& qdd) {
  double worst = constraintModelResidual(pd, qdd);
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& cl = model.cluster(c);
    for (int r = pd.clusterRowStart[static_cast<size_t>(c)]; r < pd.clusterRowStart[static_cast<size_t>(c) + 1]; ++r) {
      double value = -pd.k[r];
      for (int j = cl.vSpanIndex; j < cl.vSpanIndex + cl.nvSpan; ++j) value += pd.K(r, j) * qdd[j];
      worst = std::max(worst, std::abs(value));
    }
  }
  return worst;
}

/// ‖H q̈ + C − τ_tree − Kᵀ λ‖∞, H walked on the pattern (it is zero elsewhere).
double dualResidual(const Model& model, const MatX& H, const VecRef& C, ProximalData& pd, const VecRef& qdd,
                    const VecRef& lambda) {
  VecX& r = pd.stationarity;
  r = C - pd.tauTree;
  for (int e = 0; e < pd.numNodes; ++e) {
    const int ce = pd.nodeCoordinate[static_cast<size_t>(e)];
    if (ce < 0) continue;
    r[ce] += H(ce, ce) * qdd[ce];
    for (int p = pd.suppStart[static_cast<size_t>(e)]; p < pd.suppStart[static_cast<size_t>(e) + 1]; ++p) {
      const int ci = pd.nodeCoordinate[static_cast<size_t>(pd.supp[static_cast<size_t>(p)])];
      if (ci < 0) continue;
      r[ce] += H(ce, ci) * qdd[ci];
      r[ci] += H(ci, ce) * qdd[ce];
    }
  }
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& cl = model.cluster(c);
    for (int row = pd.clusterRowStart[static_cast<size_t>(c)]; row < pd.clusterRowStart[static_cast<size_t>(c) + 1]; ++row)
      for (int j = cl.vSpanIndex; j < cl.vSpanIndex + cl.nvSpan; ++j) r[j] -= pd.K(row, j) * lambda[row];
  }
  for (int row = pd.firstConstraintRow; row < pd.numRows; ++row) r.noalias() -= pd.K.row(row).transpose() * lambda[row];
  return r.size() ? r.cwiseAbs().maxCoeff() : 0.0;
}

}  // namespace

const ProximalResult& proximalSparseForwardDynamics(const Model& model, Data& data, ProximalData& pd, const VecRef& q,
                                                    const VecRef& v, const VecRef& tau, const ProximalSettings& settings) {
  checkSettings(settings);
  if (pd.nvSpan != model.nvSpanning() || pd.numBodies != model.numBodies() || pd.result.qdd.size() != model.nv())
    throw InputError(std::string(kName) + ": the ProximalData workspace was built for another model");
  if (pd.constraints && (pd.constraints->modelId() != model.id() ||
                         pd.constraintData->work().constraintsVersion != pd.constraints->version()))
    throw InputError(std::string(kName) + ": the ProximalData's ConstraintModel belongs to another model or has "
                     "changed since the workspace was made; make a new ProximalData(model, constraints)");
  if (pd.rows != settings.rows)  // allocates once per switch
    pd = pd.constraints ? ProximalData(model, *pd.constraints, settings.rows) : ProximalData(model, settings.rows);
  detail::checkVector(tau, model.nv(), "tau", kName);
  detail::prepareState(model, data, q, &v, kName);

  // tree terms; nonLinearEffects last so data.v, the workspace's c are the tree's (used by the loop rows)
  const MatX& H = tree::crba(model, data, data.qSpan);
  const VecX& C = tree::nonLinearEffects(model, data, data.qSpan, data.vSpan);
  detail::gatherConstraintRows(model, data, pd);
  pd.tauTree.setZero();  // lift: τ on the independent coordinates (Gᵀ τ_tree = τ, see header)
  for (size_t c = 0; c < pd.independentCoordinate.size(); ++c)
    pd.tauTree[pd.independentCoordinate[c]] = tau[static_cast<Eigen::Index>(c)];

  detail::assembleKkt(H, settings.mu, pd);
  detail::factorKkt(settings.mu, H, pd, kName);

  ProximalResult& res = pd.result;
  VecX& qdd = res.qddSpanning;
  VecX& lambda = res.lambda;
  pd.lambdaPrev.setZero();  // λ_0 = 0 (Pinocchio's cold start)
  res.converged = false;
  for (res.iterations = 1; res.iterations <= settings.maxIterations; ++res.iterations) {
    for (int e = 0; e < pd.numNodes; ++e) {
      const int ce = pd.nodeCoordinate[static_cast<size_t>(e)];
      const int row = pd.nodeRow[static_cast<size_t>(e)];
      pd.rhs[e] = ce >= 0 ? pd.tauTree[ce] - C[ce] : pd.k[row] + settings.mu * pd.lambdaPrev[row];
    }
    detail::solveKkt(pd);
    for (int e = 0; e < pd.numNodes; ++e) {
      const int ce = pd.nodeCoordinate[static_cast<size_t>(e)];
      if (ce >= 0) qdd[ce] = pd.z[e];
      else lambda[pd.nodeRow[static_cast<size_t>(e)]] = -pd.z[e];
    }
    res.lambdaChange = pd.numRows ? (lambda - pd.lambdaPrev).cwiseAbs().maxCoeff() : 0.0;
    pd.lambdaPrev = lambda;
    res.primalResidual = primalResidual(model, pd, qdd);
    if (!std::isfinite(res.primalResidual)) break;
    if (res.primalResidual <= settings.tolerance) {
      res.converged = true;
      break;
    }
  }
  res.iterations = std::min(res.iterations, settings.maxIterations);
  detail::checkResult(qdd, "the spanning acceleration", kName);
  detail::checkResult(lambda, "the constraint multipliers", kName);
  res.dualResidual = dualResidual(model, H, C, pd, qdd, lambda);
  for (size_t c = 0; c < pd.independentCoordinate.size(); ++c)
    res.qdd[static_cast<Eigen::Index>(c)] = qdd[pd.independentCoordinate[c]];
  if (pd.constraints) {  // the ConstraintModel's forces where its solvers leave them
    ConstraintData& cd = *pd.constraintData;
    cd.lambda = lambda.tail(cd.work().numRows);
    cd.residual = constraintModelResidual(pd, qdd);
  }
  return res;
}

ProximalResult proximalSparseForwardDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v,
                                             const VecRef& tau, const ProximalSettings& settings) {
  ProximalData workspace(model, settings.rows);
  return proximalSparseForwardDynamics(model, data, workspace, q, v, tau, settings);
}

}  // namespace grbda
