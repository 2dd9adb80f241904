// LTL and LTL-soft constrained forward dynamics (seed 003 P6; spec §2.4, §2.10): the Pinocchio-
// and MuJoCo-style joint-space methods, on the same H, C, J and k − J̇ẏ as the KKT baseline
// (dense_constraint_terms.hpp). With H = LᵀL, z = L⁻ᵀ(τ − C) and Y = J L⁻¹ (Yᵀ = L⁻ᵀ Jᵀ):
//   A = Y Yᵀ = J H⁻¹ Jᵀ,   b = k − J̇ẏ − J ÿ₀ = k − J̇ẏ − Y z          (ÿ₀ = H⁻¹(τ − C) = L⁻¹ z)
//   ltl:       A λ = b           (redundant rows: the shared rank test and proximal path)
//   ltl-soft:  (A + R) λ = b     (matrix-inversion lemma of the soft Gauss principle, spec §2.4)
//   ÿ = ÿ₀ + H⁻¹ Jᵀ λ = L⁻¹ (z + Yᵀ λ),
// λ being the force the environment exerts on the robot, as in kkt.cpp.
#include <string>

#include "../kernels/checks.hpp"
#include "../kernels/cluster_algorithms.hpp"
#include "../kernels/cluster_state.hpp"
#include "../kernels/constraint_rows.hpp"
#include "../kernels/constraint_solvers.hpp"
#include "dense_constraint_terms.hpp"
#include "grbda/algorithms/kinematics.hpp"
#include "grbda/baselines/ltl.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

namespace {

/// H = LᵀL with the algorithm's name on a failure.
void factorizeMassMatrix(const Data& data, LtlFactor& factor, const char* algorithm) {
  try {
    factor.factorize(data.H);
  } catch (const NumericalError& e) {
    throw NumericalError(std::string(algorithm) + ": " + e.what());
  }
}

}  // namespace

void ltlForwardDynamics(const Model& model, Data& data, const ConstraintModel& constraints, ConstraintData& cd,
                        const VecRef& tau, const ExternalForces* fext, const ConstraintSolverSettings& settings,
                        bool soft, const char* algorithm) {
  denseConstraintTerms(model, data, cd, fext);
  factorizeMassMatrix(data, cd.work().ltl, algorithm);
  ConstraintWorkspace::RowSystem& sys = cd.work().hard;
  cd.work().Hinvrhs = tau - data.tau;  // z = L⁻ᵀ (τ − C)
  cd.work().ltl.solveLt(cd.work().Hinvrhs);
  ltlDelassus(cd.work().ltl, cd.work().J, cd.work().Yt, sys.L);
  sys.b.noalias() -= cd.work().Yt.transpose() * cd.work().Hinvrhs;
  if (soft) {
    for (int r = 0; r < cd.work().numRows; ++r) sys.L(r, r) += constraints.compliance()[r];
    cd.iterations = 0;
    cd.rank = cd.work().numRows;
    cd.redundant = false;
    solveSoftDelassus(sys, algorithm);
  } else {
    solveDelassus(sys, cd, settings, false, algorithm);
  }
  cd.lambda = sys.lambda;
  data.qdd = cd.work().Hinvrhs;
  data.qdd.noalias() += cd.work().Yt * cd.lambda;
  cd.work().ltl.solveL(data.qdd);
  bodyAccelerationsAtQdd(model, data);  // for the residual, as the PV solvers leave them
}

}  // namespace grbda::detail

namespace grbda {

const MatX& ltlConstraintDelassus(const Model& model, Data& data, const ConstraintModel& constraints,
                                  ConstraintData& cd, const VecRef& q) {
  constexpr const char* alg = "ltlConstraintDelassus";
  detail::checkData(model, data, alg);
  detail::checkConstraintWorkspace(model, constraints, cd, alg);
  const VecRef atRest(data.work().zeroV);
  detail::prepareState(model, data, q, &atRest, alg);
  const bool hadReference = cd.work().hasReference;  // the rows' K do not depend on it; keep it unset
  detail::gatherConstraintRows(model, data, constraints, cd);
  cd.work().hasReference = hadReference;
  detail::constraintJacobian(model, data, cd);
  detail::clusterCrba(model, data);
  detail::factorizeMassMatrix(data, cd.work().ltl, alg);
  ltlDelassus(cd.work().ltl, cd.work().J, cd.work().Yt, cd.work().A);
  return cd.work().A;
}

const MatX& ltlInverseOperationalSpaceInertia(const Model& model, Data& data, LtlOsimData& ws,
                                              const std::vector<EndEffector>& endEffectors, const VecRef& q,
                                              bool linearOnly) {
  constexpr const char* alg = "ltlInverseOperationalSpaceInertia";
  detail::checkData(model, data, alg);
  if (ws.factor.size() != model.nv()) ws.factor = LtlFactor(model);
  detail::prepareState(model, data, q, nullptr, alg);
  detail::clusterCrba(model, data);
  detail::factorizeMassMatrix(data, ws.factor, alg);
  const int R = linearOnly ? 3 : 6, ne = static_cast<int>(endEffectors.size());
  if (ws.J.rows() != R * ne || ws.J.cols() != model.nv()) ws.J.resize(R * ne, model.nv());
  for (int e = 0; e < ne; ++e) {  // J_e = frameJacobian(Local): angular rows first, at the point
    const EndEffector& ee = endEffectors[static_cast<size_t>(e)];
    frameJacobian(model, data, ee.frame, ee.point, ReferenceFrame::Local, ws.Je);
    ws.J.middleRows(R * e, R) = ws.Je.bottomRows(R);
  }
  ltlDelassus(ws.factor, ws.J, ws.Yt, ws.LambdaInv);
  return ws.LambdaInv;
}

}  // namespace grbda
