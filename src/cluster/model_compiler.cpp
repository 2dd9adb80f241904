#include "model_compiler.hpp"

#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <sstream>

#include "cluster_joint.hpp"
#include "constraint_rank.hpp"
#include "four_bar_joint.hpp"
#include "grbda/data.hpp"
#include "grbda/errors.hpp"
#include "log.hpp"
#include "loop_closure.hpp"
#include "static_joints.hpp"

namespace grbda::detail {

namespace {

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(static_cast<size_t>(n)) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) {
    while (parent[static_cast<size_t>(x)] != x) x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
    return x;
  }
  void unite(int a, int b) { parent[static_cast<size_t>(find(a))] = find(b); }
};

/// One constraint after its links were resolved to bodies (tree numbering).
struct ResolvedConstraint {
  enum Kind { Coupling, Loop, User } kind;
  size_t spec;                   ///< index into the builder's list of that kind
  std::string name;
  SourceLocation where;
  std::vector<int> predChain, succChain;  ///< bodies below the NCA, top-down (Coupling, Loop)
  Transform predOrigin, succOrigin;       ///< loop frames relative to the end bodies (Loop)
  std::vector<int> bodies;                ///< all bodies involved
  int predBody = -1, succBody = -1;       ///< end bodies of a loop (-1: ground)
};

[[noreturn]] void fail(const std::string& msg, const SourceLocation& at, const std::string& element) {
  throw ModelError(msg, at.file, at.line, element);
}

constexpr double kMaxCouplingRatio = 1e9;

std::string fmtNumber(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

class Compiler {
 public:
  Compiler(Model& m, const ModelBuilder& b, const std::map<std::string, size_t>& linkIndex,
           const std::vector<int>& linkBody, const std::vector<Transform>& linkPlacement,
           const std::vector<const JointSpec*>& bodyJoint)
      : model_(m), builder_(b), linkIndex_(linkIndex), linkBody_(linkBody), linkPlacement_(linkPlacement),
        bodyJoint_(bodyJoint) {}

  Model& model_;
  const ModelBuilder& builder_;
  const std::map<std::string, size_t>& linkIndex_;
  const std::vector<int>& linkBody_;
  const std::vector<Transform>& linkPlacement_;
  std::vector<const JointSpec*> bodyJoint_;

  int parentOf(int b) const { return model_.body(b).parent; }
  int depth(int b) const {
    int d = 0;
    for (; b >= 0; b = parentOf(b)) ++d;
    return d;
  }
  int nearestCommonAncestor(int a, int b) const {
    int da = depth(a), db = depth(b);
    while (a != b) {
      if (da >= db) a = parentOf(a), --da;
      else b = parentOf(b), --db;
    }
    return a;
  }
  /// Bodies from `top` (exclusive) down to `b`, top-down.
  std::vector<int> chainBelow(int b, int top) const {
    std::vector<int> chain;
    for (; b != top; b = parentOf(b)) chain.push_back(b);
    std::reverse(chain.begin(), chain.end());
    return chain;
  }

  int resolveLink(const std::string& link, const SourceLocation& at, const std::string& element,
                  const char* role) const {
    const auto it = linkIndex_.find(link);
    if (it == linkIndex_.end()) fail(std::string("unknown ") + role + " link '" + link + "'", at, element);
    return linkBody_[it->second];
  }

  void requireOneDof(const std::vector<int>& chain, const SourceLocation& at, const std::string& element) const {
    for (int b : chain)
      if (model_.body(b).joint.type == JointType::Free)
        fail("the constraint runs through floating joint '" + model_.body(b).jointName +
                 "'; constraints may only involve 1-DoF joints",
             at, element);
  }

  /// Constraint names identify clusters in messages: unique across loops, couplings and user constraints.
  void requireUniqueConstraintNames() const {
    std::map<std::string, std::string> seen;  // name -> element that used it first
    auto check = [&](const std::string& name, const std::string& element, const SourceLocation& at) {
      const auto [it, fresh] = seen.emplace(name, element);
      if (!fresh) fail("duplicate constraint name (already used by " + it->second + ")", at, element);
    };
    for (const auto& s : builder_.loops()) check(s.name, "loop '" + s.name + "'", s.where);
    for (const auto& s : builder_.couplings()) check(s.name, "coupling '" + s.name + "'", s.where);
    for (const auto& s : builder_.constraints()) check(s.name, "constraint '" + s.name + "'", s.where);
  }

  std::vector<ResolvedConstraint> resolve() const {
    requireUniqueConstraintNames();
    std::vector<ResolvedConstraint> out;
    const auto& couplings = builder_.couplings();
    for (size_t c = 0; c < couplings.size(); ++c) {
      const CouplingSpec& s = couplings[c];
      const std::string el = "coupling '" + s.name + "'";
      if (!std::isfinite(s.ratio) || s.ratio == 0.0)
        fail("ratio must be finite and non-zero (got " + std::to_string(s.ratio) + ")", s.where, el);
      // Beyond these magnitudes the explicit form G = -K_d^-1 K_i loses every digit (a relative
      // pivot below 1e-10): say so instead of calling the coupling singular.
      if (std::abs(s.ratio) >= kMaxCouplingRatio || std::abs(s.ratio) <= 1.0 / kMaxCouplingRatio)
        fail("ratio " + fmtNumber(s.ratio) + " is outside the range grbda can represent (1e-9 ... 1e9 in magnitude)",
             s.where, el);
      const int P = resolveLink(s.predecessor, s.where, el, "predecessor");
      const int S = resolveLink(s.successor, s.where, el, "successor");
      for (const auto& [link, b] : {std::pair{s.predecessor, P}, std::pair{s.successor, S}})
        if (b < 0 || model_.body(b).name != link)
          fail("link '" + link + "' is attached by a fixed joint (or is the root); a coupling relates joint coordinates",
               s.where, el);
      if (P == S) fail("predecessor and successor are the same link '" + s.successor + "'", s.where, el);
      ResolvedConstraint r{ResolvedConstraint::Coupling, c, s.name, s.where, {}, {}, {}, {}, {}};
      const int top = nearestCommonAncestor(P, S);
      r.predChain = chainBelow(P, top);
      r.succChain = chainBelow(S, top);
      requireOneDof(r.predChain, s.where, el);
      requireOneDof(r.succChain, s.where, el);
      out.push_back(std::move(r));
    }
    const auto& loops = builder_.loops();
    for (size_t l = 0; l < loops.size(); ++l) {
      const LoopSpec& s = loops[l];
      const std::string el = "loop '" + s.name + "'";
      if (s.type == LoopKind::Prismatic || s.type == LoopKind::Planar)
        fail("loop type is not supported yet (supported: revolute, continuous, fixed)", s.where, el);
      if (!s.axis.allFinite() || s.axis.norm() < 1e-9) fail("loop axis is zero or not finite", s.where, el);
      if (!s.predecessorOrigin.r.allFinite() || !s.predecessorOrigin.E.allFinite() ||
          !s.successorOrigin.r.allFinite() || !s.successorOrigin.E.allFinite())
        fail("loop origin is not finite", s.where, el);
      const int P = resolveLink(s.predecessor, s.where, el, "predecessor");
      const int S = resolveLink(s.successor, s.where, el, "successor");
      if (P == S) fail("predecessor and successor are rigidly connected; the loop constrains nothing", s.where, el);
      ResolvedConstraint r{ResolvedConstraint::Loop, l, s.name, s.where, {}, {}, {}, {}, {}};
      const int top = nearestCommonAncestor(P, S);
      r.predChain = chainBelow(P, top);
      r.succChain = chainBelow(S, top);
      requireOneDof(r.predChain, s.where, el);
      requireOneDof(r.succChain, s.where, el);
      r.predBody = P;
      r.succBody = S;
      r.predOrigin = s.predecessorOrigin * linkPlacement_[linkIndex_.at(s.predecessor)];
      r.succOrigin = s.successorOrigin * linkPlacement_[linkIndex_.at(s.successor)];
      out.push_back(std::move(r));
    }
    const auto& users = builder_.constraints();
    for (size_t u = 0; u < users.size(); ++u) {
      const ConstraintSpec& s = users[u];
      const std::string el = "constraint '" + s.name + "'";
      if (!s.constraint) fail("no constraint function given", s.where, el);
      if (s.constraint->numCoordinates() != static_cast<int>(s.joints.size()))
        fail("the constraint function takes " + std::to_string(s.constraint->numCoordinates()) +
                 " coordinates but " + std::to_string(s.joints.size()) + " joints are named",
             s.where, el);
      ResolvedConstraint r{ResolvedConstraint::User, u, s.name, s.where, {}, {}, {}, {}, {}};
      for (const auto& jn : s.joints) {
        int found = -1;
        for (int b = 0; b < model_.numBodies(); ++b)
          if (model_.body(b).jointName == jn) found = b;
        if (found < 0) fail("unknown or fixed joint '" + jn + "'", s.where, el);
        requireOneDof({found}, s.where, el);
        r.bodies.push_back(found);
      }
      out.push_back(std::move(r));
    }
    for (auto& r : out)
      if (r.kind != ResolvedConstraint::User) {
        r.bodies = r.predChain;
        r.bodies.insert(r.bodies.end(), r.succChain.begin(), r.succChain.end());
      }
    return out;
  }
};

/// The fast specialised joint for a recognised sub-mechanism (spec §3.6 [INF], §5.4-5.7), else
/// Generic (always Generic when the builder says so). Transmissions: every independent link forms
/// a serial chain hanging from the output body, every dependent body (rotor) hangs from the output
/// body directly. Four-bars: see recogniseFourBar (exactly planar, one revolute loop, 1 DoF).
std::shared_ptr<const ClusterJoint> specialisedJoint(const Model& model, const Cluster& cl, ConstraintSet set,
                                                     const std::string& typeHint, bool allowSpecialised) {
  if (!allowSpecialised || !typeHint.empty())
    return std::make_shared<GenericJoint>(std::move(set), typeHint.empty() ? std::string("Generic") : typeHint);
  if (auto fourBar = recogniseFourBar(model, cl, set)) return fourBar;
  if (set.isStatic()) {
    const int n = cl.numBodies, d = set.numIndependent();
    bool transmission = 2 * d == n;
    int previousLink = -1;
    for (int r = 0; r < n && transmission; ++r) {
      const Body& b = model.body(cl.firstBody + r);
      const bool parentOutside = b.parent < cl.firstBody;
      if (!b.independent) {
        transmission = parentOutside;
      } else {
        transmission = previousLink < 0 ? parentOutside : b.parent == previousLink;
        previousLink = cl.firstBody + r;
      }
    }
    if (transmission && d == 1)
      return std::make_shared<StaticClusterJoint<2, 1>>("RevoluteWithRotor", std::move(set), model, cl.firstBody);
    if (transmission && d == 2)
      return std::make_shared<StaticClusterJoint<4, 2>>("RevolutePairWithRotor", std::move(set), model, cl.firstBody);
    if (transmission && d == 3)
      return std::make_shared<StaticClusterJoint<6, 3>>("RevoluteTripleWithRotor", std::move(set), model,
                                                        cl.firstBody);
  }
  return std::make_shared<GenericJoint>(std::move(set), typeHint.empty() ? std::string("Generic") : typeHint);
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

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

}  // namespace

void appendCoordinateNames(const Body& b, std::vector<std::string>& positions, std::vector<std::string>& velocities) {
  if (b.joint.type == JointType::Free) {
    for (const char* s : {"x", "y", "z", "qw", "qx", "qy", "qz"}) positions.push_back(b.jointName + ":" + s);
    for (const char* s : {"wx", "wy", "wz", "vx", "vy", "vz"}) velocities.push_back(b.jointName + ":" + s);
  } else {
    positions.push_back(b.jointName);
    velocities.push_back(b.jointName);
  }
}

void ModelCompiler::formClusters(Model& model, const ModelBuilder& builder,
                                 const std::map<std::string, size_t>& linkIndex, const std::vector<int>& linkBody,
                                 const std::vector<Transform>& linkPlacement,
                                 const std::vector<const JointSpec*>& bodyJoint) {
  Compiler cc(model, builder, linkIndex, linkBody, linkPlacement, bodyJoint);
  const int nb = model.numBodies();
  const std::vector<ResolvedConstraint> constraints = cc.resolve();

  // --- group bodies (spec §3.2, union-find form) ---
  UnionFind uf(nb);
  for (const auto& c : constraints)
    for (size_t i = 1; i < c.bodies.size(); ++i) uf.unite(c.bodies[0], c.bodies[i]);
  std::map<int, std::vector<int>> groups;  // root -> bodies (ascending tree index)
  for (int b = 0; b < nb; ++b) groups[uf.find(b)].push_back(b);
  std::vector<std::vector<int>> clusters;
  for (auto& [root, members] : groups) clusters.push_back(members);
  // regular cluster order: by smallest member (its parent lies in the parent cluster, §3.3)
  std::sort(clusters.begin(), clusters.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  std::vector<int> clusterOfBody(static_cast<size_t>(nb));
  for (size_t k = 0; k < clusters.size(); ++k)
    for (int b : clusters[k]) clusterOfBody[static_cast<size_t>(b)] = static_cast<int>(k);
  std::vector<std::vector<size_t>> constraintsOfCluster(clusters.size());
  for (size_t c = 0; c < constraints.size(); ++c)
    if (!constraints[c].bodies.empty())
      constraintsOfCluster[static_cast<size_t>(clusterOfBody[static_cast<size_t>(constraints[c].bodies[0])])].push_back(c);

  // --- validity (spec §3.4) and output bodies ---
  std::vector<int> outputOld(clusters.size(), -1);
  for (size_t k = 0; k < clusters.size(); ++k) {
    std::set<int> outside;
    for (int b : clusters[k]) {
      const int p = model.body(b).parent;
      if (p < 0 || clusterOfBody[static_cast<size_t>(p)] != static_cast<int>(k)) outside.insert(p);
    }
    if (outside.size() > 1) {
      const auto& c = constraints[constraintsOfCluster[k].front()];
      std::vector<std::string> names;
      for (int p : outside) names.push_back(p < 0 ? std::string("the ground") : "'" + model.body(p).name + "'");
      fail("the constrained bodies hang from several bodies (" + joinNames(names) +
               "); a cluster must attach to a single output body (several output bodies are not supported yet)",
           c.where, (c.kind == ResolvedConstraint::Loop ? "loop '" : c.kind == ResolvedConstraint::Coupling ? "coupling '" : "constraint '") + c.name + "'");
    }
    outputOld[k] = *outside.begin();
    if (clusters[k].size() > 1)
      for (int b : clusters[k])
        if (model.body(b).joint.type == JointType::Free) {
          const auto& c = constraints[constraintsOfCluster[k].front()];
          fail("floating joint '" + model.body(b).jointName + "' cannot be part of a constrained cluster", c.where,
               "'" + c.name + "'");
        }
  }

  // --- renumber bodies: clusters contiguous, parents first ---
  std::vector<int> newIndex(static_cast<size_t>(nb));
  std::vector<int> oldOfNew;
  for (const auto& members : clusters)
    for (int b : members) {
      newIndex[static_cast<size_t>(b)] = static_cast<int>(oldOfNew.size());
      oldOfNew.push_back(b);
    }
  std::vector<Body> bodies;
  std::vector<const JointSpec*> joints;
  for (int old : oldOfNew) {
    Body b = model.bodies_[static_cast<size_t>(old)];
    if (b.parent >= 0) b.parent = newIndex[static_cast<size_t>(b.parent)];
    bodies.push_back(std::move(b));
    joints.push_back(bodyJoint[static_cast<size_t>(old)]);
  }
  model.bodies_ = std::move(bodies);
  for (auto& f : model.frames_)
    if (f.body >= 0) f.body = newIndex[static_cast<size_t>(f.body)];
  auto toNew = [&](std::vector<int> v) {
    for (int& b : v) b = newIndex[static_cast<size_t>(b)];
    return v;
  };

  // --- spanning coordinates ---
  model.spanningPositionNames_.clear();
  model.spanningVelocityNames_.clear();
  model.nqSpan_ = model.nvSpan_ = 0;
  for (auto& b : model.bodies_) {
    b.qIndex = model.nqSpan_;
    b.vIndex = model.nvSpan_;
    model.nqSpan_ += b.joint.nq();
    model.nvSpan_ += b.joint.nv();
    appendCoordinateNames(b, model.spanningPositionNames_, model.spanningVelocityNames_);
  }

  // --- clusters: constraint sets, joint types, independent coordinates ---
  model.clusters_.clear();
  model.loops_.clear();
  model.positionNames_.clear();
  model.velocityNames_.clear();
  model.nq_ = model.nv_ = 0;
  int first = 0;
  for (size_t k = 0; k < clusters.size(); ++k) {
    Cluster cl;
    cl.firstBody = first;
    cl.numBodies = static_cast<int>(clusters[k].size());
    first += cl.numBodies;
    cl.output = outputOld[k] < 0 ? -1 : newIndex[static_cast<size_t>(outputOld[k])];
    cl.parent = cl.output < 0 ? -1 : model.bodies_[static_cast<size_t>(cl.output)].cluster;
    if (cl.output >= 0) model.bodies_[static_cast<size_t>(cl.output)].supportsClusters = true;
    const Body& b0 = model.bodies_[static_cast<size_t>(cl.firstBody)];
    cl.qSpanIndex = b0.qIndex;
    cl.vSpanIndex = b0.vIndex;
    for (int r = 0; r < cl.numBodies; ++r) {
      Body& b = model.bodies_[static_cast<size_t>(cl.firstBody + r)];
      b.cluster = static_cast<int>(k);
      b.output = cl.output;
      cl.nqSpan += b.joint.nq();
      cl.nvSpan += b.joint.nv();
    }
    const auto& mine = constraintsOfCluster[k];
    if (mine.empty()) {  // a single body
      Body& b = model.bodies_[static_cast<size_t>(cl.firstBody)];
      const JointSpec* js = joints[static_cast<size_t>(cl.firstBody)];
      cl.name = b.jointName;
      if (!js->independent) {
        // A file without any constraint element (the Tello URDF, whose differentials are added in
        // code) marks joints for constraints stated elsewhere: warn. Otherwise the flag contradicts
        // the model the author wrote.
        if (builder.loops().empty() && builder.couplings().empty() && builder.constraints().empty())
          log().warn("joint '{}' is marked independent=\"false\" but the model has no loop or coupling; treated as "
                     "independent",
                     b.jointName);
        else
          fail("the joint is marked independent=\"false\" but no loop, coupling or constraint involves it, so "
               "nothing determines it; remove the flag or add the constraint that drives it",
               js->where, "joint '" + b.jointName + "'");
      }
      b.independent = true;
      if (b.joint.type == JointType::Free) cl.joint = std::make_shared<FreeJoint>();
      else cl.joint = std::make_shared<RevoluteJoint>(b);
      cl.nq = b.joint.nq();
      cl.nv = b.joint.nv();
    } else {
      std::vector<std::string> names, jointNames;
      for (size_t c : mine) names.push_back(constraints[c].name);
      cl.name = joinNames(names);
      std::vector<bool> flags;
      for (int r = 0; r < cl.numBodies; ++r) {
        Body& b = model.bodies_[static_cast<size_t>(cl.firstBody + r)];
        b.independent = joints[static_cast<size_t>(cl.firstBody + r)]->independent;
        flags.push_back(b.independent);
        jointNames.push_back(b.jointName);
      }
      const ResolvedConstraint& firstC = constraints[mine.front()];
      const std::string element = "cluster '" + cl.name + "'";
      auto local = [&](int newBody) { return newBody - cl.firstBody; };  // 1-DoF: body == coordinate
      // coupling rows (spec §2.8)
      int couplingRows = 0;
      for (size_t c : mine) couplingRows += constraints[c].kind == ResolvedConstraint::Coupling;
      MatX Kc = MatX::Zero(couplingRows, cl.nvSpan);
      std::vector<ImplicitEntry> implicit;
      std::vector<int> loopOfEntry;  // index in model.loops_ of each implicit entry (-1: user constraint)
      int row = 0, implicitRow = couplingRows;
      for (size_t c : mine) {
        const ResolvedConstraint& rc = constraints[c];
        if (rc.kind == ResolvedConstraint::Coupling) {
          const double ratio = builder.couplings()[rc.spec].ratio;
          for (int b : toNew(rc.predChain)) Kc(row, local(b)) += ratio;
          for (int b : toNew(rc.succChain)) Kc(row, local(b)) -= 1.0;
          ++row;
          continue;
        }
        ImplicitEntry e;
        if (rc.kind == ResolvedConstraint::Loop) {
          const LoopSpec& ls = builder.loops()[rc.spec];
          auto chainOf = [&](const std::vector<int>& oldChain) {
            std::vector<ChainJoint> chain;
            for (int ob : oldChain) {
              const Body& b = model.bodies_[static_cast<size_t>(newIndex[static_cast<size_t>(ob)])];
              chain.push_back(ChainJoint{b.Xtree, b.joint});
            }
            return chain;
          };
          const LoopType type = ls.type == LoopKind::Fixed ? LoopType::Fixed
                                : ls.type == LoopKind::Continuous ? LoopType::Continuous
                                                                  : LoopType::Revolute;
          std::shared_ptr<LoopClosureConstraint> loop;
          try {
            loop = std::make_shared<LoopClosureConstraint>(chainOf(rc.predChain), rc.predOrigin, chainOf(rc.succChain),
                                                           rc.succOrigin, type, ls.axis);
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
          e.constraint = loop;
          for (int b : toNew(rc.predChain)) e.columns.push_back(local(b));
          for (int b : toNew(rc.succChain)) e.columns.push_back(local(b));
          LoopFrames lf;  // kept for solvers that state the loop as unreduced point constraints
          lf.name = rc.name;
          lf.predecessorBody = rc.predBody < 0 ? -1 : newIndex[static_cast<size_t>(rc.predBody)];
          lf.successorBody = rc.succBody < 0 ? -1 : newIndex[static_cast<size_t>(rc.succBody)];
          lf.predecessorPlacement = rc.predOrigin;
          lf.successorPlacement = rc.succOrigin;
          lf.fixed = type == LoopType::Fixed;
          lf.axis = ls.axis.normalized();
          lf.cluster = static_cast<int>(k);
          lf.row = implicitRow;
          lf.numRows = e.constraint->numRows();
          loopOfEntry.push_back(static_cast<int>(model.loops_.size()));
          model.loops_.push_back(std::move(lf));
        } else {
          loopOfEntry.push_back(-1);
          e.constraint = builder.constraints()[rc.spec].constraint;
          for (int b : toNew(rc.bodies)) e.columns.push_back(local(b));
        }
        e.row = implicitRow;
        implicitRow += e.constraint->numRows();
        implicit.push_back(std::move(e));
      }
      int nIndependent = static_cast<int>(std::count(flags.begin(), flags.end(), true));
      if (nIndependent == cl.nvSpan && implicitRow > 0 && implicitRow == couplingRows) {
        // No joint says independent="false" (legacy files): make each coupling's successor (the
        // driven rotor) dependent, as every transmission in the URDF+ files does.
        std::vector<std::string> chosen;
        for (size_t c : mine)
          if (constraints[c].kind == ResolvedConstraint::Coupling && !constraints[c].succChain.empty()) {
            const int b = local(newIndex[static_cast<size_t>(constraints[c].succChain.back())]);
            const JointSpec& js = *joints[static_cast<size_t>(cl.firstBody + b)];
            if (flags[static_cast<size_t>(b)] && js.independentGiven)
              fail("the joint is marked independent=\"true\", but coupling '" + constraints[c].name +
                       "' drives it from its predecessor, so cluster '" + cl.name +
                       "' has fewer degrees of freedom than independent joints; mark it independent=\"false\" "
                       "(or mark another joint of the cluster dependent)",
                   js.where, "joint '" + js.name + "'");
            if (flags[static_cast<size_t>(b)]) {
              flags[static_cast<size_t>(b)] = false;
              model.bodies_[static_cast<size_t>(cl.firstBody + b)].independent = false;
              chosen.push_back(jointNames[static_cast<size_t>(b)]);
            }
          }
        nIndependent = static_cast<int>(std::count(flags.begin(), flags.end(), true));
        log().warn("cluster '{}': no joint is marked independent=\"false\"; made the coupled successor joints ({}) dependent",
                   cl.name, joinNames(chosen));
      }
      int independentRows = implicitRow;
      if (nIndependent != cl.nvSpan - independentRows) {
        // The rows as written do not fit the marks: count them by rank instead (consistent
        // redundancy is fine: a loop or coupling written twice, a pantograph).
        const RowSelection sel = selectIndependentRows(cl.nvSpan, Kc, implicit);
        if (sel.closed && sel.rank < implicitRow) {
          log().info("cluster '{}': {} of its {} constraint rows repeat others (redundant but consistent); using {}",
                     cl.name, implicitRow - sel.rank, implicitRow, sel.rank);
          keepRows(sel, Kc, implicit, model.loops_, loopOfEntry);
          independentRows = sel.rank;
        }
      }
      const int dof = cl.nvSpan - independentRows;
      // dof == 0 with no joint marked: a rigid structure, not a mechanism (found by fuzz_urdf: a
      // coupling retargeted so that three rows tie three coordinates).
      if (nIndependent != dof || dof == 0)
        fail(dofMismatchMessage(nIndependent, dof, cl.nvSpan, independentRows, jointNames), firstC.where, element);
      ConstraintSet set;
      try {
        set = ConstraintSet(cl.nvSpan, flags, Kc, std::move(implicit));
      } catch (const ModelError& err) {
        fail(err.message(), firstC.where, element);
      }
      if (set.isStatic() && set.staticG().size() == 0)
        fail("the couplings do not determine the dependent joints from the independent ones (singular); "
             "check which joints are marked independent",
             firstC.where, element);
      // a type hint names the cluster when all its constraints are user constraints agreeing on it
      std::string typeHint;
      for (size_t c : mine) {
        const ResolvedConstraint& rc = constraints[c];
        const std::string hint = rc.kind == ResolvedConstraint::User ? builder.constraints()[rc.spec].typeHint : "";
        typeHint = c == mine.front() || hint == typeHint ? hint : "";
        if (typeHint.empty()) break;
      }
      cl.joint = specialisedJoint(model, cl, std::move(set), typeHint, builder.specialisedJoints());
      cl.nq = cl.nv = dof;
    }
    // independent coordinates and their names
    cl.qIndex = model.nq_;
    cl.vIndex = model.nv_;
    model.nq_ += cl.nq;
    model.nv_ += cl.nv;
    for (int r = 0; r < cl.numBodies; ++r) {
      const Body& b = model.bodies_[static_cast<size_t>(cl.firstBody + r)];
      if (b.independent) appendCoordinateNames(b, model.positionNames_, model.velocityNames_);
    }
    model.clusters_.push_back(std::move(cl));
  }

  // --- the constraints as written, for listing (grbda info) ---
  model.constraints_.clear();
  for (const ResolvedConstraint& c : constraints) {
    if (c.bodies.empty()) continue;
    auto jointsOf = [&](const std::vector<int>& oldBodies, const char* separator) {
      std::string s;
      for (int b : oldBodies) s += (s.empty() ? "" : separator) + model.body(newIndex[static_cast<size_t>(b)]).jointName;
      return s;
    };
    ConstraintInfo info;
    info.name = c.name;
    info.cluster = clusterOfBody[static_cast<size_t>(c.bodies.front())];
    if (c.kind == ResolvedConstraint::Coupling) {
      info.kind = "coupling";
      info.description = jointsOf(c.succChain, " + ") + " = " + fmtNumber(builder.couplings()[c.spec].ratio) + " * (" +
                         jointsOf(c.predChain, " + ") + ")";
    } else if (c.kind == ResolvedConstraint::Loop) {
      const LoopSpec& ls = builder.loops()[c.spec];
      info.kind = "loop";
      info.description = std::string(ls.type == LoopKind::Fixed ? "fixed" : "revolute") + " loop " + ls.predecessor +
                         " -- " + ls.successor + " (joints " + jointsOf(c.bodies, ", ") + ")";
    } else {
      info.kind = "constraint";
      const std::string& given = builder.constraints()[c.spec].description;  // e.g. a <mimic>'s equation
      info.description = (given.empty() ? std::string() : given + " (") + "implicit constraint over joints " +
                         jointsOf(c.bodies, ", ") + (given.empty() ? "" : ")");
    }
    model.constraints_.push_back(std::move(info));
  }

  // --- loops that cannot close are model errors, found once here (MuJoCo-style compile) ---
  // The first closed pose found (the file's zero pose when it closes) is the model's neutral
  // configuration, so that neutralConfiguration() is a state every algorithm accepts.
  Data data(model);
  VecX neutral = model.neutralConfiguration();
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    if (cl.joint->constraints().isStatic()) continue;
    ClusterData& cd = data.clusters[static_cast<size_t>(k)];
    bool closed = false;
    double* qs = data.qSpan.data() + cl.qSpanIndex;
    bool closedSingular = false;
    std::string filePoseRank;  // "rank r of n" of K_d when the file's zero pose closes singular
    for (double y0 : {0.0, 0.3, -0.3, 1.0}) {
      VecX y = VecX::Constant(cl.nq, y0);
      if (!cl.joint->completePositions(cl, y.data(), qs, cd)) continue;
      if (!cl.joint->isRegular(qs, cd)) {  // closed, but at a singular pose: its branch is ambiguous
        closedSingular = true;
        if (y0 == 0.0) {
          const auto& dep = cl.joint->constraints().dependentCoordinates();
          MatX Kd(cd.K.rows(), static_cast<Eigen::Index>(dep.size()));
          for (size_t j = 0; j < dep.size(); ++j) Kd.col(static_cast<Eigen::Index>(j)) = cd.K.col(dep[j]);
          Eigen::ColPivHouseholderQR<MatX> qr(Kd);
          qr.setThreshold(1e-10 * std::max(1.0, Kd.cwiseAbs().maxCoeff()) / std::max(1e-300, qr.maxPivot()));
          filePoseRank = "; at the file's own pose (independent joints 0) the loops close, but the dependent "
                         "joints' constraint Jacobian has rank " + std::to_string(qr.rank()) + " of " +
                         std::to_string(dep.size());
        }
        continue;
      }
      neutral.segment(cl.qIndex, cl.nq) = y;
      closed = true;
      break;
    }
    if (!closed) {
      const auto& c = constraints[constraintsOfCluster[static_cast<size_t>(k)].front()];
      if (closedSingular)
        fail("the loops close, but at every pose tried the independent joints cannot drive the cluster (the "
             "constraint Jacobian of the dependent joints is singular there" + filePoseRank +
                 "); mark other joints independent",
             c.where, "cluster '" + cl.name + "'");
      fail("the loop cannot be closed: no configuration satisfying the constraints was found (link lengths or "
           "loop frames inconsistent?)",
           c.where, "cluster '" + cl.name + "'");
    }
    // This closed pose fixes the cluster's assembly mode: every later completion follows its
    // branch (the joint was made by this compiler and is not shared yet).
    const std::vector<bool> revolute = periodicCoordinates(model, cl);
    const_cast<ClusterJoint&>(*cl.joint).setReference(Eigen::Map<const VecX>(qs, cl.nqSpan), std::move(revolute));
  }
  model.neutral_ = neutral;
  keepLoopsAsConstraints(model, builder.loopTreatment(), data.qSpan);
}

}  // namespace grbda::detail
