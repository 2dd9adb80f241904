#include "four_bar_joint.hpp"

#include <cmath>

#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

namespace {

using Vec2 = PlanarFourBarConstraint::Vec2;
using Mat23 = PlanarFourBarConstraint::Mat23;
constexpr double kTwoPi = 6.283185307179586476925;

/// Active rotation of a plane vector by θ.
Vec2 rotate(double theta, const Vec2& v) {
  const double c = std::cos(theta), s = std::sin(theta);
  return Vec2(c * v.x() - s * v.y(), s * v.x() + c * v.y());
}
/// J v: v turned by +90° (d/dθ of rotate(θ, v) is perp(rotate(θ, v))).
Vec2 perp(const Vec2& v) { return Vec2(-v.y(), v.x()); }
double angleOf(const Vec2& v) { return std::atan2(v.y(), v.x()); }

/// Where circle(c1, r1) and circle(c2, r2) cross, in the frame of the centre line: unit e from
/// c1 towards c2 at distance L, the crossings at c1 + x e ± h perp(e) (h > 0). False when they do
/// not cross (unreachable, or tangent: a toggle position) or are concentric.
struct CircleCrossing {
  Vec2 e;
  double L = 0.0, x = 0.0, h = 0.0;
};
bool crossCircles(const Vec2& c1, double r1, const Vec2& c2, double r2, CircleCrossing& out) {
  const Vec2 D = c2 - c1;
  out.L = D.norm();
  if (!(out.L > 1e-12 * (r1 + r2))) return false;
  out.x = (r1 * r1 - r2 * r2 + out.L * out.L) / (2.0 * out.L);
  const double h2 = r1 * r1 - out.x * out.x;
  if (!(h2 > 0.0)) return false;
  out.h = std::sqrt(h2);
  out.e = D / out.L;
  return true;
}

/// The two intersections of circle(c1, r1) and circle(c2, r2) (see crossCircles).
bool intersectCircles(const Vec2& c1, double r1, const Vec2& c2, double r2, Vec2 out[2]) {
  CircleCrossing k;
  if (!crossCircles(c1, r1, c2, r2, k)) return false;
  const Vec2 base = c1 + k.x * k.e;
  out[0] = base + k.h * perp(k.e);
  out[1] = base - k.h * perp(k.e);
  return true;
}

/// The representative of `angle` (mod 2π) nearest `previous` (a rounded turn count: no libm call).
double nearestTurn(double angle, double previous) {
  return angle - kTwoPi * std::nearbyint((angle - previous) / kTwoPi);
}

/// |sin| of the angle between the dependent columns of K: 0 at a toggle.
double dependentColumnsSine(const Mat23& K, const int dep[2], double* det) {
  *det = K(0, dep[0]) * K(1, dep[1]) - K(0, dep[1]) * K(1, dep[0]);
  const double norms = K.col(dep[0]).norm() * K.col(dep[1]).norm();
  return norms > 0.0 ? std::abs(*det) / norms : 0.0;
}

}  // namespace

// ----- the planar loop constraint -----------------------------------------------------------

PlanarFourBarConstraint::PlanarFourBarConstraint(const Geometry& g) : geo_(g) {
  derived_.uNorm = g.u.norm();
  derived_.wNorm = g.w.norm();
  derived_.rNorm = g.r.norm();
  derived_.uAngle = angleOf(g.u);
  derived_.wAngle = angleOf(g.w);
  derived_.rAngle = angleOf(g.r);
}

PlanarFourBarConstraint::Links PlanarFourBarConstraint::links(const double* q) const {
  const Geometry& g = geo_;
  const double thA = g.sign[g.crank] * q[g.crank];
  const double thAC = thA + g.sign[g.coupler] * q[g.coupler];  // absolute angle of the coupler
  const double thB = g.sign[g.rocker] * q[g.rocker];
  return Links{rotate(thA, g.u), rotate(thAC, g.w), rotate(thB, g.r)};
}

void PlanarFourBarConstraint::jacobian(const Links& l, Mat23& K) const {
  const Geometry& g = geo_;
  K.col(g.crank) = g.sign[g.crank] * perp(l.U + l.W);
  K.col(g.coupler) = g.sign[g.coupler] * perp(l.W);
  K.col(g.rocker) = -g.sign[g.rocker] * perp(l.R);
}

Vec2 PlanarFourBarConstraint::bias(const Links& l, const double* qd) const {  // k = −K̇ q̇: centripetal terms
  const Geometry& g = geo_;
  const double wA = g.sign[g.crank] * qd[g.crank];
  const double wAC = wA + g.sign[g.coupler] * qd[g.coupler];
  const double wB = g.sign[g.rocker] * qd[g.rocker];
  return l.U * (wA * wA) + l.W * (wAC * wAC) - l.R * (wB * wB);
}

void PlanarFourBarConstraint::evaluate(const double* q, const double* qd, Vec2* phi, Mat23* K, Vec2* k) const {
  const Links l = links(q);
  if (phi) *phi = l.U + l.W - l.R - geo_.d;
  if (K) jacobian(l, *K);
  if (k && qd) *k = bias(l, qd);
}

void PlanarFourBarConstraint::residual(const Eigen::Ref<const VecX>& q, Eigen::Ref<VecX> phi) const {
  Vec2 p;
  evaluate(q.data(), nullptr, &p, nullptr, nullptr);
  phi = p;
}

void PlanarFourBarConstraint::jacobian(const Eigen::Ref<const VecX>& q, Eigen::Ref<MatX> K) const {
  Mat23 J;
  evaluate(q.data(), nullptr, nullptr, &J, nullptr);
  K = J;
}

void PlanarFourBarConstraint::bias(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd,
                                   Eigen::Ref<VecX> k) const {
  Vec2 b;
  evaluate(q.data(), qd.data(), nullptr, nullptr, &b);
  k = b;
}

// ----- the joint ----------------------------------------------------------------------------

namespace {
ConstraintSet fourBarConstraintSet(const std::shared_ptr<const PlanarFourBarConstraint>& loop, int independent) {
  std::vector<bool> flags(3, false);
  flags[static_cast<size_t>(independent)] = true;
  ImplicitEntry e;
  e.constraint = loop;
  e.columns = {0, 1, 2};
  e.row = 0;
  return ConstraintSet(3, flags, MatX(0, 3), {e});
}
}  // namespace

FourBarJoint::FourBarJoint(std::shared_ptr<const PlanarFourBarConstraint> loop, int independent, const Model& model,
                           int firstBody)
    : ClusterJoint(fourBarConstraintSet(loop, independent)),
      loop_(std::move(loop)),
      independent_(independent),
      bodies_(model, firstBody) {
  int n = 0;
  for (int c = 0; c < 3; ++c)
    if (c != independent_) dependent_[n++] = c;
}

bool FourBarJoint::candidates(const double* y, double candidate[2][3], Vec2 hits[2], Vec2& known) const {
  const PlanarFourBarConstraint::Geometry& g = loop_->geometry();
  const PlanarFourBarConstraint::Derived& c0 = loop_->derived();
  const int s = independent_;
  const double theta = g.sign[s] * y[0];
  // Angles are measured from the zero pose: a link's angle is the turn of its zero-pose vector.
  known = Vec2::Zero();  // the crank tip P (crank driven) or the rocker's loop point Q (rocker driven)
  if (s == g.crank) {  // crank tip P known; the coupler–rocker joint Q closes |Q−P| = |w|, |Q−d| = |r|
    const Vec2 P = known = rotate(theta, g.u);
    CircleCrossing k;
    if (!crossCircles(P, c0.wNorm, g.d, c0.rNorm, k)) return false;
    // Q − P = x e ± h perp(e) and Q − d = (x − L) e ± h perp(e): both modes' angles from three atan2
    const double line = angleOf(k.e), atP = std::atan2(k.h, k.x), atD = std::atan2(k.h, k.x - k.L);
    for (int c = 0; c < 2; ++c) {
      const double side = c == 0 ? 1.0 : -1.0;
      hits[c] = P + k.x * k.e + side * k.h * perp(k.e);
      const double coupler = line + side * atP - c0.wAngle;
      candidate[c][g.coupler] = g.sign[g.coupler] * (coupler - theta);
      candidate[c][g.rocker] = g.sign[g.rocker] * (line + side * atD - c0.rAngle);
    }
  } else if (s == g.rocker) {  // loop point Q known; crank tip P: |P| = |u|, |Q−P| = |w|
    const Vec2 Q = known = g.d + rotate(theta, g.r);
    if (!intersectCircles(Vec2::Zero(), c0.uNorm, Q, c0.wNorm, hits)) return false;
    for (int c = 0; c < 2; ++c) {
      const double crank = angleOf(hits[c]) - c0.uAngle;
      const double coupler = angleOf(Q - hits[c]) - c0.wAngle;
      candidate[c][g.crank] = g.sign[g.crank] * crank;
      candidate[c][g.coupler] = g.sign[g.coupler] * (coupler - crank);
    }
  } else {  // coupler angle known: the crank+coupler dyad is one rigid vector v from the A pivot
    const Vec2 v = g.u + rotate(theta, g.w);
    if (!intersectCircles(Vec2::Zero(), v.norm(), g.d, c0.rNorm, hits)) return false;
    for (int c = 0; c < 2; ++c) {
      candidate[c][g.crank] = g.sign[g.crank] * (angleOf(hits[c]) - angleOf(v));
      candidate[c][g.rocker] = g.sign[g.rocker] * (angleOf(hits[c] - g.d) - c0.rAngle);
    }
  }
  return true;
}

double FourBarJoint::branchAngle(double y) const {
  return loop_->geometry().sign[independent_] * y + branch_.phase;
}

double FourBarJoint::crossingHeight2(double beta, double* centreDistance2) const {
  const PlanarFourBarConstraint::Geometry& g = loop_->geometry();
  const PlanarFourBarConstraint::Derived& c0 = loop_->derived();
  const double varying = branch_.A - branch_.B * std::cos(beta);  // L² or, coupler driven, r1²
  double r1 = 0.0, r2 = 0.0, L2 = varying;
  if (independent_ == g.crank) r1 = c0.wNorm, r2 = c0.rNorm;
  else if (independent_ == g.rocker) r1 = c0.uNorm, r2 = c0.wNorm;
  else r1 = std::sqrt(std::max(0.0, varying)), r2 = c0.rNorm, L2 = g.d.squaredNorm();
  *centreDistance2 = L2;
  if (!(L2 > 0.0)) return 0.0;
  const double x = (r1 * r1 - r2 * r2 + L2) / (2.0 * std::sqrt(L2));
  return r1 * r1 - x * x;
}

void FourBarJoint::setReference(VecX closedPose, std::vector<bool> revolute) {
  const PlanarFourBarConstraint::Geometry& g = loop_->geometry();
  const PlanarFourBarConstraint::Derived& c0 = loop_->derived();
  const double dAngle = g.d.squaredNorm() > 0.0 ? angleOf(g.d) : 0.0;
  const double dNorm = g.d.norm();
  Branch b;
  if (independent_ == g.crank) {  // L² = |R(θ)u − d|²
    b.A = c0.uNorm * c0.uNorm + dNorm * dNorm, b.B = 2.0 * c0.uNorm * dNorm, b.phase = c0.uAngle - dAngle;
  } else if (independent_ == g.rocker) {  // L² = |d + R(θ)r|²
    b.A = dNorm * dNorm + c0.rNorm * c0.rNorm, b.B = 2.0 * dNorm * c0.rNorm, b.phase = c0.rAngle - dAngle + kTwoPi / 2;
  } else {  // r1² = |u + R(θ)w|²
    b.A = c0.uNorm * c0.uNorm + c0.wNorm * c0.wNorm, b.B = 2.0 * c0.uNorm * c0.wNorm;
    b.phase = c0.wAngle - c0.uAngle + kTwoPi / 2;
  }
  branch_ = b;  // crossingHeight2 reads A, B
  const double scale2 = c0.uNorm * c0.uNorm + c0.wNorm * c0.wNorm + c0.rNorm * c0.rNorm + dNorm * dNorm;
  const bool varies = b.B > 1e-12 * b.A;
  for (int end = 0; end < 2; ++end) {
    double L2 = 0.0;
    const double h2 = crossingHeight2(end == 0 ? 0.0 : kTwoPi / 2, &L2);
    // h² = 0 to rounding: a change point; L = 0: the centre line itself turns over there
    const bool flip = varies && (std::abs(h2) <= 1e-10 * scale2 || L2 <= 1e-20 * scale2);
    (end == 0 ? b.flipAtZero : b.flipAtPi) = flip;
  }
  // the reference pose's side: the candidate that is the reference (to rounding)
  const int s = independent_;
  const double y = closedPose[s];
  double candidate[2][3];
  Vec2 hits[2], known;
  if (!candidates(&y, candidate, hits, known))
    throw ModelError("FourBar: the reference pose does not close its loop (internal)");
  double distance[2] = {0.0, 0.0};
  for (int c = 0; c < 2; ++c)
    for (int j : dependent_) {
      const double e = candidate[c][j] - nearestTurn(closedPose[j], candidate[c][j]);
      distance[c] += e * e;
    }
  b.sideReference = distance[1] < distance[0] ? 1 : 0;
  b.betaReference = g.sign[s] * y + b.phase;
  b.set = true;
  branch_ = b;
  ClusterJoint::setReference(std::move(closedPose), std::move(revolute));
}

bool FourBarJoint::completePositions(const Cluster&, const double* y, double* qSpan, ClusterData&) const {
  const PlanarFourBarConstraint::Geometry& g = loop_->geometry();
  const int s = independent_;
  Vec2 hits[2], known;
  double candidate[2][3];
  if (!candidates(y, candidate, hits, known)) return false;
  int best = 0;
  if (branch_.set) {  // the as-built side, flipped at each change point passed since the reference
    const double beta = branchAngle(y[0]), beta0 = branch_.betaReference, half = kTwoPi / 2;
    double passed = 0.0;
    if (branch_.flipAtZero) passed += std::floor(beta / kTwoPi) - std::floor(beta0 / kTwoPi);
    if (branch_.flipAtPi) passed += std::floor((beta - half) / kTwoPi) - std::floor((beta0 - half) / kTwoPi);
    const bool flipped = std::fmod(std::abs(passed), 2.0) == 1.0;
    best = flipped ? 1 - branch_.sideReference : branch_.sideReference;
    for (int j : dependent_) qSpan[j] = nearestTurn(candidate[best][j], 0.0);
  } else {  // build time: the assembly mode nearest qSpan (the zero pose of a fresh Data)
    double distance[2] = {0.0, 0.0};
    for (int c = 0; c < 2; ++c)
      for (int j : dependent_) {
        candidate[c][j] = nearestTurn(candidate[c][j], qSpan[j]);
        distance[c] += (candidate[c][j] - qSpan[j]) * (candidate[c][j] - qSpan[j]);
      }
    best = distance[1] < distance[0] ? 1 : 0;
    for (int j : dependent_) qSpan[j] = candidate[best][j];
  }
  qSpan[s] = y[0];
  // near a toggle the dependent positions are still exact but G grows without bound. The link
  // vectors of the pose are the circle construction's own (no rotations) unless the coupler drives.
  const Vec2& hit = hits[best];
  PlanarFourBarConstraint::Links links;
  if (s == g.crank) links = {known, hit - known, hit - g.d};
  else if (s == g.rocker) links = {hit, known - hit, known - g.d};
  else links = loop_->links(qSpan);
  Mat23 K;
  loop_->jacobian(links, K);
  double det;
  return dependentColumnsSine(K, dependent_, &det) > 1e-6;
}

bool FourBarJoint::update(const Model& model, const Cluster& cl, Data& data, const double* v) const {
  ClusterData& cd = data.work().clusters[static_cast<size_t>(model.body(cl.firstBody).cluster)];
  const double* q = data.qSpan.data() + cl.qSpanIndex;
  const PlanarFourBarConstraint::Links links = loop_->links(q);  // K and k at q from one set of rotations
  Mat23 K;
  loop_->jacobian(links, K);
  const double det = K(0, dependent_[0]) * K(1, dependent_[1]) - K(0, dependent_[1]) * K(1, dependent_[0]);
  const double scale = std::max(1.0, K.cwiseAbs().maxCoeff());
  if (!(std::abs(det) > 1e-10 * scale * scale)) return false;  // singular K_d (as GenericJoint judges it)
  // K_d^{-1} of the 2x2 dependent block, in closed form
  Eigen::Matrix2d KdInv;
  KdInv << K(1, dependent_[1]), -K(0, dependent_[1]), -K(1, dependent_[0]), K(0, dependent_[0]);
  KdInv /= det;
  Eigen::Vector3d G;
  G[independent_] = 1.0;
  const Vec2 Gd = -(KdInv * K.col(independent_));
  G[dependent_[0]] = Gd[0];
  G[dependent_[1]] = Gd[1];
  cd.K = K;
  cd.G = G;
  Eigen::Vector3d g = Eigen::Vector3d::Zero();
  if (v) {
    const Eigen::Vector3d qd = G * v[0];
    const Vec2 k = loop_->bias(links, qd.data());
    const Vec2 gd = KdInv * k;
    g[dependent_[0]] = gd[0];
    g[dependent_[1]] = gd[1];
    cd.k = k;
    cd.g = g;
  }
  bodies_.update(model, cl, data, cd, G, v ? g.data() : nullptr, v);
  return true;
}

// ----- recognition --------------------------------------------------------------------------

std::shared_ptr<ClusterJoint> recogniseFourBar(const Model& model, const Cluster& cl, const ConstraintSet& set) {
  if (cl.numBodies != 3 || set.numSpanning() != 3 || set.numIndependent() != 1 || set.isStatic() ||
      set.numRows() != 2 || set.couplingRows().rows() != 0)
    return nullptr;
  const int first = cl.firstBody, k = model.body(first).cluster;
  const LoopFrames* loop = nullptr;
  for (const LoopFrames& lf : model.loops())
    if (lf.cluster == k) {
      if (loop) return nullptr;  // two loops
      loop = &lf;
    }
  if (!loop || loop->fixed || loop->numRows != 2) return nullptr;
  if (loop->type != LoopKind::Revolute && loop->type != LoopKind::Continuous) return nullptr;  // Generic
  // topology: A and B on the output body, C on A
  int C = -1;
  for (int r = 0; r < 3; ++r) {
    const Body& b = model.body(first + r);
    if (b.joint.type != JointType::Revolute) return nullptr;
    if (b.parent >= first) {
      if (C >= 0) return nullptr;  // a serial chain of three
      C = r;
    }
  }
  if (C < 0) return nullptr;
  const int A = model.body(first + C).parent - first, B = 3 - A - C;
  if (model.body(first + A).parent != model.body(first + B).parent) return nullptr;
  const bool cIsPredecessor = loop->predecessorBody == first + C && loop->successorBody == first + B;
  const bool bIsPredecessor = loop->predecessorBody == first + B && loop->successorBody == first + C;
  if (!cIsPredecessor && !bIsPredecessor) return nullptr;
  const Transform& loopC = cIsPredecessor ? loop->predecessorPlacement : loop->successorPlacement;
  const Transform& loopB = cIsPredecessor ? loop->successorPlacement : loop->predecessorPlacement;

  // poses at q = 0 relative to the output body (^body X_output)
  const Transform TA = model.body(first + A).Xtree, TB = model.body(first + B).Xtree;
  const Transform TC = model.body(first + C).Xtree * TA;
  const Vec3 axis = (TA.E.transpose() * model.body(first + A).joint.axis).normalized();
  const Vec3 axisB = TB.E.transpose() * model.body(first + B).joint.axis.normalized();
  const Vec3 axisC = TC.E.transpose() * model.body(first + C).joint.axis.normalized();
  const Vec3 loopAxis = TC.E.transpose() * (loopC.E.transpose() * loop->axis.normalized());
  for (const Vec3& a : {axisB, axisC, loopAxis})
    if (a.cross(axis).norm() > 1e-9) return nullptr;  // not planar: Generic

  // project onto the plane normal to the axis (the plane's offset along the axis drops out)
  const Vec3 e1 = axis.unitOrthogonal(), e2 = axis.cross(e1);
  auto inPlane = [&](const Vec3& x) { return Vec2(e1.dot(x), e2.dot(x)); };
  const Vec3 pivotA = TA.r, pivotB = TB.r, pivotC = TC.r;
  const Vec3 pointC = TC.inverseTransformPoint(loopC.r), pointB = TB.inverseTransformPoint(loopB.r);
  PlanarFourBarConstraint::Geometry geo;
  geo.crank = A;
  geo.coupler = C;
  geo.rocker = B;
  geo.sign[A] = 1.0;
  geo.sign[B] = axisB.dot(axis) > 0 ? 1.0 : -1.0;
  geo.sign[C] = axisC.dot(axis) > 0 ? 1.0 : -1.0;
  geo.u = inPlane(pivotC - pivotA);
  geo.w = inPlane(pointC - pivotC);
  geo.r = inPlane(pointB - pivotB);
  geo.d = inPlane(pivotB - pivotA);
  // Loop origins at different heights along the axis never coincide, and a zero-length link
  // leaves an angle undetermined: both are Generic's business.
  const double scale = 1.0 + geo.u.norm() + geo.w.norm() + geo.r.norm() + geo.d.norm();
  if (std::abs(axis.dot(pointC - pointB)) > 1e-9 * scale) return nullptr;
  if (geo.u.norm() < 1e-9 * scale || geo.w.norm() < 1e-9 * scale || geo.r.norm() < 1e-9 * scale) return nullptr;
  return std::make_shared<FourBarJoint>(std::make_shared<PlanarFourBarConstraint>(geo),
                                        set.independentCoordinates().front(), model, first);
}

}  // namespace grbda::detail
