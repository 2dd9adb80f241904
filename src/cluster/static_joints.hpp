#pragma once
// Internal: fixed-size cluster joints for transmissions with constant couplings (spec §5.4-5.6):
// geared link+rotor, parallel-belt pair, three-link belt chain. The constraint is static (G
// constant, g = 0), so the update is the cluster recursion of §4.3-4.5 with every size known at
// compile time: S_i = X_i S_λ(i) + s_i G_i,  c_i = X_i c_λ(i) + v_i × s_i q̇_i.
#include <array>

#include "cluster_joint.hpp"
#include "joint_transform.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

/// The per-body recursion of a cluster of NB 1-DoF bodies with D independent velocities, given
/// the cluster's G (NB x D) and g (NB entries; nullptr when g = 0) at the current state — the
/// same recursion as GenericJoint with compile-time sizes. Shared by the static transmissions
/// and the FourBar joint (whose G, g change with q):
///   S_i = X_i S_λ(i) + s_i G_i,   c_i = X_i c_λ(i) + s_i g_i + v_i × s_i q̇_i.
template <int NB, int D>
class FixedClusterBodies {
 public:
  using MatG = Eigen::Matrix<double, NB, D>;
  /// Bodies of the cluster are model.body(firstBody + r).
  FixedClusterBodies(const Model& model, int firstBody) {
    for (int r = 0; r < NB; ++r) {
      const Body& b = model.body(firstBody + r);
      parent_[r] = b.parent >= firstBody ? b.parent - firstBody : -1;
      s_[r] = b.joint.subspace();
      transform_[r] = BodyJointTransform(b);
      revolute_[r] = s_[r].template tail<3>().isZero();
    }
  }

  /// True when every body of the cluster hangs from a body outside it: S_i = s_i G_i, constant
  /// for a constant G (written once by writeSubspace, not by update).
  bool bodiesAttachOutside() const {
    for (int r = 0; r < NB; ++r)
      if (parent_[r] >= 0) return false;
    return true;
  }
  /// S_i = s_i G_i for a cluster whose bodies all attach outside it.
  void writeSubspace(const MatG& G, ClusterData& cd) const {
    for (int r = 0; r < NB; ++r) cd.S.template block<6, D>(6 * r, 0).noalias() = s_[r] * G.row(r);
  }

  /// With `writeS` false, cd.S is left as writeSubspace wrote it (bodies attached outside the
  /// cluster and G constant).
  void update(const Model& model, const Cluster& cl, Data& data, ClusterData& cd, const MatG& G, const double* g,
              const double* v, bool writeS = true) const {
    DataWorkspace& ws = data.work();
    const double* q = data.qSpan.data() + cl.qSpanIndex;
    std::array<Eigen::Matrix<double, 6, D>, NB> S;
    Eigen::Matrix<double, D, 1> y = Eigen::Matrix<double, D, 1>::Zero();
    if (v) y = Eigen::Map<const Eigen::Matrix<double, D, 1>>(v);
    for (int r = 0; r < NB; ++r) {
      const int i = cl.firstBody + r, p = parent_[r];
      const Body& b = model.body(i);
      Transform& X = ws.Xup[i];
      transform_[r](b, q + r, X);
      // assignments, not `p < 0 ? X : ...`: the conditional would copy X into a temporary first
      if (p < 0) ws.Xout[i] = X;
      else ws.Xout[i] = X * ws.Xout[cl.firstBody + p];
      if (b.parent < 0) data.Xa[i] = X;
      else data.Xa[i] = X * data.Xa[b.parent];
      if (writeS) {
        S[r].noalias() = s_[r] * G.row(r);
        if (p >= 0)
          for (int c = 0; c < D; ++c) S[r].col(c) += X.apply(S[p].col(c));
        cd.S.template block<6, D>(6 * r, 0) = S[r];
      }
      if (!v) continue;
      const double qd = G.row(r).dot(y);
      data.vSpan[cl.vSpanIndex + r] = qd;
      const Vec6 vJ = s_[r] * qd;
      if (b.parent < 0) data.v[i] = vJ;
      else data.v[i] = X.apply(data.v[b.parent]) + vJ;
      Vec6 c = revolute_[r] ? crossMotionAngular(data.v[i], vJ) : crossMotion(data.v[i], vJ);
      if (g) c += s_[r] * g[r];
      if (p >= 0) c += X.apply(ws.c[cl.firstBody + p]);
      ws.c[i] = c;
    }
  }

 private:
  std::array<int, NB> parent_{};
  std::array<Vec6, NB> s_;
  std::array<BodyJointTransform, NB> transform_;
  std::array<bool, NB> revolute_{};  ///< the joint's motion has no linear part (v × vJ is cheaper)
};

template <int NB, int D>
class StaticClusterJoint final : public ClusterJoint {
 public:
  /// `name`: the spec's type name; bodies of the cluster are model.body(firstBody + r).
  StaticClusterJoint(const char* name, ConstraintSet constraints, const Model& model, int firstBody)
      : ClusterJoint(std::move(constraints)), name_(name), bodies_(model, firstBody) {
    const MatX& G = constraints_.staticG();
    for (int r = 0; r < NB; ++r) G_.row(r) = G.row(r);
    const MatX& K = constraints_.couplingRows();
    fixedRows_ = K.rows() <= NB;  // repeated couplings in a file can give more rows: the general check
    if (fixedRows_) K_ = K;
    constantS_ = bodies_.bodiesAttachOutside();
  }
  const char* typeName() const override { return name_; }

  /// q_span = G y (couplings have no offsets, spec §2.4), with the sizes known.
  bool completePositions(const Cluster&, const double* y, double* qSpan, ClusterData&) const override {
    Eigen::Map<Eigen::Matrix<double, NB, 1>>(qSpan).noalias() = G_ * Eigen::Map<const Eigen::Matrix<double, D, 1>>(y);
    return true;
  }

  /// ‖K q_span‖∞ with the coupling rows' sizes known (the constraints are linear couplings).
  double constraintViolation(const double* qSpan, ClusterData& cd) const override {
    if (!fixedRows_) return ClusterJoint::constraintViolation(qSpan, cd);
    if (K_.rows() == 0) return 0.0;
    return (K_ * Eigen::Map<const Eigen::Matrix<double, NB, 1>>(qSpan)).cwiseAbs().maxCoeff();
  }

  /// S is constant when every body hangs from outside the cluster (a geared link and its rotor):
  /// written here once instead of by every update.
  void initializeData(const Model& model, const Cluster& cl, ClusterData& cd) const override {
    ClusterJoint::initializeData(model, cl, cd);
    if (constantS_) bodies_.writeSubspace(G_, cd);
  }

  bool constantSubspace() const override { return constantS_; }

  bool update(const Model& model, const Cluster& cl, Data& data, const double* v) const override {
    ClusterData& cd = data.work().clusters[static_cast<size_t>(model.body(cl.firstBody).cluster)];
    bodies_.update(model, cl, data, cd, G_, nullptr, v, !constantS_);
    return true;
  }

 private:
  const char* name_;
  FixedClusterBodies<NB, D> bodies_;
  Eigen::Matrix<double, NB, D> G_;
  Eigen::Matrix<double, Eigen::Dynamic, NB, 0, NB, NB> K_;  ///< the coupling rows K (φ = K q_span)
  bool fixedRows_ = false;                                   ///< K fits K_ (at most NB rows)
  bool constantS_ = false;                                   ///< S written once (initializeData)
};

}  // namespace grbda::detail
