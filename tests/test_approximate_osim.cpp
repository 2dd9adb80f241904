// Inverse operational-space inertia of the approximate models (C-EFPA on the independent tree
// with the armature) against an independent answer: J (H_tree + H_off)⁻¹ Jᵀ from
// approximateMassMatrix and frame Jacobians of the tree; plus a hand-derived single joint with a
// geared rotor, typed errors and allocations.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <iostream>

#include "cluster_support/constrained_models.hpp"
#include "grbda/algorithms/osim.hpp"
#include "grbda/baselines/approximate.hpp"
#include "grbda/grbda.hpp"
#include "support/allocation_counter.hpp"
#include "support/compare.hpp"
#include "support/osim_reference.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

std::vector<NamedModel> testModels(Rng& rng) {
  const std::string dir = std::string(GRBDA_SOURCE_DIR) + "/models/";
  std::vector<NamedModel> m;
  m.push_back({"rotor chain 4", rotorChain(rng, 4, false)});
  m.push_back({"rotor chain 3 floating", rotorChain(rng, 3, true)});
  m.push_back({"belt chain 2", beltChain(rng, 2, false)});
  m.push_back({"mit_humanoid_leg", loadUrdf(dir + "mit_humanoid_leg.urdf")});
  m.push_back({"mini_cheetah", loadUrdf(dir + "mini_cheetah.urdf")});
  return m;
}

std::vector<EndEffector> randomEndEffectors(Rng& rng, const Model& tree, int n) {
  const std::vector<int> frames = movingFrames(tree);
  std::vector<EndEffector> ees;
  for (int e = 0; e < n; ++e)
    ees.push_back({frames[static_cast<size_t>(uniformInt(rng, 0, static_cast<int>(frames.size()) - 1))],
                   randomVec3(rng, -0.3, 0.3)});
  return ees;
}

/// J (H_tree + H_off)⁻¹ Jᵀ, J = frameJacobian on the tree (Local axes, at the point).
MatX referenceOsim(const ApproximateModel& am, const std::vector<EndEffector>& ees, const VecX& q, int rows) {
  Data data(am.tree);
  const MatX H = approximateMassMatrix(am, data, q);
  forwardKinematics(am.tree, data, q);
  const MatX J = stackedJacobian(am.tree, data, ees, rows);
  return J * Eigen::LLT<MatX>(H).solve(J.transpose());
}

/// True when H_off has an entry coupling two different tree joints.
bool offsetCouplesJoints(const ApproximateModel& am) {
  for (const Cluster& cl : am.tree.clusters())
    for (int c = cl.vIndex; c < cl.vIndex + cl.nv; ++c)
      for (int r = 0; r < am.massOffset.rows(); ++r)
        if ((r < cl.vIndex || r >= cl.vIndex + cl.nv) && am.massOffset(r, c) != 0.0) return true;
  return false;
}

}  // namespace

TEST(ApproximateOsim, EqualsJacobianTimesInverseApproximateMassMatrix) {
  Rng rng(2024);
  int compared = 0, refused = 0;
  double worst = 0.0;
  for (auto& [name, model] : testModels(rng)) {
    for (RotorApproximation option :
         {RotorApproximation::None, RotorApproximation::Diagonal, RotorApproximation::BlockDiagonal}) {
      SCOPED_TRACE(name + " option " + std::to_string(static_cast<int>(option)));
      const ApproximateModel am = makeApproximateModel(model, option);
      Data data(am.tree);
      for (int s = 0; s < 4; ++s) {
        const std::vector<EndEffector> ees = randomEndEffectors(rng, am.tree, 3);
        const OsimSet set(am.tree, ees);
        const VecX q = randomIndependentConfiguration(rng, model);
        if (option == RotorApproximation::BlockDiagonal && offsetCouplesJoints(am)) {
          EXPECT_THROW(approximateInverseOperationalSpaceInertia(am, data, set, q), InputError);
          ++refused;
          break;
        }
        const MatX L6 = approximateInverseOperationalSpaceInertia(am, data, set, q);
        const MatX L3 = approximateInverseOperationalSpaceInertia(am, data, set, q, true);
        const double e6 = strictRelErr(L6, referenceOsim(am, ees, q, 6));
        const double e3 = strictRelErr(L3, referenceOsim(am, ees, q, 3));
        EXPECT_LT(e6, 1e-9);
        EXPECT_LT(e3, 1e-9);
        worst = std::max({worst, e6, e3});
        ++compared;
      }
    }
  }
  std::cout << "[ measured ] approximate C-EFPA vs J (H_tree + H_off)^-1 J^T worst relative error " << worst
            << " over " << compared << " cases\n";
  EXPECT_GE(compared, 40);
  // the humanoid leg's differential transmissions make R couple two joints
  EXPECT_GE(refused, 1);
}

TEST(ApproximateOsim, ArmatureChangesTheResultAndNoneIsThePlainTree) {
  Rng rng(7);
  const Model model = rotorChain(rng, 3, false);
  const ApproximateModel none = makeApproximateModel(model, RotorApproximation::None);
  const ApproximateModel diag = makeApproximateModel(model, RotorApproximation::Diagonal);
  ASSERT_GT(diag.armature.minCoeff(), 0.0);
  Data dn(none.tree), dd(diag.tree), dt(none.tree);
  const std::vector<EndEffector> ees = randomEndEffectors(rng, none.tree, 2);
  const OsimSet set(none.tree, ees);
  const VecX q = randomIndependentConfiguration(rng, model);
  const MatX Ln = approximateInverseOperationalSpaceInertia(none, dn, set, q);
  const MatX Ld = approximateInverseOperationalSpaceInertia(diag, dd, set, q);
  // None is C-EFPA on the independent tree itself
  EXPECT_LT(strictRelErr(Ln, inverseOperationalSpaceInertia(none.tree, dt, set, q)), 1e-12);
  // the rotors' armature makes the end-effectors heavier: Λ⁻¹ shrinks (Ln − Ld is PSD, nonzero)
  EXPECT_GT(strictRelErr(Ld, Ln), 1e-4);
  const Eigen::SelfAdjointEigenSolver<MatX> eig(Ln - Ld);
  EXPECT_GT(eig.eigenvalues().minCoeff(), -1e-12);
}

// One revolute joint about z with a geared rotor on the ground (ratio N): the approximate model
// is the link alone with armature N² I_rotor,zz. At a point at distance r from the axis on the
// link's x axis, the linear block along the tangent (y) is r² / (I_link,zz + m r_c² + N² I_r) and
// the angular zz entry 1 / (same); everything radial or out of plane is zero.
TEST(ApproximateOsim, SingleJointWithGearedRotorByHand) {
  const double m = 1.5, cx = 0.2, Izz = 0.04, N = 6.0, Ir = 2e-4, r = 0.7;
  ModelBuilder b("geared_joint");
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  b.addLink(LinkSpec{"link", m, Vec3(cx, 0, 0), Mat3(Vec3(0.01, 0.03, Izz).asDiagonal()), {}});
  b.addLink(LinkSpec{"rotor", 0.1, Vec3::Zero(), Mat3(Vec3(1e-4, 1e-4, Ir).asDiagonal()), {}});
  JointSpec j;
  j.name = "joint";
  j.parent = "world";
  j.child = "link";
  j.axis = Vec3::UnitZ();
  b.addJoint(j);
  JointSpec jr = j;
  jr.name = "rotor_joint";
  jr.child = "rotor";
  jr.independent = false;
  b.addJoint(jr);
  addCoupling(b, "gear", "link", "rotor", N);
  const Model model = b.build();
  const ApproximateModel am = makeApproximateModel(model, RotorApproximation::Diagonal);
  ASSERT_NEAR(am.armature[0], N * N * Ir, 1e-12);

  Data data(am.tree);
  const OsimSet set(am.tree, {{am.tree.frameIndex("link"), Vec3(r, 0, 0)}});
  const VecX q = VecX::Constant(1, 0.4);
  const MatX L = approximateInverseOperationalSpaceInertia(am, data, set, q);
  const double inertia = Izz + m * cx * cx + N * N * Ir;
  MatX expected = MatX::Zero(6, 6);
  expected(2, 2) = 1.0 / inertia;
  expected(2, 4) = expected(4, 2) = r / inertia;  // ω_z and v_y = r ω_z
  expected(4, 4) = r * r / inertia;
  EXPECT_LT((L - expected).norm(), 1e-12) << L;
}

TEST(ApproximateOsim, ErrorsAreTyped) {
  Rng rng(3);
  const Model model = rotorChain(rng, 2, false);
  const ApproximateModel am = makeApproximateModel(model, RotorApproximation::Diagonal);
  const OsimSet set(am.tree, randomEndEffectors(rng, am.tree, 2));
  Data wrong(model);  // built for the constrained model, not the tree
  const VecX q = randomIndependentConfiguration(rng, model);
  EXPECT_THROW(approximateInverseOperationalSpaceInertia(am, wrong, set, q), InputError);
  Data data(am.tree);
  EXPECT_THROW(approximateInverseOperationalSpaceInertia(am, data, set, VecX::Zero(q.size() + 1)), InputError);
  const OsimSet otherModel(model, {{model.frameIndex("link1"), Vec3::Zero()}});
  EXPECT_THROW(approximateInverseOperationalSpaceInertia(am, data, otherModel, q), InputError);
}

TEST(ApproximateOsim, NoHeapAllocationOnAPreparedDataAndSet) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator linked into this binary";
  Rng rng(5);
  for (auto& [name, model] : testModels(rng)) {
    SCOPED_TRACE(name);
    const ApproximateModel am = makeApproximateModel(model, RotorApproximation::Diagonal);
    Data data(am.tree);
    const OsimSet set(am.tree, randomEndEffectors(rng, am.tree, 3));
    const VecX q = randomIndependentConfiguration(rng, model), q2 = randomIndependentConfiguration(rng, model);
    approximateInverseOperationalSpaceInertia(am, data, set, q);  // warm-up sizes the buffers
    approximateInverseOperationalSpaceInertia(am, data, set, q, true);
    AllocationScope scope;
    approximateInverseOperationalSpaceInertia(am, data, set, q2);
    approximateInverseOperationalSpaceInertia(am, data, set, q, true);
    EXPECT_EQ(scope.count(), 0);
  }
}
