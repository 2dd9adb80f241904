// The symbolic analysis of a constraint set on the cluster tree, done once: which rows each
// cluster's articulated step propagates, and where the two halves of a relative row meet.
#include "grbda/constraints/constraint_data.hpp"

#include "constraints/constraint_workspace.hpp"

#include <algorithm>
#include <string>

#include "grbda/constraints/constraint_type.hpp"
#include "grbda/errors.hpp"

namespace grbda {

namespace {

/// Clusters from the one holding `body` to the root (empty for the world).
std::vector<int> clusterPath(const Model& model, int body) {
  std::vector<int> path;
  for (int k = body < 0 ? -1 : model.body(body).cluster; k >= 0; k = model.cluster(k).parent) path.push_back(k);
  return path;
}

/// The body of cluster k through which `body` (in k's subtree, path known) is supported.
int bodyInCluster(const Model& model, int body, int k) {
  int b = body;
  while (model.body(b).cluster != k) b = model.body(b).output;
  return b;
}

/// Tables of a row system: for every cluster, the rows active in it and their part slots.
void analyse(const Model& model, const ConstraintWorkspace& cd, ConstraintWorkspace::RowSystem& sys) {
  const int nc = model.numClusters();
  std::vector<std::vector<std::pair<int, int>>> active(static_cast<size_t>(nc));  // (system row, slot)
  for (int j = 0; j < sys.size(); ++j) {
    const int r = sys.rowOf[static_cast<size_t>(j)];
    const int p0 = cd.rowFirstPart[static_cast<size_t>(r)], p1 = cd.rowFirstPart[static_cast<size_t>(r) + 1];
    // A later part stops at the first cluster an earlier part's path already covers; there the
    // step sums the row's slots into the lowest-numbered one, which carries the sum on (a
    // relative row's two halves; a kept loop's parts on every joint of its group).
    std::vector<char> covered(static_cast<size_t>(nc), 0);
    for (int p = p0; p < p1; ++p) {
      for (int k : clusterPath(model, cd.parts[static_cast<size_t>(p)].body)) {
        active[static_cast<size_t>(k)].push_back({j, p});
        if (covered[static_cast<size_t>(k)]) break;
        covered[static_cast<size_t>(k)] = 1;
      }
    }
  }
  sys.clusters.assign(static_cast<size_t>(nc), {});
  for (int k = 0; k < nc; ++k) {
    auto& list = active[static_cast<size_t>(k)];
    std::stable_sort(list.begin(), list.end());
    ConstraintWorkspace::ClusterRows& cr = sys.clusters[static_cast<size_t>(k)];
    for (const auto& [j, slot] : list) {
      if (cr.rows.empty() || cr.rows.back() != j) {
        cr.rows.push_back(j);
        cr.slotStart.push_back(static_cast<int>(cr.slots.size()));
      }
      cr.slots.push_back(slot);
      cr.slotBody.push_back(bodyInCluster(model, cd.parts[static_cast<size_t>(slot)].body, k));
    }
    cr.slotStart.push_back(static_cast<int>(cr.slots.size()));
    const int d = model.cluster(k).nv, m = static_cast<int>(cr.rows.size());
    cr.SF = MatX::Zero(d, m);
    cr.DinvSF = MatX::Zero(d, m);
  }
  const int m = sys.size();
  sys.e = VecX::Zero(m);
  sys.b = VecX::Zero(m);
  sys.lambda = VecX::Zero(m);
  sys.lambdaPrev = VecX::Zero(m);
  sys.L = MatX::Zero(m, m);
  sys.factor = MatX::Zero(m, m);
  sys.llt.compute(MatX::Identity(m, m));
  sys.ldlt.compute(MatX::Identity(m, m));
  sys.eigA.setZero(m, m);  // redundant rows solve without allocating (delassus_solve.cpp)
  sys.eigV.setZero(m, m);
  sys.eigW.setZero(m);
}

/// PV-early's tables: the rows on each cluster's bodies, the child clusters whose subtree
/// carries rows (children have larger indices), and buffers for every row of the subtree.
void analyseEarly(const Model& model, ConstraintWorkspace& cd) {
  const int nc = model.numClusters();
  cd.early.assign(static_cast<size_t>(nc), {});
  for (int r = 0; r < cd.numRows; ++r) {
    const int p0 = cd.rowFirstPart[static_cast<size_t>(r)];
    if (cd.rowFirstPart[static_cast<size_t>(r) + 1] - p0 != 1) cd.earlySupported = false;
    const int body = cd.parts[static_cast<size_t>(p0)].body;
    ConstraintWorkspace::EarlyCluster& ec = cd.early[static_cast<size_t>(model.body(body).cluster)];
    ec.ownRows.push_back(r);
    ec.ownBody.push_back(body);
  }
  if (!cd.earlySupported) {
    cd.early.assign(static_cast<size_t>(nc), {});
    return;
  }
  std::vector<int> capacity(static_cast<size_t>(nc), 0);
  for (int k = nc - 1; k >= 0; --k) {
    ConstraintWorkspace::EarlyCluster& ec = cd.early[static_cast<size_t>(k)];
    const int cap = capacity[static_cast<size_t>(k)] += static_cast<int>(ec.ownRows.size());
    const int parent = model.cluster(k).parent;
    if (cap > 0 && parent >= 0) {
      capacity[static_cast<size_t>(parent)] += cap;
      cd.early[static_cast<size_t>(parent)].children.push_back(k);
    }
    const int d = model.cluster(k).nv;
    // factor columns: each child may carry kMaxCarried rows of a deferred elimination, plus T's d
    const int p = ConstraintWorkspace::EarlyCluster::kMaxCarried * static_cast<int>(ec.children.size()) + d;
    ec.F = MatX::Zero(6, cap);
    ec.bodyOf.assign(static_cast<size_t>(cap), -1);
    ec.b = VecX::Zero(cap);
    ec.T = MatX::Zero(d, cap);
    ec.QR = MatX::Zero(cap, d);
    ec.V = MatX::Zero(cap, p);
    ec.beta = VecX::Zero(p);
    ec.perm.assign(static_cast<size_t>(p), 0);
    ec.M = MatX::Zero(d, d);
    ec.DinvMt = MatX::Zero(d, d);
    ec.C = MatX::Zero(p, p);
    ec.G = MatX::Zero(p, 6);
    ec.g = VecX::Zero(p);
    ec.W = MatX::Zero(cap, p);
    ec.Wqr = MatX::Zero(cap, p);
    ec.Bout = MatX::Zero(ConstraintWorkspace::EarlyCluster::kMaxCarried, cap);
    ec.Fout = MatX::Zero(6, cap);
    ec.bout = VecX::Zero(cap);
    ec.lambda = VecX::Zero(cap);
    ec.lambdaOut = VecX::Zero(cap);
  }
}

}  // namespace

ConstraintData::ConstraintData(const Model& model, const ConstraintModel& constraints) {
  if (constraints.modelId() != model.id())
    throw InputError("ConstraintData: the ConstraintModel was made for another model than '" + model.name() + "'");
  const int m = constraints.numRows();
  lambda = VecX::Zero(m);
  LambdaInv = MatX::Zero(m, m);
  Lambda = MatX::Zero(m, m);
  work_ = std::make_unique<Workspace>(model, constraints);
}

ConstraintData::Workspace::Workspace(const Model& model, const ConstraintModel& constraints)
    : modelId(model.id()), constraintsVersion(constraints.version()), numRows(constraints.numRows()), ltl(model) {
  const int m = numRows;
  k = VecX::Zero(m);
  kBiased = VecX::Zero(m);
  softBody.assign(static_cast<size_t>(model.numBodies()), 0);
  softLeafBody.assign(static_cast<size_t>(model.numBodies()), 0);
  std::vector<int> bodies;
  for (const Constraint& c : constraints.constraints())  // each row's parts: the bodies its kind names
    for (int r = 0; r < c.numRows; ++r) {
      rowFirstPart.push_back(static_cast<int>(parts.size()));
      bodies.clear();
      c.type->rowBodies(model, c, r, bodies);
      if (bodies.empty() || *std::min_element(bodies.begin(), bodies.end()) < 0)
        throw InputError("ConstraintData: " + describeConstraint(c) + ": row " + std::to_string(r) +
                         " acts on no body (or on the world)");
      RowPart part;
      part.row = c.row + r;
      for (int b : bodies) {
        part.body = b;
        parts.push_back(part);
      }
    }
  rowFirstPart.push_back(static_cast<int>(parts.size()));
  F.assign(parts.size(), Vec6::Zero());
  residualForce.assign(static_cast<size_t>(model.numBodies()), Vec6::Zero());
  for (const Constraint& c : constraints.constraints()) typeData.push_back(c.type->createData(model, c));

  for (int ci = 0; ci < constraints.size(); ++ci) {
    const Constraint& c = constraints.constraint(ci);
    const VecX& R = constraints.compliance();
    // rows that sum to a point mass (plus a rotational inertia) with one compliance: their body's
    // IA stays a rigid-body inertia
    SoftPointMass pm;
    const bool pointMass = c.type->softPointMass(c, pm.point, pm.angular) &&
                           (R.segment(c.row, c.numRows).array() == R[c.row]).all();
    if (pointMass) {
      pm.body = c.body;
      pm.row = c.row;
      pm.numRows = c.numRows;
      softPointMasses.push_back(pm);
    }
    for (int r = c.row; r < c.row + c.numRows; ++r) {
      hard.rowOf.push_back(r);
      const bool oneBody = rowFirstPart[static_cast<size_t>(r) + 1] - rowFirstPart[static_cast<size_t>(r)] == 1;
      if (!oneBody) {
        soft.rowOf.push_back(r);
        continue;
      }
      leafRows.push_back(r);
      const auto body = static_cast<size_t>(parts[static_cast<size_t>(rowFirstPart[static_cast<size_t>(r)])].body);
      softLeafBody[body] = 1;
      if (pointMass) continue;
      softRowTerms.push_back(r);
      softBody[body] = 1;
    }
  }
  analyse(model, *this, hard);
  analyse(model, *this, soft);
  analyseEarly(model, *this);

  const int nv = model.nv();
  J = MatX::Zero(m, nv);
  HinvJt = MatX::Zero(nv, m);
  Yt = MatX::Zero(nv, m);
  A = MatX::Zero(m, m);
  rhs = VecX::Zero(nv);
  Hinvrhs = VecX::Zero(nv);
  lltH.compute(MatX::Identity(nv, nv));
}

ConstraintData::~ConstraintData() = default;
ConstraintData::ConstraintData(ConstraintData&&) noexcept = default;
ConstraintData& ConstraintData::operator=(ConstraintData&&) noexcept = default;

void ConstraintData::clearReference() {
  if (work_) work_->hasReference = false;
}

}  // namespace grbda
