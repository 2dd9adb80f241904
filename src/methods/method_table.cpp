// The method table: one row per method (include/grbda/methods.hpp). The command line, its help
// text, the benchmarks and the Python module read these rows; nothing else lists the methods.
#include <algorithm>

#include "grbda/errors.hpp"
#include "grbda/methods.hpp"

namespace grbda {

namespace {
constexpr std::uint32_t kFd = kMethodFd, kId = kMethodId, kMass = kMethodMassMatrix, kOsim = kMethodOsim,
                        kSim = kMethodSimulate;
constexpr bool Y = true, N = false;

std::vector<MethodInfo> makeTable() {
  // clang-format off
  //  id, name, aliases, summary, osim summary,
  //  solvesRows constrained exactRows needsCompliance approximate allocates, commands, bench key and label
  return {
    {MethodId::Cluster, "cluster", {"c-aba", nullptr},
     "the cluster-tree algorithm (C-ABA, C-RNEA, cluster CRBA)",
     "C-EFPA, the extended force propagators",
     N, N, N, N, N, N, kFd | kId | kMass | kOsim | kSim, "cluster_aba", "C-ABA"},
    {MethodId::Projection, "projection", {nullptr, nullptr},
     "the spanning tree projected onto the independent coordinates",
     nullptr, N, N, N, N, N, Y, kFd | kId | kMass | kOsim, "projection_fd", "Projection method"},
    {MethodId::Lagrange, "lagrange", {nullptr, nullptr},
     "spanning tree with Lagrange multipliers (dense KKT)",
     nullptr, N, N, N, N, N, Y, kFd, "lagrange_fd", "Lagrange multipliers"},
    {MethodId::Proximal, "proximal", {nullptr, nullptr},
     "the old name of two solvers (see --prox-iters, --prox-mu): proximal-sparse without constraint rows, "
     "proximal-delassus with --contact/--weld or kept loops",
     nullptr, Y, N, N, N, N, N, kFd | kSim, "proximal_fd", "Proximal"},
    {MethodId::Approximate, "approximate", {nullptr, nullptr},
     "the tree of independent bodies, the dependent bodies (rotors and belts, also four-bar links and feet "
     "driven through loops) dropped and the transmissions' reflected inertia added as joint armature",
     nullptr, N, N, N, N, Y, N, kFd | kId | kMass | kOsim, "approximate_aba", "Approximate ABA"},
    {MethodId::Unconstrained, "unconstrained", {nullptr, nullptr},
     "the tree of independent bodies without the dropped bodies (no armature)",
     nullptr, N, N, N, N, Y, N, kFd | kId | kMass | kOsim, nullptr, nullptr},
    {MethodId::PV, "pv", {nullptr, nullptr},
     "Popov-Vereshchagin with hard rows (--contact, --weld, kept loops; the default when constraints are given)",
     "PV-OSIM, the points as constraint rows propagated through one articulated pass (Popov-Vereshchagin "
     "without bias terms)",
     Y, Y, Y, N, N, N, kFd | kOsim | kSim, nullptr, nullptr},
    {MethodId::PVSoft, "pv-soft", {"pv_soft", nullptr},
     "Popov-Vereshchagin with soft rows (--compliance)",
     nullptr, Y, Y, N, Y, N, N, kFd | kSim, nullptr, nullptr},
    {MethodId::KKT, "kkt", {nullptr, nullptr},
     "the dense KKT reference of the constrained solvers",
     nullptr, Y, Y, Y, N, N, N, kFd | kSim, nullptr, nullptr},
    {MethodId::PVEarly, "pv-early", {"pv_early", nullptr},
     "PV with early elimination of the rows (O(n + m))",
     nullptr, Y, Y, Y, N, N, N, kFd | kSim, nullptr, nullptr},
    {MethodId::Cfa, "cfa", {nullptr, nullptr},
     "the Constraint Force Algorithm (Featherstone & Fijany) for a chain with short side branches, and for "
     "a model with loops whose clusters hang one per body (a chain of clusters: the cluster CFA, serial)",
     nullptr, N, N, N, N, N, N, kFd, nullptr, nullptr},
    {MethodId::CfaParallel, "cfa-parallel", {"cfa_parallel", nullptr},
     "the CFA by block cyclic reduction on --threads threads, models without loops",
     nullptr, N, N, N, N, N, N, kFd, nullptr, nullptr},
    {MethodId::LTL, "ltl", {nullptr, nullptr},
     "Featherstone's LTL factorisation H = L^T L (no fill-in) with Y = J L^-1 and Y Y^T lambda = ..., hard "
     "rows (the Pinocchio-style baseline)",
     "LTL-OSIM, Featherstone's H = L^T L and Lambda^-1 = Y Y^T with Y = J L^-1",
     Y, Y, Y, N, N, N, kFd | kOsim | kSim, nullptr, nullptr},
    {MethodId::LTLSoft, "ltl-soft", {"ltl_soft", nullptr},
     "the LTL factorisation with soft rows (--compliance; the MuJoCo-style baseline)",
     nullptr, Y, Y, N, Y, N, N, kFd | kSim, nullptr, nullptr},
    {MethodId::ProximalSparse, "proximal-sparse", {"proximal_sparse", nullptr},
     "the spanning-tree proximal solver with the rows of --contact, --weld, --relative and kept loops in its "
     "sparse KKT factorisation (each row eliminated after its support path: Pinocchio's contact Cholesky), "
     "the baseline PV is measured against",
     nullptr, Y, N, N, N, N, N, kFd | kSim, nullptr, nullptr},
    {MethodId::ProximalDelassus, "proximal-delassus", {"proximal_delassus", nullptr},
     "the proximal method of multipliers on the rows' forces, on PV's Delassus matrix (see --prox-iters, "
     "--prox-mu); the minimum-norm least-squares forces for redundant or inconsistent rows",
     nullptr, Y, Y, N, N, N, N, kFd | kSim, nullptr, nullptr},
    {MethodId::Efpa, "efpa", {"c-efpa", nullptr},
     "the same as cluster (C-EFPA, the extended force propagators)",
     nullptr, N, N, N, N, N, N, kOsim, nullptr, nullptr},
    {MethodId::PVFast, "pv-fast", {"pv_fast", nullptr},
     "PV-OSIM-fast, the floating-base operator of seed 003 eq. 54 (branch blocks and a 6x6 base solve, dense "
     "fallback when a branch block is singular; the printed matrix is the operator applied to the unit "
     "vectors, formed after the timed calls)",
     nullptr, N, N, N, N, N, N, kOsim, nullptr, nullptr},
    {MethodId::Dense, "dense", {nullptr, nullptr},
     "J H^-1 J^T from the cluster CRBA and the body Jacobians",
     nullptr, N, N, N, N, N, N, kOsim, nullptr, nullptr},
  };
  // clang-format on
}
}  // namespace

const std::vector<MethodInfo>& methodTable() {
  static const std::vector<MethodInfo> table = makeTable();
  return table;
}

const MethodInfo& methodInfo(MethodId id) { return methodTable()[static_cast<size_t>(id)]; }

const MethodInfo* lookupMethod(const std::string& name) {
  for (const MethodInfo& m : methodTable()) {
    if (name == m.name) return &m;
    for (const char* alias : m.aliases)
      if (alias && name == alias) return &m;
  }
  return nullptr;
}

std::string methodNames(std::uint32_t command, const std::string& separator) {
  std::string s;
  for (const MethodInfo& m : methodTable())
    if (command == 0 || m.accepts(command)) s += (s.empty() ? "" : separator) + std::string(m.name);
  return s;
}

const MethodInfo& findMethod(const std::string& name, std::uint32_t command) {
  const MethodInfo* m = lookupMethod(name);
  if (m && (command == 0 || m->accepts(command))) return *m;
  throw InputError("unknown method '" + name + "'" + (m ? " for this computation" : "") +
                   "; valid methods: " + methodNames(command));
}

}  // namespace grbda
