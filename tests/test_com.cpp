// Centre of mass (algorithms/com.hpp) against independent computations: a dense sum over the
// bodies' world CoMs, finite differences of p_G along a motion for J_c and for J̇_c v, and the
// centroidal momentum's linear part. Rotors count with their mass.
#include <gtest/gtest.h>

#include "support/allocation_counter.hpp"
#include "support/finite_differences.hpp"
#include "support/wbc_models.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

/// World CoM of every body, from its pose: o_i + R_i c_i.
std::vector<Vec3> bodyComs(const Model& model, const Data& data) {
  std::vector<Vec3> p;
  for (int i = 0; i < model.numBodies(); ++i) {
    const Transform& X = data.Xa[static_cast<size_t>(i)];
    const Mat6& I = model.body(i).inertia;
    p.push_back(X.E.transpose() * (inertiaMass(I) > 0 ? inertiaCom(I) : Vec3::Zero()) + X.r);
  }
  return p;
}

/// i is j or one of j's spanning ancestors.
bool supports(const Model& model, int j, int i) {
  for (int k = i; k >= 0; k = model.body(k).parent)
    if (k == j) return true;
  return false;
}

}  // namespace

TEST(Com, PositionAndSubtreesMatchADenseSumOverBodies) {
  Rng rng(11);
  for (const WbcCase& c : wbcCases()) {
    SCOPED_TRACE(c.name);
    Data data(c.model);
    const VecX q = randomPositions(rng, c);
    const Vec3 com = centerOfMass(c.model, data, q);
    const std::vector<Vec3> p = bodyComs(c.model, data);
    for (int j = -1; j < c.model.numBodies(); ++j) {  // j = -1: the whole robot
      double m = 0.0;
      Vec3 mp = Vec3::Zero();
      for (int i = 0; i < c.model.numBodies(); ++i)
        if (j < 0 || supports(c.model, j, i)) {
          m += inertiaMass(c.model.body(i).inertia);
          mp += inertiaMass(c.model.body(i).inertia) * p[static_cast<size_t>(i)];
        }
      if (j < 0) {
        EXPECT_NEAR(data.centroidal.mass, m, 1e-12 * m);
        EXPECT_LT((com - mp / m).norm(), 1e-12 * (1 + com.norm()));
      } else if (m > 0) {
        EXPECT_NEAR(data.centroidal.subtreeMass[static_cast<size_t>(j)], m, 1e-12 * m);
        EXPECT_LT((data.centroidal.subtreeCom[static_cast<size_t>(j)] - mp / m).norm(), 1e-12 * (1 + (mp / m).norm()));
      }
    }
  }
}

TEST(Com, RotorsCountWithTheirMass) {
  const Model exact = bundledModel("mini_cheetah.urdf"), approx = bundledModel("mini_cheetah_approximate.urdf");
  Data de(exact), da(approx);
  centerOfMass(exact, de, exact.neutralConfiguration());
  centerOfMass(approx, da, approx.neutralConfiguration());
  double rotors = 0.0;
  for (const Body& b : exact.bodies())
    if (b.name.find("rotor") != std::string::npos) rotors += inertiaMass(b.inertia);
  EXPECT_GT(rotors, 0.0);
  EXPECT_NEAR(de.centroidal.mass, da.centroidal.mass + rotors, 1e-9);
}

TEST(Com, JacobianMatchesFiniteDifferencesOfTheCom) {
  Rng rng(12);
  for (const WbcCase& c : wbcCases()) {
    SCOPED_TRACE(c.name);
    Data data(c.model), fd(c.model);
    const VecX q = randomPositions(rng, c);
    const Mat3X J = centerOfMassJacobian(c.model, data, q);
    const Vec3 com = data.centroidal.com;
    EXPECT_LT((com - centerOfMass(c.model, fd, q)).norm(), 1e-12 * (1 + com.norm()));
    Mat3X Jfd(3, c.model.nv());
    for (int j = 0; j < c.model.nv(); ++j)
      Jfd.col(j) = tangentDerivative(c.model, q, j, 1e-4, [&](const VecX& qj) { return Vec3(centerOfMass(c.model, fd, qj)); });
    EXPECT_LT(maxRelErr(J, Jfd), 1e-8);
  }
}

TEST(Com, VelocityIsJacobianTimesVAndBiasMatchesFiniteDifferences) {
  Rng rng(13);
  for (const WbcCase& c : wbcCases()) {
    SCOPED_TRACE(c.name);
    Data data(c.model), fd(c.model);
    const VecX q = randomPositions(rng, c), v = randomVector(rng, c.model.nv());
    const Mat3X J = centerOfMassJacobian(c.model, data, q);
    centerOfMass(c.model, data, q, v);
    EXPECT_LT(maxRelErr(data.centroidal.vcom, J * v), 1e-12);
    // J̇_c v = d/dt (J_c(q(t)) v) along q̇ = v
    const Vec3 bias = alongVelocity(c.model, q, v, 1e-4,
                                    [&](const VecX& qt) { return Vec3(centerOfMassJacobian(c.model, fd, qt) * v); });
    EXPECT_LT(maxRelErr(data.centroidal.acomBias, bias), 1e-7);
    // and M p̈_G is the centroidal rate's linear part (another pass: composite inertias)
    centroidalDynamics(c.model, fd, q, v);
    EXPECT_LT(maxRelErr(data.centroidal.mass * data.centroidal.acomBias, fd.centroidal.dhg.head<3>()), 1e-10);
    EXPECT_LT(maxRelErr(data.centroidal.mass * J, fd.centroidal.Ag.topRows<3>()), 1e-10);
  }
}

TEST(Com, SpanningPositionsGiveTheSameResults) {
  Rng rng(14);
  for (const WbcCase& c : wbcCases(false)) {
    SCOPED_TRACE(c.name);
    Data data(c.model);
    const VecX q = randomPositions(rng, c);
    const VecX qs = completeConfiguration(c.model, data, q);
    const Mat3X J = centerOfMassJacobian(c.model, data, q);
    EXPECT_LT(maxRelErr(centerOfMassJacobian(c.model, data, qs), J), 1e-12);
  }
}

TEST(Com, BadInputIsATypedError) {
  const Model m = bundledModel("mini_cheetah.urdf");
  Data data(m);
  const VecX q = m.neutralConfiguration(), v = VecX::Zero(m.nv());
  EXPECT_THROW(centerOfMass(m, data, VecX::Zero(3)), InputError);
  EXPECT_THROW(centerOfMass(m, data, q, VecX::Zero(2)), InputError);
  VecX bad = q;
  bad[7] = std::nan("");
  EXPECT_THROW(centerOfMassJacobian(m, data, bad), InputError);
  VecX badV = v;
  badV[3] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(centerOfMass(m, data, q, badV), InputError);
  const Model other = bundledModel("four_bar.urdf");
  EXPECT_THROW(centerOfMass(other, data, other.neutralConfiguration()), InputError);
}

TEST(Com, CallsOnPreparedDataDoNotAllocate) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator in this build";
  for (const WbcCase& c : wbcCases(false)) {
    SCOPED_TRACE(c.name);
    Data data(c.model);
    const VecX q = c.model.neutralConfiguration(), v = VecX::Ones(c.model.nv());
    centerOfMass(c.model, data, q, v);
    centerOfMassJacobian(c.model, data, q);
    AllocationScope scope;
    centerOfMass(c.model, data, q);
    centerOfMass(c.model, data, q, v);
    centerOfMassJacobian(c.model, data, q);
    EXPECT_EQ(scope.count(), 0);
  }
}
