// Kept loop (Model::keptLoopGroups: loops and couplings the model keeps as constraint rows,
// LoopTreatment): K(q) q̈ = k(q, q̇) over the group's joints, as the cluster would have used them.
// Every ConstraintModel starts with one per group; the rows come from the group's embedded
// cluster joint (its ConstraintSet: jacobian, bias, residual), unchanged.
//
// A generalised force K_rj on joint j is the spatial force F = K_rj S_j on body j and −F on its
// parent (their power is K_rj q̇_j), so
//   Σ_parts Kᵀ a = Σ_j K_rj S_jᵀ (a_j − ^jX_λ a_λ) = Σ_j K_rj q̈_j
// (S_jᵀ (v_j × S_j q̇_j) = 0 for a revolute or prismatic joint): the right-hand side is the
// loop's own k = −K̇ q̇, with Baumgarte −(2/T) K q̇ − (1/T²) φ.
#include "kinds.hpp"

#include "../../cluster/cluster_joint.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

namespace {

/// The group's K, k and φ (the embedded cluster's workspace).
struct KeptLoopData final : ConstraintTypeData {
  ClusterData w;
};

class KeptLoop final : public ConstraintType {
 public:
  const char* name() const override { return "loop"; }
  ConstraintKind kind() const override { return ConstraintKind::Loop; }

  int resolve(const Model& model, Constraint& c) const override {
    const KeptLoopGroup& lc = model.keptLoopGroups()[static_cast<size_t>(c.loop)];
    c.body = lc.firstBody;
    c.link = model.body(c.body).name;
    if (c.name.empty()) c.name = lc.name;
    return lc.numRows;
  }

  /// A generalised force on each joint of the group, and the reaction on the group's support.
  void rowBodies(const Model& model, const Constraint& c, int, std::vector<int>& bodies) const override {
    const KeptLoopGroup& lc = model.keptLoopGroups()[static_cast<size_t>(c.loop)];
    for (int b = lc.firstBody; b < lc.firstBody + lc.numBodies; ++b) bodies.push_back(b);
    if (lc.embedded.output >= 0) bodies.push_back(lc.embedded.output);
  }

  std::unique_ptr<ConstraintTypeData> createData(const Model& model, const Constraint& c) const override {
    auto d = std::make_unique<KeptLoopData>();  // K: rows x the group's joints
    sizeClusterData(model, model.keptLoopGroups()[static_cast<size_t>(c.loop)].embedded, d->w);
    return d;
  }

  void calc(const Model& model, const Data& data, const Constraint& c, ConstraintTypeData* d,
            const ConstraintRowSettings& s, ConstraintRowsOut out) const override {
    const KeptLoopGroup& lc = model.keptLoopGroups()[static_cast<size_t>(c.loop)];
    ClusterData& w = static_cast<KeptLoopData*>(d)->w;
    const ConstraintSet& set = lc.embedded.joint->constraints();
    const double* q = data.qSpan.data() + lc.embedded.qSpanIndex;
    set.jacobian(q, w);
    const int nb = lc.numBodies;
    for (int r = 0; r < c.numRows; ++r) {
      for (int j = 0; j < out.numParts(r); ++j) out.K(r, j).setZero();
      for (int j = 0; j < nb; ++j) {
        const Body& b = model.body(lc.firstBody + j);
        // any F with Sᵀ F = K_rj states the row on the body; S/|S|² because a screw's S is not
        // a unit vector (|S|² = 1 + pitch²)
        const Vec6 S = b.joint.subspace();
        const Vec6 F = (w.K(r, j) / S.squaredNorm()) * S;
        out.K(r, j) += F;
        if (b.parent < 0) continue;
        const int onParent = b.parent >= lc.firstBody ? b.parent - lc.firstBody : nb;  // in the group, or its support
        out.K(r, onParent) -= data.work().Xup[static_cast<size_t>(lc.firstBody + j)].applyTranspose(F);
      }
    }
    if (!s.rightHandSides) return;
    const double* qd = data.vSpan.data() + lc.embedded.vSpanIndex;
    set.bias(q, qd, w);
    for (int r = 0; r < c.numRows; ++r) out.k(r) = w.k[r];
    if (s.kv == 0.0) return;
    set.residual(q, w);
    const Eigen::Map<const VecX> rate(qd, nb);
    for (int r = 0; r < c.numRows; ++r) out.k(r) -= s.kv * w.K.row(r).dot(rate) + s.kp * w.phi[r];
  }
};

}  // namespace

std::shared_ptr<const ConstraintType> keptLoopType() {
  static const auto type = std::make_shared<const KeptLoop>();
  return type;
}

}  // namespace grbda::detail
