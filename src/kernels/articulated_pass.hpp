#pragma once
// Internal: the articulated-cluster pass (spec §6.3; [P0] Alg. 1, eqs. 52-60), written once and
// consumed by C-ABA, C-EFPA / apply-test-force, PV and PV-soft (and ℳ⁻¹ / log det). Clusters have
// a single output body, so every articulated inertia IA_k stays block-diagonal over the
// cluster's bodies ([P0] §IV-B) and is stored per body in the workspace's IA; the fold onto the parent,
// Xupᵀ (IA − U D⁻¹ Uᵀ) Xup, is Σ_i Xout_iᵀ IA_i Xout_i − XU D⁻¹ XUᵀ with XU = Σ_i Xout_iᵀ U_i,
// never a 6n x 6n product. Per-cluster steps are templated on d_k: fixed-size types for
// d_k ∈ {1, 2, 3, 6}, dynamic buffers from Data otherwise.
//
// What the inward pass leaves valid, for every cluster k (one meaning per field, ClusterData):
//   U = IA S, D = Sᵀ IA S (+ armature), Dinv = D⁻¹, detD = det D, XU, DinvXUt = D⁻¹ XUᵀ
//   (non-root clusters), the workspace's IA (folded); with bias terms also the workspace's pA (folded), u = τ − Sᵀ pA
//   and w = u − Uᵀ c (non-root clusters); llt holds the factor of D for dynamic d_k only, whose
//   fold also overwrites scratchD6 (free again when the step returns).
// Hooks, both templates so that the plain pass pays nothing for them:
//   leafTerms(data)            after IA_i = I_i, pA_i = v ×* I v − fext, before any fold:
//                              PV-soft adds Kᵀ R⁻¹ K and −Kᵀ R⁻¹ k here (seed 003 eq. 52).
//   atCluster(k, cl, cd)       after cluster k's step: PV propagates its constraint rows here.
#include <type_traits>
#include <vector>

#include "cluster_blocks.hpp"
#include "small_spd.hpp"
#include "grbda/data.hpp"
#include "grbda/spatial/cross.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

struct ArticulatedPassInputs {
  const VecRef* tau = nullptr;             ///< bias terms (pA, u, w) are computed iff set
  const ExternalForces* fext = nullptr;   ///< world-frame wrenches per body (with tau only)
  const MatX* massOffset = nullptr;       ///< nv x nv armature added to each D_k block (approximate models)
  /// Per body: its IA is not a rigid-body inertia (soft rows added), so folding it needs the
  /// general transform. Bodies that support clusters always use it.
  const std::vector<char>* generalInertia = nullptr;
  /// Per body: the leaf terms changed its IA (IA_i ≠ I_i before the folds). Without it, a pass
  /// with leaf terms assumes they changed every body's.
  const std::vector<char>* changedByLeafTerms = nullptr;
};

struct NoLeafTerms {
  void operator()(Data&) const {}
};
struct NoClusterHook {
  void operator()(int, const Cluster&, ClusterData&) const {}
};

namespace pass {

inline bool needsGeneralFold(const Model& model, const ArticulatedPassInputs& in, int i) {
  return model.body(i).supportsClusters || (in.generalInertia && (*in.generalInertia)[static_cast<size_t>(i)]);
}

/// Cluster k of the inward pass (eqs. 52-56): U, D, D⁻¹, u; fold onto the output body.
/// `rigidLeaves`: no leaf terms ran, so a rotor that turns without change folds as its constant
/// inertia in the parent (DataWorkspace::inertiaInParent) unless in.changedByLeafTerms marks it.
template <int D, bool Bias>
bool inwardStep(const Model& model, Data& data, const Cluster& cl, ClusterData& cd, const ArticulatedPassInputs& in,
                bool rigidLeaves) {
  DataWorkspace& ws = data.work();
  using S = Sizes<D>;
  const int d = cl.nv;
  Eigen::Map<typename S::MatD> Dk(cd.D.data(), d, d);
  Eigen::Map<typename S::MatD> Dinv(cd.Dinv.data(), d, d);
  Eigen::Map<typename S::VecD> u(cd.u.data(), d);
  Dk.setZero();
  if constexpr (Bias) u = clusterSegment<D>(*in.tau, cl.vIndex, d);
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    const auto Sr = rowsOf<D>(cd.S, r);
    auto Ur = rowsOf<D>(cd.U, r);
    Ur.noalias() = ws.IA[i] * Sr;                          // U_k = IA_k S_k
    Dk.noalias() += Sr.transpose() * Ur;                     // D_k = S_kᵀ U_k          (eq. 53)
    if constexpr (Bias) u.noalias() -= Sr.transpose() * ws.pA[i];  // u_k = τ_k − S_kᵀ pA_k
  }
  if (in.massOffset) Dk += in.massOffset->block(cl.vIndex, cl.vIndex, d, d);
  // L⁻¹ of D_k = L Lᵀ, for the fold below (d_k > 1)
  [[maybe_unused]] typename std::conditional<(D > 1), typename S::MatD, char>::type Linv;
  if constexpr (D == Eigen::Dynamic) {
    cd.llt.compute(cd.D);
    if (cd.llt.info() != Eigen::Success) return false;
    cd.Dinv.setIdentity();
    cd.llt.solveInPlace(cd.Dinv);
    cd.detD = 1.0;
    for (int j = 0; j < d; ++j) cd.detD *= cd.llt.matrixLLT()(j, j) * cd.llt.matrixLLT()(j, j);
  } else if constexpr (D == 1) {
    if (!spdInverse<D>(Dk, Dinv, cd.detD)) return false;
  } else {
    if (!spdInverse<D>(Dk, Dinv, cd.detD, &Linv)) return false;
  }
  if (cl.output < 0) return true;

  // fold onto the output body o: IA_o += Xupᵀ Ia Xup,  pA_o += Xupᵀ pa   (eqs. 55-56)
  const int o = cl.output;
  Eigen::Map<typename S::Mat6D> XU(cd.XU.data(), 6, d);
  Eigen::Map<Eigen::Matrix<double, D, 6>> DinvXUt(cd.DinvXUt.data(), d, 6);
  Vec6 p = Vec6::Zero();
  Eigen::Map<typename S::VecD> w(cd.w.data(), d);  // u − Uᵀ c
  if constexpr (Bias) w = u;
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    const Transform& X = ws.Xout[i];
    const auto Ur = rowsOf<D>(cd.U, r);
    // the first body assigns XU, the others add (no zeroing pass)
    if (r == 0)
      for (int c = 0; c < d; ++c) XU.col(c) = X.applyTranspose(Ur.col(c));
    else
      for (int c = 0; c < d; ++c) XU.col(c) += X.applyTranspose(Ur.col(c));
    if (needsGeneralFold(model, in, i)) X.addTransformedInertia(ws.IA[i], ws.IA[o]);
    else if (ws.turnsWithoutChange[static_cast<size_t>(i)] &&
             (rigidLeaves || (in.changedByLeafTerms && !(*in.changedByLeafTerms)[static_cast<size_t>(i)])))
      ws.IA[o] += ws.inertiaInParent[static_cast<size_t>(i)];
    else X.addTransformedRigidInertia(ws.IA[i], ws.IA[o]);
    if constexpr (Bias) {
      p += X.applyTranspose(ws.pA[i] + ws.IA[i] * ws.c[i]);
      w.noalias() -= Ur.transpose() * ws.c[i];
    }
  }
  // IA_o −= XU D⁻¹ XUᵀ. For d_k > 1 it is formed as Zᵀ Z with Z = L⁻¹ XUᵀ: when several
  // coordinates drive one heavy body (a belt's rotor on both joints) D_k is nearly singular,
  // D⁻¹ has huge entries, and XU (D⁻¹ XUᵀ) lost the small inertia left behind to cancellation
  // (1e-2 relative error in ÿ where a dense solve of H has 3e-9; fuzz/corpus/random_model).
  if constexpr (D == 1) {
    DinvXUt.noalias() = Dinv * XU.transpose();
    ws.IA[o].noalias() -= XU * DinvXUt;
  } else if constexpr (D == Eigen::Dynamic) {
    Eigen::Map<MatX> Z(cd.scratchD6.data(), d, 6);
    Z = XU.transpose();
    cd.llt.matrixL().solveInPlace(Z);
    DinvXUt = Z;
    cd.llt.matrixU().solveInPlace(DinvXUt);
    ws.IA[o].noalias() -= Z.transpose() * Z;
  } else {
    // plain fixed-size products (Linv's upper triangle is zero): Eigen's triangular products
    // take a blocked general path that costs several times the arithmetic at these sizes
    const Eigen::Matrix<double, D, 6> Z = Linv * XU.transpose();
    DinvXUt.noalias() = Linv.transpose() * Z;
    ws.IA[o].noalias() -= Z.transpose() * Z;
  }
  if constexpr (Bias) {
    ws.pA[o] += p;
    ws.pA[o].noalias() += DinvXUt.transpose() * w;
  }
  return true;
}

}  // namespace pass

/// NumericalError naming the workspace's articulated.failedCluster (its type, bodies and joints), for a
/// pass that returned false.
[[noreturn]] void throwArticulatedInertiaNotPositive(const Model& model, const Data& data, const char* algorithm);

/// The inward articulated-cluster pass on the prepared kinematics (prepareState ran). False if
/// some D_k is not positive definite (the workspace's articulated.failedCluster says which; see
/// throwArticulatedInertiaNotPositive). Stamps the workspace's articulated.
template <bool Bias, class LeafTerms = NoLeafTerms, class ClusterHook = NoClusterHook>
bool articulatedPass(const Model& model, Data& data, const ArticulatedPassInputs& in, LeafTerms&& leafTerms = {},
                     ClusterHook&& atCluster = {}, bool plain = true) {
  DataWorkspace& ws = data.work();
  ws.articulated.plain = false;
  ws.articulated.failedCluster = -1;
  const bool hasFext = Bias && in.fext && !in.fext->empty();
  for (int i = 0; i < model.numBodies(); ++i) {  // IA_i = I_i,  pA_i = v_i ×* I_i v_i − ^iX*_0 f^ext_i
    const Mat6& I = model.body(i).inertia;
    ws.IA[i] = I;
    if constexpr (Bias) {
      ws.pA[i] = crossForce(data.v[i], I * data.v[i]);
      if (hasFext) ws.pA[i] -= data.Xa[i].applyForce((*in.fext)[i]);
    }
  }
  leafTerms(data);
  constexpr bool rigidLeaves = std::is_same_v<std::decay_t<LeafTerms>, NoLeafTerms>;
  for (int k = model.numClusters() - 1; k >= 0; --k) {
    const Cluster& cl = model.cluster(k);
    ClusterData& cd = ws.clusters[static_cast<size_t>(k)];
    const bool ok =
        withClusterDof(cl.nv, [&](auto D) { return pass::inwardStep<D, Bias>(model, data, cl, cd, in, rigidLeaves); });
    if (!ok) {
      ws.articulated.failedCluster = k;
      return false;
    }
    atCluster(k, cl, cd);
  }
  ws.articulated.kinematics = ws.kinematicsVersion;
  ws.articulated.plain = plain;
  return true;
}

/// a'_k = Xout_k a_o + c_k into data.a (a_o = a0 for clusters on the ground).
inline void predictAccelerations(const Cluster& cl, Data& data, const Vec6& a0) {
  DataWorkspace& ws = data.work();
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    data.a[i] = ws.Xout[i].apply(cl.output < 0 ? a0 : data.a[cl.output]) + ws.c[i];
  }
}

/// Outward step (eqs. 58-60): ÿ_k = D_k⁻¹(u_k + extra_k − U_kᵀ a'_k), a_k = a'_k + S_k ÿ_k; ÿ_k
/// is written to data.qdd (and cd.w). `addExtra(t)` adds PV's constraint-force term Sᵀ F λ to t.
/// Needs the inward pass with bias terms (w, XU) of this state.
template <int D, class AddExtra>
void outwardStep(Data& data, const Cluster& cl, ClusterData& cd, const Vec6& a0, AddExtra&& addExtra) {
  predictAccelerations(cl, data, a0);
  auto t = clusterSegment<D>(cd.w, 0, cl.nv);
  if (cl.output < 0) {
    t = clusterSegment<D>(cd.u, 0, cl.nv);
    for (int r = 0; r < cl.numBodies; ++r) t.noalias() -= rowsOf<D>(cd.U, r).transpose() * data.a[cl.firstBody + r];
  } else {
    // u − Σ U_iᵀ (Xout_i a_o + c_i) = w − XUᵀ a_o: w and XU from the inward pass, one product
    // instead of one per body
    t.noalias() -= Eigen::Map<const typename Sizes<D>::Mat6D>(cd.XU.data(), 6, cl.nv).transpose() * data.a[cl.output];
  }
  addExtra(t);
  if constexpr (D == Eigen::Dynamic) cd.llt.solveInPlace(cd.w);
  else t = Eigen::Map<const typename Sizes<D>::MatD>(cd.Dinv.data()) * typename Sizes<D>::VecD(t);
  clusterSegment<D>(data.qdd, cl.vIndex, cl.nv) = t;
  for (int r = 0; r < cl.numBodies; ++r) data.a[cl.firstBody + r].noalias() += rowsOf<D>(cd.S, r) * t;
}

/// The outward pass of C-ABA / PV over all clusters, from a0 (gravity-biased base acceleration).
template <class AddExtra>
void outwardPass(const Model& model, Data& data, const Vec6& a0, AddExtra&& addExtra) {
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    ClusterData& cd = data.work().clusters[static_cast<size_t>(k)];
    withClusterDof(cl.nv, [&](auto D) {
      outwardStep<D>(data, cl, cd, a0, [&](auto& t) { addExtra(k, t); });
    });
  }
}

}  // namespace grbda::detail
