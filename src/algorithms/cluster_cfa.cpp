// The CFA with clusters in place of joints (spec §3.6 C5; algorithms/cluster_cfa.hpp). Body
// coordinates throughout: a body's rigid inertia is constant there, so I⁻¹ is computed once, and
// P's off-diagonal blocks are the Xout transforms C-ABA uses. The immobilised system's sparsity is
// that of the cluster tree as long as no two clusters hang from the same body (siblings on one
// body would couple through its I⁻¹: A_kj = Y_kᵀ I_λ⁻¹ Y_j), so it is solved by block elimination
// from the leaves to the root without fill-in — block Thomas on a chain.
#include "grbda/algorithms/cluster_cfa.hpp"

#include <Eigen/QR>
#include <string>
#include <vector>

#include "../kernels/checks.hpp"
#include "../kernels/cluster_algorithms.hpp"
#include "../kernels/cluster_state.hpp"
#include "data_workspace.hpp"

namespace grbda {

struct ClusterCfaData::Impl {
  struct Block {
    int n = 0, d = 0, r = 0;   ///< bodies, degrees of freedom, constraint-force rows 6n − d
    Eigen::HouseholderQR<MatX> qr;
    MatX Q;                    ///< [S-range | H^⊥] from the QR of S (6n x 6n)
    VecX qrWork;
    MatX StS;                  ///< SᵀS, for h̃ = S (SᵀS)⁻¹
    Eigen::LLT<MatX> sts;
    MatX HtT;                  ///< h̃ᵀ = (SᵀS)⁻¹ Sᵀ (d x 6n)
    MatX Y;                    ///< Φᵀ H^⊥: the constraint forces folded onto the parent body (6 x r)
    MatX YtIinv;               ///< Yᵀ I_λ⁻¹ (r x 6)
    MatX IinvHp;               ///< scratch: I⁻¹ H^⊥ per body (6n x r)
    MatX Dp;                   ///< A_kk, then the pivot with the children eliminated (r x r)
    Eigen::LLT<MatX> pivot;
    MatX L;                    ///< A_{k,λ} (r x r_λ)
    MatX Z;                    ///< D'_k⁻¹ L (r x r_λ)
    VecX b, mu, rel, tau;      ///< right side, multipliers, (P a)_k stacked, τ'_k
    auto Hp() { return Q.rightCols(r); }
  };
  std::vector<Block> blocks;
  std::vector<Mat6> Iinv;         ///< per body, body coordinates
  std::vector<Vec6> w, f, a;      ///< per body: h̃ τ' then w − H^⊥ μ; Pᵀ of it; I⁻¹ Pᵀ w
  std::vector<int> parentCluster; ///< cluster holding each cluster's output body (-1: ground)
  std::vector<int> localBody;     ///< per body: its index within its cluster
  VecX zero;
  std::string modelName;  ///< for the error when a call passes another model
  Data data;
  int total = 0;
  explicit Impl(const Model& model) : data(model) {}
};

namespace {

/// The cluster joint's constraint-force basis and the T_1' block at the current S.
void subspaces(ClusterCfaData::Impl::Block& B, const MatX& S) {
  B.qr.compute(S);
  B.qr.householderQ().evalTo(B.Q, B.qrWork);
  B.HtT = S.transpose();
  B.StS.noalias() = S.transpose() * S;
  B.sts.compute(B.StS);  // S has full column rank (the cluster's own check)
  B.sts.solveInPlace(B.HtT);
}

/// f = Pᵀ w: each body's own wrench less what its child clusters' bodies pass back to it.
void transposeP(const Model& model, const Data& data, const std::vector<Vec6>& w, std::vector<Vec6>& f) {
  f = w;
  for (int i = 0; i < model.numBodies(); ++i) {
    const int out = model.cluster(model.body(i).cluster).output;
    if (out >= 0) f[out] -= data.work().Xout[i].applyTranspose(w[i]);
  }
}

/// (P a)_k for body i: a_i − Xout_i a_λ.
Vec6 relative(const Model& model, const Data& data, const std::vector<Vec6>& a, int i) {
  const int out = model.cluster(model.body(i).cluster).output;
  return out < 0 ? a[i] : Vec6(a[i] - data.work().Xout[i].apply(a[out]));
}

}  // namespace

std::string clusterCfaUnsupportedReason(const Model& model) {
  if (!model.keptLoopGroups().empty())
    return "it keeps loops as constraint rows ('" + model.keptLoopGroups().front().name +
           "'), which the CFA does not solve (build it with LoopTreatment::Embed)";
  std::vector<int> childOf(static_cast<size_t>(model.numBodies()), -1);
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    if (cl.output < 0) continue;  // the ground's inertia is infinite: no coupling through it
    if (childOf[cl.output] >= 0)
      return "clusters '" + model.cluster(childOf[cl.output]).name + "' and '" + cl.name + "' both hang from body '" +
             model.body(cl.output).name + "': their constraint forces couple through its inertia (the cluster "
             "CFA takes a cluster tree with at most one cluster on each body)";
    childOf[cl.output] = k;
  }
  for (const Body& b : model.bodies())
    if (Eigen::LLT<Mat6>(b.inertia).info() != Eigen::Success)
      return "body '" + b.name + "' has a singular inertia (no mass, or no inertia about some axis): the CFA "
             "inverts every body's inertia";
  return {};
}

ClusterCfaData::ClusterCfaData(const Model& model) : impl(std::make_unique<Impl>(model)) {
  const std::string reason = clusterCfaUnsupportedReason(model);
  if (!reason.empty()) throw InputError("the cluster CFA does not apply to model '" + model.name() + "': " + reason);
  Impl& w = *impl;
  w.modelName = model.name();
  for (const Body& b : model.bodies()) w.Iinv.push_back(Eigen::LLT<Mat6>(b.inertia).solve(Mat6::Identity()));
  w.w.assign(static_cast<size_t>(model.numBodies()), Vec6::Zero());
  w.f = w.a = w.w;
  w.localBody.assign(static_cast<size_t>(model.numBodies()), 0);
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    w.parentCluster.push_back(cl.output < 0 ? -1 : model.body(cl.output).cluster);
    for (int r = 0; r < cl.numBodies; ++r) w.localBody[cl.firstBody + r] = r;
    Impl::Block B;
    B.n = cl.numBodies;
    B.d = cl.nv;
    B.r = 6 * B.n - B.d;
    B.qr = Eigen::HouseholderQR<MatX>(6 * B.n, B.d);
    B.Q = MatX::Zero(6 * B.n, 6 * B.n);
    B.qrWork = VecX::Zero(6 * B.n);
    B.StS = MatX::Zero(B.d, B.d);
    B.sts = Eigen::LLT<MatX>(B.d);
    B.HtT = MatX::Zero(B.d, 6 * B.n);
    B.Y = MatX::Zero(6, B.r);
    B.YtIinv = MatX::Zero(B.r, 6);
    B.IinvHp = MatX::Zero(6 * B.n, B.r);
    B.Dp = MatX::Zero(B.r, B.r);
    B.pivot = Eigen::LLT<MatX>(B.r);
    B.b = B.mu = VecX::Zero(B.r);
    B.rel = VecX::Zero(6 * B.n);
    B.tau = VecX::Zero(B.d);
    w.total += B.r;
    w.blocks.push_back(std::move(B));
  }
  for (int k = 0; k < model.numClusters(); ++k) {
    const int p = w.parentCluster[k];
    Impl::Block& B = w.blocks[k];
    B.L = B.Z = MatX::Zero(B.r, p < 0 ? 0 : w.blocks[p].r);
  }
  w.zero = VecX::Zero(model.nv());
  qdd = VecX::Zero(model.nv());
}

ClusterCfaData::~ClusterCfaData() = default;
int ClusterCfaData::blockSize(int cluster) const { return impl->blocks.at(static_cast<size_t>(cluster)).r; }
int ClusterCfaData::systemSize() const { return impl->total; }

const VecX& clusterCfaForwardDynamics(const Model& model, ClusterCfaData& cfa, const VecRef& q, const VecRef& v,
                                      const VecRef& tau) {
  constexpr const char* alg = "clusterCfaForwardDynamics";
  ClusterCfaData::Impl& w = *cfa.impl;
  if (w.data.modelId() != model.id())
    throw InputError(std::string(alg) + ": the ClusterCfaData was made for " +
                     (w.modelName == model.name() ? "another Model object of the same name '" + w.modelName + "'"
                                                  : "model '" + w.modelName + "', not '" + model.name() + "'") +
                     " (make one with ClusterCfaData(model) for each model)");
  detail::checkVector(tau, model.nv(), "tau", alg);
  Data& data = w.data;
  detail::prepareState(model, data, q, &v, alg);
  detail::clusterRnea(model, data, w.zero, nullptr);  // step 0: τ' = τ − ID(q, q̇, 0)
  const int K = model.numClusters();
  // Steps 1-2: w = h̃ τ' per cluster, a_free = I⁻¹ Pᵀ w
  for (int k = 0; k < K; ++k) {
    const Cluster& cl = model.cluster(k);
    ClusterCfaData::Impl::Block& B = w.blocks[k];
    subspaces(B, data.work().clusters[k].S);
    B.tau = tau.segment(cl.vIndex, cl.nv) - data.tau.segment(cl.vIndex, cl.nv);
    for (int r = 0; r < B.n; ++r) w.w[cl.firstBody + r].noalias() = B.HtT.middleCols<6>(6 * r).transpose() * B.tau;
  }
  transposeP(model, data, w.w, w.f);
  for (int i = 0; i < model.numBodies(); ++i) w.a[i].noalias() = w.Iinv[i] * w.f[i];
  // Steps 3-4: b_k = H^⊥ᵀ (P a_free)_k and the blocks of A = H^⊥ᵀ P I⁻¹ Pᵀ H^⊥
  for (int k = 0; k < K; ++k) {
    const Cluster& cl = model.cluster(k);
    ClusterCfaData::Impl::Block& B = w.blocks[k];
    if (B.r == 0) continue;
    const auto Hp = B.Hp();
    B.Y.setZero();
    for (int r = 0; r < B.n; ++r) {
      const int i = cl.firstBody + r;
      B.rel.segment<6>(6 * r) = relative(model, data, w.a, i);
      B.IinvHp.middleRows<6>(6 * r).noalias() = w.Iinv[i] * Hp.middleRows<6>(6 * r);
      if (cl.output >= 0)
        for (int c = 0; c < B.r; ++c) B.Y.col(c) += data.work().Xout[i].applyTranspose(Hp.block<6, 1>(6 * r, c));
    }
    B.b.noalias() = Hp.transpose() * B.rel;
    B.Dp.noalias() = Hp.transpose() * B.IinvHp;  // Σ_i H_iᵀ^⊥ I_i⁻¹ H_i^⊥
    const int p = w.parentCluster[k];
    if (cl.output < 0) continue;
    B.YtIinv.noalias() = B.Y.transpose() * w.Iinv[cl.output];
    B.Dp.noalias() += B.YtIinv * B.Y;  // + H^⊥ᵀ Φ I_λ⁻¹ Φᵀ H^⊥
    if (p >= 0 && w.blocks[p].r > 0) {
      ClusterCfaData::Impl::Block& P = w.blocks[p];
      const int o = w.localBody[cl.output];
      B.L.noalias() = -B.YtIinv * P.Hp().middleRows<6>(6 * o);  // A_{k,λ}
    }
  }
  // Elimination, leaves to root (children have larger indices), then back substitution
  for (int k = K - 1; k >= 0; --k) {
    ClusterCfaData::Impl::Block& B = w.blocks[k];
    if (B.r == 0) continue;
    B.pivot.compute(B.Dp);
    if (B.pivot.info() != Eigen::Success)
      throw NumericalError(std::string(alg) + ": the immobilised system of cluster '" + model.cluster(k).name +
                           "' is not positive definite");
    B.pivot.solveInPlace(B.b);  // ỹ_k = D'_k⁻¹ y_k
    const int p = w.parentCluster[k];
    if (p < 0 || w.blocks[p].r == 0) continue;
    ClusterCfaData::Impl::Block& P = w.blocks[p];
    B.Z = B.L;
    B.pivot.solveInPlace(B.Z);
    P.Dp.noalias() -= B.L.transpose() * B.Z;
    P.b.noalias() -= B.L.transpose() * B.b;  // y_λ −= L_kᵀ D'_k⁻¹ y_k
  }
  for (int k = 0; k < K; ++k) {
    ClusterCfaData::Impl::Block& B = w.blocks[k];
    if (B.r == 0) continue;
    B.mu = B.b;
    const int p = w.parentCluster[k];
    if (p >= 0 && w.blocks[p].r > 0) B.mu.noalias() -= B.Z * w.blocks[p].mu;
  }
  // Steps 5-6: the wrench through each cluster joint w − H^⊥ μ, a = I⁻¹ Pᵀ (w − H^⊥ μ), ÿ = h̃ᵀ (P a)
  for (int k = 0; k < K; ++k) {
    const Cluster& cl = model.cluster(k);
    ClusterCfaData::Impl::Block& B = w.blocks[k];
    if (B.r == 0) continue;
    const auto Hp = B.Hp();
    for (int r = 0; r < B.n; ++r) w.w[cl.firstBody + r].noalias() -= Hp.middleRows<6>(6 * r) * B.mu;
  }
  transposeP(model, data, w.w, w.f);
  for (int i = 0; i < model.numBodies(); ++i) w.a[i].noalias() = w.Iinv[i] * w.f[i];
  for (int k = 0; k < K; ++k) {
    const Cluster& cl = model.cluster(k);
    ClusterCfaData::Impl::Block& B = w.blocks[k];
    for (int r = 0; r < B.n; ++r) B.rel.segment<6>(6 * r) = relative(model, data, w.a, cl.firstBody + r);
    cfa.qdd.segment(cl.vIndex, cl.nv).noalias() = B.HtT * B.rel;
  }
  detail::checkResult(cfa.qdd, "qdd", alg);
  return cfa.qdd;
}

}  // namespace grbda
