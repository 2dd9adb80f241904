// Hybrid loops (seed 000 conclusion, seed 001 §7): after build() has formed, validated and closed
// every cluster, the clusters whose loops are to be kept as constraint rows are split back into
// their 1-DoF bodies. The cluster's constraint set moves to a LoopConstraint, whose rows
// K(q) q̈ = k(q, q̇) the ConstraintModel adds in front of the user's constraints.
#include <cmath>
#include <string>

#include "cluster_joint.hpp"
#include "grbda/errors.hpp"
#include "model_compiler.hpp"

namespace grbda {

const char* loopTreatmentName(LoopTreatment treatment) {
  switch (treatment) {
    case LoopTreatment::Embed: return "embed";
    case LoopTreatment::Constrain: return "constrain";
    case LoopTreatment::Auto: return "auto";
  }
  return "embed";
}

LoopTreatment loopTreatmentFromName(const std::string& name) {
  for (LoopTreatment t : {LoopTreatment::Embed, LoopTreatment::Constrain, LoopTreatment::Auto})
    if (name == loopTreatmentName(t)) return t;
  throw InputError("unknown loop treatment '" + name + "' (valid: embed, constrain, auto)");
}

}  // namespace grbda

namespace grbda::detail {

namespace {

/// Depth of body b in clusters (the number of clusters from its own up to a root).
int clusterDepth(const Model& model, int k) {
  int depth = 0;
  for (; k >= 0; k = model.cluster(k).parent) ++depth;
  return depth;
}

/// Whether `auto` keeps cluster k as constraint rows: a cost model in units of one body's
/// articulated step, fitted to callgrind counts of C-ABA and PV on the locality family (seed 000
/// Figs. 10-11; bench/RESULTS.md "Hybrid loops"). Embedding costs the cluster's explicit form
/// (an LU of the m x m dependent block and G, m = rows) and its d x d articulated block over n
/// bodies; a specialised joint (rotor transmissions, the four-bar) runs in closed form and is
/// always embedded. Constraint rows cost each of the m rows a propagation through every cluster
/// below the root it passes (depth), plus the m x m Delassus factorisation.
bool keepAsConstraint(const Model& model, int k) {
  const Cluster& cl = model.cluster(k);
  const std::string type = cl.typeName();
  if (type != "Generic") return false;
  const double n = cl.numBodies, d = cl.nv, m = cl.nvSpan - cl.nv;
  const double depth = clusterDepth(model, k) + n;
  const double embedCost = n + 0.02 * (m * m * m + n * m * d + n * d * d);
  const double constrainCost = n + 0.25 * m * depth + 0.01 * m * m * m;
  return constrainCost < embedCost;
}

void appendCoordinateNames(const Body& b, std::vector<std::string>& positions, std::vector<std::string>& velocities) {
  if (b.joint.type == JointType::Free) {
    for (const char* s : {"x", "y", "z", "qw", "qx", "qy", "qz"}) positions.push_back(b.jointName + ":" + s);
    for (const char* s : {"wx", "wy", "wz", "vx", "vy", "vz"}) velocities.push_back(b.jointName + ":" + s);
  } else {
    positions.push_back(b.jointName);
    velocities.push_back(b.jointName);
  }
}

}  // namespace

void ModelCompiler::keepLoopsAsConstraints(Model& model, LoopTreatment treatment, const VecX& closedSpanning) {
  if (treatment == LoopTreatment::Embed) return;
  std::vector<bool> keep(static_cast<size_t>(model.numClusters()), false);
  bool any = false;
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    if (cl.numBodies < 2) continue;
    keep[static_cast<size_t>(k)] = treatment == LoopTreatment::Constrain || keepAsConstraint(model, k);
    any = any || keep[static_cast<size_t>(k)];
  }
  if (!any) return;

  const VecX neutralOld = model.neutralConfiguration();
  std::vector<Cluster> clusters;
  std::vector<int> newClusterOfOld(static_cast<size_t>(model.numClusters()), -1);
  VecX neutral(model.nqSpanning());
  int nq = 0, nv = 0;
  model.positionNames_.clear();
  model.velocityNames_.clear();
  auto place = [&](Cluster cl) {
    cl.qIndex = nq;
    cl.vIndex = nv;
    nq += cl.nq;
    nv += cl.nv;
    for (int r = 0; r < cl.numBodies; ++r) {
      Body& b = model.bodies_[static_cast<size_t>(cl.firstBody + r)];
      b.cluster = static_cast<int>(clusters.size());
      if (b.independent) appendCoordinateNames(b, model.positionNames_, model.velocityNames_);
    }
    clusters.push_back(std::move(cl));
  };
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& old = model.cluster(k);
    if (!keep[static_cast<size_t>(k)]) {
      newClusterOfOld[static_cast<size_t>(k)] = static_cast<int>(clusters.size());
      neutral.segment(nq, old.nq) = neutralOld.segment(old.qIndex, old.nq);
      place(old);
      continue;
    }
    LoopConstraint lc;
    lc.name = old.name;
    lc.firstBody = old.firstBody;
    lc.numBodies = old.numBodies;
    lc.qIndex = nq;
    lc.vIndex = nv;
    lc.numDof = old.nv;
    lc.numRows = old.nvSpan - old.nv;
    lc.dependent = old.joint->constraints().dependentCoordinates();
    lc.embedded = old;
    neutral.segment(nq, old.nqSpan) = closedSpanning.segment(old.qSpanIndex, old.nqSpan);
    for (int r = 0; r < old.numBodies; ++r) {
      Body& b = model.bodies_[static_cast<size_t>(old.firstBody + r)];
      b.independent = true;
      b.output = b.parent;
      Cluster one;
      one.name = b.jointName;
      one.firstBody = old.firstBody + r;
      one.output = b.parent;
      one.qSpanIndex = b.qIndex;
      one.vSpanIndex = b.vIndex;
      one.nq = one.nqSpan = b.joint.nq();
      one.nv = one.nvSpan = b.joint.nv();
      one.joint = std::make_shared<RevoluteJoint>(b.joint.type == JointType::Prismatic);
      place(std::move(one));
    }
    model.loopConstraints_.push_back(std::move(lc));
  }
  // parents from the output bodies' new clusters; which bodies support other clusters
  for (Body& b : model.bodies_) b.supportsClusters = false;
  for (Cluster& cl : clusters) {
    cl.parent = cl.output < 0 ? -1 : model.bodies_[static_cast<size_t>(cl.output)].cluster;
    if (cl.output >= 0) model.bodies_[static_cast<size_t>(cl.output)].supportsClusters = true;
  }
  for (LoopConstraint& lc : model.loopConstraints_) {
    lc.embedded.qIndex = lc.qIndex;
    lc.embedded.vIndex = lc.vIndex;
    lc.embedded.parent = lc.embedded.output < 0 ? -1 : model.bodies_[static_cast<size_t>(lc.embedded.output)].cluster;
  }
  model.clusters_ = std::move(clusters);
  model.nq_ = nq;
  model.nv_ = nv;
  model.neutral_ = neutral.head(nq);
  // loops embedded in kept clusters are now rows of a LoopConstraint
  std::vector<LoopFrames> loops;
  for (LoopFrames lf : model.loops_) {
    lf.cluster = newClusterOfOld[static_cast<size_t>(lf.cluster)];
    if (lf.cluster >= 0) loops.push_back(std::move(lf));
  }
  model.loops_ = std::move(loops);
  for (ConstraintInfo& info : model.constraints_)
    if (info.cluster >= 0) info.cluster = newClusterOfOld[static_cast<size_t>(info.cluster)];
}

}  // namespace grbda::detail
