// Passes: hybrid loops (seed 000 conclusion, seed 001 §7). Once each group's joint is chosen,
// chooseLoopTreatment decides which groups' loops stay constraint rows (LoopTreatment), before
// any coordinate is numbered or any of the model's clusters exists. A kept group is closed once
// like any other (its constraint set and assembly branch are what the rows and the coordinate maps
// use); writeClusters, the last cluster pass, then writes the model's clusters once: an embedded
// group as one cluster, a kept group as its 1-DoF bodies plus a KeptLoopGroup holding the group
// (its rows K(q) q̈ = k(q, q̇), which the ConstraintModel adds in front of the user's constraints).
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

/// Groups above group k (its ancestors): the clusters a kept row travels through, counting each
/// group above as one (as embedded).
int clustersAbove(const CompilerState& s, int k) {
  int depth = 0;
  for (k = s.drafts[static_cast<size_t>(k)].cluster.parent; k >= 0; k = s.drafts[static_cast<size_t>(k)].cluster.parent)
    ++depth;
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
  const Cluster& cl = s.drafts[static_cast<size_t>(k)].cluster;
  const double n = cl.numBodies, m = cl.nvSpan - cl.nv;
  const bool implicit = !cl.joint->constraints().isStatic();
  const double embedExtra = implicit ? 19.0 * n * n * n + 470.0 * n * n : 21.5 * n * n * n + 362.0 * n * n - 12000.0 * m;
  return embedExtra > 400.0 * m * clustersAbove(s, k);
}

}  // namespace

void chooseLoopTreatment(CompilerState& s) {
  const LoopTreatment treatment = s.builder.loopTreatment();
  if (treatment == LoopTreatment::Embed) return;
  for (size_t k = 0; k < s.drafts.size(); ++k)
    if (s.drafts[k].cluster.numBodies >= 2)
      s.drafts[k].keepAsRows = treatment == LoopTreatment::Constrain || keepAsConstraint(s, static_cast<int>(k));
}

namespace {

/// Kept group g's KeptLoopGroup: its bodies, coordinates (numberCoordinates gave them all) and
/// the group itself, whose set gives the rows and whose joint completes positions.
KeptLoopGroup keptGroup(const Cluster& g) {
  KeptLoopGroup lc;
  lc.name = g.name;
  lc.firstBody = g.firstBody;
  lc.numBodies = g.numBodies;
  lc.qIndex = g.qIndex;
  lc.vIndex = g.vIndex;
  lc.numDof = g.nv;
  lc.numRows = g.nvSpan - g.nv;
  lc.dependent = g.joint->constraints().dependentCoordinates();
  lc.embedded = g;
  return lc;
}

/// Body b of a kept group as a cluster of its own (a 1-DoF joint hanging on its tree parent).
Cluster ownCluster(const Body& b, int bodyIndex, int qIndex, int vIndex) {
  Cluster one;
  one.name = b.jointName;
  one.firstBody = bodyIndex;
  one.output = b.parent;
  one.qSpanIndex = b.qIndex;
  one.vSpanIndex = b.vIndex;
  one.qIndex = qIndex;
  one.vIndex = vIndex;
  one.nq = one.nqSpan = b.joint.nq();
  one.nv = one.nvSpan = b.joint.nv();
  one.joint = std::make_shared<RevoluteJoint>(b);
  return one;
}

}  // namespace

void writeClusters(CompilerState& s) {
  ModelFields& m = s.m;
  std::vector<int> clusterOfGroup(s.drafts.size(), -1);
  for (size_t k = 0; k < s.drafts.size(); ++k) {
    const ClusterDraft& d = s.drafts[k];
    if (!d.keepAsRows) {
      clusterOfGroup[k] = static_cast<int>(m.clusters.size());
      m.clusters.push_back(d.cluster);
      continue;
    }
    const Cluster& g = d.cluster;
    for (int r = 0, q = g.qIndex, v = g.vIndex; r < g.numBodies; ++r) {
      Body& b = m.bodies[static_cast<size_t>(g.firstBody + r)];
      b.output = b.parent;
      m.clusters.push_back(ownCluster(b, g.firstBody + r, q, v));
      q += b.joint.nq();
      v += b.joint.nv();
    }
    m.keptLoopGroups.push_back(keptGroup(g));
  }
  // which cluster each body is in, then each cluster's parent (its output body's cluster) and
  // which bodies support clusters (written only here)
  for (size_t c = 0; c < m.clusters.size(); ++c)
    for (int r = 0; r < m.clusters[c].numBodies; ++r)
      m.bodies[static_cast<size_t>(m.clusters[c].firstBody + r)].cluster = static_cast<int>(c);
  for (Cluster& cl : m.clusters) {
    cl.parent = cl.output < 0 ? -1 : m.bodies[static_cast<size_t>(cl.output)].cluster;
    if (cl.output >= 0) m.bodies[static_cast<size_t>(cl.output)].supportsClusters = true;
  }
  for (KeptLoopGroup& lc : m.keptLoopGroups)
    lc.embedded.parent = lc.embedded.output < 0 ? -1 : m.bodies[static_cast<size_t>(lc.embedded.output)].cluster;
  // the loops and constraints listed with their group now name its cluster (-1: kept as rows)
  std::vector<LoopFrames> loops;
  for (LoopFrames lf : m.loops) {
    lf.cluster = clusterOfGroup[static_cast<size_t>(lf.cluster)];
    if (lf.cluster >= 0) loops.push_back(std::move(lf));
  }
  m.loops = std::move(loops);
  for (ConstraintListing& info : m.constraints)
    if (info.cluster >= 0) info.cluster = clusterOfGroup[static_cast<size_t>(info.cluster)];
}

}  // namespace grbda::detail
