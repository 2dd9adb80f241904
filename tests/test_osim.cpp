// C-EFPA (spec §6.5) and apply-test-force (§6.6) against independent answers: J H⁻¹ Jᵀ from the
// cluster mass matrix and frame Jacobians, the projected baseline J (GᵀH_tree G)⁻¹ Jᵀ on the
// spanning tree (§6.9.6), hand-derived single-body cases; plus errors and allocations.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <iostream>

#include "cluster_support/constrained_models.hpp"
#include "grbda/algorithms/osim.hpp"
#include "grbda/baselines/osim_baselines.hpp"
#include "grbda/grbda.hpp"
#include "support/allocation_counter.hpp"
#include "support/compare.hpp"
#include "support/osim_reference.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

std::vector<NamedModel> testModels(Rng& rng) {
  std::vector<NamedModel> m;
  TreeOptions fixed;
  fixed.numLinks = 9;
  TreeOptions floating = fixed;
  floating.floatingBase = true;
  m.push_back({"random tree", randomTree(rng, fixed)});
  m.push_back({"random tree 2", randomTree(rng, fixed)});
  m.push_back({"random floating tree", randomTree(rng, floating)});
  m.push_back({"rotor chain 3", rotorChain(rng, 3, false)});
  m.push_back({"rotor chain 4 floating", rotorChain(rng, 4, true)});
  m.push_back({"belt chain 2", beltChain(rng, 2, false)});
  m.push_back({"belt chain 1 floating", beltChain(rng, 1, true)});
  m.push_back({"four-bar x2", fourBarChain(rng, 2, false)});
  m.push_back({"four-bar floating", fourBarChain(rng, 1, true)});
  return m;
}

VecX configuration(Rng& rng, const Model& model) {
  return model.hasConstraints() ? randomIndependentConfiguration(rng, model) : randomConfiguration(rng, model);
}

/// n >= 3 end-effectors: two points on one frame, the others on random frames (so different
/// branches, bodies of one cluster and repeated frames all occur over the seeds).
std::vector<EndEffector> randomEndEffectors(Rng& rng, const Model& model, int n) {
  const std::vector<int> frames = movingFrames(model);
  const auto pick = [&] {
    return frames[static_cast<size_t>(uniformInt(rng, 0, static_cast<int>(frames.size()) - 1))];
  };
  std::vector<EndEffector> ees;
  const int shared = pick();
  ees.push_back({shared, randomVec3(rng, -0.3, 0.3)});
  ees.push_back({shared, randomVec3(rng, -0.3, 0.3)});
  while (static_cast<int>(ees.size()) < n) ees.push_back({pick(), randomVec3(rng, -0.3, 0.3)});
  return ees;
}

/// J H⁻¹ Jᵀ with H from the cluster CRBA and J from frameJacobian (Local axes at the point);
/// the linear rows only when `rows` = 3.
MatX referenceOsim(const Model& model, Data& data, const std::vector<EndEffector>& ees, const VecX& q, int rows) {
  const MatX H = massMatrix(model, data, q);
  forwardKinematics(model, data, q);
  const MatX J = stackedJacobian(model, data, ees, rows);
  return J * Eigen::LLT<MatX>(H).solve(J.transpose());
}

/// One body hanging from the ground by a single joint at the identity origin.
Model singleBodyModel(const std::string& name, const LinkSpec& body, JointKind kind, const Vec3& axis) {
  ModelBuilder b(name);
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  b.addLink(body);
  JointSpec j;
  j.name = body.name + "_joint";
  j.kind = kind;
  j.parent = "world";
  j.child = body.name;
  j.axis = axis;
  b.addJoint(j);
  return b.build();
}

}  // namespace

TEST(Osim, EfpaEqualsJacobianTimesInverseMassMatrix) {
  Rng rng(101);
  double worst6 = 0.0, worst3 = 0.0;
  for (auto& [name, model] : testModels(rng)) {
    SCOPED_TRACE(name);
    Data data(model);
    for (int s = 0; s < 6; ++s) {
      const std::vector<EndEffector> ees = randomEndEffectors(rng, model, 5);
      const OsimSet set(model, ees);
      const VecX q = configuration(rng, model);
      const MatX L6 = inverseOperationalSpaceInertia(model, data, set, q);
      const MatX L3 = inverseOperationalSpaceInertia(model, data, set, q, true);
      ASSERT_EQ(L6.rows(), 30);
      ASSERT_EQ(L3.rows(), 15);
      const double e6 = strictRelErr(L6, referenceOsim(model, data, ees, q, 6));
      const double e3 = strictRelErr(L3, referenceOsim(model, data, ees, q, 3));
      EXPECT_LT(e6, 1e-9);
      EXPECT_LT(e3, 1e-9);
      EXPECT_EQ((L6 - L6.transpose()).norm(), 0.0);
      EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatX>(L6).eigenvalues().minCoeff(), -1e-9 * L6.norm());
      worst6 = std::max(worst6, e6);
      worst3 = std::max(worst3, e3);
    }
  }
  std::cout << "[ measured ] C-EFPA vs J H^-1 J^T worst relative error: 6-D " << worst6 << ", 3-D " << worst3 << "\n";
}

TEST(Osim, EfpaEqualsProjectedBaseline) {
  Rng rng(102);
  double worst = 0.0;
  for (auto& [name, model] : testModels(rng)) {
    SCOPED_TRACE(name);
    Data data(model);
    for (int s = 0; s < 4; ++s) {
      const std::vector<EndEffector> ees = randomEndEffectors(rng, model, 4);
      const OsimSet set(model, ees);
      const VecX q = configuration(rng, model);
      for (bool linear : {false, true}) {
        const MatX efpa = inverseOperationalSpaceInertia(model, data, set, q, linear);
        const MatX projected = projectionInverseOperationalSpaceInertia(model, data, ees, q, linear);
        const double e = strictRelErr(efpa, projected);
        EXPECT_LT(e, 1e-9) << (linear ? "3-D" : "6-D");
        worst = std::max(worst, e);
      }
    }
  }
  std::cout << "[ measured ] C-EFPA vs projected J (G^T H_tree G)^-1 J^T worst relative error " << worst << "\n";
}

TEST(Osim, NamedEndEffectorsOnClusterBodiesAndBranches) {
  // rotors share a cluster with their link, the belt rotors with both links of the pair; the
  // second chain hangs from the first chain's rotor-driven link, so paths split inside clusters
  Rng rng(103);
  const Model belts = beltChain(rng, 2, true);
  const Model rotors = rotorChain(rng, 4, false);
  const std::vector<std::pair<const Model*, std::vector<std::string>>> cases = {
      {&belts, {"rotorA1", "rotorB1", "lower1", "upper1", "lower2", "rotorB2", "base"}},
      {&rotors, {"rotor1", "link1", "rotor3", "link4", "rotor4", "link2"}}};
  for (const auto& [model, names] : cases) {
    Data data(*model);
    std::vector<EndEffector> ees;
    for (const std::string& n : names) ees.push_back({model->frameIndex(n), randomVec3(rng, -0.2, 0.2)});
    const OsimSet set(*model, ees);
    const VecX q = randomIndependentConfiguration(rng, *model);
    const MatX expected = referenceOsim(*model, data, ees, q, 6);
    EXPECT_LT(strictRelErr(inverseOperationalSpaceInertia(*model, data, set, q), expected), 1e-9);
  }
}

TEST(Osim, SpanningConfigurationGivesTheSameResult) {
  Rng rng(104);
  const Model model = fourBarChain(rng, 2, true);
  Data data(model);
  const std::vector<EndEffector> ees = randomEndEffectors(rng, model, 3);
  const OsimSet set(model, ees);
  const VecX q = randomIndependentConfiguration(rng, model);
  const MatX fromIndependent = inverseOperationalSpaceInertia(model, data, set, q);
  const VecX qSpan = completeConfiguration(model, data, q);
  EXPECT_LT(strictRelErr(inverseOperationalSpaceInertia(model, data, set, qSpan), fromIndependent), 1e-12);
}

TEST(Osim, SingleFreeBodyAtItsCentreOfMass) {
  // hand-derived: a free body pushed at its COM; body axes: Λ⁻¹ = diag(Ic⁻¹, 1/m)
  Rng rng(105);
  const LinkSpec body = randomLink(rng, "body");
  const Model model = singleBodyModel("free_body", body, JointKind::Floating, Vec3::UnitX());
  Data data(model);
  const OsimSet set(model, {{model.frameIndex("body"), body.com}});
  MatX expected = MatX::Zero(6, 6);
  expected.topLeftCorner<3, 3>() = body.inertia.inverse();
  expected.bottomRightCorner<3, 3>() = Mat3::Identity() / body.mass;
  const VecX q = randomConfiguration(rng, model);
  EXPECT_LT(strictRelErr(inverseOperationalSpaceInertia(model, data, set, q), expected), 1e-12);
}

TEST(Osim, PrismaticBodyMovesOnlyAlongItsAxis) {
  // hand-derived: one body on a prismatic joint along world x; a point anywhere on it has
  // Λ⁻¹ = e eᵀ / m in world axes (no rotation, joint origin unrotated)
  Rng rng(106);
  const LinkSpec body = randomLink(rng, "slider");
  const Model model = singleBodyModel("slider", body, JointKind::Prismatic, Vec3::UnitX());
  Data data(model);
  const OsimSet set(model, {{model.frameIndex("slider"), Vec3(0.3, -0.2, 0.5)}});
  MatX expected = MatX::Zero(3, 3);
  expected(0, 0) = 1.0 / body.mass;
  EXPECT_LT(strictRelErr(inverseOperationalSpaceInertia(model, data, set, VecX::Constant(1, 0.7), true), expected),
            1e-12);
}

TEST(Osim, WorldFrameGivesZeroRowsAndOtherBlocksAreUnchanged) {
  Rng rng(107);
  const Model model = rotorChain(rng, 2, false);
  Data data(model);
  const std::vector<EndEffector> ees = {{model.frameIndex("link2"), Vec3(0.1, 0.2, 0.0)},
                                        {model.frameIndex("world"), Vec3(1.0, 0.0, 0.0)}};
  const OsimSet set(model, ees);
  const VecX q = randomIndependentConfiguration(rng, model);
  const MatX L = inverseOperationalSpaceInertia(model, data, set, q);
  EXPECT_EQ(L.rightCols(6).norm(), 0.0);
  EXPECT_EQ(L.bottomRows(6).norm(), 0.0);
  EXPECT_LT(strictRelErr(L.topLeftCorner(6, 6), referenceOsim(model, data, {ees[0]}, q, 6)), 1e-9);
}

TEST(Osim, ApplyTestForceMatchesJacobianTimesInverseMassMatrix) {
  Rng rng(108);
  double worstLambda = 0.0, worstQdd = 0.0;
  for (auto& [name, model] : testModels(rng)) {
    SCOPED_TRACE(name);
    Data data(model);
    const std::vector<int> frames = movingFrames(model);
    for (int s = 0; s < 4; ++s) {
      const VecX q = configuration(rng, model);
      const int frame = frames[static_cast<size_t>(uniformInt(rng, 0, static_cast<int>(frames.size()) - 1))];
      const Vec3 point = randomVec3(rng, -0.3, 0.3);
      // reference: world-aligned linear Jacobian rows at the point
      const MatX H = massMatrix(model, data, q);
      forwardKinematics(model, data, q);
      Mat6X J;
      frameJacobian(model, data, frame, point, ReferenceFrame::LocalWorldAligned, J);
      const MatX Jlin = J.bottomRows(3);
      const Eigen::LLT<MatX> llt(H);
      const MatX HinvJt = llt.solve(Jlin.transpose());
      const double scale = (Jlin * HinvJt).norm();  // some directions may have λ⁻¹ = 0 (planar four-bars)

      updateForcePropagators(model, data, q);
      VecX dydd;
      const Vec3 forces[] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ(), randomVec3(rng, -5.0, 5.0)};
      for (const Vec3& F : forces) {
        const VecX expectedQdd = HinvJt * F;
        const double expectedLambda = F.dot(Jlin * expectedQdd);
        const double lambdaInv = applyTestForce(model, data, frame, point, F, dydd);
        const double eL = std::abs(lambdaInv - expectedLambda) / (scale * F.squaredNorm());
        const double eQ = (dydd - expectedQdd).norm() / (HinvJt.norm() * F.norm());
        EXPECT_LT(eL, 1e-9);
        EXPECT_LT(eQ, 1e-9);
        worstLambda = std::max(worstLambda, eL);
        worstQdd = std::max(worstQdd, eQ);
      }
    }
  }
  std::cout << "[ measured ] apply-test-force worst relative error: lambda^-1 " << worstLambda << ", qdd "
            << worstQdd << "\n";
}

TEST(Osim, ApplyTestForceAfterEfpaUsesItsPropagators) {
  Rng rng(109);
  const Model model = beltChain(rng, 2, false);
  Data data(model);
  const std::vector<EndEffector> ees = {{model.frameIndex("lower2"), Vec3(0.1, 0.0, -0.2)}};
  const OsimSet set(model, ees);
  const VecX q = randomIndependentConfiguration(rng, model);
  const MatX L = inverseOperationalSpaceInertia(model, data, set, q);
  // Λ⁻¹ in world axes at the point: R L_lin Rᵀ; λ⁻¹ for a unit force e_x is its (0, 0) entry
  const Mat3 R = frameRotation(model, data, ees[0].frame);
  const Mat3 worldLinear = R * L.bottomRightCorner<3, 3>() * R.transpose();
  VecX dydd;
  for (int a = 0; a < 3; ++a) {
    const double lambdaInv = applyTestForce(model, data, ees[0].frame, ees[0].point, Vec3::Unit(a), dydd);
    EXPECT_NEAR(lambdaInv, worldLinear(a, a), 1e-9 * worldLinear.norm());
  }
}

TEST(Osim, ErrorsAreTyped) {
  Rng rng(110);
  const Model model = rotorChain(rng, 2, false);
  const Model other = rotorChain(rng, 3, false);
  Data data(model);
  const int nFrames = static_cast<int>(model.frames().size());
  EXPECT_THROW(OsimSet(model, {{nFrames, Vec3::Zero()}}), InputError);
  EXPECT_THROW(OsimSet(model, {{-1, Vec3::Zero()}}), InputError);
  EXPECT_THROW(OsimSet(model, {{0, Vec3(NAN, 0.0, 0.0)}}), InputError);
  const OsimSet otherSet(other, {{other.frameIndex("link3"), Vec3::Zero()}});
  const VecX q = randomIndependentConfiguration(rng, model);
  EXPECT_THROW(inverseOperationalSpaceInertia(model, data, otherSet, q), InputError);
  const OsimSet set(model, {{model.frameIndex("link2"), Vec3::Zero()}});
  EXPECT_THROW(inverseOperationalSpaceInertia(model, data, set, VecX::Zero(model.nq() + 1)), InputError);

  VecX dydd;
  const int frame = model.frameIndex("link2");
  EXPECT_THROW(applyTestForce(model, data, frame, Vec3::Zero(), Vec3::UnitX(), dydd), InputError);  // no pass yet
  updateForcePropagators(model, data, q);
  EXPECT_NO_THROW(applyTestForce(model, data, frame, Vec3::Zero(), Vec3::UnitX(), dydd));
  EXPECT_THROW(applyTestForce(model, data, nFrames, Vec3::Zero(), Vec3::UnitX(), dydd), InputError);
  EXPECT_THROW(applyTestForce(model, data, frame, Vec3::Zero(), Vec3(0.0, NAN, 0.0), dydd), InputError);
  forwardKinematics(model, data, VecX(q.array() + 0.1));  // the kinematics moved on
  EXPECT_THROW(applyTestForce(model, data, frame, Vec3::Zero(), Vec3::UnitX(), dydd), InputError);
  // so did they after any spanning-tree call, which writes Xup, Xa, v, c too (issue #26)
  const VecX qs = VecX::Zero(model.nqSpanning()), vs = VecX::Zero(model.nvSpanning());
  for (int call = 0; call < 4; ++call) {
    updateForcePropagators(model, data, q);
    ASSERT_NO_THROW(applyTestForce(model, data, frame, Vec3::Zero(), Vec3::UnitX(), dydd));
    if (call == 0) tree::aba(model, data, qs, vs, vs);
    if (call == 1) tree::rnea(model, data, qs, vs, vs);
    if (call == 2) tree::forwardKinematics(model, data, qs);
    if (call == 3) tree::forwardKinematics(model, data, qs, vs);
    EXPECT_THROW(applyTestForce(model, data, frame, Vec3::Zero(), Vec3::UnitX(), dydd), InputError) << "call " << call;
  }
}

TEST(Osim, NoHeapAllocationOnAPreparedDataAndSet) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator linked into this binary";
  Rng rng(111);
  for (auto& [name, model] : testModels(rng)) {
    SCOPED_TRACE(name);
    Data data(model);
    const OsimSet set(model, randomEndEffectors(rng, model, 4));
    const int frame = set.endEffectors()[2].frame;
    const VecX q = configuration(rng, model), q2 = configuration(rng, model);
    VecX dydd(model.nv());
    inverseOperationalSpaceInertia(model, data, set, q);  // warm-up: sizes the buffers of this set
    inverseOperationalSpaceInertia(model, data, set, q, true);
    long efpa = 0, testForce = 0;
    {
      AllocationScope scope;
      inverseOperationalSpaceInertia(model, data, set, q2);
      inverseOperationalSpaceInertia(model, data, set, q, true);
      efpa = scope.count();
    }
    {
      AllocationScope scope;
      applyTestForce(model, data, frame, Vec3(0.1, 0.0, 0.0), Vec3::UnitZ(), dydd);
      updateForcePropagators(model, data, q2);
      applyTestForce(model, data, frame, Vec3(0.1, 0.0, 0.0), Vec3::UnitX(), dydd);
      testForce = scope.count();
    }
    EXPECT_EQ(efpa, 0);
    EXPECT_EQ(testForce, 0);
  }
}
