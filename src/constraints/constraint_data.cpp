// The symbolic analysis of a constraint set on the cluster tree, done once: which rows each
// cluster's articulated step propagates, and where the two halves of a relative row meet.
#include "grbda/constraints/constraint_data.hpp"

#include <algorithm>
#include <string>

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
void analyse(const Model& model, const ConstraintData& cd, ConstraintData::RowSystem& sys) {
  const int nc = model.numClusters();
  std::vector<std::vector<std::pair<int, int>>> active(static_cast<size_t>(nc));  // (system row, slot)
  for (int j = 0; j < sys.size(); ++j) {
    const int r = sys.rowOf[static_cast<size_t>(j)];
    const int p0 = cd.rowFirstPart[static_cast<size_t>(r)], p1 = cd.rowFirstPart[static_cast<size_t>(r) + 1];
    const std::vector<int> first = clusterPath(model, cd.parts[static_cast<size_t>(p0)].body);
    for (int p = p0; p < p1; ++p) {
      // the second part of a relative row stops below the first cluster the two paths share;
      // from there on the first part carries their sum
      for (int k : clusterPath(model, cd.parts[static_cast<size_t>(p)].body)) {
        const bool shared = std::find(first.begin(), first.end(), k) != first.end();
        if (p > p0 && shared) {
          active[static_cast<size_t>(k)].push_back({j, p});
          break;
        }
        active[static_cast<size_t>(k)].push_back({j, p});
      }
    }
  }
  sys.clusters.assign(static_cast<size_t>(nc), {});
  for (int k = 0; k < nc; ++k) {
    auto& list = active[static_cast<size_t>(k)];
    std::stable_sort(list.begin(), list.end());
    ConstraintData::ClusterRows& cr = sys.clusters[static_cast<size_t>(k)];
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
  sys.llt.compute(MatX::Identity(m, m));
  sys.ldlt.compute(MatX::Identity(m, m));
}

}  // namespace

ConstraintData::ConstraintData(const Model& model, const ConstraintModel& constraints)
    : modelId(model.id()), constraintsVersion(constraints.version()), numRows(constraints.numRows()) {
  if (constraints.modelId() != model.id())
    throw InputError("ConstraintData: the ConstraintModel was made for another model than '" + model.name() + "'");
  const int m = numRows;
  lambda = VecX::Zero(m);
  k = VecX::Zero(m);
  kBiased = VecX::Zero(m);
  LambdaInv = MatX::Zero(m, m);
  Lambda = MatX::Zero(m, m);
  softBody.assign(static_cast<size_t>(model.numBodies()), 0);
  for (const Constraint& c : constraints.constraints())
    for (int r = 0; r < c.numRows; ++r) {
      rowFirstPart.push_back(static_cast<int>(parts.size()));
      RowPart part;
      part.row = c.row + r;
      part.body = c.body;
      parts.push_back(part);
      if (c.isRelative() && c.body2 >= 0) {
        part.body = c.body2;
        parts.push_back(part);
      }
    }
  rowFirstPart.push_back(static_cast<int>(parts.size()));
  F.assign(parts.size(), Vec6::Zero());

  for (int r = 0; r < m; ++r) {
    hard.rowOf.push_back(r);
    const bool oneBody = rowFirstPart[static_cast<size_t>(r) + 1] - rowFirstPart[static_cast<size_t>(r)] == 1;
    if (oneBody) {
      leafRows.push_back(r);
      softBody[static_cast<size_t>(parts[static_cast<size_t>(rowFirstPart[static_cast<size_t>(r)])].body)] = 1;
    } else {
      soft.rowOf.push_back(r);
    }
  }
  analyse(model, *this, hard);
  analyse(model, *this, soft);

  const int nv = model.nv();
  J = MatX::Zero(m, nv);
  HinvJt = MatX::Zero(nv, m);
  A = MatX::Zero(m, m);
  rhs = VecX::Zero(nv);
  Hinvrhs = VecX::Zero(nv);
  lltH.compute(MatX::Identity(nv, nv));
  const auto nk = static_cast<size_t>(constraints.size());
  refPoint.assign(nk, Vec3::Zero());
  refPoint2.assign(nk, Vec3::Zero());
  refRotation.assign(nk, Mat3::Identity());
  refRotation2.assign(nk, Mat3::Identity());
}

}  // namespace grbda
