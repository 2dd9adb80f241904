// Pass: each cluster's constraint set (spec §2.8, §3.5): coupling rows, loop closures and user
// constraints over its coordinates; the independent joints (as marked, or chosen for legacy
// files); redundant rows dropped by rank; the degrees of freedom checked against the marks.
#include <algorithm>

#include "cluster/constraint_rank.hpp"
#include "cluster/loop_closure.hpp"
#include "compiler.hpp"
#include "log.hpp"

namespace grbda::detail {

namespace {

/// Keeps only the rows `sel` chose: coupling rows, each implicit entry's rows (renumbered), and
/// the rows the cluster's loops report to the solvers that use them (`loopOfEntry`: index in
/// `loops` of each entry's LoopFrames, -1 for user constraints).
void keepRows(const RowSelection& sel, MatX& Kc, std::vector<ImplicitEntry>& implicit, std::vector<LoopFrames>& loops,
              const std::vector<int>& loopOfEntry) {
  MatX kept(static_cast<Eigen::Index>(sel.couplingRows.size()), Kc.cols());
  for (size_t r = 0; r < sel.couplingRows.size(); ++r) kept.row(static_cast<Eigen::Index>(r)) = Kc.row(sel.couplingRows[r]);
  Kc = kept;
  int row = static_cast<int>(Kc.rows());
  for (size_t e = 0; e < implicit.size(); ++e) {
    ImplicitEntry& entry = implicit[e];
    entry.keptRows = sel.implicitRows[e];
    entry.rowsSelected = static_cast<int>(entry.keptRows.size()) < entry.constraint->numRows();
    entry.row = row;
    row += entry.numRows();
    if (loopOfEntry[e] >= 0) {
      loops[static_cast<size_t>(loopOfEntry[e])].row = entry.row;
      loops[static_cast<size_t>(loopOfEntry[e])].numRows = entry.numRows();
    }
  }
}

/// Why the independent marks do not fit the cluster, and what to do: never a negative count.
std::string dofMismatchMessage(int marked, int dof, int coordinates, int rows, const std::vector<std::string>& joints) {
  const std::string counts = "its " + std::to_string(coordinates) + " joint coordinates (" + joinNames(joints) +
                             ") are tied by " + std::to_string(rows) + " independent constraint rows";
  if (dof <= 0)
    return "the cluster is over-constrained: " + counts + ", which leaves " +
           (dof == 0 ? std::string("no degree of freedom (a rigid structure)")
                     : std::to_string(-dof) + " more rows than coordinates") +
           "; remove the redundant loop or coupling, or replace the rigid part by a fixed joint";
  return std::to_string(marked) + " of its joints are marked independent, but " + counts + " and keep " +
         std::to_string(dof) + " degree" + (dof == 1 ? "" : "s") + " of freedom; mark exactly " + std::to_string(dof) +
         " of them independent (" + (marked > dof ? "mark " + std::to_string(marked - dof) + " more independent=\"false\""
                                                   : "mark " + std::to_string(dof - marked) + " more independent=\"true\"") +
         ")";
}

/// A cluster of one body: its joint is independent (a flag saying otherwise is an error, or a
/// warning when the file has no constraint at all: the Tello URDF, whose differentials are added
/// in code, marks joints for constraints stated elsewhere).
void singleBody(CompilerState& s, Cluster& cl) {
  Body& b = s.m.bodies[static_cast<size_t>(cl.firstBody)];
  const JointSpec* js = s.bodyJoint[static_cast<size_t>(cl.firstBody)];
  cl.name = b.jointName;
  if (!js->independent) {
    if (s.builder.loops().empty() && s.builder.couplings().empty() && s.builder.constraints().empty())
      log().warn("joint '{}' is marked independent=\"false\" but the model has no loop or coupling; treated as "
                 "independent",
                 b.jointName);
    else
      fail("the joint is marked independent=\"false\" but no loop, coupling or constraint involves it, so "
           "nothing determines it; remove the flag or add the constraint that drives it",
           js->where, "joint '" + b.jointName + "'");
  }
  b.independent = true;
  cl.nq = b.joint.nq();
  cl.nv = b.joint.nv();
}

/// Loop `rc`'s closure constraint over the cluster's bodies (new numbering), and its LoopFrames.
std::shared_ptr<LoopClosureConstraint> loopClosure(CompilerState& s, const ResolvedConstraint& rc, int k,
                                                  int implicitRow) {
  const LoopSpec& ls = s.builder.loops()[rc.spec];
  auto chainOf = [&](const std::vector<int>& oldChain) {
    std::vector<ChainJoint> chain;
    for (int ob : oldChain) {
      const Body& b = s.m.bodies[static_cast<size_t>(s.newIndex[static_cast<size_t>(ob)])];
      chain.push_back(ChainJoint{b.Xtree, b.joint});
    }
    return chain;
  };
  const LoopType type = ls.type == LoopKind::Fixed        ? LoopType::Fixed
                        : ls.type == LoopKind::Continuous ? LoopType::Continuous
                        : ls.type == LoopKind::Prismatic  ? LoopType::Prismatic
                        : ls.type == LoopKind::Planar     ? LoopType::Planar
                        : ls.type == LoopKind::Spherical  ? LoopType::Spherical
                        : ls.type == LoopKind::Universal  ? LoopType::Universal
                                                          : LoopType::Revolute;
  std::shared_ptr<LoopClosureConstraint> loop;
  try {
    loop = std::make_shared<LoopClosureConstraint>(chainOf(rc.predChain), rc.predOrigin, chainOf(rc.succChain),
                                                   rc.succOrigin, type, ls.axis, ls.axis2);
  } catch (const ModelError& err) {
    fail(err.message(), rc.where, "loop '" + rc.name + "'");
  }
  if (loop->nearRedundancy() > 0.0)
    log().warn("{}:{}: loop '{}': its joint and loop axes are parallel only to within about {:.1e} rad "
               "(accepted up to {:.0e}); treated as a planar loop",
               rc.where.file, rc.where.line, rc.name,
               loop->axisMisalignment() <= 10.0 * LoopClosureConstraint::kParallelTolerance
                   ? loop->axisMisalignment()
                   : loop->nearRedundancy(),  // axes not all meant to be parallel: the pivot ratio
               LoopClosureConstraint::kParallelTolerance);
  LoopFrames lf;  // kept for solvers that state the loop as unreduced point constraints
  lf.name = rc.name;
  lf.predecessorBody = rc.predBody < 0 ? -1 : s.newIndex[static_cast<size_t>(rc.predBody)];
  lf.successorBody = rc.succBody < 0 ? -1 : s.newIndex[static_cast<size_t>(rc.succBody)];
  lf.predecessorPlacement = rc.predOrigin;
  lf.successorPlacement = rc.succOrigin;
  lf.fixed = type == LoopType::Fixed;
  lf.axis = ls.axis.normalized();
  lf.type = ls.type;
  if (ls.type == LoopKind::Universal) lf.axis2 = ls.axis2.normalized();
  lf.cluster = k;
  lf.row = implicitRow;
  lf.numRows = loop->numRows();
  s.m.loops.push_back(std::move(lf));
  return loop;
}

/// No joint says independent="false" (legacy files): make each coupling's successor (the driven
/// rotor) dependent, as every transmission in the URDF+ files does. Returns the new count.
int markCoupledSuccessorsDependent(CompilerState& s, const Cluster& cl, const std::vector<size_t>& mine,
                                   std::vector<bool>& flags, const std::vector<std::string>& jointNames) {
  std::vector<std::string> chosen;
  for (size_t c : mine)
    if (s.constraints[c].kind == ResolvedConstraint::Coupling && !s.constraints[c].succChain.empty()) {
      const int b = s.newIndex[static_cast<size_t>(s.constraints[c].succChain.back())] - cl.firstBody;
      const JointSpec& js = *s.bodyJoint[static_cast<size_t>(cl.firstBody + b)];
      if (flags[static_cast<size_t>(b)] && js.independentGiven)
        fail("the joint is marked independent=\"true\", but coupling '" + s.constraints[c].name +
                 "' drives it from its predecessor, so cluster '" + cl.name +
                 "' has fewer degrees of freedom than independent joints; mark it independent=\"false\" "
                 "(or mark another joint of the cluster dependent)",
             js.where, "joint '" + js.name + "'");
      if (flags[static_cast<size_t>(b)]) {
        flags[static_cast<size_t>(b)] = false;
        s.m.bodies[static_cast<size_t>(cl.firstBody + b)].independent = false;
        chosen.push_back(jointNames[static_cast<size_t>(b)]);
      }
    }
  log().warn("cluster '{}': no joint is marked independent=\"false\"; made the coupled successor joints ({}) dependent",
             cl.name, joinNames(chosen));
  return static_cast<int>(std::count(flags.begin(), flags.end(), true));
}

/// The type name a cluster's user constraints agree on (empty when any constraint gives none
/// or they differ).
std::string agreedTypeHint(const CompilerState& s, const std::vector<size_t>& mine) {
  std::string typeHint;
  for (size_t c : mine) {
    const ResolvedConstraint& rc = s.constraints[c];
    const std::string hint = rc.kind == ResolvedConstraint::User ? s.builder.constraints()[rc.spec].typeHint : "";
    typeHint = c == mine.front() || hint == typeHint ? hint : "";
    if (typeHint.empty()) break;
  }
  return typeHint;
}

void constrainedCluster(CompilerState& s, size_t k) {
  Cluster& cl = s.drafts[k].cluster;
  const auto& mine = s.constraintsOfCluster[k];
  std::vector<std::string> names, jointNames;
  for (size_t c : mine) names.push_back(s.constraints[c].name);
  cl.name = joinNames(names);
  std::vector<bool> flags;
  for (int r = 0; r < cl.numBodies; ++r) {
    Body& b = s.m.bodies[static_cast<size_t>(cl.firstBody + r)];
    b.independent = s.bodyJoint[static_cast<size_t>(cl.firstBody + r)]->independent;
    flags.push_back(b.independent);
    jointNames.push_back(b.jointName);
  }
  const ResolvedConstraint& firstC = s.constraints[mine.front()];
  const std::string element = "cluster '" + cl.name + "'";
  auto local = [&](int newBody) { return newBody - cl.firstBody; };  // 1-DoF: body == coordinate
  // coupling rows (spec §2.8), then the implicit entries (loops, user constraints)
  int couplingRows = 0;
  for (size_t c : mine) couplingRows += s.constraints[c].kind == ResolvedConstraint::Coupling;
  MatX Kc = MatX::Zero(couplingRows, cl.nvSpan);
  std::vector<ImplicitEntry> implicit;
  std::vector<int> loopOfEntry;  // index in the model's loops of each implicit entry (-1: user constraint)
  int row = 0, implicitRow = couplingRows;
  for (size_t c : mine) {
    const ResolvedConstraint& rc = s.constraints[c];
    if (rc.kind == ResolvedConstraint::Coupling) {
      const double ratio = s.builder.couplings()[rc.spec].ratio;
      for (int b : s.toNew(rc.predChain)) Kc(row, local(b)) += ratio;
      for (int b : s.toNew(rc.succChain)) Kc(row, local(b)) -= 1.0;
      ++row;
      continue;
    }
    ImplicitEntry e;
    if (rc.kind == ResolvedConstraint::Loop) {
      loopOfEntry.push_back(static_cast<int>(s.m.loops.size()));
      e.constraint = loopClosure(s, rc, static_cast<int>(k), implicitRow);
      for (int b : s.toNew(rc.predChain)) e.columns.push_back(local(b));
      for (int b : s.toNew(rc.succChain)) e.columns.push_back(local(b));
    } else {
      loopOfEntry.push_back(-1);
      e.constraint = s.builder.constraints()[rc.spec].constraint;
      for (int b : s.toNew(rc.bodies)) e.columns.push_back(local(b));
    }
    e.row = implicitRow;
    implicitRow += e.constraint->numRows();
    implicit.push_back(std::move(e));
  }
  int nIndependent = static_cast<int>(std::count(flags.begin(), flags.end(), true));
  if (nIndependent == cl.nvSpan && implicitRow > 0 && implicitRow == couplingRows)
    nIndependent = markCoupledSuccessorsDependent(s, cl, mine, flags, jointNames);
  int independentRows = implicitRow;
  if (nIndependent != cl.nvSpan - independentRows) {
    // The rows as written do not fit the marks: count them by rank instead (consistent
    // redundancy is fine: a loop or coupling written twice, a pantograph).
    const RowSelection sel = selectIndependentRows(cl.nvSpan, Kc, implicit);
    if (sel.closed && sel.rank < implicitRow) {
      log().info("cluster '{}': {} of its {} constraint rows repeat others (redundant but consistent); using {}",
                 cl.name, implicitRow - sel.rank, implicitRow, sel.rank);
      keepRows(sel, Kc, implicit, s.m.loops, loopOfEntry);
      independentRows = sel.rank;
    }
  }
  const int dof = cl.nvSpan - independentRows;
  // dof == 0 with no joint marked: a rigid structure, not a mechanism (found by fuzz_urdf: a
  // coupling retargeted so that three rows tie three coordinates).
  if (nIndependent != dof || dof == 0)
    fail(dofMismatchMessage(nIndependent, dof, cl.nvSpan, independentRows, jointNames), firstC.where, element);
  ClusterDraft& draft = s.drafts[k];
  try {
    draft.set = ConstraintSet(cl.nvSpan, flags, Kc, std::move(implicit));
  } catch (const ModelError& err) {
    fail(err.message(), firstC.where, element);
  }
  if (draft.set.isStatic() && draft.set.staticG().size() == 0)
    fail("the couplings do not determine the dependent joints from the independent ones (singular); "
         "check which joints are marked independent",
         firstC.where, element);
  draft.typeHint = agreedTypeHint(s, mine);
  cl.nq = cl.nv = dof;
}

}  // namespace

void buildConstraintSets(CompilerState& s) {
  for (size_t k = 0; k < s.drafts.size(); ++k) {
    if (s.constraintsOfCluster[k].empty()) singleBody(s, s.drafts[k].cluster);
    else constrainedCluster(s, k);
  }
}

}  // namespace grbda::detail
