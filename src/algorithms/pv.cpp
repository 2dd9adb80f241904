// PV and PV-soft on the cluster tree (seed 003 Alg. 1 and §VI; spec §2.3-2.4), and the proximal
// variant, all on the articulated-cluster pass (articulated_pass.hpp) with the constraint rows
// propagated by row_propagation.hpp: L λ = kBiased − e gives λ (43/47) at the root, and the
// outward pass adds Sᵀ F λ to u (41). m = 0 is C-ABA step for step.
#include <string>
#include <type_traits>

#include "../kernels/constraint_rows.hpp"
#include "../kernels/constraint_solvers.hpp"
#include "row_propagation.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

namespace {

/// PV-soft's leaf terms (eq. 52, transpose fixed): IA += K R⁻¹ Kᵀ, pA −= K R⁻¹ k for every row on
/// one body. A contact's rows K_a = [p × n_a; n_a] over the world axes n_a (orthonormal) with one
/// R sum to Σ K_a K_aᵀ / R = the spatial inertia of a point mass 1/R at p; a weld's angular rows
/// [n_a; 0] add 1/R to the rotational block. So IA stays a rigid-body inertia (cheaper fold).
struct SoftLeafTerms {
  const ConstraintModel& constraints;
  const ConstraintData& cd;
  void operator()(Data& data) const {
    DataWorkspace& ws = data.work();
    for (const ConstraintWorkspace::SoftPointMass& pm : cd.work().softPointMasses) {
      const double w = 1.0 / constraints.compliance()[pm.row];
      const Mat3 S = skew(pm.point);
      Mat6& IA = ws.IA[static_cast<size_t>(pm.body)];
      IA.topLeftCorner<3, 3>().noalias() -= w * (S * S);
      if (pm.angular) IA.topLeftCorner<3, 3>().diagonal().array() += w;
      IA.topRightCorner<3, 3>() += w * S;
      IA.bottomLeftCorner<3, 3>() -= w * S;
      IA.bottomRightCorner<3, 3>().diagonal().array() += w;
      Vec6& pA = ws.pA[static_cast<size_t>(pm.body)];
      for (int r = pm.row; r < pm.row + pm.numRows; ++r)
        pA.noalias() -= (w * cd.work().kBiased[r]) * cd.work().parts[static_cast<size_t>(cd.work().rowFirstPart[static_cast<size_t>(r)])].K;
    }
    for (int r : cd.work().softRowTerms) {
      const ConstraintWorkspace::RowPart& p = cd.work().parts[static_cast<size_t>(cd.work().rowFirstPart[static_cast<size_t>(r)])];
      const double Rinv = 1.0 / constraints.compliance()[r];
      ws.IA[static_cast<size_t>(p.body)].noalias() += (Rinv * p.K) * p.K.transpose();
      ws.pA[static_cast<size_t>(p.body)].noalias() -= (Rinv * cd.work().kBiased[r]) * p.K;
    }
  }
};

void startSystem(const Data& data, ConstraintData& cd, ConstraintWorkspace::RowSystem& sys) {
  sys.e.setZero();
  sys.L.setZero();
  startRowPropagation(data, cd, sys);
}

/// The hook of PV and PV-soft: bias terms, L into the lower triangle of sys.L.
RowPropagation<true, LowerTriangleSink> rowHook(const Model& model, Data& data, ConstraintData& cd,
                                               ConstraintWorkspace::RowSystem& sys) {
  return {data, cd, sys, LowerTriangleSink{sys.L}, gravityBias(model, data)};
}

/// The outward pass with the constraint forces: u_k + (Sᵀ F)_k λ_k.
void outwardWithForces(const Model& model, Data& data, ConstraintWorkspace::RowSystem& sys) {
  outwardPass(model, data, gravityBias(model, data), [&](int k, auto& t) {
    const ConstraintWorkspace::ClusterRows& cr = sys.clusters[static_cast<size_t>(k)];
    constexpr int D = std::decay_t<decltype(t)>::SizeAtCompileTime;  // d_k, fixed for 1, 2, 3, 6
    const Eigen::Map<const Eigen::Matrix<double, D, Eigen::Dynamic>> SF(cr.SF.data(), t.size(), cr.SF.cols());
    for (Eigen::Index j = 0; j < SF.cols(); ++j) t += sys.lambda[cr.rows[static_cast<size_t>(j)]] * SF.col(j);
  });
}

}  // namespace

/// PV (proximal = false) or its proximal variant on the prepared state and gathered rows.
void pvForwardDynamics(const Model& model, Data& data, ConstraintData& cd, const VecRef& tau, const ExternalForces* fext,
                       const ConstraintSolverSettings& settings, bool proximal, const char* algorithm) {
  ConstraintWorkspace::RowSystem& sys = cd.work().hard;
  startSystem(data, cd, sys);
  ArticulatedPassInputs in;
  in.tau = &tau;
  in.fext = fext;
  if (!articulatedPass<true>(model, data, in, NoLeafTerms{}, rowHook(model, data, cd, sys)))
    throwArticulatedInertiaNotPositive(model, data, algorithm);
  for (int j = 0; j < sys.size(); ++j) sys.b[j] = cd.work().kBiased[sys.rowOf[static_cast<size_t>(j)]] - sys.e[j];
  solveDelassus(sys, cd, settings, proximal, algorithm);
  cd.lambda = sys.lambda;
  outwardWithForces(model, data, sys);
}

/// PV-soft on the prepared state and gathered rows (compliances checked by the caller).
void pvSoftForwardDynamics(const Model& model, Data& data, const ConstraintModel& constraints, ConstraintData& cd,
                           const VecRef& tau, const ExternalForces* fext, const char* algorithm) {
  ConstraintWorkspace::RowSystem& sys = cd.work().soft;
  startSystem(data, cd, sys);
  ArticulatedPassInputs in;
  in.tau = &tau;
  in.fext = fext;
  in.generalInertia = &cd.work().softBody;
  in.changedByLeafTerms = &cd.work().softLeafBody;
  if (!articulatedPass<true>(model, data, in, SoftLeafTerms{constraints, cd},
                             rowHook(model, data, cd, sys), false))
    throwArticulatedInertiaNotPositive(model, data, algorithm);
  for (int j = 0; j < sys.size(); ++j) {  // (J H⁻¹ Jᵀ + R) λ = k − e for rows on two bodies
    const int r = sys.rowOf[static_cast<size_t>(j)];
    sys.b[j] = cd.work().kBiased[r] - sys.e[j];
    sys.L(j, j) += constraints.compliance()[r];
  }
  solveSoftDelassus(sys, algorithm);
  outwardWithForces(model, data, sys);
  for (int j = 0; j < sys.size(); ++j) cd.lambda[sys.rowOf[static_cast<size_t>(j)]] = sys.lambda[j];
  for (int r : cd.work().leafRows) {  // λ = R⁻¹ (k − K a)
    const ConstraintWorkspace::RowPart& p = cd.work().parts[static_cast<size_t>(cd.work().rowFirstPart[static_cast<size_t>(r)])];
    cd.lambda[r] = (cd.work().kBiased[r] - p.K.dot(data.a[static_cast<size_t>(p.body)])) / constraints.compliance()[r];
  }
  cd.rank = cd.work().numRows;
  cd.redundant = false;
  cd.iterations = 0;
}

}  // namespace grbda::detail
