// Impulse dynamics (impulse_dynamics.hpp): PV without bias terms. The rows are propagated through
// the bias-free articulated-cluster pass (seed 003 eq. 42c, 42e: its L is J ℳ⁻¹ Jᵀ, as PV-OSIM),
// L Λ = −(1 + e) J v⁻ is solved as PV solves L λ = b, and one outward sweep with only the
// impulses as inputs gives Δv = ℳ⁻¹ Jᵀ Λ (eqs. 58-60 with u = 0, c = 0, a_0 = 0).
#include "grbda/algorithms/impulse_dynamics.hpp"

#include <cmath>
#include <string>
#include <type_traits>

#include "../kernels/constraint_rows.hpp"
#include "../kernels/checks.hpp"
#include "../kernels/cluster_state.hpp"
#include "grbda/errors.hpp"
#include "row_propagation.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda {

ImpulseData::ImpulseData(const Model& model, const ConstraintModel& constraints)
    : vPlus(VecX::Zero(model.nv())),
      impulses(VecX::Zero(constraints.numRows())),
      rowVelocityBefore(VecX::Zero(constraints.numRows())),
      rowVelocityAfter(VecX::Zero(constraints.numRows())),
      modelId(model.id()),
      constraintsVersion(constraints.version()) {
  if (constraints.modelId() != model.id())
    throw InputError("ImpulseData: the ConstraintModel was made for another model than '" + model.name() + "'");
}

namespace detail {

namespace {

/// J x over the rows, x given as the bodies' spatial motions `m` (velocities or their jumps).
void rowMotions(const ConstraintData& cd, const std::vector<Vec6>& m, VecX& out) {
  out.setZero();
  for (const ConstraintWorkspace::RowPart& p : cd.work().parts) out[p.row] += p.K.dot(m[static_cast<size_t>(p.body)]);
}

/// Cluster k's outward step with the impulses only: Δÿ_k = D_k⁻¹ (Sᵀ F Λ − XU_kᵀ Δa_o),
/// Δa_i = Xout_i Δa_o + S_i Δÿ_k (eqs. 58-60 with u = 0, c = 0; roots see Δa_0 = 0).
template <int D>
void impulseStep(Data& data, const Cluster& cl, ClusterData& kd, const ConstraintWorkspace::ClusterRows& cr,
                 const VecRef& lambda) {
  using Sz = Sizes<D>;
  const int d = cl.nv;
  auto t = clusterSegment<D>(kd.w, 0, d);
  t.setZero();
  const Eigen::Map<const Eigen::Matrix<double, D, Eigen::Dynamic>> SF(cr.SF.data(), d, cr.SF.cols());
  for (Eigen::Index j = 0; j < SF.cols(); ++j) t += lambda[cr.rows[static_cast<size_t>(j)]] * SF.col(j);
  const bool root = cl.output < 0;
  if (!root) t.noalias() -= Eigen::Map<const typename Sz::Mat6D>(kd.XU.data(), 6, d).transpose() * data.a[static_cast<size_t>(cl.output)];
  if constexpr (D == Eigen::Dynamic) kd.llt.solveInPlace(kd.w);
  else t = Eigen::Map<const typename Sz::MatD>(kd.Dinv.data()) * typename Sz::VecD(t);
  clusterSegment<D>(data.qdd, cl.vIndex, d) = t;
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    Vec6 a = root ? Vec6::Zero() : data.work().Xout[static_cast<size_t>(i)].apply(data.a[static_cast<size_t>(cl.output)]);
    a.noalias() += rowsOf<D>(kd.S, r) * t;
    data.a[static_cast<size_t>(i)] = a;
  }
}

}  // namespace

}  // namespace detail

const VecX& impulseDynamics(const Model& model, Data& data, const ConstraintModel& constraints, ConstraintData& cd,
                            ImpulseData& id, const VecRef& q, const VecRef& v, double e,
                            const ConstraintSolverSettings& settings) {
  constexpr const char* alg = "impulseDynamics";
  detail::checkData(model, data, alg);
  detail::checkConstraintWorkspace(model, constraints, cd, alg);
  if (id.modelId != model.id() || id.constraintsVersion != constraints.version() ||
      id.impulses.size() != constraints.numRows())
    throw InputError(std::string(alg) + ": the ImpulseData does not match the ConstraintModel (made for another model, "
                                        "or the constraints changed since)");
  if (!std::isfinite(e) || e < 0.0 || e > 1.0)
    throw InputError(std::string(alg) + ": restitution " + std::to_string(e) + " is outside [0, 1]");
  detail::prepareState(model, data, q, &v, alg);
  detail::gatherConstraintRows(model, data, constraints, cd, false);  // K only: no k, J̇ v plays no part
  detail::rowMotions(cd, data.v, id.rowVelocityBefore);                // J v⁻

  // L = J ℳ⁻¹ Jᵀ from the bias-free articulated pass (PV-OSIM's), into the constraint workspace's hard
  ConstraintWorkspace::RowSystem& sys = cd.work().hard;
  sys.L.setZero();
  detail::startRowPropagation(data, cd, sys);
  const detail::ArticulatedPassInputs in;  // no bias terms
  if (!detail::articulatedPass<false>(
          model, data, in, detail::NoLeafTerms{},
          detail::RowPropagation<false, detail::LowerTriangleSink>{data, cd, sys, detail::LowerTriangleSink{sys.L},
                                                                   Vec6::Zero(), true}))
    detail::throwArticulatedInertiaNotPositive(model, data, alg);
  for (int j = 0; j < sys.size(); ++j) sys.b[j] = -(1.0 + e) * id.rowVelocityBefore[sys.rowOf[static_cast<size_t>(j)]];
  detail::solveDelassus(sys, cd, settings, false, alg);
  cd.lambda = sys.lambda;  // hard rows are every row, in order

  // Δv = ℳ⁻¹ Jᵀ Λ: the outward sweep (data.qdd = Δv, data.a = the bodies' velocity jumps)
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    ClusterData& kd = data.work().clusters[static_cast<size_t>(k)];
    const ConstraintWorkspace::ClusterRows& cr = sys.clusters[static_cast<size_t>(k)];
    detail::withClusterDof(cl.nv, [&](auto D) { detail::impulseStep<decltype(D)::value>(data, cl, kd, cr, sys.lambda); });
  }
  id.vPlus = v + data.qdd;
  id.impulses = cd.lambda;
  detail::rowMotions(cd, data.a, id.rowVelocityAfter);  // J Δv
  id.rowVelocityAfter += id.rowVelocityBefore;
  id.residual = id.rowVelocityAfter.size() ? (id.rowVelocityAfter + e * id.rowVelocityBefore).cwiseAbs().maxCoeff() : 0.0;
  id.energyChange = 0.5 * id.impulses.dot(id.rowVelocityAfter + id.rowVelocityBefore);
  id.rank = cd.rank;
  id.redundant = cd.redundant;
  cd.residual = id.residual;
  detail::checkResult(id.vPlus, "v_plus", alg);
  detail::checkResult(id.impulses, "impulses", alg);
  return id.vPlus;
}

}  // namespace grbda
