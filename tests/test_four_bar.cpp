// The specialised FourBar cluster joint (spec §2.6, §5.7) against the Generic joint on the same
// bodies (the same builder compiled with setSpecialisedJoints(false)): completed positions, S,
// bias, transforms, G, g, whole-model dynamics. Mechanisms: models/four_bar.urdf, the four-bar
// benchmark family, the planar leg linkage, and random four-bars built in code (random link
// lengths, axis signs and frame turns, loop points off the pivots, mechanism plane at a random
// pose, either link independent). Also: recognition falls back to Generic when the mechanism is
// not exactly planar, and toggle/unreachable driver positions raise NumericalError.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <limits>

#include "cluster/cluster_joint.hpp"
#include "cluster_support/constrained_models.hpp"
#include "grbda/grbda.hpp"
#include "support/compare.hpp"
#include "data_workspace.hpp"
#include "support/model_files.hpp"

using namespace grbda;
using namespace grbda::testsupport;
namespace fs = std::filesystem;

namespace {

using Vec2 = Eigen::Vector2d;


bool isConstrained(const Cluster& cl) { return cl.nvSpan != cl.nv; }

/// The same builder compiled twice: specialised joints recognised, and every cluster Generic.
struct Pair {
  Model fast, generic;
};
Pair compileBoth(ModelBuilder b) {
  Model fast = b.build();
  b.setSpecialisedJoints(false);
  return {std::move(fast), b.build()};
}

int countType(const Model& m, const std::string& type) {
  int n = 0;
  for (const auto& cl : m.clusters()) n += std::string(cl.typeName()) == type;
  return n;
}

// ----- random four-bars built in code -----------------------------------------------------------

/// The zero pose in the mechanism plane: ground pivots of the crank A and the rocker B, the
/// coupler's pivot P on the crank, and the loop point Q where coupler and rocker meet.
struct PlanarPose {
  Vec2 pivotA, pivotB, P, Q;
};

Vec2 polar(double length, double angle) { return length * Vec2(std::cos(angle), std::sin(angle)); }
double sine(const Vec2& a, const Vec2& b) { return std::abs(a.x() * b.y() - a.y() * b.x()) / (a.norm() * b.norm()); }

/// A closed zero pose far from toggles for any choice of driver: the angles between crank and
/// coupler, coupler and rocker, and dyad and rocker are all at least 30° from 0 and 180°.
PlanarPose randomPose(Rng& rng) {
  for (;;) {
    PlanarPose p;
    p.pivotA = Vec2(uniform(rng, -0.5, 0.5), uniform(rng, -0.5, 0.5));
    p.pivotB = p.pivotA + polar(uniform(rng, 0.6, 1.2), uniform(rng, -kPi, kPi));
    p.P = p.pivotA + polar(uniform(rng, 0.2, 0.6), uniform(rng, -kPi, kPi));
    p.Q = p.pivotB + polar(uniform(rng, 0.3, 1.0), uniform(rng, -kPi, kPi));
    const Vec2 u = p.P - p.pivotA, w = p.Q - p.P, r = p.Q - p.pivotB;
    if (w.norm() > 0.2 && sine(u, w) > 0.5 && sine(w, r) > 0.5 && sine(u + w, r) > 0.5) return p;
  }
}

enum class Driver { Crank, Coupler, Rocker };

struct FourBarOptions {
  Driver driver = Driver::Crank;
  bool floating = false;
  bool couplerIsPredecessor = true;
  bool randomFrames = true;  ///< random axis signs and frame turns/flips; false: all frames aligned, axes +normal
  double loopGap = 0.0;      ///< successor loop frame this far from the predecessor's along the axis
};

/// Links "crank" (A) and "rocker" (B) on a hip, "coupler" (C) on the crank, a "tip" on the
/// coupler; one revolute loop joins C and B at Q. The mechanism plane sits at a random pose in the
/// hip; each joint frame lies at a random height along the plane normal.
ModelBuilder fourBarBuilder(Rng& rng, const PlanarPose& pose, const FourBarOptions& opt) {
  ModelBuilder b("random_four_bar");
  const std::string hip = addHip(b, rng, startModel(b, rng, opt.floating));
  const Transform plane(randomRotation(rng), randomVec3(rng, -0.5, 0.5));  // ^plane X_hip
  auto frameAt = [&](const Vec2& p) {  // ^frame X_plane, frame z = ± plane normal
    Mat3 E = Mat3::Identity();
    if (opt.randomFrames) {
      E = coordinateRotation(Vec3::UnitZ(), uniform(rng, -kPi, kPi));
      if (uniformInt(rng, 0, 1)) E = coordinateRotation(Vec3::UnitX(), kPi) * E;
    }
    return Transform(E, Vec3(p.x(), p.y(), uniform(rng, -0.3, 0.3)));
  };
  auto axis = [&]() { return opt.randomFrames && uniformInt(rng, 0, 1) ? Vec3(-Vec3::UnitZ()) : Vec3(Vec3::UnitZ()); };
  const Transform FA = frameAt(pose.pivotA), FB = frameAt(pose.pivotB), FC = frameAt(pose.P), FL = frameAt(pose.Q);
  addLinkAndJoint(b, rng, "crank", hip, axis(), opt.driver == Driver::Crank, FA * plane);
  addLinkAndJoint(b, rng, "rocker", hip, axis(), opt.driver == Driver::Rocker, FB * plane);
  addLinkAndJoint(b, rng, "coupler", "crank", axis(), opt.driver == Driver::Coupler, FC * FA.inverse());
  addLinkAndJoint(b, rng, "tip", "coupler", randomAxis(rng), true, randomOrigin(rng));
  LoopSpec l;  // both loop frames coincide with FL at q = 0
  l.name = "loop";
  l.type = LoopKind::Revolute;
  l.predecessor = opt.couplerIsPredecessor ? "coupler" : "rocker";
  l.successor = opt.couplerIsPredecessor ? "rocker" : "coupler";
  l.predecessorOrigin = FL * (opt.couplerIsPredecessor ? FC : FB).inverse();
  l.successorOrigin = Transform::translation(Vec3(0, 0, opt.loopGap)) * FL * (opt.couplerIsPredecessor ? FB : FC).inverse();
  l.axis = axis();
  b.addLoop(l);
  return b;
}

FourBarOptions randomOptions(Rng& rng) {
  FourBarOptions o;
  o.driver = static_cast<Driver>(uniformInt(rng, 0, 2));
  o.floating = uniformInt(rng, 0, 1) == 1;
  o.couplerIsPredecessor = uniformInt(rng, 0, 1) == 1;
  return o;
}

/// Independent positions near the zero pose (which the random four-bars are built around).
VecX nearZero(Rng& rng, const Model& m, double range) {
  VecX q = randomVector(rng, m.nq(), -range, range);
  for (const auto& cl : m.clusters())
    if (std::string(cl.typeName()) == "Free") {
      const Eigen::Quaterniond r = randomQuaternion(rng);
      q.segment<3>(cl.qIndex) = randomVec3(rng);
      q.segment<4>(cl.qIndex + 3) << r.w(), r.x(), r.y(), r.z();
    }
  return q;
}

struct Case {
  std::string name;
  ModelBuilder builder;
  double lo, hi;  ///< range of the 1-DoF independent positions
};

std::vector<Case> cases(Rng& rng) {
  std::vector<Case> c;
  c.push_back({"four_bar.urdf", parseUrdfFile((modelsPath() / "four_bar.urdf").string()), 0.3, 1.2});
  c.push_back({"four_bar_branch_2_2.urdf", parseUrdfFile((modelsPath() / "generated/four_bar_branch_2_2.urdf").string()), 0.3,
               1.2});
  c.push_back({"planar_leg_linkage.urdf", parseUrdfFile((modelsPath() / "planar_leg_linkage.urdf").string()), 0.3, 1.2});
  for (int i = 0; i < 12; ++i) {
    const FourBarOptions o = randomOptions(rng);
    const char* driver[] = {"crank", "coupler", "rocker"};
    c.push_back({"random four-bar " + std::to_string(i) + " (" + driver[static_cast<int>(o.driver)] + " driven" +
                     (o.floating ? ", floating" : "") + (o.couplerIsPredecessor ? "" : ", rocker predecessor") + ")",
                 fourBarBuilder(rng, randomPose(rng), o), -0.25, 0.25});
  }
  return c;
}

VecX positions(Rng& rng, const Model& m, double lo, double hi) {
  return lo < 0 ? nearZero(rng, m, hi) : randomIndependentConfiguration(rng, m);
}

/// Positions in the case's range at which every four-bar closes from the zero pose (the random
/// four-bars are regular at q = 0, but a driven rocker soon reaches its dead point). A draw that
/// FourBar refuses must be refused by Generic too.
VecX reachable(Rng& rng, const Pair& p, const Case& c) {
  for (;;) {
    const VecX q = positions(rng, p.fast, c.lo, c.hi);
    Data d(p.fast);
    try {
      completeConfiguration(p.fast, d, q);
      return q;
    } catch (const NumericalError&) {
      Data dg(p.generic);
      EXPECT_THROW(completeConfiguration(p.generic, dg, q), NumericalError) << "q = " << q.transpose();
    }
  }
}

/// Runs f(pair, fourBarData, genericData, q, sample) on `samples` reachable positions of every case.
template <typename F>
void forReachablePositions(Rng& rng, int samples, F f) {
  for (auto& c : cases(rng)) {
    SCOPED_TRACE(c.name);
    const Pair p = compileBoth(c.builder);
    Data df(p.fast), dg(p.generic);
    for (int s = 0; s < samples; ++s) f(p, df, dg, reachable(rng, p, c), s);
  }
}

double maxDiff(const MatX& a, const MatX& b) { return a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff(); }
double maxDiff(const Transform& a, const Transform& b) {
  return std::max((a.E - b.E).cwiseAbs().maxCoeff(), (a.r - b.r).cwiseAbs().maxCoeff());
}

}  // namespace

TEST(FourBar, FourBarClustersAreRecognisedAndGenericWhenDisabled) {
  Rng rng(401);
  for (auto& c : cases(rng)) {
    SCOPED_TRACE(c.name);
    const Pair p = compileBoth(c.builder);
    int loops = 0;
    for (const auto& cl : p.fast.clusters())
      if (isConstrained(cl)) {
        EXPECT_STREQ(cl.typeName(), "FourBar");
        EXPECT_EQ(cl.numBodies, 3);
        EXPECT_EQ(cl.nv, 1);
        ++loops;
      }
    EXPECT_GT(loops, 0);
    EXPECT_EQ(countType(p.generic, "FourBar"), 0);
    EXPECT_EQ(countType(p.generic, "Generic"), loops);
    // the two compilations differ only in the joint types
    ASSERT_EQ(p.fast.numBodies(), p.generic.numBodies());
    ASSERT_EQ(p.fast.nq(), p.generic.nq());
    EXPECT_EQ(p.fast.positionNames(), p.generic.positionNames());
  }
  EXPECT_EQ(countType(loadUrdf((modelsPath() / "generated/four_bar_branch_2_2.urdf").string()), "FourBar"), 4);
}

TEST(FourBar, JointUpdateEqualsTheGenericJoint) {
  // Generic is given FourBar's completed spanning positions (completion is compared in the next
  // tests); every quantity the cluster joint writes must then agree.
  Rng rng(402);
  double worst = 0, worstPhi = 0, worstPhiLoop = 0, worstKG = 0;
  forReachablePositions(rng, 25, [&](const Pair& p, Data& df, Data& dg, const VecX& q, int s) {
    const VecX v = randomVector(rng, p.fast.nv(), -2, 2);
    forwardKinematics(p.fast, df, q, v);
    const VecX qSpan = df.qSpan;
    forwardKinematics(p.generic, dg, qSpan, v);
    double e = std::max(maxDiff(df.qSpan, dg.qSpan), maxDiff(df.vSpan, dg.vSpan));
    for (int i = 0; i < p.fast.numBodies(); ++i) {
      e = std::max({e, maxDiff(df.work().Xup[i], dg.work().Xup[i]), maxDiff(df.work().Xout[i], dg.work().Xout[i]), maxDiff(df.Xa[i], dg.Xa[i])});
      e = std::max({e, maxDiff(df.v[i], dg.v[i]), maxDiff(df.work().c[i], dg.work().c[i])});
    }
    for (int k = 0; k < p.fast.numClusters(); ++k) {
      const Cluster& cl = p.fast.cluster(k);
      if (!isConstrained(cl)) continue;
      ClusterData& cf = df.work().clusters[static_cast<size_t>(k)];
      ClusterData& cg = dg.work().clusters[static_cast<size_t>(k)];
      e = std::max({e, maxDiff(cf.S, cg.S), maxDiff(cf.G, cg.G), maxDiff(cf.g, cg.g)});
      // closed: the planar rows of FourBar and the 3-D loop rows of Generic, at FourBar's positions
      const double* qs = df.qSpan.data() + cl.qSpanIndex;
      worstPhi = std::max(worstPhi, cl.joint->constraintViolation(qs, cf));
      worstPhiLoop = std::max(worstPhiLoop, p.generic.cluster(k).joint->constraintViolation(qs, cg));
      // the analytic K, k are consistent with G, g
      worstKG = std::max({worstKG, (cf.K * cf.G).cwiseAbs().maxCoeff(), (cf.K * cf.g - cf.k).cwiseAbs().maxCoeff()});
    }
    EXPECT_LT(e, 1e-10) << "sample " << s;
    worst = std::max(worst, e);
  });
  EXPECT_LT(worstPhi, 1e-12);
  EXPECT_LT(worstPhiLoop, 1e-12);
  EXPECT_LT(worstKG, 1e-12);
  std::cout << "[ measured ] FourBar vs Generic joint: max |difference| " << worst << "; |phi| planar " << worstPhi
            << ", 3-D loop " << worstPhiLoop << "; |KG|, |Kg-k| " << worstKG << "\n";
}

TEST(FourBar, CompletedPositionsEqualGenericCompletionFromTheZeroPose) {
  // Fresh Data on both sides: both start from the zero pose, which the random four-bars are
  // built around (regular there), so closed form and Newton must find the same solution.
  Rng rng(409);
  double worst = 0;
  for (auto& c : cases(rng)) {
    if (c.lo >= 0) continue;  // the URDF four-bars are singular at q = 0 (see the next test)
    SCOPED_TRACE(c.name);
    const Pair p = compileBoth(c.builder);
    for (int s = 0; s < 20; ++s) {
      const VecX q = reachable(rng, p, c);
      Data df(p.fast), dg(p.generic);
      const double e = maxDiff(completeConfiguration(p.fast, df, q), completeConfiguration(p.generic, dg, q));
      EXPECT_LT(e, 1e-10) << "q = " << q.transpose();
      worst = std::max(worst, e);
    }
  }
  std::cout << "[ measured ] FourBar vs Generic completed positions: max |difference| " << worst << "\n";
}

TEST(FourBar, ParallelogramCompletesOnItsParallelogramBranch) {
  // four_bar.urdf and the benchmark family are parallelograms (crank = rocker, coupler = ground):
  // the documented branch is coupler = −crank, rocker = crank (hand-derived), reached from the
  // zero pose (both assembly modes meet there; the parallelogram one is the nearer).
  Rng rng(410);
  {
    const Model m = loadUrdf((modelsPath() / "four_bar.urdf").string());
    for (double y : {0.3, -0.7, 1.2, 2.5}) {
      Data d(m);
      const VecX& qs = completeConfiguration(m, d, VecX::Constant(1, y));
      EXPECT_LT((qs - Vec3(y, -y, y)).cwiseAbs().maxCoeff(), 1e-12) << "crank " << y;
    }
  }
  const Model m = loadUrdf((modelsPath() / "generated/four_bar_branch_2_2.urdf").string());
  Data d(m);
  const VecX q = randomIndependentConfiguration(rng, m);
  const VecX& qs = completeConfiguration(m, d, q);
  for (int k = 0; k < m.numClusters(); ++k) {
    const Cluster& cl = m.cluster(k);
    if (!isConstrained(cl)) continue;
    const double y = q[cl.qIndex];
    for (int r = 0; r < 3; ++r) {  // rocker L1 = y, crank L2 = y, coupler L3 = -y
      const Body& b = m.body(cl.firstBody + r);
      const double expected = b.parent >= cl.firstBody ? -y : y;
      EXPECT_NEAR(qs[b.qIndex], expected, 1e-12) << b.name;
    }
  }
}

TEST(FourBar, AnalyticJacobianAndBiasMatchFiniteDifferences) {
  // K = ∂φ/∂q and k = −K̇ q̇ of the planar constraint against central differences of its own φ
  // (an independent route: φ is only positions).
  Rng rng(403);
  double worstK = 0, worstk = 0;
  for (auto& c : cases(rng)) {
    const Pair p = compileBoth(c.builder);
    const Model& model = p.fast;
    Data data(model), work(model);
    for (int s = 0; s < 5; ++s) {
      forwardKinematics(model, data, reachable(rng, p, c), randomVector(rng, model.nv(), -2, 2));
      for (int k = 0; k < model.numClusters(); ++k) {
        const Cluster& cl = model.cluster(k);
        if (!isConstrained(cl)) continue;
        const auto& set = cl.joint->constraints();
        ClusterData& w = work.work().clusters[static_cast<size_t>(k)];
        const ClusterData& cd = data.work().clusters[static_cast<size_t>(k)];
        const VecX qs = data.qSpan.segment(cl.qSpanIndex, 3), qd = data.vSpan.segment(cl.vSpanIndex, 3);
        const double h = 1e-6;
        MatX Kfd(2, 3);
        for (int j = 0; j < 3; ++j) {
          VecX qp = qs, qm = qs;
          qp[j] += h;
          qm[j] -= h;
          set.residual(qp.data(), w);
          const VecX phiP = w.phi;
          set.residual(qm.data(), w);
          Kfd.col(j) = (phiP - w.phi) / (2 * h);
        }
        worstK = std::max(worstK, (Kfd - cd.K).cwiseAbs().maxCoeff());
        // φ̈ along q(t) = q + t q̇ is K̇ q̇ (q̈ = 0): k = −(φ(q + t q̇) − 2 φ(q) + φ(q − t q̇)) / t²
        const double t = 1e-4;
        VecX qp = qs + t * qd, qm = qs - t * qd;
        set.residual(qp.data(), w);
        VecX second = w.phi;
        set.residual(qm.data(), w);
        second += w.phi;
        set.residual(qs.data(), w);
        second -= 2.0 * w.phi;
        worstk = std::max(worstk, (-second / (t * t) - cd.k).cwiseAbs().maxCoeff() / (1.0 + cd.k.norm()));
      }
    }
  }
  EXPECT_LT(worstK, 1e-8);
  EXPECT_LT(worstk, 1e-5);
  std::cout << "[ measured ] FourBar analytic K vs FD " << worstK << ", k vs FD " << worstk << "\n";
}

TEST(FourBar, DynamicsEqualTheGenericModel) {
  Rng rng(404);
  double worst = 0;
  forReachablePositions(rng, 10, [&](const Pair& p, Data& df, Data& dg, const VecX& q, int) {
    const VecX qs = completeConfiguration(p.fast, df, q);  // Generic: the same closed configuration
    const VecX v = randomVector(rng, p.fast.nv(), -2, 2), w = randomVector(rng, p.fast.nv(), -2, 2);
    const VecX fd = forwardDynamics(p.fast, df, q, v, w), id = inverseDynamics(p.fast, df, q, v, w);
    const MatX H = massMatrix(p.fast, df, q);
    const VecX C = biasForces(p.fast, df, q, v);
    const double e[] = {relErr(fd, forwardDynamics(p.generic, dg, qs, v, w)),
                        relErr(id, inverseDynamics(p.generic, dg, qs, v, w)), relErr(H, massMatrix(p.generic, dg, qs)),
                        relErr(C, biasForces(p.generic, dg, qs, v))};
    for (double x : e) {
      EXPECT_LT(x, 1e-10);
      worst = std::max(worst, x);
    }
  });
  std::cout << "[ measured ] FourBar vs Generic dynamics (FD, ID, H, C) worst relative difference " << worst << "\n";
}

TEST(FourBar, CompletionFollowsTheBranchAlongAMotion) {
  // Small steps of the driver through a whole swing: every step's completion stays on the branch
  // of the zero pose and is a continuous function of the driver (no jump to the other assembly).
  Rng rng(405);
  for (int m = 0; m < 6; ++m) {
    FourBarOptions o = randomOptions(rng);
    const Pair p = compileBoth(fourBarBuilder(rng, randomPose(rng), o));
    Data df(p.fast), dg(p.generic);
    VecX q = p.fast.neutralConfiguration(), previous;
    const int driver = p.fast.cluster(p.fast.body(p.fast.bodyIndex("crank")).cluster).qIndex;
    for (int s = 0; s <= 60; ++s) {
      q[driver] = 0.3 * std::sin(0.1 * s);
      try {
        const VecX& qs = completeConfiguration(p.fast, df, q);
        if (s > 0) {
          EXPECT_LT((qs - previous).cwiseAbs().maxCoeff(), 0.5) << "step " << s;
        }
        previous = qs;
        EXPECT_LT(maxDiff(qs, completeConfiguration(p.generic, dg, q)), 1e-10) << "step " << s;
      } catch (const NumericalError&) {  // the swing may leave the reachable range; both must agree
        EXPECT_THROW(completeConfiguration(p.generic, dg, q), NumericalError);
        break;
      }
    }
  }
}

TEST(FourBar, ToggleAndUnreachableDriverPositionsRaiseNumericalError) {
  Rng rng(406);
  {  // four_bar.urdf (parallelogram): crank 0 and pi put all links on one line
    const Model m = loadUrdf((modelsPath() / "four_bar.urdf").string());
    Data d(m);
    for (double y : {0.0, kPi}) {
      EXPECT_THROW(completeConfiguration(m, d, VecX::Constant(1, y)), NumericalError) << "crank " << y;
      EXPECT_THROW(forwardDynamics(m, d, VecX::Constant(1, y), VecX::Zero(1), VecX::Zero(1)), NumericalError);
    }
    // and close to them it still works and is finite
    EXPECT_TRUE(completeConfiguration(m, d, VecX::Constant(1, 0.01)).allFinite());
  }
  // A non-Grashof four-bar (crank 0.3, coupler 0.6, rocker 0.6, ground 1): the crank can reach
  // |P − B| = 1.2 (coupler and rocker stretched: toggle) but not beyond (unreachable).
  PlanarPose pose;
  pose.pivotA = Vec2(0, 0);
  pose.pivotB = Vec2(1, 0);
  const double crank0 = 0.5 * kPi;
  pose.P = polar(0.3, crank0);
  {  // Q: where circle(P, 0.6) meets circle(B, 0.6), upper branch (the usual construction)
    const Vec2 D = pose.pivotB - pose.P, e = D / D.norm();
    const double h = std::sqrt(0.36 - 0.25 * D.squaredNorm());
    pose.Q = pose.P + 0.5 * D + h * Vec2(-e.y(), e.x());
  }
  FourBarOptions o;
  o.randomFrames = false;  // driver value = crank angle − crank0
  const Pair p = compileBoth(fourBarBuilder(rng, pose, o));
  ASSERT_EQ(countType(p.fast, "FourBar"), 1);
  const double toggle = std::acos((0.09 + 1.0 - 1.44) / (2 * 0.3 * 1.0));  // |P − B| = 0.6 + 0.6
  const int fourBar = p.fast.body(p.fast.bodyIndex("crank")).cluster;
  const int driver = p.fast.cluster(fourBar).qIndex;
  for (const Model* m : {&p.fast, &p.generic}) {
    SCOPED_TRACE(m->cluster(fourBar).typeName());
    Data d(*m);
    VecX q = m->neutralConfiguration();
    for (double crank : {toggle, kPi, -toggle}) {
      q[driver] = crank - crank0;
      EXPECT_THROW(completeConfiguration(*m, d, q), NumericalError) << "crank angle " << crank;
    }
  }
  // sweep the crank: every position either completes (finite, closed) or raises NumericalError
  Data d(p.fast);
  VecX q = p.fast.neutralConfiguration();
  int closed = 0, refused = 0;
  for (int s = -180; s <= 180; ++s) {
    q[driver] = s * kPi / 180.0 - crank0;
    try {
      const VecX& qs = completeConfiguration(p.fast, d, q);
      ASSERT_TRUE(qs.allFinite());
      const Cluster& cl = p.fast.cluster(fourBar);
      EXPECT_LT(cl.joint->constraintViolation(qs.data() + cl.qSpanIndex, d.work().clusters[static_cast<size_t>(fourBar)]),
                1e-12);
      ++closed;
    } catch (const NumericalError&) {
      ++refused;
    }
  }
  EXPECT_GT(closed, 100);
  EXPECT_GT(refused, 10);
  std::cout << "[ measured ] non-Grashof crank sweep: " << closed << " closed, " << refused << " refused\n";
}

TEST(FourBar, NonPlanarOrOtherMechanismsStayGeneric) {
  Rng rng(407);
  {  // one joint axis tilted by 1e-6: no longer exactly planar
    PlanarPose pose = randomPose(rng);
    ModelBuilder b = fourBarBuilder(rng, pose, FourBarOptions{});
    std::vector<JointSpec> joints = b.joints();
    ModelBuilder tilted("tilted");
    for (const auto& l : b.links()) tilted.addLink(l);
    for (auto j : joints) {
      if (j.name == "rocker_joint") j.axis = (j.axis + Vec3(1e-6, 0, 0)).normalized();
      tilted.addJoint(j);
    }
    for (const auto& l : b.loops()) tilted.addLoop(l);
    try {
      const Model m = tilted.build();
      EXPECT_EQ(countType(m, "FourBar"), 0);
    } catch (const ModelError&) {  // a spatial loop that cannot close: Generic's error, not FourBar
    }
  }
  {  // loop origins at different heights along the axis: they never coincide; not a FourBar
    FourBarOptions o;
    o.loopGap = 0.05;
    try {
      EXPECT_EQ(countType(fourBarBuilder(rng, randomPose(rng), o).build(), "FourBar"), 0);
    } catch (const ModelError&) {
    }
  }
  // the catalogue's other one-loop mechanisms: serial chain closed onto its parent, coupling + loop
  for (auto& mech : mechanismCatalogue(rng, false)) {
    SCOPED_TRACE(mech.name);
    const Model m = mech.builder.build();
    if (mech.name == "loop onto an ancestor" || mech.name == "coupling + loop in one cluster" ||
        mech.name.rfind("six-bar", 0) == 0) {
      EXPECT_EQ(countType(m, "FourBar"), 0);
    }
    if (mech.name == "planar crank-rocker loop") {
      EXPECT_EQ(countType(m, "FourBar"), 1);
    }
    if (mech.name == "two four-bars on one hip") {
      EXPECT_EQ(countType(m, "FourBar"), 2);
    }
  }
}

TEST(FourBar, LoopFramesAtDifferentHeightsAreAnUnclosableLoop) {
  // A planar loop whose two frames sit at different heights along the common axis satisfies its
  // in-plane rows everywhere while the out-of-plane gap stays: the Generic closure keeps only the
  // rows with a non-zero derivative, so the gap must be caught by the full residual at load.
  Rng rng(411);
  for (int k = 0; k < 5; ++k) {
    FourBarOptions o;
    o.loopGap = 0.05;
    try {
      fourBarBuilder(rng, randomPose(rng), o).build();
      ADD_FAILURE() << "a loop with a 0.05 m gap along its axis was accepted";
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot be closed"), std::string::npos) << e.what();
    }
  }
}
