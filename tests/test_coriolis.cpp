// Coriolis matrix, gravity vector and static torque (algorithms/coriolis.hpp) against
// independent methods: C v + g = biasForces (C-RNEA); Ḣ = C + Cᵀ with Ḣ from finite differences
// of massMatrix along the motion (so Ḣ − 2C is skew-symmetric); g = ∂V/∂q by finite differences
// of the potential energy; the static torque against g − Σ_i J_iᵀ f_i with world-frame body
// Jacobians.
#include <gtest/gtest.h>

#include "support/allocation_counter.hpp"
#include "support/finite_differences.hpp"
#include "support/wbc_models.hpp"

using namespace grbda;
using namespace grbda::testsupport;

TEST(Coriolis, TimesVelocityPlusGravityIsTheBiasForce) {
  Rng rng(31);
  for (const WbcCase& c : wbcCases()) {
    SCOPED_TRACE(c.name);
    Data data(c.model), ref(c.model);
    const VecX q = randomPositions(rng, c), v = randomVector(rng, c.model.nv(), -2.0, 2.0);
    const MatX C = coriolisMatrix(c.model, data, q, v);
    const VecX g = gravityVector(c.model, data, q);
    // The spatial loop's K̇ and k̇ are central differences (src/cluster/implicit_constraint.cpp,
    // ~1e-10 relative), which C and the bias take along different directions: agreement to that
    // accuracy (measured 4e-12 with GCC, 4e-10 with clang), not to round-off.
    const double tolerance = c.name == "spatial fixed loop (2 DoF)" ? 1e-8 : 1e-11;
    EXPECT_LT(maxRelErr(C * v + g, biasForces(c.model, ref, q, v)), tolerance);
  }
}

TEST(Coriolis, HdotMinusTwoCIsSkewSymmetric) {
  Rng rng(32);
  for (const WbcCase& c : wbcCases()) {
    SCOPED_TRACE(c.name);
    Data data(c.model), fd(c.model);
    const VecX q = randomPositions(rng, c), v = randomVector(rng, c.model.nv());
    const MatX C = coriolisMatrix(c.model, data, q, v);
    const MatX Hdot = alongVelocity(c.model, q, v, 1e-4, [&](const VecX& qt) { return MatX(massMatrix(c.model, fd, qt)); });
    const MatX N = Hdot - 2.0 * C;
    const double scale = std::max(1.0, Hdot.cwiseAbs().maxCoeff());
    EXPECT_LT((N + N.transpose()).cwiseAbs().maxCoeff() / scale, 1e-7);
    // C is not just any factor of the bias: at a generic state it is not symmetric
    if (c.model.nv() > 1) {
      const double asym = (C - C.transpose()).cwiseAbs().maxCoeff();
      EXPECT_GT(asym, 1e-6 * std::max(1.0, C.cwiseAbs().maxCoeff()));
    }
  }
}

TEST(Coriolis, GravityVectorIsTheGradientOfThePotentialEnergy) {
  Rng rng(33);
  for (const WbcCase& c : wbcCases()) {
    SCOPED_TRACE(c.name);
    Data data(c.model), fd(c.model);
    const VecX q = randomPositions(rng, c);
    const VecX g = gravityVector(c.model, data, q);
    VecX dV(c.model.nv());
    for (int j = 0; j < c.model.nv(); ++j)
      dV[j] = tangentDerivative(c.model, q, j, 1e-4, [&](const VecX& qj) {
        return Eigen::Matrix<double, 1, 1>(potentialEnergy(c.model, fd, qj));
      })[0];
    EXPECT_LT(maxRelErr(g, dV), 1e-7);
  }
}

TEST(Coriolis, StaticTorqueIsGravityMinusJacobianTransposeForces) {
  Rng rng(34);
  for (const WbcCase& c : wbcCases()) {
    SCOPED_TRACE(c.name);
    Data data(c.model), ref(c.model);
    const VecX q = randomPositions(rng, c);
    ExternalForces fext(static_cast<size_t>(c.model.numBodies()));
    for (Vec6& f : fext) f = randomVector(rng, 6) * 2.0;
    const VecX tau = staticTorque(c.model, data, q, fext);
    VecX expected = gravityVector(c.model, ref, q);
    forwardKinematics(c.model, ref, q);
    Mat6X J;
    for (int i = 0; i < c.model.numBodies(); ++i) {
      int frame = -1;  // any frame on body i: the WORLD Jacobian does not depend on the point
      for (int f = 0; f < static_cast<int>(c.model.frames().size()); ++f)
        if (c.model.frame(f).body == i) frame = f;
      ASSERT_GE(frame, 0);
      frameJacobian(c.model, ref, frame, randomVec3(rng), ReferenceFrame::World, J);
      expected -= J.transpose() * fext[static_cast<size_t>(i)];
    }
    EXPECT_LT(maxRelErr(tau, expected), 1e-11);
    EXPECT_LT(maxRelErr(staticTorque(c.model, data, q, {}), gravityVector(c.model, ref, q)), 1e-14);
  }
}

TEST(Coriolis, BadInputIsATypedError) {
  const Model m = bundledModel("mini_cheetah.urdf");
  Data data(m);
  const VecX q = m.neutralConfiguration(), v = VecX::Zero(m.nv());
  EXPECT_THROW(coriolisMatrix(m, data, q, VecX::Zero(4)), InputError);
  EXPECT_THROW(gravityVector(m, data, VecX::Zero(4)), InputError);
  VecX bad = v;
  bad[5] = std::nan("");
  EXPECT_THROW(coriolisMatrix(m, data, q, bad), InputError);
  ExternalForces few(3, Vec6::Zero());
  EXPECT_THROW(staticTorque(m, data, q, few), InputError);
  ExternalForces nanForce(static_cast<size_t>(m.numBodies()), Vec6::Zero());
  nanForce[2][4] = std::nan("");
  EXPECT_THROW(staticTorque(m, data, q, nanForce), InputError);
}

TEST(Coriolis, CallsOnPreparedDataDoNotAllocate) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator in this build";
  for (const WbcCase& c : wbcCases(false)) {
    SCOPED_TRACE(c.name);
    Data data(c.model);
    const VecX q = c.model.neutralConfiguration(), v = VecX::Ones(c.model.nv());
    const ExternalForces fext(static_cast<size_t>(c.model.numBodies()), Vec6::Ones());
    coriolisMatrix(c.model, data, q, v);
    AllocationScope scope;
    coriolisMatrix(c.model, data, q, v);
    gravityVector(c.model, data, q);
    staticTorque(c.model, data, q, fext);
    EXPECT_EQ(scope.count(), 0);
  }
}
