// Contact-consistent inverse dynamics (algorithms/contact_inverse_dynamics.hpp), checked against
// independent methods: constrained forward dynamics fed its τ returns the given q̈ and λ; plain
// forward dynamics with λ applied as world forces returns q̈; λ and τ equal a dense least-squares
// solve written here from massMatrix, biasForces and frame Jacobians; a Mini Cheetah standing
// still carries its weight. Rotors and loops are in every floating robot used.
#include <gtest/gtest.h>

#include "cluster_support/constraint_problems.hpp"
#include "support/allocation_counter.hpp"
#include "support/dense_contacts.hpp"
#include "cluster_support/constrained_models.hpp"
#include "support/random_model.hpp"

namespace {

using namespace grbda;
using namespace grbda::testsupport;

/// The dense reference: λ = argmin Σ w λ² subject to J_bᵀ λ = (H q̈ + C)_b, τ = H q̈ + C − Jᵀ λ.
struct DenseReference {
  VecX lambda, tau;
};
DenseReference denseContactId(const Model& m, const ConstraintModel& cm, const VecX& q, const VecX& v, const VecX& qdd,
                              const VecX& weights = VecX()) {
  Data d(m);
  const MatX H = massMatrix(m, d, q);
  const VecX C = biasForces(m, d, q, v);
  const MatX J = denseRowJacobian(m, cm, q, v);
  const VecX rhs = H * qdd + C;
  DenseReference r;
  const VecX w = weights.size() ? weights : VecX::Ones(cm.numRows());
  // λ = W^{-1/2} μ, μ the minimum-norm solution of (J_bᵀ W^{-1/2}) μ = b_b
  const VecX s = w.cwiseSqrt().cwiseInverse();
  const MatX B = J.leftCols(6).transpose() * s.asDiagonal();
  r.lambda = s.asDiagonal() * VecX(B.completeOrthogonalDecomposition().solve(VecX(rhs.head(6))));
  r.tau = rhs - J.transpose() * r.lambda;
  return r;
}

/// A q̈ the rows allow: constrained forward dynamics (dense KKT) under random joint torques.
VecX consistentAcceleration(const Model& m, const ConstraintModel& cm, const VecX& q, const VecX& v, Rng& rng) {
  Data d(m);
  ConstraintData cd(m, cm);
  ConstraintSolverSettings kkt;
  kkt.solver = ConstraintSolver::KKT;
  VecX tau = randomVector(rng, m.nv(), -5.0, 5.0);
  if (m.isFloatingBase()) tau.head(6).setZero();
  return constrainedForwardDynamics(m, d, cm, cd, q, v, tau, kkt);
}

TEST(ContactInverseDynamics, StandingMiniCheetahCarriesItsWeightWithGravityCompensationTorques) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) cm.addPointContact(foot);
  Data data(m);
  ConstraintData cd(m, cm);
  Rng rng(7);
  double mass = 0.0;
  for (const Body& b : m.bodies()) mass += b.inertia(5, 5);  // rotors included
  for (int trial = 0; trial < 3; ++trial) {
    VecX q = m.neutralConfiguration();
    if (trial > 0) {  // a crouched, tilted stance
      q.tail(12) = randomVector(rng, 12, -0.6, 0.6);
      const Eigen::Quaterniond r(Eigen::AngleAxisd(0.2 * trial, Vec3(0.3, 1.0, 0.2).normalized()));
      q.segment<4>(3) << r.w(), r.x(), r.y(), r.z();
    }
    const VecX zero = VecX::Zero(m.nv());
    ContactInverseDynamicsReport rep;
    const VecX tau = contactInverseDynamics(m, data, cm, cd, q, zero, zero, {}, &rep);
    EXPECT_TRUE(rep.consistent && rep.supported && rep.balanced) << "trial " << trial;
    EXPECT_EQ(rep.baseRank, 6);
    double lz = 0.0;
    for (int c = 0; c < 4; ++c) lz += cd.lambda[3 * c + 2];
    EXPECT_NEAR(lz, mass * 9.81, 1e-9 * mass * 9.81) << "trial " << trial;
    EXPECT_EQ(maxAbs(tau.head(6)), 0.0);
    const DenseReference ref = denseContactId(m, cm, q, zero, zero);
    EXPECT_LT(relDiff(cd.lambda, ref.lambda), 1e-9) << "trial " << trial;
    EXPECT_LT(relDiff(tau, ref.tau), 1e-9) << "trial " << trial;
    EXPECT_LT(maxAbs(ref.tau.head(6)), 1e-8);  // the reference balances the base too
  }
}

TEST(ContactInverseDynamics, ForwardDynamicsWithItsTorquesAndForcesReturnsTheAcceleration) {
  Rng rng(11);
  std::vector<Problem> problems = bundledProblems();
  problems.push_back({"tello feet welded", loadUrdf(modelFile("tello_humanoid.urdf")),
                      {{ConstraintKind::Weld, "left-foot"}, {ConstraintKind::Weld, "right-foot"}}});
  for (const Problem& p : problems) {
    SCOPED_TRACE(p.label);
    const Model& m = p.model;
    const ConstraintModel cm = makeConstraints(m, p.constraints, Vec3(0.01, -0.02, 0.03));
    Data data(m), check(m);
    ConstraintData cd(m, cm), cdCheck(m, cm);
    for (int trial = 0; trial < 2; ++trial) {
      const VecX q = randomIndependentPositions(rng, m, -0.3, 0.3);
      const VecX v = randomVector(rng, m.nv());
      const VecX qdd = consistentAcceleration(m, cm, q, v, rng);
      ContactInverseDynamicsReport rep;
      const VecX tau = contactInverseDynamics(m, data, cm, cd, q, v, qdd, {}, &rep);
      const VecX lambda = cd.lambda;
      EXPECT_TRUE(rep.ok()) << rep.accelerationResidual << " " << rep.baseResidual;
      EXPECT_EQ(maxAbs(tau.head(6)), 0.0);
      // (1) constrained forward dynamics under τ: the same q̈ and, the rows being independent, the same λ
      ConstraintSolverSettings kkt;
      kkt.solver = ConstraintSolver::KKT;
      const VecX qdd2 = constrainedForwardDynamics(m, check, cm, cdCheck, q, v, tau, kkt);
      EXPECT_LT(relDiff(qdd2, qdd), 1e-7);
      EXPECT_LT(relDiff(cdCheck.lambda, lambda), 1e-7);
      // (2) plain forward dynamics with λ as world forces at the contact points
      const VecX qdd3 = forwardDynamics(m, check, q, v, tau, worldForces(m, cm, q, lambda));
      EXPECT_LT(relDiff(qdd3, qdd), 1e-7);
      // (3) the dense minimum-norm solve
      const DenseReference ref = denseContactId(m, cm, q, v, qdd);
      EXPECT_LT(relDiff(lambda, ref.lambda), 1e-8);
      EXPECT_LT(relDiff(tau, ref.tau), 1e-8);
    }
  }
}

TEST(ContactInverseDynamics, WeightedForcesMinimiseTheWeightedNorm) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) cm.addPointContact(foot);
  Data data(m);
  ConstraintData cd(m, cm);
  Rng rng(3);
  const VecX q = randomIndependentPositions(rng, m, -0.4, 0.4), v = randomVector(rng, m.nv());
  const VecX qdd = consistentAcceleration(m, cm, q, v, rng);
  ContactInverseDynamicsSettings s;
  s.weights = randomVector(rng, cm.numRows(), 0.2, 5.0);
  const VecX tau = contactInverseDynamics(m, data, cm, cd, q, v, qdd, s);
  const DenseReference ref = denseContactId(m, cm, q, v, qdd, s.weights);
  EXPECT_LT(relDiff(cd.lambda, ref.lambda), 1e-8);
  EXPECT_LT(relDiff(tau, ref.tau), 1e-8);
  const VecX weighted = cd.lambda;
  contactInverseDynamics(m, data, cm, cd, q, v, qdd);  // unweighted: another λ, a smaller Euclidean norm
  EXPECT_GT((weighted - cd.lambda).norm(), 1e-3);
  EXPECT_LT(cd.lambda.norm(), weighted.norm());
  EXPECT_LT(cd.lambda.dot(cd.lambda), weighted.dot(weighted));
}

TEST(ContactInverseDynamics, InconsistentAccelerationAndUnsupportedBaseAreReported) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel four(m), one(m);
  for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) four.addPointContact(foot);
  one.addPointContact("FR_foot");
  Data data(m);
  ConstraintData cd4(m, four), cd1(m, one);
  Rng rng(5);
  const VecX q = randomIndependentPositions(rng, m, -0.4, 0.4), v = randomVector(rng, m.nv());
  const VecX bad = randomVector(rng, m.nv());  // the feet would accelerate
  ContactInverseDynamicsReport rep;
  contactInverseDynamics(m, data, four, cd4, q, v, bad, {}, &rep);
  EXPECT_FALSE(rep.consistent);
  EXPECT_GT(rep.accelerationResidual, 1e-3);
  EXPECT_TRUE(rep.supported);
  ContactInverseDynamicsSettings strict;
  strict.throwOnError = true;
  EXPECT_THROW(contactInverseDynamics(m, data, four, cd4, q, v, bad, strict), NumericalError);
  // one foot cannot hold a standing robot: rank 3, the base wrench's moment stays unbalanced
  const VecX zero = VecX::Zero(m.nv());
  contactInverseDynamics(m, data, one, cd1, m.neutralConfiguration(), zero, zero, {}, &rep);
  EXPECT_TRUE(rep.consistent);
  EXPECT_FALSE(rep.supported);
  EXPECT_EQ(rep.baseRank, 3);
  EXPECT_FALSE(rep.balanced);
  EXPECT_GT(rep.baseResidual, 1e-2);
  // λ is the minimum-norm least-squares one, as a dense solve finds it
  EXPECT_LT(relDiff(cd1.lambda, denseContactId(m, one, m.neutralConfiguration(), zero, zero).lambda), 1e-8);
  EXPECT_THROW(contactInverseDynamics(m, data, one, cd1, m.neutralConfiguration(), zero, zero, strict), NumericalError);
}

TEST(ContactInverseDynamics, FixedBaseGivesZeroForcesAndInverseDynamics) {
  const Model m = loadUrdf(modelFile("arm_6dof.urdf"));
  ConstraintModel cm(m);
  cm.addPointContact(m.body(m.numBodies() - 1).name);
  Data data(m), ref(m);
  ConstraintData cd(m, cm);
  Rng rng(9);
  const VecX q = randomVector(rng, m.nq()), v = randomVector(rng, m.nv()), qdd = randomVector(rng, m.nv());
  ContactInverseDynamicsReport rep;
  const VecX tau = contactInverseDynamics(m, data, cm, cd, q, v, qdd, {}, &rep);
  EXPECT_EQ(rep.baseDof, 0);
  EXPECT_EQ(maxAbs(cd.lambda), 0.0);
  EXPECT_LT(relDiff(tau, inverseDynamics(m, ref, q, v, qdd)), 1e-12);
}

TEST(ContactInverseDynamics, BadInputsAreTypedErrors) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  const Model other = loadUrdf(modelFile("arm_6dof.urdf"));
  ConstraintModel cm(m);
  cm.addPointContact("FR_foot");
  EXPECT_THROW(cm.addPointContact("no_such_link"), InputError);
  Data data(m), otherData(other);
  ConstraintData cd(m, cm);
  const VecX q = m.neutralConfiguration(), v = VecX::Zero(m.nv());
  EXPECT_THROW(contactInverseDynamics(m, data, cm, cd, q, v, VecX::Zero(m.nv() + 1)), InputError);
  VecX nan = v;
  nan[4] = std::nan("");
  EXPECT_THROW(contactInverseDynamics(m, data, cm, cd, q, v, nan), InputError);
  EXPECT_THROW(contactInverseDynamics(m, data, cm, cd, q, nan, v), InputError);
  EXPECT_THROW(contactInverseDynamics(m, otherData, cm, cd, q, v, v), InputError);
  ContactInverseDynamicsSettings s;
  s.weights = VecX::Ones(2);
  EXPECT_THROW(contactInverseDynamics(m, data, cm, cd, q, v, v, s), InputError);
  s.weights = VecX::Ones(3);
  s.weights[1] = -1.0;
  EXPECT_THROW(contactInverseDynamics(m, data, cm, cd, q, v, v, s), InputError);
  ConstraintModel later(m);
  ConstraintData stale(m, later);
  later.addPointContact("FL_foot");
  EXPECT_THROW(contactInverseDynamics(m, data, later, stale, q, v, v), InputError);
}

TEST(ContactInverseDynamics, NoAllocationOnAPreparedWorkspace) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator linked";
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) cm.addPointContact(foot);
  Data data(m);
  ConstraintData cd(m, cm);
  Rng rng(2);
  const VecX q = randomIndependentPositions(rng, m, -0.4, 0.4), v = randomVector(rng, m.nv());
  const VecX qdd = consistentAcceleration(m, cm, q, v, rng);
  ContactInverseDynamicsSettings s;
  s.weights = VecX::Constant(cm.numRows(), 2.0);
  ContactInverseDynamicsReport rep;
  contactInverseDynamics(m, data, cm, cd, q, v, qdd, s, &rep);
  ConstraintModel one(m);
  one.addPointContact("FR_foot");
  ConstraintData cd1(m, one);
  contactInverseDynamics(m, data, one, cd1, q, v, qdd);
  AllocationScope scope;
  contactInverseDynamics(m, data, cm, cd, q, v, qdd, s, &rep);
  contactInverseDynamics(m, data, one, cd1, q, v, qdd);  // the rank-deficient path too
  EXPECT_EQ(scope.count(), 0);
}

}  // namespace
