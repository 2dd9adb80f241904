// Contact-consistent inverse dynamics (contact_inverse_dynamics.hpp): C-RNEA's outward pass, the
// base's Newton–Euler equations J_bᵀ λ = (H q̈ + C)_b solved for the minimum-norm λ, the contact
// forces subtracted from the body forces, C-RNEA's inward pass.
#include "grbda/algorithms/contact_inverse_dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/Eigenvalues>

#include "../kernels/constraint_rows.hpp"
#include "../kernels/checks.hpp"
#include "cluster_rnea_halves.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda {

namespace {

/// The floating base's coordinates are unactuated: a root cluster of one free body (6 DoF).
int baseDof(const Model& model) {
  if (!model.isFloatingBase() || model.numClusters() == 0) return 0;
  const Cluster& root = model.cluster(0);
  return root.numBodies == 1 && root.nv == 6 && model.body(root.firstBody).joint.type == JointType::Free ? 6 : 0;
}

/// A world wrench (moment about the origin, force) as the base's generalised force S_bᵀ ^bX*_0 w.
Vec6 onBase(const Data& data, const Vec6& worldWrench) {
  const Eigen::Map<const Mat6> S(data.work().clusters[0].S.data());  // the root cluster: one body, 6 DoF
  return S.transpose() * data.Xa[0].applyForce(worldWrench);
}

/// The base rows J_b (m x 6, into the constraint workspace's J's first columns) and b_b = (H q̈ + C)_b, the total wrench
/// of the outward pass's body forces, both as base generalised forces: a part K on body i is the
/// force K on i, so its base column is the same force seen at the base (Σ_parts ^0X*_i K).
Vec6 baseRows(const Model& model, const Data& data, ConstraintData& cd) {
  Vec6 total = Vec6::Zero();
  for (int i = 0; i < model.numBodies(); ++i) total += data.Xa[static_cast<size_t>(i)].applyTranspose(data.f[static_cast<size_t>(i)]);
  for (int r = 0; r < cd.work().numRows; ++r) {
    Vec6 w = Vec6::Zero();
    for (int p = cd.work().rowFirstPart[static_cast<size_t>(r)]; p < cd.work().rowFirstPart[static_cast<size_t>(r) + 1]; ++p) {
      const ConstraintWorkspace::RowPart& part = cd.work().parts[static_cast<size_t>(p)];
      w += data.Xa[static_cast<size_t>(part.body)].applyTranspose(part.K);
    }
    cd.work().J.row(r).head<6>() = onBase(data, w).transpose();
  }
  return onBase(data, total);
}

/// λ = W⁻¹ J_b A⁺ b with A = J_bᵀ W⁻¹ J_b (6 x 6): the minimum-Σ w λ² solution of J_bᵀ λ = b, or
/// its least-squares one when A is singular (then by A's eigenvalues). Returns rank A = rank J_b.
int minimumNormForces(ConstraintData& cd, const VecRef& weights, const Vec6& b) {
  const int m = cd.work().numRows;
  const auto Jb = cd.work().J.leftCols<6>();
  Mat6 A = Mat6::Zero();
  for (int r = 0; r < m; ++r) A.noalias() += (1.0 / (weights.size() ? weights[r] : 1.0)) * Jb.row(r).transpose() * Jb.row(r);
  const double scale = A.diagonal().maxCoeff();
  Vec6 y = Vec6::Zero();
  int rank = 0;
  if (scale > 0.0) {
    const Eigen::LLT<Mat6> llt(A);
    bool full = llt.info() == Eigen::Success;
    for (int i = 0; full && i < 6; ++i) full = llt.matrixLLT()(i, i) * llt.matrixLLT()(i, i) > 1e-10 * scale;
    if (full) {
      y = llt.solve(b);
      rank = 6;
    } else {  // rank-deficient: pseudo-inverse over the eigenvalues above round-off
      const Eigen::SelfAdjointEigenSolver<Mat6> es(A);
      for (int i = 0; i < 6; ++i) {
        const double e = es.eigenvalues()[i];
        if (!(e > 1e-10 * scale)) continue;
        ++rank;
        y += (es.eigenvectors().col(i).dot(b) / e) * es.eigenvectors().col(i);
      }
    }
  }
  for (int r = 0; r < m; ++r) cd.lambda[r] = Jb.row(r).dot(y) / (weights.size() ? weights[r] : 1.0);
  return rank;
}

void checkWeights(const VecRef& w, int m, const char* alg) {
  if (w.size() == 0) return;
  detail::checkVector(w, m, "weights", alg);
  for (int r = 0; r < m; ++r)
    if (!(w[r] > 0.0))
      throw InputError(std::string(alg) + ": weights[" + std::to_string(r) + "] = " + std::to_string(w[r]) +
                       " is not positive");
}

}  // namespace

const VecX& contactInverseDynamics(const Model& model, Data& data, const ConstraintModel& constraints,
                                   ConstraintData& cd, const VecRef& q, const VecRef& v, const VecRef& qdd,
                                   const ContactInverseDynamicsSettings& settings,
                                   ContactInverseDynamicsReport* report) {
  constexpr const char* alg = "contactInverseDynamics";
  detail::checkData(model, data, alg);
  detail::checkConstraintWorkspace(model, constraints, cd, alg);
  detail::checkVector(qdd, model.nv(), "qdd", alg);
  checkWeights(settings.weights, cd.work().numRows, alg);
  if (!(settings.tolerance > 0.0) || !std::isfinite(settings.tolerance))
    throw InputError(std::string(alg) + ": tolerance " + std::to_string(settings.tolerance) + " is not positive");
  detail::prepareState(model, data, q, &v, alg);
  detail::gatherConstraintRows(model, data, constraints, cd);
  detail::clusterRneaOutward(model, data, qdd, nullptr);  // f_i = I a + v ×* I v    (RNEA, outward)

  ContactInverseDynamicsReport rep;
  rep.accelerationResidual = cd.residual = detail::constraintResidual(data, cd);
  const double kScale = cd.work().numRows ? cd.work().kBiased.cwiseAbs().maxCoeff() : 0.0;
  rep.consistent = rep.accelerationResidual <= settings.tolerance * (1.0 + kScale);
  rep.baseDof = baseDof(model);
  Vec6 b = Vec6::Zero();
  if (rep.baseDof == 0 || cd.work().numRows == 0) {
    cd.lambda.setZero();
    rep.baseRank = 0;
  } else {
    b = baseRows(model, data, cd);
    rep.baseRank = minimumNormForces(cd, settings.weights, b);
  }
  rep.supported = rep.baseRank == rep.baseDof;
  cd.rank = rep.baseRank;
  cd.redundant = false;
  cd.iterations = 0;
  // the contact forces as external forces: a part K of row r is the force K λ_r on its body
  for (const ConstraintWorkspace::RowPart& p : cd.work().parts) data.f[static_cast<size_t>(p.body)].noalias() -= cd.lambda[p.row] * p.K;
  detail::clusterRneaInward(model, data);  // τ = H q̈ + C − Jᵀ λ
  if (rep.baseDof > 0) {
    auto tb = data.tau.segment(model.cluster(0).vIndex, 6);
    rep.baseResidual = tb.cwiseAbs().maxCoeff();
    tb.setZero();
  }
  rep.balanced = rep.baseResidual <= settings.tolerance * (1.0 + b.cwiseAbs().maxCoeff());
  detail::checkResult(data.tau, "tau", alg);
  detail::checkResult(cd.lambda, "lambda", alg);
  if (report) *report = rep;
  if (settings.throwOnError && !rep.consistent)
    throw NumericalError(std::string(alg) + ": qdd is not consistent with the constraint rows (max |J qdd + Jdot v - k| = " +
                         std::to_string(rep.accelerationResidual) + ")");
  if (settings.throwOnError && !rep.balanced)
    throw NumericalError(std::string(alg) + ": the constraint set cannot support the floating base (rank J_b = " +
                         std::to_string(rep.baseRank) + " of " + std::to_string(rep.baseDof) +
                         "); unbalanced base wrench " + std::to_string(rep.baseResidual));
  return data.tau;
}

}  // namespace grbda
