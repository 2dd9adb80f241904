// Cluster-local derivatives of the explicit constraint form q̇_s = G ẏ, q̈_s = G ÿ + g (spec §2.3)
// for clusters whose G changes with the state. From K G = 0 and K g = k (independent rows of G
// are the identity, of g zero), differentiating along y_j (q_s moves along u_j = G e_j):
//   K_d ∂G_d/∂y_j = −(∂K/∂q · u_j) G
//   K_d ∂g_d/∂y_j = ∂k/∂q · u_j + ∂k/∂q̇ · (∂G/∂y_j ẏ) − (∂K/∂q · u_j) g
//   K_d ∂g_d/∂ẏ_j = ∂k/∂q̇ · u_j
// k = −q̇ᵀ∇²φ q̇ is quadratic in q̇, so its q̇-derivative is an exact central difference with unit
// step. ∂K/∂q · u and ∂k/∂q · u come from the constraint (ImplicitConstraint::jacobianDerivative,
// biasDerivative): exact for AutoDiffConstraint (nested dual numbers: the Tello differentials),
// central differences of K(q), k(q, q̇) for the others (URDF <loop>, the four-bar) — the remaining gap.
#include "derivatives_internal.hpp"
#include "../../cluster/cluster_joint.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

namespace {

/// out = ∂k/∂q̇ · dir at (w.q, w.qd): exact for a quadratic form (unit step).
template <class Dir>
void biasVelocityDerivative(const ConstraintSet& cs, ClusterDerivativesData& w, const Eigen::MatrixBase<Dir>& dir,
                            VecX& out) {
  w.qd += dir;
  cs.bias(w.q.data(), w.qd.data(), w.work);
  out = w.work.k;
  w.qd -= 2.0 * dir;
  cs.bias(w.q.data(), w.qd.data(), w.work);
  out -= w.work.k;
  out *= 0.5;
  w.qd += dir;
}

/// out (spanning) = K_d⁻¹ rhs on the dependent rows, 0 on the independent ones.
template <class Out>
void solveDependent(const ConstraintSet& cs, ClusterDerivativesData& w, const VecRef& rhs, Out&& out) {
  w.work.dq.noalias() = w.work.luKd.solve(rhs);
  out.setZero();
  const auto& dep = cs.dependentCoordinates();
  for (size_t r = 0; r < dep.size(); ++r) out[dep[r]] = w.work.dq[static_cast<Eigen::Index>(r)];
}

/// w.dK = ∂K/∂q · u, w.dk = ∂k/∂q · u (q̇ held), u = column j of G: exact for constraints with
/// second derivatives (AutoDiffConstraint), central differences of K and k otherwise.
void positionDerivatives(const ConstraintSet& cs, ClusterDerivativesData& w, const double* u) {
  cs.jacobianDerivative(w.q.data(), u, w.work);
  w.dK = w.work.K;
  cs.biasDerivative(w.q.data(), w.qd.data(), u, w.work);
  w.dk = w.work.k;
}

void oneCluster(const Cluster& cl, const ClusterData& cd, const Data& data, const VecRef& ydd,
                ClusterDerivativesData& w) {
  const ConstraintSet& cs = cl.joint->constraints();
  const int d = cl.nv;
  w.q = data.qSpan.segment(cl.qSpanIndex, cl.nqSpan);
  w.qd = data.vSpan.segment(cl.vSpanIndex, cl.nvSpan);  // G ẏ
  const auto& ind = cs.independentCoordinates();
  cs.jacobian(w.q.data(), w.work);
  w.K0 = w.work.K;
  const auto& dep = cs.dependentCoordinates();
  for (size_t c = 0; c < dep.size(); ++c) w.work.Kd.col(static_cast<Eigen::Index>(c)) = w.K0.col(dep[c]);
  w.work.luKd.compute(w.work.Kd);
  const auto yddK = ydd.segment(cl.vIndex, d);
  for (int j = 0; j < d; ++j) {
    positionDerivatives(cs, w, cd.G.col(j).data());
    auto dGj = w.dG.middleCols(j * d, d);
    for (int c = 0; c < d; ++c) {
      w.rhs.noalias() = w.dK * cd.G.col(c);
      w.rhs = -w.rhs;  // (−(A b) would evaluate the product into a temporary)
      solveDependent(cs, w, w.rhs, dGj.col(c));
    }
    auto dGyd = w.dGyd.col(j);  // ∂G/∂y_j ẏ (ẏ: the independent rows of q̇_s)
    dGyd.setZero();
    for (int c = 0; c < d; ++c) dGyd += dGj.col(c) * w.qd[ind[static_cast<size_t>(c)]];
    biasVelocityDerivative(cs, w, dGyd, w.dkv);
    w.rhs = w.dk + w.dkv;
    w.rhs.noalias() -= w.dK * cd.g;
    solveDependent(cs, w, w.rhs, w.dAcc.col(j));  // ∂g/∂y_j
    w.dAcc.col(j).noalias() += dGj * yddK;
    biasVelocityDerivative(cs, w, cd.G.col(j), w.dkv);
    solveDependent(cs, w, w.dkv, w.dgdv.col(j));
  }
}

}  // namespace

void clusterLocalDerivatives(const Model& model, Data& data, const VecRef& ydd) {
  DataWorkspace& ws = data.work();
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    if (cl.joint->constraints().isStatic()) continue;
    oneCluster(cl, ws.clusters[static_cast<size_t>(k)], data, ydd, ws.derivativeClusters[static_cast<size_t>(k)]);
  }
}

}  // namespace grbda::detail
