// Impulse (impact) dynamics (algorithms/impulse_dynamics.hpp), checked against closed forms for a
// single rigid body hitting the ground and against a dense KKT solve written here (H from
// massMatrix, J from frame Jacobians, v⁺ = v⁻ + H⁻¹ Jᵀ Λ): J v⁺ = −e J v⁻, the energy never
// grows and e = 1 conserves it, on robots with geared rotors and loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <Eigen/SVD>

#include "cluster_support/constraint_problems.hpp"
#include "support/allocation_counter.hpp"
#include "support/dense_contacts.hpp"
#include "support/random_cluster_program.hpp"
#include "support/random_model.hpp"

namespace {

using namespace grbda;
using namespace grbda::testsupport;

/// One free body "ball": mass m, centre of mass at its origin, principal inertia diag(I).
Model ball(double m, const Vec3& I) {
  ModelBuilder b("ball");
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  b.addLink(LinkSpec{"ball", m, Vec3::Zero(), Mat3(I.asDiagonal()), {}});
  addFloatingBaseJoint(b, "ball");
  return b.build();
}

double kinetic(const Model& m, const VecX& q, const VecX& v) {
  Data d(m);
  return 0.5 * v.dot(massMatrix(m, d, q) * v);
}

struct DenseImpulse {
  VecX vPlus, impulses;
};
DenseImpulse denseImpulse(const Model& m, const ConstraintModel& cm, const VecX& q, const VecX& v, double e) {
  Data d(m);
  const MatX H = massMatrix(m, d, q);
  const MatX J = denseRowJacobian(m, cm, q, v);
  const Eigen::LLT<MatX> llt(H);
  const MatX HinvJt = llt.solve(J.transpose());
  DenseImpulse r;
  r.impulses = (J * HinvJt).ldlt().solve(-(1.0 + e) * (J * v));
  r.vPlus = v + HinvJt * r.impulses;
  return r;
}

/// σ_max / σ_min of the dense Delassus matrix J H⁻¹ Jᵀ.
double delassusCondition(const Model& m, const ConstraintModel& cm, const VecX& q, const VecX& v) {
  Data d(m);
  const MatX H = massMatrix(m, d, q);
  const MatX J = denseRowJacobian(m, cm, q, v);
  const VecX sigma = Eigen::JacobiSVD<MatX>(J * Eigen::LLT<MatX>(H).solve(J.transpose())).singularValues();
  return sigma[0] / sigma[sigma.size() - 1];
}

TEST(ImpulseDynamics, BallHittingTheGroundAtItsCentreLosesTheClosedFormEnergy) {
  const double mass = 2.5;
  const Model m = ball(mass, Vec3(0.02, 0.03, 0.04));
  ConstraintModel cm(m);
  cm.addPointContact("ball");  // at the centre of mass: rotation decouples
  Data data(m);
  ConstraintData cd(m, cm);
  ImpulseData id(m, cm);
  const VecX q = m.neutralConfiguration();  // identity orientation: body axes are world axes
  VecX v(6);
  v << 0.3, -0.2, 1.1, 0.5, -0.4, -2.0;  // spinning, moving down and sideways
  for (double e : {0.0, 0.4, 1.0}) {
    const VecX vPlus = impulseDynamics(m, data, cm, cd, id, q, v, e);
    EXPECT_LT((vPlus.head<3>() - v.head<3>()).norm(), 1e-12) << "e " << e;  // spin unchanged
    EXPECT_LT((vPlus.tail<3>() + e * v.tail<3>()).norm(), 1e-12) << "e " << e;
    EXPECT_LT((id.impulses + mass * (1.0 + e) * v.tail<3>()).norm(), 1e-11) << "e " << e;
    const double loss = 0.5 * mass * (1.0 - e * e) * v.tail<3>().squaredNorm();  // closed form
    EXPECT_NEAR(id.energyChange, -loss, 1e-12) << "e " << e;
    EXPECT_NEAR(kinetic(m, q, vPlus) - kinetic(m, q, v), -loss, 1e-12) << "e " << e;
  }
}

TEST(ImpulseDynamics, OffCentreNormalImpactMatchesTheEffectiveMass) {
  // One normal row at the ball's rim (custom row n·(v_O + ω × p) on the link's spatial velocity):
  // Λ = −(1 + e) m_eff v_n⁻ with 1/m_eff = 1/m + (p × n)ᵀ I⁻¹ (p × n), ΔT = −½ (1 − e²) m_eff v_n⁻².
  const double mass = 1.7;
  const Vec3 I(0.05, 0.07, 0.03);
  const Model m = ball(mass, I);
  const Vec3 p(0.08, -0.05, -0.1), n = Vec3::UnitZ();
  Eigen::Matrix<double, 1, 6> K;
  K << p.cross(n).transpose(), n.transpose();
  ConstraintModel cm(m);
  cm.addCustomRows("ball", K, VecX::Zero(1));
  Data data(m);
  ConstraintData cd(m, cm);
  ImpulseData id(m, cm);
  const VecX q = m.neutralConfiguration();
  VecX v(6);
  v << 0.4, 1.2, -0.3, 0.2, 0.1, -1.5;
  const double vn = n.dot(v.tail<3>() + v.head<3>().cross(p));
  const Vec3 r = p.cross(n);
  const double meff = 1.0 / (1.0 / mass + r.dot(I.cwiseInverse().asDiagonal() * r));
  for (double e : {0.0, 0.7, 1.0}) {
    impulseDynamics(m, data, cm, cd, id, q, v, e);
    EXPECT_NEAR(id.impulses[0], -(1.0 + e) * meff * vn, 1e-12) << "e " << e;
    EXPECT_NEAR(id.rowVelocityAfter[0], -e * vn, 1e-12) << "e " << e;
    EXPECT_NEAR(id.energyChange, -0.5 * (1.0 - e * e) * meff * vn * vn, 1e-12) << "e " << e;
    EXPECT_NEAR(kinetic(m, q, id.vPlus) - kinetic(m, q, v), id.energyChange, 1e-12) << "e " << e;
  }
}

TEST(ImpulseDynamics, RobotsWithRotorsAndLoopsMatchTheDenseKktSolve) {
  Rng rng(21);
  for (const Problem& p : bundledProblems()) {
    SCOPED_TRACE(p.label);
    const Model& m = p.model;
    const ConstraintModel cm = makeConstraints(m, p.constraints, Vec3(0.01, -0.02, 0.03));
    Data data(m);
    ConstraintData cd(m, cm);
    ImpulseData id(m, cm);
    for (double e : {0.0, 0.5, 1.0}) {
      const VecX q = randomIndependentPositions(rng, m, -0.3, 0.3);
      const VecX v = randomVector(rng, m.nv(), -2.0, 2.0);
      const VecX vPlus = impulseDynamics(m, data, cm, cd, id, q, v, e);
      const DenseImpulse ref = denseImpulse(m, cm, q, v, e);
      EXPECT_LT(relDiff(vPlus, ref.vPlus), 1e-8) << "e " << e;
      EXPECT_LT(relDiff(id.impulses, ref.impulses), 1e-8) << "e " << e;
      EXPECT_LT(relDiff(cd.lambda, ref.impulses), 1e-8) << "e " << e;
      const MatX J = denseRowJacobian(m, cm, q, v);
      EXPECT_LT(maxAbs(J * vPlus + e * (J * v)), 1e-8 * (1.0 + maxAbs(J * v))) << "e " << e;
      EXPECT_LT(id.residual, 1e-8 * (1.0 + maxAbs(J * v)));
      const double T0 = kinetic(m, q, v), dT = kinetic(m, q, vPlus) - T0;
      EXPECT_NEAR(dT, id.energyChange, 1e-9 * T0) << "e " << e;
      if (e == 1.0) EXPECT_NEAR(dT, 0.0, 1e-9 * T0);
      else EXPECT_LT(dT, 0.0);
    }
  }
}

TEST(ImpulseDynamics, RandomClusterModelsNeverGainEnergy) {
  Rng rng(4242);
  int checked = 0;
  for (int i = 0; i < 40; ++i) {
    RngChoices choose(rng);
    const RandomProgram program = randomClusterProgram(choose, rng);
    Model m;
    try {
      m = program.builder.build();
    } catch (const ModelError&) {
      continue;
    }
    SCOPED_TRACE(program.description);
    // a contact on the last body's link (a leaf of the tree, whatever cluster holds it)
    ConstraintModel cm(m);
    cm.addPointContact(m.body(m.numBodies() - 1).name, Vec3(0.02, 0.01, -0.03));
    Data data(m);
    ConstraintData cd(m, cm);
    ImpulseData id(m, cm);
    const VecX q = m.neutralConfiguration();
    const VecX v = randomVector(rng, m.nv());
    const double e = uniform(rng, 0.0, 1.0);
    try {
      impulseDynamics(m, data, cm, cd, id, q, v, e);
    } catch (const NumericalError&) {
      continue;  // a singular pose of a random loop
    }
    const double T0 = kinetic(m, q, v), dT = kinetic(m, q, id.vPlus) - T0;
    EXPECT_LE(dT, 1e-9 * (1.0 + T0));
    EXPECT_NEAR(dT, id.energyChange, 1e-8 * (1.0 + T0));
    if (!id.redundant) {
      // round-off in the rows' velocity grows with the condition of the Delassus matrix
      // J H⁻¹ Jᵀ (link masses span 1e-6…1e6 kg here): measured 7e-7 at cond 1e9 with clang
      const double cond = delassusCondition(m, cm, q, v);
      EXPECT_LT(id.residual, std::max(1e-7, 1e-15 * cond) * (1.0 + maxAbs(id.rowVelocityBefore))) << "cond " << cond;
    }
    ++checked;
  }
  EXPECT_GT(checked, 15);
}

TEST(ImpulseDynamics, RedundantRowsGetTheLeastNormImpulse) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  cm.addWeld("FR_foot");
  cm.addWeld("FR_foot", Vec3(0.0, 0.0, 0.01));  // the same rigid constraint twice
  Data data(m);
  ConstraintData cd(m, cm);
  ImpulseData id(m, cm);
  Rng rng(8);
  const VecX q = randomIndependentPositions(rng, m, -0.3, 0.3), v = randomVector(rng, m.nv());
  impulseDynamics(m, data, cm, cd, id, q, v, 0.0);
  EXPECT_TRUE(id.redundant);
  EXPECT_LT(id.rank, cm.numRows());
  const MatX J = denseRowJacobian(m, cm, q, v);
  EXPECT_LT(maxAbs(J * id.vPlus), 1e-6 * (1.0 + maxAbs(J * v)));
  EXPECT_LE(kinetic(m, q, id.vPlus), kinetic(m, q, v));
}

TEST(ImpulseDynamics, BadInputsAreTypedErrors) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m), other(m);
  cm.addPointContact("FR_foot");
  other.addPointContact("FL_foot");
  other.addPointContact("HL_foot");
  Data data(m);
  ConstraintData cd(m, cm);
  ImpulseData id(m, cm), wrong(m, other);
  const VecX q = m.neutralConfiguration(), v = VecX::Ones(m.nv());
  for (double e : {-0.1, 1.5, std::nan(""), static_cast<double>(INFINITY)})
    EXPECT_THROW(impulseDynamics(m, data, cm, cd, id, q, v, e), InputError) << e;
  try {
    impulseDynamics(m, data, cm, cd, id, q, v, 1.5);
  } catch (const InputError& err) {
    EXPECT_NE(std::string(err.what()).find("1.5"), std::string::npos) << err.what();
  }
  EXPECT_THROW(impulseDynamics(m, data, cm, cd, id, q, VecX::Ones(m.nv() - 1), 0.5), InputError);
  VecX nan = v;
  nan[0] = std::nan("");
  EXPECT_THROW(impulseDynamics(m, data, cm, cd, id, q, nan, 0.5), InputError);
  EXPECT_THROW(impulseDynamics(m, data, cm, cd, wrong, q, v, 0.5), InputError);
  EXPECT_THROW(ImpulseData(loadUrdf(modelFile("arm_6dof.urdf")), cm), InputError);
}

TEST(ImpulseDynamics, NoAllocationOnAPreparedWorkspace) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator linked";
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) cm.addPointContact(foot);
  Data data(m);
  ConstraintData cd(m, cm);
  ImpulseData id(m, cm);
  Rng rng(1);
  const VecX q = randomIndependentPositions(rng, m, -0.3, 0.3), v = randomVector(rng, m.nv());
  impulseDynamics(m, data, cm, cd, id, q, v, 0.3);
  AllocationScope scope;
  impulseDynamics(m, data, cm, cd, id, q, v, 0.3);
  EXPECT_EQ(scope.count(), 0);
}

}  // namespace
