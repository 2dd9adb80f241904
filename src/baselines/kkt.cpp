// The dense KKT baseline of constrained forward dynamics (seed 003 eq. 4-5): H from the cluster
// CRBA, C from C-RNEA, J from the body Jacobians of the gathered rows, then
//   λ = (J H⁻¹ Jᵀ)⁻¹ (k − J̇ẏ − J H⁻¹ (τ − C)),   ÿ = H⁻¹ (τ − C + Jᵀ λ),
// i.e. [H −Jᵀ; J 0] [ÿ; λ] = [τ − C; k − J̇ẏ] by its Schur complement. J̇ẏ is the rows' value
// at ÿ = 0 without gravity, by a forward pass; J column by column: the body Jacobian of cluster
// k's body j on the support path is ^bX_j S_j.
#include "../kernels/articulated_pass.hpp"
#include "../kernels/cluster_algorithms.hpp"
#include "../kernels/cluster_state.hpp"
#include "../kernels/constraint_rows.hpp"
#include "../kernels/constraint_solvers.hpp"
#include "dense_constraint_terms.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

void constraintJacobian(const Model& model, const Data& data, ConstraintData& cd) {
  cd.work().J.setZero();
  for (const ConstraintWorkspace::RowPart& p : cd.work().parts) {
    // (^bX_j)ᵀ K = ^jX_0^* (^bX_0)ᵀ K: K as a world force once, then one force transform per body
    const Vec6 Kworld = data.Xa[static_cast<size_t>(p.body)].applyTranspose(p.K);
    for (int j = p.body; j >= 0; j = model.body(j).output) {
      const Cluster& cl = model.cluster(model.body(j).cluster);
      const auto S = data.work().clusters[static_cast<size_t>(model.body(j).cluster)].S.middleRows<6>(6 * (j - cl.firstBody));
      const Vec6 Kj = data.Xa[static_cast<size_t>(j)].applyForce(Kworld);
      cd.work().J.row(p.row).segment(cl.vIndex, cl.nv).noalias() += Kj.transpose() * S;
    }
  }
}

void denseConstraintTerms(const Model& model, Data& data, ConstraintData& cd, const ExternalForces* fext) {
  clusterCrba(model, data);                    // data.H
  clusterRnea(model, data, data.work().zeroV, fext);  // data.tau = C(q, v) − Jᵀ f_ext
  for (int k = 0; k < model.numClusters(); ++k)  // accelerations with ÿ = 0, no gravity
    predictAccelerations(model.cluster(k), data, Vec6::Zero());
  VecX& b = cd.work().hard.b;
  b = cd.work().k;
  for (const ConstraintWorkspace::RowPart& p : cd.work().parts) b[p.row] -= p.K.dot(data.a[static_cast<size_t>(p.body)]);  // −J̇ẏ
  constraintJacobian(model, data, cd);
}

void bodyAccelerationsAtQdd(const Model& model, Data& data) {
  const Vec6 a0 = gravityBias(model, data);
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    predictAccelerations(cl, data, a0);
    const MatX& S = data.work().clusters[static_cast<size_t>(k)].S;
    for (int r = 0; r < cl.numBodies; ++r)
      data.a[static_cast<size_t>(cl.firstBody + r)].noalias() +=
          S.middleRows<6>(6 * r) * data.qdd.segment(cl.vIndex, cl.nv);
  }
}

void kktForwardDynamics(const Model& model, Data& data, ConstraintData& cd, const VecRef& tau, const ExternalForces* fext,
                        const ConstraintSolverSettings& settings, const char* algorithm) {
  denseConstraintTerms(model, data, cd, fext);
  ConstraintWorkspace::RowSystem& sys = cd.work().hard;
  cd.work().lltH.compute(data.H);
  if (cd.work().lltH.info() != Eigen::Success)
    throw NumericalError(std::string(algorithm) + ": the mass matrix is not positive definite");
  cd.work().rhs = tau - data.tau;                     // τ − C
  cd.work().Hinvrhs = cd.work().rhs;
  cd.work().lltH.solveInPlace(cd.work().Hinvrhs);            // ÿ_free
  data.qdd = cd.work().Hinvrhs;
  if (cd.work().numRows > 0) {  // (Eigen's triangular solve must not see an empty right-hand side)
    cd.work().HinvJt = cd.work().J.transpose();
    cd.work().lltH.solveInPlace(cd.work().HinvJt);
    sys.L.noalias() = cd.work().J * cd.work().HinvJt;          // Delassus matrix
    sys.b.noalias() -= cd.work().J * cd.work().Hinvrhs;
    solveDelassus(sys, cd, settings, false, algorithm);
    cd.lambda = sys.lambda;
    data.qdd.noalias() += cd.work().HinvJt * cd.lambda;
  } else {
    solveDelassus(sys, cd, settings, false, algorithm);  // rank and flags of the empty set
  }
  bodyAccelerationsAtQdd(model, data);  // for the residual, as the PV solvers leave them
}

}  // namespace grbda::detail
