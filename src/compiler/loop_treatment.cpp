// Passes: hybrid loops (seed 000 conclusion, seed 001 §7). Once each cluster's joint is chosen,
// chooseLoopTreatment decides which clusters' loops stay constraint rows (LoopTreatment); after
// they are validated and closed like any cluster (their constraint set and assembly branch are
// what the rows and the coordinate maps use), dissolveKeptClusters splits them into their 1-DoF
// bodies. The cluster's constraint set moves to a LoopConstraint, whose rows
// K(q) q̈ = k(q, q̇) the ConstraintModel adds in front of the user's constraints.
#include <algorithm>
#include <string>

#include "compiler.hpp"

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

/// Clusters above cluster k (its ancestors) — the clusters a kept row travels through.
int clustersAbove(const Model& model, int k) {
  int depth = 0;
  for (k = model.cluster(k).parent; k >= 0; k = model.cluster(k).parent) ++depth;
  return depth;
}

/// Whether `auto` keeps cluster k as constraint rows: an estimate, in instructions, of what
/// embedding costs beyond keeping the rows, fitted to callgrind counts of C-ABA against PV on the
/// locality family (seed 000 Figs. 10-11; tools/count_loops_instructions.sh, bench/RESULTS.md
/// "Hybrid loops"). A cluster on the general recursion (GenericJoint) of n bodies grows as n³ (its
/// d x d articulated block, d ≈ n, and the generic per-body recursion); a static one (couplings:
/// constant G) saves the Delassus work of its m rows (about 12 k instructions a row); an implicit
/// one (<loop>s) evaluates K(q) and solves for G every call, which costs about as much as those
/// rows. Each row also travels through every cluster above (about 400 instructions a cluster).
/// Clusters with a closed-form joint (a recogniser's: rotor transmissions, the four-bar) are
/// always embedded: nothing is cheaper. So are clusters with a user constraint (a `<mimic>`,
/// Tello's differentials, any ImplicitConstraint): the estimate was fitted on loops and couplings
/// only, and for these embedding measured cheaper (callgrind, grbda fd --method pv: Tello 126.9 k
/// instructions embedded against 146.4 k with its four differentials as rows; a 7-joint chain
/// with two mimics 25.1 k against 27.7 k) although the n³ estimate favours rows.
bool keepAsConstraint(const CompilerState& s, int k) {
  if (s.drafts[static_cast<size_t>(k)].closedForm) return false;
  for (size_t c : s.constraintsOfCluster[static_cast<size_t>(k)])
    if (s.constraints[c].kind == ResolvedConstraint::User) return false;
  const Cluster& cl = s.model.cluster(k);
  const double n = cl.numBodies, m = cl.nvSpan - cl.nv;
  const bool implicit = !cl.joint->constraints().isStatic();
  const double embedExtra = implicit ? 19.0 * n * n * n + 470.0 * n * n : 21.5 * n * n * n + 362.0 * n * n - 12000.0 * m;
  return embedExtra > 400.0 * m * clustersAbove(s.model, k);
}

}  // namespace

void chooseLoopTreatment(CompilerState& s) {
  const LoopTreatment treatment = s.builder.loopTreatment();
  if (treatment == LoopTreatment::Embed) return;
  for (int k = 0; k < s.model.numClusters(); ++k)
    if (s.model.cluster(k).numBodies >= 2)
      s.drafts[static_cast<size_t>(k)].keepAsRows = treatment == LoopTreatment::Constrain || keepAsConstraint(s, k);
}

void dissolveKeptClusters(CompilerState& s) {
  Model& model = s.model;
  ModelFields& m = s.m;
  std::vector<bool> keep;
  for (const ClusterDraft& d : s.drafts) keep.push_back(d.keepAsRows);
  if (std::find(keep.begin(), keep.end(), true) == keep.end()) return;

  const VecX neutralOld = model.neutralConfiguration();
  std::vector<Cluster> clusters;
  std::vector<int> newClusterOfOld(static_cast<size_t>(model.numClusters()), -1);
  VecX neutral(model.nqSpanning());
  int nq = 0, nv = 0;
  m.positionNames.clear();
  m.velocityNames.clear();
  auto place = [&](Cluster cl) {
    cl.qIndex = nq;
    cl.vIndex = nv;
    nq += cl.nq;
    nv += cl.nv;
    for (int r = 0; r < cl.numBodies; ++r) {
      Body& b = m.bodies[static_cast<size_t>(cl.firstBody + r)];
      b.cluster = static_cast<int>(clusters.size());
      if (b.independent) appendCoordinateNames(b, m.positionNames, m.velocityNames);
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
    neutral.segment(nq, old.nqSpan) = s.closedSpanning.segment(old.qSpanIndex, old.nqSpan);
    for (int r = 0; r < old.numBodies; ++r) {
      Body& b = m.bodies[static_cast<size_t>(old.firstBody + r)];
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
      one.joint = std::make_shared<RevoluteJoint>(b);
      place(std::move(one));
    }
    m.loopConstraints.push_back(std::move(lc));
  }
  // parents from the output bodies' new clusters; which bodies support other clusters
  for (Body& b : m.bodies) b.supportsClusters = false;
  for (Cluster& cl : clusters) {
    cl.parent = cl.output < 0 ? -1 : m.bodies[static_cast<size_t>(cl.output)].cluster;
    if (cl.output >= 0) m.bodies[static_cast<size_t>(cl.output)].supportsClusters = true;
  }
  for (LoopConstraint& lc : m.loopConstraints) {
    lc.embedded.qIndex = lc.qIndex;
    lc.embedded.vIndex = lc.vIndex;
    lc.embedded.parent = lc.embedded.output < 0 ? -1 : m.bodies[static_cast<size_t>(lc.embedded.output)].cluster;
  }
  m.clusters = std::move(clusters);
  m.nq = nq;
  m.nv = nv;
  m.neutral = neutral.head(nq);
  // loops embedded in kept clusters are now rows of a LoopConstraint
  std::vector<LoopFrames> loops;
  for (LoopFrames lf : m.loops) {
    lf.cluster = newClusterOfOld[static_cast<size_t>(lf.cluster)];
    if (lf.cluster >= 0) loops.push_back(std::move(lf));
  }
  m.loops = std::move(loops);
  for (ConstraintInfo& info : m.constraints)
    if (info.cluster >= 0) info.cluster = newClusterOfOld[static_cast<size_t>(info.cluster)];
}

}  // namespace grbda::detail
