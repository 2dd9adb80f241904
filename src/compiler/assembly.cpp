// Pass: fix the assembly (MuJoCo-style compile: loops that cannot close are model errors, found
// once here). For each cluster with loops, the first closed pose found from a few independent
// starts (the file's zero pose first) becomes its reference: every later completion follows that
// branch, and the pose is the model's neutral configuration there (so neutralConfiguration() is a
// state every algorithm accepts). Works on the compiler's own joints and one cluster workspace at
// a time; no Data of the unfinished model.
#include <Eigen/QR>

#include <algorithm>

#include "cluster/loop_closure.hpp"
#include "compiler.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

namespace {

/// The cluster's coordinates that may be wrapped to (−π, π]: revolute joints that only loops
/// constrain. A coupling (a rotor turning N times as fast) or a user constraint (a mimic with
/// an offset) relates the angles themselves, not only the pose, so a turn added there breaks it.
std::vector<bool> periodicCoordinates(const Model& model, const Cluster& cl) {
  const ConstraintSet& set = cl.joint->constraints();
  std::vector<bool> periodic;
  for (int r = 0; r < cl.numBodies; ++r) {
    bool wrap = model.body(cl.firstBody + r).joint.type == JointType::Revolute;
    if (set.couplingRows().rows() > 0) wrap = wrap && set.couplingRows().col(r).cwiseAbs().maxCoeff() == 0.0;
    periodic.push_back(wrap);
  }
  for (const ImplicitEntry& e : set.implicitEntries())
    if (!dynamic_cast<const LoopClosureConstraint*>(e.constraint.get()))
      for (int c : e.columns) periodic[static_cast<size_t>(c)] = false;
  return periodic;
}

/// "; at the file's own pose ... rank r of n": why the zero pose closed but cannot drive the cluster.
std::string filePoseRank(const Cluster& cl, const ClusterData& cd) {
  const auto& dep = cl.joint->constraints().dependentCoordinates();
  MatX Kd(cd.K.rows(), static_cast<Eigen::Index>(dep.size()));
  for (size_t j = 0; j < dep.size(); ++j) Kd.col(static_cast<Eigen::Index>(j)) = cd.K.col(dep[j]);
  Eigen::ColPivHouseholderQR<MatX> qr(Kd);
  qr.setThreshold(1e-10 * std::max(1.0, Kd.cwiseAbs().maxCoeff()) / std::max(1e-300, qr.maxPivot()));
  return "; at the file's own pose (independent joints 0) the loops close, but the dependent joints' constraint "
         "Jacobian has rank " + std::to_string(qr.rank()) + " of " + std::to_string(dep.size());
}

}  // namespace

void fixAssembly(CompilerState& s) {
  s.closedSpanning = s.model.neutralSpanningConfiguration();
  VecX neutral = VecX::Zero(s.m.nq);  // identity quaternions on the single-joint groups
  for (const ClusterDraft& d : s.drafts) {
    const Body& b = s.m.bodies[static_cast<size_t>(d.cluster.firstBody)];
    if (d.cluster.numBodies == 1 && b.joint.hasQuaternion()) neutral[d.cluster.qIndex + b.joint.quaternionOffset()] = 1.0;
  }
  for (size_t k = 0; k < s.drafts.size(); ++k) {
    const Cluster& cl = s.drafts[k].cluster;
    if (cl.joint->constraints().isStatic()) continue;
    ClusterData cd;
    sizeClusterData(s.model, cl, cd);
    double* qs = s.closedSpanning.data() + cl.qSpanIndex;
    bool closed = false, closedSingular = false;
    std::string rankAtFilePose;  // "rank r of n" of K_d when the file's zero pose closes singular
    for (double y0 : {0.0, 0.3, -0.3, 1.0}) {
      VecX y = VecX::Constant(cl.nq, y0);
      if (!cl.joint->completePositions(cl, y.data(), qs, cd)) continue;
      if (!cl.joint->isRegular(qs, cd)) {  // closed, but at a singular pose: its branch is ambiguous
        closedSingular = true;
        if (y0 == 0.0) rankAtFilePose = filePoseRank(cl, cd);
        continue;
      }
      neutral.segment(cl.qIndex, cl.nq) = y;
      closed = true;
      break;
    }
    if (!closed) {
      const auto& c = s.constraints[s.constraintsOfCluster[k].front()];
      if (closedSingular)
        fail("the loops close, but at every pose tried the independent joints cannot drive the cluster (the "
             "constraint Jacobian of the dependent joints is singular there" + rankAtFilePose +
                 "); mark other joints independent",
             c.where, "cluster '" + cl.name + "'");
      fail("the loop cannot be closed: no configuration satisfying the constraints was found (link lengths or "
           "loop frames inconsistent?)",
           c.where, "cluster '" + cl.name + "'");
    }
    // the compiler's own (mutable) handle on the joint it made; the Model's is const
    s.drafts[k].joint->setReference(Eigen::Map<const VecX>(qs, cl.nqSpan), periodicCoordinates(s.model, cl));
  }
  // a group kept as rows has all its joints as coordinates: its neutral pose is the closed one
  for (const ClusterDraft& d : s.drafts)
    if (d.keepAsRows)
      neutral.segment(d.cluster.qIndex, d.cluster.nqSpan) = s.closedSpanning.segment(d.cluster.qSpanIndex, d.cluster.nqSpan);
  s.m.neutral = neutral;
}

}  // namespace grbda::detail
