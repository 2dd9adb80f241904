// Pass: every coupling, loop and user constraint checked on its own and resolved from link and
// joint names to bodies of the spanning tree (tree numbering): the chains below the nearest
// common ancestor of its two ends.
#include <algorithm>
#include <cmath>

#include "compiler.hpp"

namespace grbda::detail {

namespace {

constexpr double kMaxCouplingRatio = 1e9;

struct Tree {
  const Model& model;
  int parentOf(int b) const { return model.body(b).parent; }
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
  /// The chains from the NCA of P and S down to each.
  void chains(int P, int S, ResolvedConstraint& r) const {
    const int top = nearestCommonAncestor(P, S);
    r.predChain = chainBelow(P, top);
    r.succChain = chainBelow(S, top);
  }
};

int resolveLink(const CompilerState& s, const std::string& link, const SourceLocation& at, const std::string& element,
                const char* role) {
  const auto it = s.linkIndex.find(link);
  if (it == s.linkIndex.end()) fail(std::string("unknown ") + role + " link '" + link + "'", at, element);
  return s.linkBody[it->second];
}

void requireOneDof(const Model& model, const std::vector<int>& chain, const SourceLocation& at,
                   const std::string& element) {
  for (int b : chain)
    if (model.body(b).joint.hasQuaternion())
      fail(std::string("the constraint runs through ") +
               (model.body(b).joint.type == JointType::Free ? "floating" : "spherical") + " joint '" +
               model.body(b).jointName +
               "'; constraints may only involve 1-DoF joints",
           at, element);
}

/// Constraint names identify clusters in messages: unique across loops, couplings and user constraints.
void requireUniqueConstraintNames(const ModelBuilder& builder) {
  std::map<std::string, std::string> seen;  // name -> element that used it first
  auto check = [&](const std::string& name, const std::string& element, const SourceLocation& at) {
    const auto [it, fresh] = seen.emplace(name, element);
    if (!fresh) fail("duplicate constraint name (already used by " + it->second + ")", at, element);
  };
  for (const auto& l : builder.loops()) check(l.name, "loop '" + l.name + "'", l.where);
  for (const auto& c : builder.couplings()) check(c.name, "coupling '" + c.name + "'", c.where);
  for (const auto& c : builder.constraints()) check(c.name, "constraint '" + c.name + "'", c.where);
}

ResolvedConstraint resolveCoupling(const CompilerState& s, size_t c) {
  const CouplingSpec& spec = s.builder.couplings()[c];
  const std::string el = "coupling '" + spec.name + "'";
  if (!std::isfinite(spec.ratio) || spec.ratio == 0.0)
    fail("ratio must be finite and non-zero (got " + std::to_string(spec.ratio) + ")", spec.where, el);
  // Beyond these magnitudes the explicit form G = -K_d^-1 K_i loses every digit (a relative
  // pivot below 1e-10): say so instead of calling the coupling singular.
  if (std::abs(spec.ratio) >= kMaxCouplingRatio || std::abs(spec.ratio) <= 1.0 / kMaxCouplingRatio)
    fail("ratio " + fmtNumber(spec.ratio) + " is outside the range grbda can represent (1e-9 ... 1e9 in magnitude)",
         spec.where, el);
  const int P = resolveLink(s, spec.predecessor, spec.where, el, "predecessor");
  const int S = resolveLink(s, spec.successor, spec.where, el, "successor");
  for (const auto& [link, b] : {std::pair{spec.predecessor, P}, std::pair{spec.successor, S}})
    if (b < 0 || s.model.body(b).name != link)
      fail("link '" + link + "' is attached by a fixed joint (or is the root); a coupling relates joint coordinates",
           spec.where, el);
  if (P == S) fail("predecessor and successor are the same link '" + spec.successor + "'", spec.where, el);
  ResolvedConstraint r{ResolvedConstraint::Coupling, c, spec.name, spec.where, {}, {}, {}, {}, {}};
  Tree{s.model}.chains(P, S, r);
  requireOneDof(s.model, r.predChain, spec.where, el);
  requireOneDof(s.model, r.succChain, spec.where, el);
  return r;
}

ResolvedConstraint resolveLoop(const CompilerState& s, size_t l) {
  const LoopSpec& spec = s.builder.loops()[l];
  const std::string el = "loop '" + spec.name + "'";
  if (!spec.axis.allFinite() || spec.axis.norm() < 1e-9) fail("loop axis is zero or not finite", spec.where, el);
  if (spec.type == LoopKind::Universal && (!spec.axis2.allFinite() || spec.axis2.norm() < 1e-9))
    fail("loop axis2 (the successor's axis of a universal loop) is zero, missing or not finite", spec.where, el);
  if (!spec.predecessorOrigin.r.allFinite() || !spec.predecessorOrigin.E.allFinite() ||
      !spec.successorOrigin.r.allFinite() || !spec.successorOrigin.E.allFinite())
    fail("loop origin is not finite", spec.where, el);
  const int P = resolveLink(s, spec.predecessor, spec.where, el, "predecessor");
  const int S = resolveLink(s, spec.successor, spec.where, el, "successor");
  if (P == S) fail("predecessor and successor are rigidly connected; the loop constrains nothing", spec.where, el);
  ResolvedConstraint r{ResolvedConstraint::Loop, l, spec.name, spec.where, {}, {}, {}, {}, {}};
  Tree{s.model}.chains(P, S, r);
  requireOneDof(s.model, r.predChain, spec.where, el);
  requireOneDof(s.model, r.succChain, spec.where, el);
  r.predBody = P;
  r.succBody = S;
  r.predOrigin = spec.predecessorOrigin * s.linkPlacement[s.linkIndex.at(spec.predecessor)];
  r.succOrigin = spec.successorOrigin * s.linkPlacement[s.linkIndex.at(spec.successor)];
  return r;
}

ResolvedConstraint resolveUser(const CompilerState& s, size_t u) {
  const ConstraintSpec& spec = s.builder.constraints()[u];
  const std::string el = "constraint '" + spec.name + "'";
  if (!spec.constraint) fail("no constraint function given", spec.where, el);
  if (spec.constraint->numCoordinates() != static_cast<int>(spec.joints.size()))
    fail("the constraint function takes " + std::to_string(spec.constraint->numCoordinates()) +
             " coordinates but " + std::to_string(spec.joints.size()) + " joints are named",
         spec.where, el);
  ResolvedConstraint r{ResolvedConstraint::User, u, spec.name, spec.where, {}, {}, {}, {}, {}};
  for (const auto& jn : spec.joints) {
    int found = -1;
    for (int b = 0; b < s.model.numBodies(); ++b)
      if (s.model.body(b).jointName == jn) found = b;
    if (found < 0) fail("unknown or fixed joint '" + jn + "'", spec.where, el);
    requireOneDof(s.model, {found}, spec.where, el);
    r.bodies.push_back(found);
  }
  return r;
}

}  // namespace

void resolveConstraints(CompilerState& s) {
  requireUniqueConstraintNames(s.builder);
  auto& out = s.constraints;
  for (size_t c = 0; c < s.builder.couplings().size(); ++c) out.push_back(resolveCoupling(s, c));
  for (size_t l = 0; l < s.builder.loops().size(); ++l) out.push_back(resolveLoop(s, l));
  for (size_t u = 0; u < s.builder.constraints().size(); ++u) out.push_back(resolveUser(s, u));
  for (auto& r : out)
    if (r.kind != ResolvedConstraint::User) {
      r.bodies = r.predChain;
      r.bodies.insert(r.bodies.end(), r.succChain.begin(), r.succChain.end());
    }
}

}  // namespace grbda::detail
