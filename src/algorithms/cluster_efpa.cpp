// C-EFPA — inverse operational-space inertia by cluster extended force propagators (spec §6.5;
// [P2] §VIII; Wensing-Featherstone-Orin 2012), worked per body instead of with the spec's dense
// 6n_k matrices. Two facts make that possible:
//  * every cluster has one output body, so Xup_k (6n_k x 6n_λ) is zero outside the output body's
//    column block. Hence Φ_{e,λ} = Φ_{e,k} χ_k is nonzero in one 6x6 block only — at the body
//    through which e's force enters cluster λ — and χ_k Ψ_λ reads only the output body's
//    acceleration. Per end-effector and supporting cluster we keep that one block:
//      P   (6x6)  = Φ_{e,k} restricted to body j (the rows of the force propagator),
//      Y   (d x 6) = ÿ_k per unit force at e,   A (6x6) = Ψ_{k,e} restricted to body j;
//  * with Kk = S D⁻¹ Sᵀ and L = 1 − Kk IA, the products reduce to the d x d solve:
//      Φ_{e,λ}[o] = P Xout_j − (P S_j) D⁻¹ XUᵀ                  (XU = Σ_i Xout_iᵀ IA_i S_i)
//      Ψ_{k,e}[i] = Xout_i A_o + S_i Y,   Y = D⁻¹ ((P S_j)ᵀ − XUᵀ A_o),   A_o = Ψ_{λ,e}[o].
// A block of Λ⁻¹ is then Φ_{e1,k*}[j1] Ψ_{k*,e2}[j1] at the deepest common supporting cluster k*.
// The linear-only variant runs the same recursion on the last three rows of P (R = 3).
#include <string>

#include "../kernels/checks.hpp"
#include "../kernels/cluster_state.hpp"
#include "../kernels/force_propagators.hpp"
#include "grbda/algorithms/osim.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda {

OsimSet::OsimSet(const Model& model, std::vector<EndEffector> endEffectors)
    : endEffectors_(std::move(endEffectors)), numBodies_(model.numBodies()), numClusters_(model.numClusters()) {
  const int ne = size();
  for (int e = 0; e < ne; ++e) {
    const EndEffector& ee = endEffectors_[static_cast<size_t>(e)];
    if (ee.frame < 0 || ee.frame >= static_cast<int>(model.frames().size()))
      throw InputError("OsimSet: end-effector " + std::to_string(e) + " has frame index " + std::to_string(ee.frame) +
                       ", the model has " + std::to_string(model.frames().size()) + " frames");
    if (!ee.point.allFinite())
      throw InputError("OsimSet: the point of end-effector " + std::to_string(e) + " is not finite");
    const Frame& f = model.frame(ee.frame);
    seed_.push_back((Transform::translation(ee.point) * f.placement).toMatrix());
    pathStart_.push_back(static_cast<int>(steps_.size()));
    for (int j = f.body; j >= 0; j = model.body(j).output) {  // supporting clusters, deepest first
      PathStep s;
      s.body = j;
      s.cluster = model.body(j).cluster;
      s.yRow = yRows_;
      yRows_ += model.cluster(s.cluster).nv;
      steps_.push_back(s);
    }
    pathLength_.push_back(static_cast<int>(steps_.size()) - pathStart_.back());
  }
  // deepest common supporting cluster: the paths agree from the root down to it
  for (int e1 = 0; e1 < ne; ++e1)
    for (int e2 = e1 + 1; e2 < ne; ++e2) {
      const int end1 = pathStart_[e1] + pathLength_[e1] - 1, end2 = pathStart_[e2] + pathLength_[e2] - 1;
      Pair p{e1, e2, -1, -1};
      for (int i = 0; i < pathLength_[e1] && i < pathLength_[e2]; ++i) {
        if (steps_[end1 - i].cluster != steps_[end2 - i].cluster) break;
        p.step1 = end1 - i;
        p.step2 = end2 - i;
      }
      if (p.step1 >= 0) pairs_.push_back(p);  // no common cluster: the block is zero
    }
}

namespace detail {

struct Efpa {
  static void checkModel(const Model& model, const OsimSet& set, const char* algorithm) {
    if (set.numBodies_ != model.numBodies() || set.numClusters_ != model.numClusters())
      throw InputError(std::string(algorithm) + ": the OsimSet was built for another model");
  }

  /// Sizes the buffers in the workspace's osim (allocates only when the set's sizes change).
  static MatX& prepareBuffers(Data& data, const OsimSet& set, int R) {
    OsimData& w = data.work().osim;
    if (w.P.size() != set.steps_.size()) {
      w.P.resize(set.steps_.size());
      w.A.resize(set.steps_.size());
    }
    if (w.Y.rows() != set.yRows_) w.Y.resize(set.yRows_, 6);
    MatX& L = R == 6 ? w.LambdaInv : w.LambdaInvLinear;
    if (L.rows() != R * set.size()) L.resize(R * set.size(), R * set.size());
    return L;
  }

  template <int R>
  static void run(const Model& model, Data& data, const OsimSet& set, MatX& L) {
    DataWorkspace& ws = data.work();
    OsimData& w = ws.osim;
    const int ne = set.size();
    // inward: Φ_{e,λ(k)} = Φ_{e,k} χ_k along each support path; stash (Φ S)ᵀ in Y
    for (int e = 0; e < ne; ++e) {
      const int s0 = set.pathStart_[e], len = set.pathLength_[e];
      if (len > 0) w.P[s0] = set.seed_[e];  // Φ_{e,c(e)}: X_e in the block of b(e)
      for (int m = 0; m < len; ++m) {
        const OsimSet::PathStep& st = set.steps_[s0 + m];
        const Cluster& cl = model.cluster(st.cluster);
        const ClusterData& cd = ws.clusters[static_cast<size_t>(st.cluster)];
        const auto S = cd.S.middleRows<6>(6 * (st.body - cl.firstBody));
        const auto P = w.P[s0 + m].bottomRows<R>();
        auto PSt = w.Y.block(st.yRow, 0, cl.nv, R);
        PSt.noalias() = S.transpose() * P.transpose();  // (Φ_{e,k} S_k)ᵀ
        if (m + 1 == len) break;
        auto Pn = w.P[s0 + m + 1].bottomRows<R>();  // Φ_{e,k} L_k Xup_k at the output body
        for (int rr = 0; rr < R; ++rr)
          Pn.row(rr) = ws.Xout[st.body].applyTranspose(P.row(rr).transpose()).transpose();
        Pn.noalias() -= PSt.transpose() * cd.DinvXUt;
      }
    }
    // outward: Ψ_{k,e} = χ_k Ψ_{λ,e} + Kk_k Φ_{e,k}ᵀ along each path, root first
    for (int e = 0; e < ne; ++e) {
      const int s0 = set.pathStart_[e], len = set.pathLength_[e];
      for (int m = len - 1; m >= 0; --m) {
        const OsimSet::PathStep& st = set.steps_[s0 + m];
        const Cluster& cl = model.cluster(st.cluster);
        const ClusterData& cd = ws.clusters[static_cast<size_t>(st.cluster)];
        const auto S = cd.S.middleRows<6>(6 * (st.body - cl.firstBody));
        auto Y = w.Y.block(st.yRow, 0, cl.nv, R);
        auto DinvY = ws.clusters[static_cast<size_t>(st.cluster)].scratchD6.leftCols<R>();
        DinvY.noalias() = cd.Dinv * Y;  // D⁻¹ (Φ S)ᵀ
        Y = DinvY;
        auto A = w.A[s0 + m].leftCols<R>();
        if (m + 1 < len) {  // the parent's acceleration enters through the output body only
          const auto Ao = w.A[s0 + m + 1].leftCols<R>();
          Y.noalias() -= cd.DinvXUt * Ao;
          for (int c = 0; c < R; ++c) A.col(c) = ws.Xout[st.body].apply(Ao.col(c));
          A.noalias() += S * Y;
        } else {
          A.noalias() = S * Y;
        }
      }
    }
    // blocks: Λ⁻¹_{e1 e2} = Φ_{e1,k*} Ψ_{k*,e2}
    L.setZero();
    for (int e = 0; e < ne; ++e) {
      if (set.pathLength_[e] == 0) continue;
      const int s0 = set.pathStart_[e];
      const Eigen::Matrix<double, R, R> B = w.P[s0].bottomRows<R>() * w.A[s0].leftCols<R>();
      L.block<R, R>(R * e, R * e) = 0.5 * (B + B.transpose());
    }
    for (const OsimSet::Pair& p : set.pairs_) {
      const OsimSet::PathStep& st1 = set.steps_[p.step1];
      const OsimSet::PathStep& st2 = set.steps_[p.step2];
      Eigen::Matrix<double, 6, R> Psi;  // acceleration of e1's body in k* per unit force at e2
      if (st1.body == st2.body) {
        Psi = w.A[p.step2].leftCols<R>();
      } else {  // another body of the same cluster: Xout_j1 A_o + S_j1 Y
        const Cluster& cl = model.cluster(st1.cluster);
        const ClusterData& cd = ws.clusters[static_cast<size_t>(st1.cluster)];
        const bool hasParent = p.step2 + 1 < set.pathStart_[p.e2] + set.pathLength_[p.e2];
        if (hasParent)
          for (int c = 0; c < R; ++c) Psi.col(c) = ws.Xout[st1.body].apply(w.A[p.step2 + 1].col(c));
        else
          Psi.setZero();
        Psi.noalias() += cd.S.middleRows<6>(6 * (st1.body - cl.firstBody)) * w.Y.block(st2.yRow, 0, cl.nv, R);
      }
      const Eigen::Matrix<double, R, R> B = w.P[p.step1].bottomRows<R>() * Psi;
      L.block<R, R>(R * p.e1, R * p.e2) = B;
      L.block<R, R>(R * p.e2, R * p.e1) = B.transpose();
    }
  }

  static const MatX& compute(const Model& model, Data& data, const OsimSet& set, const VecRef& q, bool linearOnly,
                             const MatX* massOffset, const char* alg) {
    checkModel(model, set, alg);
    prepareState(model, data, q, nullptr, alg);
    requirePropagators(model, data, alg, massOffset);
    MatX& L = prepareBuffers(data, set, linearOnly ? 3 : 6);
    if (linearOnly) run<3>(model, data, set, L);
    else run<6>(model, data, set, L);
    if (!L.allFinite()) throw NumericalError(std::string(alg) + ": the result is not finite (singular inertia)");
    return L;
  }
};

const MatX& inverseOperationalSpaceInertia(const Model& model, Data& data, const OsimSet& set, const VecRef& q,
                                           bool linearOnly, const MatX* massOffset, const char* algorithm) {
  return Efpa::compute(model, data, set, q, linearOnly, massOffset, algorithm);
}

}  // namespace detail

const MatX& inverseOperationalSpaceInertia(const Model& model, Data& data, const OsimSet& set, const VecRef& q,
                                           bool linearOnly) {
  return detail::Efpa::compute(model, data, set, q, linearOnly, nullptr, "inverseOperationalSpaceInertia");
}

}  // namespace grbda
