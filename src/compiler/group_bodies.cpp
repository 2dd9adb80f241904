// Passes: bodies joined by a constraint form one cluster (spec §3.2, union-find form); each
// cluster must hang from a single output body and hold no floating joint (spec §3.4).
#include <algorithm>
#include <numeric>
#include <set>

#include "compiler.hpp"

namespace grbda::detail {

namespace {

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(static_cast<size_t>(n)) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) {
    while (parent[static_cast<size_t>(x)] != x)
      x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
    return x;
  }
  void unite(int a, int b) { parent[static_cast<size_t>(find(a))] = find(b); }
};

std::string elementOf(const ResolvedConstraint& c) {
  const char* kind = c.kind == ResolvedConstraint::Loop       ? "loop '"
                     : c.kind == ResolvedConstraint::Coupling ? "coupling '"
                                                              : "constraint '";
  return kind + c.name + "'";
}

}  // namespace

void groupBodies(CompilerState& s) {
  const int nb = s.model.numBodies();
  UnionFind uf(nb);
  for (const auto& c : s.constraints)
    for (size_t i = 1; i < c.bodies.size(); ++i) uf.unite(c.bodies[0], c.bodies[i]);
  std::map<int, std::vector<int>> groups;  // root -> bodies (ascending tree index)
  for (int b = 0; b < nb; ++b) groups[uf.find(b)].push_back(b);
  for (auto& [root, members] : groups) s.groups.push_back(members);
  // regular cluster order: by smallest member (its parent lies in the parent cluster, §3.3)
  std::sort(s.groups.begin(), s.groups.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  s.clusterOfBody.assign(static_cast<size_t>(nb), 0);
  for (size_t k = 0; k < s.groups.size(); ++k)
    for (int b : s.groups[k]) s.clusterOfBody[static_cast<size_t>(b)] = static_cast<int>(k);
  s.constraintsOfCluster.assign(s.groups.size(), {});
  for (size_t c = 0; c < s.constraints.size(); ++c)
    if (!s.constraints[c].bodies.empty())
      s.constraintsOfCluster[static_cast<size_t>(s.clusterOfBody[static_cast<size_t>(s.constraints[c].bodies[0])])]
          .push_back(c);
}

void findOutputBodies(CompilerState& s) {
  s.outputOld.assign(s.groups.size(), -1);
  for (size_t k = 0; k < s.groups.size(); ++k) {
    std::set<int> outside;
    for (int b : s.groups[k]) {
      const int p = s.model.body(b).parent;
      if (p < 0 || s.clusterOfBody[static_cast<size_t>(p)] != static_cast<int>(k)) outside.insert(p);
    }
    if (outside.size() > 1) {
      const auto& c = s.constraints[s.constraintsOfCluster[k].front()];
      std::vector<std::string> names;
      for (int p : outside) names.push_back(p < 0 ? std::string("the ground") : "'" + s.model.body(p).name + "'");
      fail("the constrained bodies hang from several bodies (" + joinNames(names) +
               "); a cluster must attach to a single output body (several output bodies are not supported yet)",
           c.where, elementOf(c));
    }
    s.outputOld[k] = *outside.begin();
    if (s.groups[k].size() > 1)
      for (int b : s.groups[k])
        if (s.model.body(b).joint.hasQuaternion()) {
          const auto& c = s.constraints[s.constraintsOfCluster[k].front()];
          fail(std::string(s.model.body(b).joint.type == JointType::Free ? "floating" : "spherical") + " joint '" +
                   s.model.body(b).jointName + "' cannot be part of a constrained cluster",
               c.where,
               "'" + c.name + "'");
        }
  }
}

}  // namespace grbda::detail
