// Public entry point of the constrained-dynamics derivatives (algorithms/constrained_derivatives.hpp):
// solve, differentiate inverse dynamics with λ held as forces and the rows' accelerations, project
// through G, then the KKT system by its Schur complement.
#include "grbda/algorithms/constrained_derivatives.hpp"

#include <string>

#include "constraint_rows_derivatives.hpp"
#include "derivatives_internal.hpp"
#include "../../kernels/checks.hpp"
#include "../../kernels/cluster_algorithms.hpp"
#include "../../cluster/cluster_joint.hpp"
#include "../../kernels/constraint_rows.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda {

namespace {

void sizeWorkspace(const Model& model, int m, ConstraintDerivativesData& D) {
  const int nv = model.nv(), ns = model.nvSpanning();
  if (D.ddq_dq.rows() == nv && D.dlambda_dq.rows() == m && D.Js.cols() == ns) return;
  D.ddq = VecX::Zero(nv);
  D.lambda = VecX::Zero(m);
  D.ddq_dq = D.ddq_dv = D.ddq_dtau = MatX::Zero(nv, nv);
  D.dlambda_dq = D.dlambda_dv = D.dlambda_dtau = D.J = D.da_dq = D.da_dv = MatX::Zero(m, nv);
  D.Js = D.das_dq = D.das_dv = MatX::Zero(m, ns);
  D.MinvJt = MatX::Zero(nv, m);
  D.delassus = MatX::Zero(m, m);
  D.lltDelassus = Eigen::LLT<MatX>(m);
  D.Fext.assign(static_cast<size_t>(model.numBodies()), Vec6::Zero());
  D.Eext.assign(static_cast<size_t>(model.numBodies()), Mat6::Zero());
}

/// J = J_s G, ∂a/∂y = ∂a/∂q_s G + ∂a/∂q̇_s ∂(Gẏ)/∂y + J_s ∂(Gÿ + g)/∂y, ∂a/∂ẏ = ∂a/∂q̇_s G + J_s ∂g/∂ẏ.
void projectRows(const Model& model, const Data& data, ConstraintDerivativesData& D) {
  detail::timesG(model, data, D.Js, D.J);
  detail::timesG(model, data, D.das_dq, D.da_dq);
  detail::timesG(model, data, D.das_dv, D.da_dv);
  for (int c = 0; c < model.numClusters(); ++c) {
    const Cluster& C = model.cluster(c);
    if (C.joint->constraints().isStatic()) continue;
    const ClusterDerivativesData& w = data.work().derivativeClusters[static_cast<size_t>(c)];
    const auto Js = D.Js.middleCols(C.vSpanIndex, C.nvSpan);
    D.da_dq.middleCols(C.vIndex, C.nv).noalias() += D.das_dv.middleCols(C.vSpanIndex, C.nvSpan) * w.dGyd;
    D.da_dq.middleCols(C.vIndex, C.nv).noalias() += Js * w.dAcc;
    D.da_dv.middleCols(C.vIndex, C.nv).noalias() += Js * w.dgdv;
  }
}

/// ∂λ/∂x = Λ (−∂a/∂x − J ℳ⁻¹ r), ∂ÿ/∂x = ℳ⁻¹ r + ℳ⁻¹Jᵀ ∂λ/∂x with r = −∂ID_λ/∂x (x = y, ẏ);
/// minvR = ℳ⁻¹ r, the unconstrained answer (detail::solveWithMassMatrix).
void kktColumns(const MatX& minvR, const MatX& da, ConstraintDerivativesData& D, MatX& ddq, MatX& dlambda) {
  ddq = minvR;
  if (D.lambda.size() == 0) return;
  dlambda = -da;
  dlambda.noalias() -= D.J * ddq;
  D.lltDelassus.solveInPlace(dlambda);
  ddq.noalias() += D.MinvJt * dlambda;
}

}  // namespace

const VecX& computeConstrainedDynamicsDerivatives(const Model& model, Data& data, const ConstraintModel& constraints,
                                                  ConstraintData& cd, const VecRef& q, const VecRef& v,
                                                  const VecRef& tau, const ConstraintSolverSettings& settings) {
  constexpr const char* alg = "computeConstrainedDynamicsDerivatives";
  detail::checkData(model, data, alg);
  detail::checkConstraintWorkspace(model, constraints, cd, alg);
  detail::checkVector(v, model.nv(), "v", alg);
  detail::checkVector(tau, model.nv(), "tau", alg);
  if (settings.solver == ConstraintSolver::PVSoft || settings.solver == ConstraintSolver::LTLSoft)
    throw InputError(std::string(alg) + ": the derivatives are those of hard constraints; " +
                     constraintSolverName(settings.solver) + " solves soft ones (use pv, kkt, ltl, pv-early or proximal)");
  if (constraints.numKeptLoopGroups() > 0)
    throw InputError(std::string(alg) + ": the model keeps loops as constraint rows (" +
                     constraints.constraint(0).name + "); their derivatives are not implemented — load it with "
                     "the loops embedded (LoopTreatment::Embed), whose derivatives are exact");
  constrainedForwardDynamics(model, data, constraints, cd, q, v, tau, settings);  // kinematics stay prepared
  if (cd.redundant)
    throw NumericalError(std::string(alg) + ": the constraint rows are redundant (rank " + std::to_string(cd.rank) +
                         " of " + std::to_string(cd.work().numRows) + "): lambda and its derivatives are not unique");
  ConstraintDerivativesData& D = cd.derivatives;
  sizeWorkspace(model, cd.work().numRows, D);
  D.ddq = data.qdd;
  D.lambda = cd.lambda;
  detail::constraintForcesAsExternal(model, data, constraints, cd, D);
  const detail::WorldFixedForces ext{&D.Fext, &D.Eext};
  detail::rneaDerivativesPrepared(model, data, D.ddq, &ext);  // ∂(ID − Jᵀλ) at (q, v, ÿ), fixed λ
  detail::constraintAccelerationDerivatives(model, data, constraints, cd, D);
  projectRows(model, data, D);
  detail::solveWithMassMatrix(model, data, alg);  // ℳ⁻¹ and −ℳ⁻¹ ∂ID_λ/∂x at the same kinematics
  const MatX& Minv = data.Minv;
  D.ddq_dtau = Minv;
  if (cd.work().numRows > 0) {  // (Eigen's triangular solves must not see an empty right-hand side)
    D.MinvJt.noalias() = Minv * D.J.transpose();
    D.delassus.noalias() = D.J * D.MinvJt;
    D.lltDelassus.compute(D.delassus);
    if (D.lltDelassus.info() != Eigen::Success)
      throw NumericalError(std::string(alg) + ": J H^-1 J^T is not positive definite");
    D.dlambda_dtau = -D.MinvJt.transpose();  // −Λ J ℳ⁻¹ (ℳ⁻¹ is symmetric)
    D.lltDelassus.solveInPlace(D.dlambda_dtau);
    D.ddq_dtau.noalias() += D.MinvJt * D.dlambda_dtau;
  }
  kktColumns(data.derivatives.ddq_dq, D.da_dq, D, D.ddq_dq, D.dlambda_dq);
  kktColumns(data.derivatives.ddq_dv, D.da_dv, D, D.ddq_dv, D.dlambda_dv);
  detail::checkResult(D.ddq, "qdd", alg);
  for (const MatX* M : {&D.ddq_dq, &D.ddq_dv, &D.dlambda_dq, &D.dlambda_dv})
    if (!M->allFinite()) throw NumericalError(std::string(alg) + ": a derivative is not finite (singular state)");
  return D.ddq;
}

}  // namespace grbda
