// The equation of motion at a constrained solution, measured (issue #27, item 2): the residual
// r = H ÿ + C − τ − Jᵀ λ (+ Jᵀ_ext f_ext) by one inward Newton–Euler sweep over the body
// accelerations the solver left in data.a — no H, no J: per body the force it needs,
// f_i = I_i a_i + v_i ×* I_i v_i − f_ext,i − Σ_parts K λ, summed towards the root, r_k = S_kᵀ f − τ_k.
// The rows' residual alone cannot see a q̈ that meets the rows but not the dynamics.
#include <algorithm>
#include <cmath>

#include "../kernels/constraint_rows.hpp"
#include "grbda/spatial/cross.hpp"
#include "data_workspace.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda::detail {

namespace {
/// r_k = S_kᵀ f − τ_k over the cluster's bodies (one column at a time: no temporary for any d_k),
/// then the cluster's forces onto its output body. Returns max |r_k|.
double inwardResidual(Data& data, const Cluster& cl, const ClusterData& kd, const VecRef& tau, std::vector<Vec6>& f) {
  double worst = 0.0;
  for (int c = 0; c < cl.nv; ++c) {
    double r = -tau[cl.vIndex + c];
    for (int b = 0; b < cl.numBodies; ++b)
      r += kd.S.block<6, 1>(6 * b, c).dot(f[static_cast<size_t>(cl.firstBody + b)]);
    worst = std::max(worst, std::abs(r));
  }
  if (cl.output >= 0)
    for (int b = 0; b < cl.numBodies; ++b) {
      const int i = cl.firstBody + b;
      f[static_cast<size_t>(cl.output)] += data.work().Xout[i].applyTranspose(f[static_cast<size_t>(i)]);
    }
  return worst;
}
}  // namespace

double dynamicsResidual(const Model& model, Data& data, ConstraintData& cd, const VecRef& tau,
                        const ExternalForces* fext) {
  std::vector<Vec6>& f = cd.work().residualForce;  // sized by ConstraintData: no allocation here
  for (int i = 0; i < model.numBodies(); ++i) {
    const Mat6& I = model.body(i).inertia;
    const Vec6 Iv = I * data.v[static_cast<size_t>(i)];
    f[static_cast<size_t>(i)] = I * data.a[static_cast<size_t>(i)] + crossForce(data.v[static_cast<size_t>(i)], Iv);
    if (fext && !fext->empty()) f[static_cast<size_t>(i)] -= data.Xa[i].applyForce((*fext)[static_cast<size_t>(i)]);
  }
  for (const ConstraintWorkspace::RowPart& p : cd.work().parts)
    if (p.body >= 0) f[static_cast<size_t>(p.body)] -= p.K * cd.lambda[p.row];
  double worst = 0.0;
  for (int k = model.numClusters() - 1; k >= 0; --k)
    worst = std::max(worst, inwardResidual(data, model.cluster(k), data.work().clusters[static_cast<size_t>(k)], tau, f));
  return worst;
}

}  // namespace grbda::detail
