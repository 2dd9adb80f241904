// Symbolic analysis of the proximal solver's KKT matrix (see ProximalData in proximal.hpp):
// which rows K has, the order of the unknowns and the structural pattern supp(e) of every
// unknown, computed once per model so that a solve touches only entries that can be non-zero.
#include "grbda/baselines/proximal.hpp"
#include "grbda/errors.hpp"
#include "constraints/constraint_workspace.hpp"

namespace grbda {

namespace {
/// Rows of one loop in the unreduced styles: 3 point rows (+ orientation rows for LoopFull: 2
/// for revolute and continuous, 3 for fixed, 1 for universal, none for spherical). Prismatic and
/// planar loops have their rows in the cluster style only (ProximalConstraintRows::Cluster).
int unreducedLoopRows(const LoopFrames& loop, ProximalConstraintRows rows) {
  if (loop.type == LoopKind::Prismatic || loop.type == LoopKind::Planar)
    throw ModelError("proximal solver: loop '" + loop.name +
                     "' is prismatic or planar; its unreduced rows are not written (use "
                     "ProximalConstraintRows::Cluster)");
  if (rows == ProximalConstraintRows::LoopPoint3D) return 3;
  switch (loop.type) {
    case LoopKind::Fixed: return 6;
    case LoopKind::Spherical: return 3;
    case LoopKind::Universal: return 4;
    default: return 5;
  }
}
}  // namespace

ProximalData::ProximalData(const Model& model, ProximalConstraintRows rowStyle) : rows(rowStyle) { analyse(model); }

ProximalData::ProximalData(const Model& model, const ConstraintModel& constraintModel, ProximalConstraintRows rowStyle)
    : rows(rowStyle), constraints(&constraintModel),
      constraintData(std::make_unique<ConstraintData>(model, constraintModel)) {
  analyse(model);
}

void ProximalData::analyse(const Model& model) {
  nvSpan = model.nvSpanning();
  numBodies = model.numBodies();
  const int nc = model.numClusters();
  const auto& loops = model.loops();
  std::vector<std::vector<int>> loopsOf(static_cast<size_t>(nc));
  for (size_t l = 0; l < loops.size(); ++l) loopsOf[static_cast<size_t>(loops[l].cluster)].push_back(static_cast<int>(l));

  // --- rows of K, cluster by cluster ---
  loopFirstRow.assign(loops.size(), -1);
  loopNumRows.assign(loops.size(), 0);
  clusterRowStart.assign(static_cast<size_t>(nc) + 1, 0);
  for (int c = 0; c < nc; ++c) {
    const Cluster& cl = model.cluster(c);
    clusterRowStart[static_cast<size_t>(c)] = static_cast<int>(rowSource.size());
    const int mc = cl.nvSpan - cl.nv;
    std::vector<bool> isLoopRow(static_cast<size_t>(mc), false);
    if (rows != ProximalConstraintRows::Cluster)
      for (int l : loopsOf[static_cast<size_t>(c)])
        for (int i = 0; i < loops[static_cast<size_t>(l)].numRows; ++i)
          isLoopRow[static_cast<size_t>(loops[static_cast<size_t>(l)].row + i)] = true;
    for (int i = 0; i < mc; ++i)
      if (!isLoopRow[static_cast<size_t>(i)]) rowSource.push_back(RowSource{c, i, -1, 0});
    if (rows != ProximalConstraintRows::Cluster)
      for (int l : loopsOf[static_cast<size_t>(c)]) {
        loopFirstRow[static_cast<size_t>(l)] = static_cast<int>(rowSource.size());
        const int n = unreducedLoopRows(loops[static_cast<size_t>(l)], rows);
        loopNumRows[static_cast<size_t>(l)] = n;
        for (int s = 0; s < n; ++s) rowSource.push_back(RowSource{c, -1, l, s});
      }
  }
  firstConstraintRow = static_cast<int>(rowSource.size());
  clusterRowStart[static_cast<size_t>(nc)] = firstConstraintRow;
  const int mc = constraints ? constraints->numRows() : 0;
  rowSource.resize(rowSource.size() + static_cast<size_t>(mc));  // cluster −1: a ConstraintModel row
  numRows = static_cast<int>(rowSource.size());
  numNodes = nvSpan + numRows;

  // --- unknowns: the ConstraintModel's rows, then per cluster its rows and spanning coordinates ---
  nodeCoordinate.assign(static_cast<size_t>(numNodes), -1);
  nodeRow.assign(static_cast<size_t>(numNodes), -1);
  std::vector<int> coordinateNode(static_cast<size_t>(nvSpan)), clusterFirstNode(static_cast<size_t>(nc));
  int e = 0;
  for (; e < mc; ++e) nodeRow[static_cast<size_t>(e)] = firstConstraintRow + e;
  for (int c = 0; c < nc; ++c) {
    const Cluster& cl = model.cluster(c);
    clusterFirstNode[static_cast<size_t>(c)] = e;
    for (int r = clusterRowStart[static_cast<size_t>(c)]; r < clusterRowStart[static_cast<size_t>(c) + 1]; ++r)
      nodeRow[static_cast<size_t>(e++)] = r;
    for (int j = cl.vSpanIndex; j < cl.vSpanIndex + cl.nvSpan; ++j) {
      coordinateNode[static_cast<size_t>(j)] = e;
      nodeCoordinate[static_cast<size_t>(e++)] = j;
    }
  }

  // --- supp(e): a ConstraintModel row: the rows before it (their block fills in); a cluster's
  // unknown: its own cluster's earlier unknowns (dense block), the coordinates of the bodies
  // supporting the cluster, output body first (a free joint is a chain of 6), then the
  // ConstraintModel rows with a body in the cluster's subtree (eliminating the unknown couples
  // them with everything above it) ---
  std::vector<std::vector<int>> rowsBelow(static_cast<size_t>(nc));  // per cluster, nodes descending
  if (constraints) {
    std::vector<std::vector<char>> touches(static_cast<size_t>(nc), std::vector<char>(static_cast<size_t>(mc), 0));
    for (const ConstraintWorkspace::RowPart& part : constraintData->work().parts)
      for (int c = model.body(part.body).cluster; c >= 0; c = model.cluster(c).parent)
        touches[static_cast<size_t>(c)][static_cast<size_t>(part.row)] = 1;
    for (int c = 0; c < nc; ++c)
      for (int r = mc - 1; r >= 0; --r)
        if (touches[static_cast<size_t>(c)][static_cast<size_t>(r)]) rowsBelow[static_cast<size_t>(c)].push_back(r);
  }
  suppStart.assign(1, 0);
  supp.clear();
  for (e = 0; e < mc; ++e) {
    for (int f = e - 1; f >= 0; --f) supp.push_back(f);
    suppStart.push_back(static_cast<int>(supp.size()));
  }
  for (int c = 0; c < nc; ++c) {
    const Cluster& cl = model.cluster(c);
    std::vector<int> supporting;
    for (int b = cl.output; b >= 0; b = model.body(b).parent) {
      const Body& body = model.body(b);
      for (int t = body.joint.nv() - 1; t >= 0; --t) supporting.push_back(coordinateNode[static_cast<size_t>(body.vIndex + t)]);
    }
    const int first = clusterFirstNode[static_cast<size_t>(c)];
    const int end = c + 1 < nc ? clusterFirstNode[static_cast<size_t>(c) + 1] : numNodes;
    for (; e < end; ++e) {
      for (int f = e - 1; f >= first; --f) supp.push_back(f);
      supp.insert(supp.end(), supporting.begin(), supporting.end());
      supp.insert(supp.end(), rowsBelow[static_cast<size_t>(c)].begin(), rowsBelow[static_cast<size_t>(c)].end());
      suppStart.push_back(static_cast<int>(supp.size()));
    }
  }

  for (const Cluster& cl : model.clusters())
    for (int r = 0; r < cl.numBodies; ++r) {
      const Body& b = model.body(cl.firstBody + r);
      if (b.independent)
        for (int j = 0; j < b.joint.nv(); ++j) independentCoordinate.push_back(b.vIndex + j);
    }

  K = MatX::Zero(numRows, nvSpan);
  k = VecX::Zero(numRows);
  rowNormSq = VecX::Zero(numRows);
  A = MatX::Zero(numNodes, numNodes);
  D = VecX::Zero(numNodes);
  rhs = VecX::Zero(numNodes);
  z = VecX::Zero(numNodes);
  tauTree = VecX::Zero(nvSpan);
  lambdaPrev = VecX::Zero(numRows);
  stationarity = VecX::Zero(nvSpan);
  biasAcceleration.assign(static_cast<size_t>(numBodies), Vec6::Zero());
  result.qddSpanning = VecX::Zero(nvSpan);
  result.qdd = VecX::Zero(model.nv());
  result.lambda = VecX::Zero(numRows);
}

long ProximalData::patternEntries() const { return static_cast<long>(supp.size()); }

long ProximalData::factorizationUpdates() const {
  long total = 0;
  for (size_t e = 0; e + 1 < suppStart.size(); ++e) {
    const long s = suppStart[e + 1] - suppStart[e];
    total += s * (s + 1) / 2;
  }
  return total;
}

}  // namespace grbda
