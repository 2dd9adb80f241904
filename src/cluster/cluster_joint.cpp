// Cluster-joint behaviour shared by all types, and the Generic joint (spec §5.8).
#include "cluster_joint.hpp"

#include <algorithm>
#include <cmath>

#include "grbda/spatial/cross.hpp"
#include "data_workspace.hpp"

namespace grbda {
const char* Cluster::typeName() const { return joint ? joint->typeName() : "?"; }
}  // namespace grbda

namespace grbda::detail {

namespace {
/// The angle in (−π, π] with the same sine and cosine.
double wrapAngle(double a) {
  constexpr double kTwoPi = 6.283185307179586476925;
  double w = std::remainder(a, kTwoPi);  // in [−π, π]
  if (w <= -kTwoPi / 2) w += kTwoPi;
  return w;
}
}  // namespace

void ClusterJoint::initializeData(const Model&, const Cluster&, ClusterData& cd) const {
  if (constraints_.isStatic()) {
    cd.G = constraints_.staticG();
    if (cd.K.size() > 0) cd.K = constraints_.couplingRows();
  }
}

bool ClusterJoint::completePositions(const Cluster& cl, const double* y, double* qSpan, ClusterData& cd) const {
  const auto& ind = constraints_.independentCoordinates();
  if (constraints_.isStatic()) {  // γ(y) = G y: couplings have no offsets (spec §2.4)
    Eigen::Map<VecX>(qSpan, cl.nqSpan).noalias() = constraints_.staticG() * Eigen::Map<const VecX>(y, cl.nq);
    return true;
  }
  if (reference_.size() == 0) {
    // Build time, before the assembly mode is fixed: any closed pose will do. Newton from the
    // given pose, then from a few deterministic offsets of the dependent coordinates.
    for (size_t c = 0; c < ind.size(); ++c) qSpan[ind[c]] = y[c];
    if (constraints_.complete(qSpan, cd)) return true;
    static const double offsets[] = {0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0};
    for (double off : offsets) {
      // distinct per coordinate: equal values can be singular by symmetry (e.g. φ with q_a q_b terms)
      const auto& dep = constraints_.dependentCoordinates();
      for (size_t j = 0; j < dep.size(); ++j) qSpan[dep[j]] = off * (1.0 + 0.37 * static_cast<double>(j));
      if (constraints_.complete(qSpan, cd)) return true;
    }
    return false;
  }
  // The result is a function of y alone (bitwise): every completion starts from the reference
  // pose and follows the as-built branch along the straight path from the reference's
  // independent positions to y, whatever qSpan held before (issue #27, items 1 and 9). A
  // revolute independent coordinate travels to the representative of y nearest the reference
  // (at most half a turn); the last step solves at y itself.
  constexpr int kMaxIndependent = ConstraintSet::kMaxCoordinates;
  if (ind.size() > static_cast<size_t>(kMaxIndependent)) return false;
  constexpr double kTwoPi = 6.283185307179586476925;
  double yStart[kMaxIndependent], yEnd[kMaxIndependent];
  for (size_t c = 0; c < ind.size(); ++c) {
    yStart[c] = reference_[ind[c]];
    const bool turns = revolute_[static_cast<size_t>(ind[c])];
    yEnd[c] = yStart[c] + (turns ? std::remainder(y[c] - yStart[c], kTwoPi) : y[c] - yStart[c]);
  }
  Eigen::Map<VecX>(qSpan, cl.nqSpan) = reference_;
  if (continueFrom(yStart, yEnd, y, qSpan, cd)) return true;
  // A mechanism whose crank cannot turn fully may reach y only the other way round.
  bool other = false;
  for (size_t c = 0; c < ind.size(); ++c)
    if (revolute_[static_cast<size_t>(ind[c])] && yEnd[c] != yStart[c]) {
      yEnd[c] -= std::copysign(kTwoPi, yEnd[c] - yStart[c]);
      other = true;
    }
  if (!other) return false;
  Eigen::Map<VecX>(qSpan, cl.nqSpan) = reference_;
  return continueFrom(yStart, yEnd, y, qSpan, cd);
}

bool ClusterJoint::continueFrom(const double* yStart, const double* yEnd, const double* y, double* qSpan,
                                ClusterData& cd) const {
  // Euler–Newton continuation: move the independent coordinates in steps of at most
  // kContinuationStep; each step predicts the dependent ones along the branch's tangent
  // (q_d += G_d Δy at the last solution) and corrects by Newton. The predictor keeps a smooth
  // branch through a point where it crosses another (a parallelogram four-bar's toggle), where
  // Newton from the last solution alone may fall onto the other branch; a step that lands on the
  // singular point itself is skipped (the next one is predicted from the last regular pose).
  const auto& ind = constraints_.independentCoordinates();
  const auto& dep = constraints_.dependentCoordinates();
  constexpr int kMaxSaved = 256;
  double saved[kMaxSaved];  // the last regular solution's dependent coordinates
  const bool canSkip = dep.size() <= static_cast<size_t>(kMaxSaved);
  double distance = 0.0;
  for (size_t c = 0; c < ind.size(); ++c) distance = std::max(distance, std::abs(yEnd[c] - yStart[c]));
  const int steps = std::max(1, static_cast<int>(std::ceil(distance / kContinuationStep)));
  double tLast = 0.0;  // path parameter of the last regular solution
  for (int s = 1; s <= steps; ++s) {
    const double t = static_cast<double>(s) / steps;
    if (canSkip)
      for (size_t j = 0; j < dep.size(); ++j) saved[j] = qSpan[dep[j]];
    constraints_.jacobian(qSpan, cd);  // the last solution's K_d is regular (complete() checked it)
    if (!constraints_.explicitFormG(cd)) return false;
    for (size_t c = 0; c < ind.size(); ++c) {
      const double dy = (t - tLast) * (yEnd[c] - yStart[c]);
      qSpan[ind[c]] = s == steps ? y[c] : yStart[c] + t * (yEnd[c] - yStart[c]);
      for (int d : dep) qSpan[d] += cd.G(d, static_cast<Eigen::Index>(c)) * dy;
    }
    // the last step to 1e-13: the predictor leaves Newton fewer iterations than a warm start did,
    // and the result must close to machine precision in the loop's own units too
    if (constraints_.complete(qSpan, cd, s == steps ? 1e-13 : 1e-12)) {
      tLast = t;
      continue;
    }
    if (s == steps || !canSkip) return false;
    for (size_t j = 0; j < dep.size(); ++j) qSpan[dep[j]] = saved[j];  // back to the last regular pose
    for (size_t c = 0; c < ind.size(); ++c) qSpan[ind[c]] = yStart[c] + tLast * (yEnd[c] - yStart[c]);
  }
  for (int d : dep)  // same pose, canonical angle
    if (revolute_[static_cast<size_t>(d)]) qSpan[d] = wrapAngle(qSpan[d]);
  return true;
}

bool ClusterJoint::isRegular(const double* qSpan, ClusterData& cd) const {
  if (constraints_.isStatic()) return true;
  constraints_.jacobian(qSpan, cd);
  return constraints_.explicitFormG(cd);
}

void ClusterJoint::independentPositions(const Cluster&, const double* qSpan, double* y) const {
  const auto& ind = constraints_.independentCoordinates();
  for (size_t c = 0; c < ind.size(); ++c) y[c] = qSpan[ind[c]];
}

double ClusterJoint::constraintViolation(const double* qSpan, ClusterData& cd) const {
  if (constraints_.numRows() == 0) return 0.0;
  constraints_.residual(qSpan, cd);
  return cd.phi.cwiseAbs().maxCoeff();
}

bool GenericJoint::update(const Model& model, const Cluster& cl, Data& data, const double* v) const {
  DataWorkspace& ws = data.work();
  ClusterData& cd = ws.clusters[static_cast<size_t>(model.body(cl.firstBody).cluster)];
  const double* q = data.qSpan.data() + cl.qSpanIndex;
  double* qd = data.vSpan.data() + cl.vSpanIndex;
  if (!constraints_.isStatic()) {
    constraints_.jacobian(q, cd);
    if (!constraints_.explicitFormG(cd)) return false;
  }
  if (v) {
    Eigen::Map<VecX>(qd, cl.nvSpan).noalias() = cd.G * Eigen::Map<const VecX>(v, cl.nv);
    if (!constraints_.isStatic()) {
      constraints_.bias(q, qd, cd);
      constraints_.explicitFormg(cd);
    }
  }
  const int d = cl.nv;
  for (int r = 0; r < cl.numBodies; ++r) {
    const int i = cl.firstBody + r;
    const Body& b = model.body(i);
    const int j = b.vIndex - cl.vSpanIndex;  // local spanning coordinate (1-DoF joints only)
    const Transform X = b.joint.transformAfter(q + (b.qIndex - cl.qSpanIndex), b.Xtree);
    const bool parentInCluster = b.parent >= cl.firstBody;
    ws.Xup[i] = X;
    ws.Xout[i] = parentInCluster ? X * ws.Xout[b.parent] : X;
    data.Xa[i] = b.parent < 0 ? X : X * data.Xa[b.parent];
    const Vec6 s = b.joint.subspace();
    // S_i = X_i S_λ(i) + s_i G_i  (the rows of Xint Ssp G, eq. 14-15 of [P0])
    for (int c = 0; c < d; ++c) {
      Vec6 col = s * cd.G(j, c);
      if (parentInCluster) col += X.apply(cd.S.block<6, 1>(6 * (b.parent - cl.firstBody), c));
      cd.S.block<6, 1>(6 * r, c) = col;
    }
    if (!v) continue;
    const Vec6 vJ = s * qd[j];
    data.v[i] = b.parent < 0 ? vJ : Vec6(X.apply(data.v[b.parent]) + vJ);
    // c_i = X_i c_λ(i) + s_i g_i + v_i × s_i q̇_i  (paper form of the bias, eq. 19 of [P0])
    Vec6 ci = s * cd.g[j] + crossMotion(data.v[i], vJ);
    if (parentInCluster) ci += X.apply(ws.c[b.parent]);
    ws.c[i] = ci;
  }
  return true;
}

RevoluteJoint::RevoluteJoint(const Body& body)
    : ClusterJoint(ConstraintSet(1, {true}, MatX(0, 1), {})),
      prismatic_(body.joint.type == JointType::Prismatic),
      screw_(body.joint.type == JointType::Screw),
      transform_(body) {}

void RevoluteJoint::initializeData(const Model& model, const Cluster& cl, ClusterData& cd) const {
  ClusterJoint::initializeData(model, cl, cd);
  cd.S = model.body(cl.firstBody).joint.subspace();
}

bool RevoluteJoint::update(const Model& model, const Cluster& cl, Data& data, const double* v) const {
  DataWorkspace& ws = data.work();
  const int i = cl.firstBody;
  const Body& b = model.body(i);
  Transform& X = ws.Xup[i];
  transform_(b, data.qSpan.data() + cl.qSpanIndex, X);
  ws.Xout[i] = X;
  data.Xa[i] = b.parent < 0 ? X : X * data.Xa[b.parent];
  if (v) {
    data.vSpan[cl.vSpanIndex] = v[0];
    const Vec6 vJ = b.joint.subspace() * v[0];
    data.v[i] = b.parent < 0 ? vJ : Vec6(X.apply(data.v[b.parent]) + vJ);
    ws.c[i] = prismatic_ || screw_ ? crossMotion(data.v[i], vJ) : crossMotionAngular(data.v[i], vJ);
  }
  return true;
}

FreeJoint::FreeJoint() : ClusterJoint(ConstraintSet(6, std::vector<bool>(6, true), MatX(0, 6), {})) {}

void FreeJoint::initializeData(const Model& model, const Cluster& cl, ClusterData& cd) const {
  ClusterJoint::initializeData(model, cl, cd);
  cd.S = Mat6::Identity();
}

bool FreeJoint::completePositions(const Cluster&, const double* y, double* qSpan, ClusterData&) const {
  for (int c = 0; c < 7; ++c) qSpan[c] = y[c];
  return true;
}

void FreeJoint::independentPositions(const Cluster&, const double* qSpan, double* y) const {
  for (int c = 0; c < 7; ++c) y[c] = qSpan[c];
}

bool FreeJoint::update(const Model& model, const Cluster& cl, Data& data, const double* v) const {
  DataWorkspace& ws = data.work();
  const int i = cl.firstBody;
  const Body& b = model.body(i);
  const Transform X = b.joint.transformAfter(data.qSpan.data() + cl.qSpanIndex, b.Xtree);
  ws.Xup[i] = ws.Xout[i] = data.Xa[i] = X;
  if (v) {
    data.vSpan.segment<6>(cl.vSpanIndex) = Eigen::Map<const Vec6>(v);
    data.v[i] = Eigen::Map<const Vec6>(v);
    ws.c[i].setZero();  // v × vJ with v = vJ
  }
  return true;
}

SphericalJoint::SphericalJoint() : ClusterJoint(ConstraintSet(3, std::vector<bool>(3, true), MatX(0, 3), {})) {}

void SphericalJoint::initializeData(const Model& model, const Cluster& cl, ClusterData& cd) const {
  ClusterJoint::initializeData(model, cl, cd);
  cd.S = Mat6::Identity().leftCols<3>();
}

bool SphericalJoint::completePositions(const Cluster&, const double* y, double* qSpan, ClusterData&) const {
  for (int c = 0; c < 4; ++c) qSpan[c] = y[c];
  return true;
}

void SphericalJoint::independentPositions(const Cluster&, const double* qSpan, double* y) const {
  for (int c = 0; c < 4; ++c) y[c] = qSpan[c];
}

bool SphericalJoint::update(const Model& model, const Cluster& cl, Data& data, const double* v) const {
  DataWorkspace& ws = data.work();
  const int i = cl.firstBody;
  const Body& b = model.body(i);
  const Transform& X = ws.Xup[i] = b.joint.transformAfter(data.qSpan.data() + cl.qSpanIndex, b.Xtree);
  ws.Xout[i] = X;
  data.Xa[i] = b.parent < 0 ? X : X * data.Xa[b.parent];
  if (v) {
    data.vSpan.segment<3>(cl.vSpanIndex) = Eigen::Map<const Vec3>(v);
    Vec6 vJ = Vec6::Zero();
    vJ.head<3>() = Eigen::Map<const Vec3>(v);
    data.v[i] = b.parent < 0 ? vJ : Vec6(X.apply(data.v[b.parent]) + vJ);
    ws.c[i] = crossMotion(data.v[i], vJ);  // Ṡ = 0 in body coordinates: c = v × S q̇
  }
  return true;
}

}  // namespace grbda::detail
