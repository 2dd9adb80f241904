// The approximate / unconstrained baselines (spec §6.9.3): the independent tree, the reflected
// inertia against hand formulas and against the exact model where the approximation is exact
// (rotors on the ground), self-consistency of each option, and the accuracy experiment of
// spec §8.3 on the MIT Humanoid leg (the approximation must beat dropping the rotors).
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <iostream>

#include "cluster_support/constrained_models.hpp"
#include "grbda/grbda.hpp"
#include "support/allocation_counter.hpp"
#include "support/compare.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

constexpr RotorApproximation kAllOptions[] = {RotorApproximation::None, RotorApproximation::Diagonal,
                                              RotorApproximation::BlockDiagonal};
const char* optionName(RotorApproximation o) {
  return o == RotorApproximation::None ? "None" : o == RotorApproximation::Diagonal ? "Diagonal" : "BlockDiagonal";
}

JointSpec revolute(const std::string& name, const std::string& parent, const std::string& child, const Vec3& axis,
                   const Transform& origin, bool independent = true) {
  JointSpec j;
  j.name = name;
  j.parent = parent;
  j.child = child;
  j.axis = axis;
  j.origin = origin;
  j.independent = independent;
  return j;
}

/// One link and its geared rotor, both on the fixed ground (the rotor's carrier does not move).
ModelBuilder linkAndRotorOnGround(Rng& rng, double gear, const LinkSpec& rotor, const Vec3& rotorAxis) {
  ModelBuilder b("link_and_rotor");
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  b.addLink(randomLink(rng, "link"));
  b.addLink(rotor);
  b.addJoint(revolute("link_joint", "world", "link", randomAxis(rng), randomOrigin(rng)));
  b.addJoint(revolute("rotor_joint", "world", rotor.name, rotorAxis, randomOrigin(rng), false));
  addCoupling(b, "gear", "link", rotor.name, gear);
  return b;
}

/// rotorChain of constrained_models.hpp with the rotors' mass and inertia scaled by `rotorScale`
/// (0: massless rotors, whose exact dynamics are those of the independent tree).
Model scaledRotorChain(unsigned seed, int n, bool floating, double rotorScale) {
  Rng rng(seed);
  ModelBuilder b("rotor_chain");
  std::string parent = startModel(b, rng, floating);
  for (int i = 1; i <= n; ++i) {
    const std::string link = "link" + std::to_string(i), rotor = "rotor" + std::to_string(i);
    addLinkAndJoint(b, rng, link, parent, randomAxis(rng), true, randomOrigin(rng));
    LinkSpec r = randomLink(rng, rotor);
    r.mass *= rotorScale;
    r.inertia *= rotorScale;
    b.addLink(r);
    b.addJoint(revolute(rotor + "_joint", parent, rotor, randomAxis(rng), randomOrigin(rng), false));
    addCoupling(b, "gear" + std::to_string(i), link, rotor, uniform(rng, 2.0, 10.0));
    parent = link;
  }
  return b.build();
}

std::vector<std::string> independentBodyNames(const Model& m) {
  std::vector<std::string> names;
  for (const auto& b : m.bodies())
    if (b.independent) names.push_back(b.name);
  return names;
}

}  // namespace

TEST(Approximate, IndependentTreeKeepsTheIndependentBodiesInOrder) {
  Rng rng(31);
  struct Case {
    std::string name;
    Model model;
    int bodies;
  };
  std::vector<Case> cases;
  cases.push_back({"rotor chain 3", rotorChain(rng, 3, false), 3});
  cases.push_back({"rotor chain 4 floating", rotorChain(rng, 4, true), 5});
  cases.push_back({"belt chain 2", beltChain(rng, 2, false), 4});
  cases.push_back({"belt chain 2 floating", beltChain(rng, 2, true), 5});
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const Model tree = independentTreeModel(c.model);
    EXPECT_EQ(tree.numBodies(), c.bodies);
    EXPECT_EQ(c.model.numBodies() - tree.numBodies(), c.model.nvSpanning() - c.model.nv());  // one per rotor
    EXPECT_FALSE(tree.hasConstraints());
    EXPECT_EQ(tree.nq(), c.model.nq());
    EXPECT_EQ(tree.nv(), c.model.nv());
    EXPECT_EQ(tree.positionNames(), c.model.positionNames());
    EXPECT_EQ(tree.velocityNames(), c.model.velocityNames());
    std::vector<std::string> treeNames;
    for (const auto& b : tree.bodies()) treeNames.push_back(b.name);
    EXPECT_EQ(treeNames, independentBodyNames(c.model));
    EXPECT_EQ(tree.isFloatingBase(), c.model.isFloatingBase());
    EXPECT_EQ(tree.gravity(), c.model.gravity());
    for (const auto& b : c.model.bodies()) {  // link frames kept, rotor frames dropped
      if (b.independent) EXPECT_EQ(tree.body(tree.frame(tree.frameIndex(b.name)).body).name, b.name);
      else EXPECT_THROW(tree.frameIndex(b.name), InputError);
    }
    EXPECT_NO_THROW(tree.frameIndex("world"));
  }
}

// The links move exactly as in the constrained model (the removed rotors are leaves).
TEST(Approximate, LinkKinematicsMatchTheConstrainedModel) {
  Rng rng(32);
  for (auto& [name, model] : constrainedModels(rng)) {
    if (name.find("four-bar") != std::string::npos) continue;  // couplers carry the next four-bar
    SCOPED_TRACE(name);
    const Model tree = independentTreeModel(model);
    Data exact(model), approx(tree);
    for (int s = 0; s < 5; ++s) {
      const VecX q = randomIndependentConfiguration(rng, model), v = randomVector(rng, model.nv());
      forwardKinematics(model, exact, q, v);
      forwardKinematics(tree, approx, q, v);
      for (const auto& b : tree.bodies()) {
        const int fe = model.frameIndex(b.name), fa = tree.frameIndex(b.name);
        EXPECT_LT((framePosition(model, exact, fe) - framePosition(tree, approx, fa)).norm(), 1e-12) << b.name;
        EXPECT_LT((frameRotation(model, exact, fe) - frameRotation(tree, approx, fa)).norm(), 1e-12) << b.name;
        EXPECT_LT((frameVelocity(model, exact, fe) - frameVelocity(tree, approx, fa)).norm(), 1e-11) << b.name;
      }
    }
  }
}

// A kept body whose parent is a removed rotor hangs from the nearest kept ancestor (here the
// ground) at zero rotor angle: same pose as the constrained model when the rotor is at zero,
// a different one otherwise.
TEST(Approximate, BodyBelowARemovedBodyHangsFromTheNearestKeptAncestor) {
  Rng rng(33);
  ModelBuilder b("on_rotor");
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  for (const char* l : {"link", "rotor", "payload"}) b.addLink(randomLink(rng, l));
  b.addJoint(revolute("link_joint", "world", "link", Vec3::UnitZ(), randomOrigin(rng)));
  b.addJoint(revolute("rotor_joint", "world", "rotor", Vec3::UnitX(), randomOrigin(rng), false));
  b.addJoint(revolute("payload_joint", "rotor", "payload", Vec3::UnitY(), randomOrigin(rng)));
  addCoupling(b, "gear", "link", "rotor", 3.0);
  const Model model = b.build();
  const Model tree = independentTreeModel(model);
  ASSERT_EQ(tree.numBodies(), 2);
  EXPECT_EQ(tree.body(1).name, "payload");
  EXPECT_EQ(tree.body(1).parent, -1);
  Data exact(model), approx(tree);
  const int fe = model.frameIndex("payload"), fa = tree.frameIndex("payload");
  VecX q(2);
  q << 0.0, 0.7;
  forwardKinematics(model, exact, q);
  forwardKinematics(tree, approx, q);
  EXPECT_LT((framePosition(model, exact, fe) - framePosition(tree, approx, fa)).norm(), 1e-12);
  EXPECT_LT((frameRotation(model, exact, fe) - frameRotation(tree, approx, fa)).norm(), 1e-12);
  q[0] = 0.4;  // rotor at 1.2 rad: the payload moves in the constrained model only
  forwardKinematics(model, exact, q);
  forwardKinematics(tree, approx, q);
  EXPECT_GT((frameRotation(model, exact, fe) - frameRotation(tree, approx, fa)).norm(), 1e-3);
}

// Geared rotor on the ground: R = N² e_rᵀ I_r^(O) e_r by hand, and H_exact = H_tree + R exactly.
TEST(Approximate, GearedRotorOnTheGroundIsExact) {
  Rng rng(34);
  for (int trial = 0; trial < 5; ++trial) {
    const double gear = uniform(rng, 2.0, 12.0) * (trial % 2 ? -1.0 : 1.0);
    LinkSpec rotor = randomLink(rng, "rotor");  // COM off the axis: the m c×c×ᵀ term matters
    const Vec3 axis = randomAxis(rng);
    const Model model = linkAndRotorOnGround(rng, gear, rotor, axis).build();
    const Vec3 e = axis.normalized(), c = rotor.com;
    const Mat3 IO = rotor.inertia + rotor.mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
    const double expected = gear * gear * e.dot(IO * e);
    const MatX R = reflectedInertia(model);
    ASSERT_EQ(R.rows(), 1);
    EXPECT_NEAR(R(0, 0), expected, 1e-14 * expected);

    Data data(model);
    for (RotorApproximation o : {RotorApproximation::Diagonal, RotorApproximation::BlockDiagonal}) {
      SCOPED_TRACE(optionName(o));
      const ApproximateModel am = makeApproximateModel(model, o);
      Data ad(am.tree);
      const VecX q = randomVector(rng, 1, -3.0, 3.0);
      const MatX H = massMatrix(model, data, q);
      EXPECT_NEAR(approximateMassMatrix(am, ad, q)(0, 0), H(0, 0), 1e-12 * H(0, 0));
    }
    const ApproximateModel none = makeApproximateModel(model, RotorApproximation::None);
    Data nd(none.tree);
    const VecX q = randomVector(rng, 1, -3.0, 3.0);
    EXPECT_NEAR(massMatrix(model, data, q)(0, 0) - approximateMassMatrix(none, nd, q)(0, 0), expected,
                1e-12 * expected);
  }
}

// With the rotor COM on its axis the rotor exerts no gravity or gyroscopic torque about the
// axis, so the whole inverse dynamics is exact too.
TEST(Approximate, GearedRotorOnTheGroundInverseDynamicsIsExact) {
  Rng rng(35);
  for (int trial = 0; trial < 5; ++trial) {
    LinkSpec rotor = randomLink(rng, "rotor");
    const Vec3 axis = randomAxis(rng);
    rotor.com = 0.05 * axis;
    const Model model = linkAndRotorOnGround(rng, uniform(rng, 2.0, 12.0), rotor, axis).build();
    Data data(model);
    for (RotorApproximation o : {RotorApproximation::Diagonal, RotorApproximation::BlockDiagonal}) {
      SCOPED_TRACE(optionName(o));
      const ApproximateModel am = makeApproximateModel(model, o);
      Data ad(am.tree);
      const VecX q = randomVector(rng, 1, -3.0, 3.0), v = randomVector(rng, 1, -5, 5), a = randomVector(rng, 1);
      const VecX exact = inverseDynamics(model, data, q, v, a);
      EXPECT_LT(relErr(approximateInverseDynamics(am, ad, q, v, a), exact), 1e-12);
      const VecX tau = randomVector(rng, 1);
      EXPECT_LT(relErr(approximateForwardDynamics(am, ad, q, v, tau), forwardDynamics(model, data, q, v, tau)), 1e-12);
    }
  }
}

// Belt pair with both rotors on the ground: the block approximation is exact, the diagonal one
// misses exactly the off-diagonal (coupling) term of R.
TEST(Approximate, BeltPairOnTheGroundBlockIsExactDiagonalMissesTheCoupling) {
  Rng rng(36);
  for (int trial = 0; trial < 5; ++trial) {
    const Model model = beltChain(rng, 1, false);
    ASSERT_EQ(model.nv(), 2);
    const ApproximateModel block = makeApproximateModel(model, RotorApproximation::BlockDiagonal);
    const ApproximateModel diag = makeApproximateModel(model, RotorApproximation::Diagonal);
    Data data(model), bd(block.tree), dd(diag.tree);
    const MatX& R = block.reflectedInertia;
    EXPECT_GT(std::abs(R(0, 1)), 1e-6);  // rotor B turns with q1 + q2
    EXPECT_EQ(R(0, 1), R(1, 0));
    for (int s = 0; s < 3; ++s) {
      const VecX q = randomVector(rng, 2, -3.0, 3.0);
      const MatX H = massMatrix(model, data, q);
      EXPECT_LT((approximateMassMatrix(block, bd, q) - H).norm(), 1e-12 * H.norm());
      const MatX missing = H - approximateMassMatrix(diag, dd, q);
      EXPECT_NEAR(missing(0, 1), R(0, 1), 1e-12 * H.norm());
      EXPECT_NEAR(missing(1, 0), R(1, 0), 1e-12 * H.norm());
      EXPECT_NEAR(missing(0, 0), 0.0, 1e-12 * H.norm());
      EXPECT_NEAR(missing(1, 1), 0.0, 1e-12 * H.norm());
    }
  }
}

// Rotors on moving links: the rotor also turns with its carrier, which R ignores.
TEST(Approximate, ApproximationErrorIsNonZeroWhenCarriersMove) {
  Rng rng(37);
  const Model model = rotorChain(rng, 3, false);
  const ApproximateModel block = makeApproximateModel(model, RotorApproximation::BlockDiagonal);
  Data data(model), bd(block.tree);
  for (int s = 0; s < 5; ++s) {
    const VecX q = randomIndependentConfiguration(rng, model);
    const MatX H = massMatrix(model, data, q);
    const double err = (approximateMassMatrix(block, bd, q) - H).norm();
    EXPECT_GT(err, 1e-6 * H.norm());
    EXPECT_LT(err, H.norm());  // an approximation, not garbage
  }
}

// Massless rotors: the unconstrained model is the exact dynamics.
TEST(Approximate, UnconstrainedEqualsTheExactModelWithMasslessRotors) {
  for (bool floating : {false, true}) {
    SCOPED_TRACE(floating ? "floating" : "fixed");
    const Model massive = scaledRotorChain(38, 4, floating, 1.0);
    const Model massless = scaledRotorChain(38, 4, floating, 0.0);
    const ApproximateModel none = makeApproximateModel(massive, RotorApproximation::None);
    Data exact(massless), ad(none.tree);
    Rng rng(39);
    for (int s = 0; s < 5; ++s) {
      const VecX q = randomIndependentConfiguration(rng, massive);
      const VecX v = randomVector(rng, massive.nv()), a = randomVector(rng, massive.nv());
      const VecX tau = approximateInverseDynamics(none, ad, q, v, a);
      EXPECT_LT(relErr(tau, inverseDynamics(massless, exact, q, v, a)), 1e-10);
      EXPECT_LT(relErr(tau, tree::rnea(none.tree, ad, q, v, a)), 1e-15);  // = RNEA of the tree
      EXPECT_LT(relErr(approximateForwardDynamics(none, ad, q, v, tau), a), 1e-10);
      EXPECT_LT(relErr(approximateMassMatrix(none, ad, q), massMatrix(massless, exact, q)), 1e-10);
    }
  }
}

TEST(Approximate, EachOptionIsSelfConsistent) {
  Rng rng(40);
  for (auto& [name, model] : constrainedModels(rng)) {
    for (RotorApproximation o : kAllOptions) {
      SCOPED_TRACE(name + " / " + optionName(o));
      const ApproximateModel am = makeApproximateModel(model, o);
      const bool loops = name.find("four-bar") != std::string::npos;
      EXPECT_EQ(am.unsupportedClusters.empty(), !loops);
      if (loops) EXPECT_EQ(am.reflectedInertia.norm(), 0.0);  // only "unconstrained" applies
      else EXPECT_GT(am.reflectedInertia.norm(), 0.0);
      Data ad(am.tree);
      for (int s = 0; s < 5; ++s) {
        const VecX q = randomIndependentConfiguration(rng, model);
        const VecX v = randomVector(rng, model.nv()), a = randomVector(rng, model.nv());
        const VecX tau = approximateInverseDynamics(am, ad, q, v, a);
        EXPECT_LT(relErr(approximateForwardDynamics(am, ad, q, v, tau), a), 1e-9);  // FD(ID(a)) = a
        const MatX H = approximateMassMatrix(am, ad, q);
        const VecX C = approximateBiasForces(am, ad, q, v);
        EXPECT_LT(relErr(VecX(H * a + C), tau), 1e-10);
        EXPECT_EQ(Eigen::LLT<MatX>(H).info(), Eigen::Success);
      }
    }
  }
}

// The approximate dynamics are benchmarked against C-ABA / C-RNEA: no heap traffic on a prepared Data.
TEST(Approximate, HotCallsAllocateNothing) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no allocation counter linked in (see tests/support/allocation_counter.hpp)";
  Rng rng(42);
  for (auto& [name, model] : constrainedModels(rng)) {
    for (RotorApproximation o : kAllOptions) {
      SCOPED_TRACE(name + " / " + optionName(o));
      const ApproximateModel am = makeApproximateModel(model, o);
      Data ad(am.tree);
      const VecX q = randomIndependentConfiguration(rng, model);
      const VecX v = randomVector(rng, model.nv()), x = randomVector(rng, model.nv());
      AllocationScope scope;
      approximateInverseDynamics(am, ad, q, v, x);
      approximateForwardDynamics(am, ad, q, v, x);
      approximateMassMatrix(am, ad, q);
      approximateBiasForces(am, ad, q, v);
      EXPECT_EQ(scope.count(), 0);
    }
  }
}

TEST(Approximate, BadInputGivesTypedErrors) {
  Rng rng(41);
  const Model model = rotorChain(rng, 2, false);
  const ApproximateModel am = makeApproximateModel(model, RotorApproximation::Diagonal);
  Data ad(am.tree), wrong(model);
  const VecX q = VecX::Zero(2), v = VecX::Zero(2);
  EXPECT_THROW(approximateInverseDynamics(am, wrong, q, v, v), InputError);  // Data of the wrong model
  EXPECT_THROW(approximateInverseDynamics(am, ad, VecX::Zero(3), v, v), InputError);
  VecX bad = v;
  bad[1] = std::nan("");
  EXPECT_THROW(approximateForwardDynamics(am, ad, q, v, bad), InputError);
  EXPECT_THROW(approximateMassMatrix(am, ad, bad), InputError);
}

// Spec §8.3: one MIT Humanoid leg (fixed base), every joint y(t) = A sin(2π f t). Torques of the
// exact C-RNEA vs RNEA on the unconstrained (rotors dropped) and approximate (armature) trees.
TEST(Approximate, AccuracyOnTheMitHumanoidLeg) {
  ModelBuilder b = parseUrdfFile(std::string(GRBDA_SOURCE_DIR) + "/models/mit_humanoid_leg.urdf");
  if (b.couplings().empty()) {  // until the URDF parser reads <coupling>: the file's five couplings
    addCoupling(b, "hipz_transmission", "hip_rz_link", "hip_rz_rotor", 6.0);
    addCoupling(b, "hipx_transmission", "hip_rx_link", "hip_rx_rotor", 6.0);
    addCoupling(b, "hipy_transmission", "hip_ry_link", "hip_ry_rotor", 6.0);
    addCoupling(b, "knee_transmission", "knee_link", "knee_rotor", 12.0);
    addCoupling(b, "ankle_transmission", "ankle_link", "ankle_rotor", 12.0);
  }
  const Model leg = b.build();
  ASSERT_EQ(leg.nv(), 5);
  ASSERT_EQ(leg.nvSpanning(), 10);
  ASSERT_EQ(leg.numClusters(), 4);
  const std::vector<std::string> names = {"base_to_hipz_link", "hipz_to_hipx_link", "hipx_to_hipy_link",
                                          "hipy_to_knee_link", "knee_to_ankle"};
  ASSERT_EQ(leg.positionNames(), names);
  const ApproximateModel unconstrained = makeApproximateModel(leg, RotorApproximation::None);
  const ApproximateModel approximate = makeApproximateModel(leg, RotorApproximation::Diagonal);
  const ApproximateModel block = makeApproximateModel(leg, RotorApproximation::BlockDiagonal);
  // Armature by hand from the URDF: N² J about the rotor axis (hip z: izz, hip x: ixx, hip y, knee,
  // ankle: iyy); the ankle rotor turns at 12 (q_knee + q_ankle), so it also loads the knee.
  const VecX armature = (VecX(5) << 36 * 1.6841e-4, 36 * 1.6841e-4, 36 * 5.548e-4, 144 * (5.548e-4 + 1.6841e-4),
                         144 * 1.6841e-4).finished();
  EXPECT_LT((approximate.armature - armature).norm(), 1e-12);
  EXPECT_NEAR(block.reflectedInertia(3, 4), 144 * 1.6841e-4, 1e-12);  // ankle rotor turns with knee + ankle

  Data exactData(leg), ud(unconstrained.tree), ad(approximate.tree), bd(block.tree);
  const double A = 0.5, kTwoPi = 2.0 * kPi;
  for (double f : {1.0, 1.5}) {
    const int samples = f == 1.0 ? 200 : 10000;  // 1 Hz: one period; 1.5 Hz: spec protocol (5 s, Δt = 5e-4 s)
    const double dt = f == 1.0 ? 1.0 / samples : 5e-4;
    VecX sqU = VecX::Zero(5), sqA = VecX::Zero(5), sqB = VecX::Zero(5), peak = VecX::Zero(5);
    for (int k = 0; k < samples; ++k) {
      const double t = k * dt, w = kTwoPi * f;
      const VecX y = VecX::Constant(5, A * std::sin(w * t));
      const VecX yd = VecX::Constant(5, A * w * std::cos(w * t));
      const VecX ydd = VecX::Constant(5, -A * w * w * std::sin(w * t));
      const VecX exact = inverseDynamics(leg, exactData, y, yd, ydd);
      sqU += (approximateInverseDynamics(unconstrained, ud, y, yd, ydd) - exact).cwiseAbs2();
      sqA += (approximateInverseDynamics(approximate, ad, y, yd, ydd) - exact).cwiseAbs2();
      sqB += (approximateInverseDynamics(block, bd, y, yd, ydd) - exact).cwiseAbs2();
      peak = peak.cwiseMax(exact.cwiseAbs());
    }
    const VecX rmsU = (sqU / samples).cwiseSqrt(), rmsA = (sqA / samples).cwiseSqrt(),
               rmsB = (sqB / samples).cwiseSqrt();
    std::cout << std::fixed << std::setprecision(4) << "[ measured ] MIT Humanoid leg, A = 0.5 rad, f = " << f
              << " Hz, " << samples << " samples: RMS torque error vs C-RNEA (N m)\n";
    for (int j = 0; j < 5; ++j)
      std::cout << "    " << std::setw(18) << names[static_cast<size_t>(j)] << "  unconstrained " << rmsU[j]
                << "  approximate(diag) " << rmsA[j] << "  block " << rmsB[j] << "  peak |tau| " << peak[j] << "\n";
    for (int j : {3, 4}) {  // knee, ankle
      SCOPED_TRACE(names[static_cast<size_t>(j)] + " at f = " + std::to_string(f));
      EXPECT_GT(rmsU[j], rmsA[j]);
      EXPECT_GT(rmsA[j], 0.0);
      EXPECT_GT(rmsA[j], rmsB[j]);  // the belt couples knee and ankle: the full block does better
    }
    if (f == 1.5) {  // published ([P0] §VI-C, [P2] §IX-B): 4.31 and 1.04 N m, row 4 = the knee (spec §8.3)
      EXPECT_NEAR(rmsU[3], 4.31, 0.02);
      EXPECT_NEAR(rmsA[3], 1.04, 0.02);
    }
  }
}
