// Centroidal momentum (algorithms/centroidal.hpp) against independent computations: a dense sum
// over bodies of m_i ṗ_i and (p_i − p_G) × m_i ṗ_i + R_i Ī_i R_iᵀ ω_i in world quantities; the
// rate Ȧ_G v against finite differences of A_G along the motion; and the momentum balance
// dh_G/dt = [M g + Σ f; Σ (n − p_G × f)] along a forward-dynamics motion, finite differences
// (rotors spinning, loops, differentials).
#include <gtest/gtest.h>

#include "data_workspace.hpp"
#include "support/allocation_counter.hpp"
#include "support/wbc_models.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

/// h_G by a dense sum over the bodies, [linear; angular about p_G], world axes. Body velocities
/// come from forward kinematics (data.v, body axes); the rest is plain vector algebra.
Vec6 denseMomentum(const Model& model, Data& data, const VecX& q, const VecX& v, const Vec3& pG) {
  forwardKinematics(model, data, q, v);
  Vec3 lin = Vec3::Zero(), ang = Vec3::Zero();
  for (int i = 0; i < model.numBodies(); ++i) {
    const Mat6& I = model.body(i).inertia;
    const double m = inertiaMass(I);
    const Vec3 c = m > 0 ? inertiaCom(I) : Vec3::Zero();
    const Mat3 R = data.Xa[static_cast<size_t>(i)].E.transpose();  // body -> world
    const Vec3 p = R * c + data.Xa[static_cast<size_t>(i)].r;
    const Vec6& vb = data.v[static_cast<size_t>(i)];
    const Vec3 w = R * vb.head<3>();
    const Vec3 pd = R * (vb.tail<3>() + vb.head<3>().cross(c));
    lin += m * pd;
    ang += (p - pG).cross(m * pd) + R * inertiaAboutCom(I) * R.transpose() * w;
  }
  Vec6 h;
  h << lin, ang;
  return h;
}

}  // namespace

TEST(Centroidal, MatrixTimesVelocityIsTheMomentumOfADenseSum) {
  Rng rng(21);
  for (const WbcCase& c : wbcCases()) {
    SCOPED_TRACE(c.name);
    Data data(c.model), ref(c.model);
    const VecX q = randomPositions(rng, c), v = randomVector(rng, c.model.nv(), -2.0, 2.0);
    const Mat6X A = centroidalMomentumMatrix(c.model, data, q);
    const Vec3 pG = data.centroidal.com;
    const Vec6 h = centroidalMomentum(c.model, data, q, v);
    const Vec6 dense = denseMomentum(c.model, ref, q, v, pG);
    EXPECT_LT(maxRelErr(A * v, dense), 1e-11);
    EXPECT_LT(maxRelErr(h, dense), 1e-11);
    centroidalDynamics(c.model, data, q, v);
    EXPECT_LT(maxRelErr(data.centroidal.Ag, A), 1e-12);
    EXPECT_LT(maxRelErr(data.centroidal.hg, dense), 1e-11);
    // the centroidal composite inertia: Ī_G = Σ R Ī_i Rᵀ + m_i ((d·d) 1 − d dᵀ), d = p_i − p_G
    Mat3 IG = Mat3::Zero();
    for (int i = 0; i < c.model.numBodies(); ++i) {
      const Mat6& I = c.model.body(i).inertia;
      const double m = inertiaMass(I);
      const Mat3 R = data.Xa[static_cast<size_t>(i)].E.transpose();
      const Vec3 d = R * (m > 0 ? inertiaCom(I) : Vec3::Zero()) + data.Xa[static_cast<size_t>(i)].r - pG;
      IG += R * inertiaAboutCom(I) * R.transpose() + m * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
    }
    EXPECT_LT(maxRelErr(data.centroidal.Ig.topLeftCorner<3, 3>(), IG), 1e-11);
    EXPECT_NEAR(data.centroidal.Ig(5, 5), data.centroidal.mass, 1e-12 * data.centroidal.mass);
  }
}

TEST(Centroidal, TheWorldAxesPassRunsOnTreesOfConstantSubspacesOnly) {
  // centroidalDynamics sums world-axes velocities when every cluster's S is constant and hangs
  // from its output body (the geared legs), and keeps the body-axes pass otherwise (loops, a
  // differential). The tests above compare both against the independent computations; this one
  // makes sure each pass is the one they exercised.
  for (const WbcCase& c : wbcCases(false)) {
    SCOPED_TRACE(c.name);
    const Data data(c.model);
    const bool expected =
        c.name.rfind("mini_cheetah", 0) == 0 || c.name == "revolute_rotor_chain" || c.name == "revolution_rotor_chain";
    EXPECT_EQ(data.work().centroidal.worldAxes, expected);
  }
}

TEST(Centroidal, OnlyRotorsOfRevolutionFoldIntoTheirParents) {
  // The passes fold a rotor into its parent only when its own turning changes nothing they use
  // (data.cpp): the CoM Jacobian needs its CoM on its axis, the world-axes centroidal pass its
  // whole inertia unchanged. The Mini Cheetah's twelve rotors are such bodies; the lopsided
  // variant's two edited rotors must take the general path (the numerical tests above and in
  // test_com run on both models and compare with independent sums and finite differences).
  const Model cheetah = bundledModel("mini_cheetah.urdf"), lopsided = lopsidedRotorCheetah();
  const Data plain(cheetah), edited(lopsided);
  const CentroidalScratch& cs = plain.work().centroidal;
  const CentroidalScratch& ce = edited.work().centroidal;
  int rotors = 0;
  for (int i = 0; i < cheetah.numBodies(); ++i) {
    SCOPED_TRACE(cheetah.body(i).name);
    const auto b = static_cast<size_t>(i);
    const bool rotor = cheetah.body(i).name.find("rotor") != std::string::npos;
    rotors += rotor;
    EXPECT_EQ(cs.symmetricRotor[b] != 0, rotor);
    EXPECT_EQ(cs.comOnAxis[b] != 0, rotor);
    const std::string& name = lopsided.body(i).name;
    EXPECT_EQ(ce.symmetricRotor[b] != 0, rotor && name != "FR_hip_rotor" && name != "FR_knee_rotor");
    EXPECT_EQ(ce.comOnAxis[b] != 0, rotor && name != "FR_hip_rotor");
  }
  EXPECT_EQ(rotors, 12);
}

TEST(Centroidal, RandomRotorsOfRevolutionFoldWhereverTheyHang) {
  // Random axes, gear ratios of both signs, centres of mass on the axis but off the joint origin:
  // on a chain both passes fold every rotor; in a belt-like cluster the CoM Jacobian also folds
  // a rotor whose parent is a body of its own cluster (S_r = X S_parent + s G_r). The numerical
  // tests run on both models (wbcCases).
  const Model chain = revolutionRotorChain(), inside = revolutionRotorInsideCluster();
  const Data chainData(chain), insideData(inside);
  const CentroidalScratch& cs = chainData.work().centroidal;
  ASSERT_TRUE(cs.worldAxes);
  for (int i = 0; i < chain.numBodies(); ++i) {
    const bool rotor = chain.body(i).name.rfind("rotor", 0) == 0;
    EXPECT_EQ(cs.symmetricRotor[static_cast<size_t>(i)] != 0, rotor) << chain.body(i).name;
    EXPECT_EQ(cs.comOnAxis[static_cast<size_t>(i)] != 0, rotor) << chain.body(i).name;
  }
  const CentroidalScratch& ci = insideData.work().centroidal;
  for (int i = 0; i < inside.numBodies(); ++i)
    EXPECT_EQ(ci.comOnAxis[static_cast<size_t>(i)] != 0, inside.body(i).name.rfind("rotor", 0) == 0) << inside.body(i).name;
  const Body& rotorC = inside.body(inside.bodyIndex("rotorC"));
  EXPECT_EQ(inside.body(rotorC.parent).cluster, rotorC.cluster);  // the case this model exists for
}

TEST(Centroidal, FoldedPassesGiveTheSameBitsWhateverCameBefore) {
  // The folded passes keep per-call state in the workspace (world momenta that rotors add into,
  // composites started from the folded tables): a Data that ran other calls at other states first
  // must give bit-for-bit what a fresh Data gives.
  for (const Model& m : {bundledModel("mini_cheetah.urdf"), revolutionRotorChain()}) {
    SCOPED_TRACE(m.name());
    Rng rng(25);
    const VecX q = m.neutralConfiguration() + randomVector(rng, m.nq(), -0.3, 0.3), v = randomVector(rng, m.nv());
    const VecX q2 = m.neutralConfiguration() + randomVector(rng, m.nq(), -0.3, 0.3), v2 = randomVector(rng, m.nv());
    Data fresh(m), used(m);
    centroidalDynamics(m, used, q2, v2);
    centerOfMassJacobian(m, used, q2);
    centroidalMomentumMatrix(m, used, q2);
    inverseDynamics(m, used, q2, v2, v);
    const Mat3X J = centerOfMassJacobian(m, fresh, q);
    EXPECT_TRUE((centerOfMassJacobian(m, used, q).array() == J.array()).all());
    centroidalDynamics(m, fresh, q, v);
    centroidalDynamics(m, used, q, v);
    EXPECT_TRUE((used.centroidal.Ag.array() == fresh.centroidal.Ag.array()).all());
    EXPECT_TRUE((used.centroidal.hg.array() == fresh.centroidal.hg.array()).all());
    EXPECT_TRUE((used.centroidal.dhg.array() == fresh.centroidal.dhg.array()).all());
  }
}

TEST(Centroidal, RotorSpinIsPartOfTheAngularMomentum) {
  // A spinning rotor's momentum about its own axis (what an armature model drops): with the
  // rotors' spin removed (their bodies' inertia taken out of the dense sum) h_G changes by the
  // rotors' own momenta.
  const Model m = bundledModel("mini_cheetah.urdf");
  Data data(m), ref(m);
  Rng rng(22);
  const VecX q = m.neutralConfiguration(), v = randomVector(rng, m.nv());
  const Vec6 h = centroidalMomentum(m, data, q, v);
  forwardKinematics(m, ref, q, v);
  Vec3 spin = Vec3::Zero();
  for (int i = 0; i < m.numBodies(); ++i)
    if (m.body(i).name.find("rotor") != std::string::npos) {
      const Mat3 R = ref.Xa[static_cast<size_t>(i)].E.transpose();
      spin += R * inertiaAboutCom(m.body(i).inertia) * ref.v[static_cast<size_t>(i)].head<3>();
    }
  EXPECT_GT(spin.norm(), 1e-3 * h.tail<3>().norm());  // not negligible at gear ratio ~9
  EXPECT_LT(maxRelErr(h, denseMomentum(m, ref, q, v, data.centroidal.com)), 1e-11);
}

TEST(Centroidal, BiasMatchesFiniteDifferencesOfTheMatrix) {
  Rng rng(23);
  for (const WbcCase& c : wbcCases()) {
    SCOPED_TRACE(c.name);
    Data data(c.model), fd(c.model);
    const VecX q = randomPositions(rng, c), v = randomVector(rng, c.model.nv());
    const Vec6 dhg = centroidalMomentumBias(c.model, data, q, v);
    const Vec6 ref = alongVelocity(c.model, q, v, 1e-4,
                                   [&](const VecX& qt) { return Vec6(centroidalMomentumMatrix(c.model, fd, qt) * v); });
    EXPECT_LT(maxRelErr(dhg, ref), 1e-7);
    centroidalDynamics(c.model, data, q, v);
    EXPECT_LT(maxRelErr(data.centroidal.dhg, dhg), 1e-11);
  }
}

TEST(Centroidal, MomentumRateAlongAMotionIsGravityPlusExternalWrench) {
  Rng rng(24);
  for (const WbcCase& c : wbcCases()) {
    if (!c.model.isFloatingBase()) continue;  // a fixed base takes an unknown reaction
    SCOPED_TRACE(c.name);
    for (bool spinning : {false, true}) {
      Data data(c.model), fd(c.model);
      const VecX q = randomPositions(rng, c);
      const VecX v = spinning ? randomVector(rng, c.model.nv()) : VecX::Zero(c.model.nv());
      VecX tau = randomVector(rng, c.model.nv()) * 5.0;  // joint torques are internal; a base "torque" is not
      for (const Cluster& cl : c.model.clusters())
        if (std::string(cl.typeName()) == "Free") tau.segment(cl.vIndex, cl.nv).setZero();
      ExternalForces fext(static_cast<size_t>(c.model.numBodies()), Vec6::Zero());
      fext.back() = randomVector(rng, 6) * 3.0;
      fext[static_cast<size_t>(c.model.numBodies() / 2)] = randomVector(rng, 6) * 3.0;
      const VecX qdd = forwardDynamics(c.model, data, q, v, tau, fext);
      const Vec3 pG = centerOfMass(c.model, data, q);
      const double M = data.centroidal.mass;
      // h_G(q(t), v + t q̈) along the motion through (q, v) with acceleration q̈, central differences
      auto hAt = [&](double t) { return Vec6(centroidalMomentum(c.model, fd, integrate(c.model, q, v, t), v + t * qdd)); };
      const double h = 1e-4;
      const Vec6 rate = (hAt(-2 * h) - 8 * hAt(-h) + 8 * hAt(h) - hAt(2 * h)) / (12 * h);
      Vec6 wrench = Vec6::Zero();
      wrench.head<3>() = M * c.model.gravity();
      for (const Vec6& f : fext) {
        wrench.head<3>() += f.tail<3>();
        wrench.tail<3>() += f.head<3>() - pG.cross(f.tail<3>());
      }
      EXPECT_LT(maxRelErr(rate, wrench), 1e-6) << "spinning " << spinning;
      // and the same from A_G q̈ + Ȧ_G v
      centroidalDynamics(c.model, data, q, v);
      EXPECT_LT(maxRelErr(data.centroidal.Ag * qdd + data.centroidal.dhg, wrench), 1e-9);
    }
  }
}

TEST(Centroidal, BadInputIsATypedError) {
  const Model m = bundledModel("mini_cheetah.urdf");
  Data data(m);
  const VecX q = m.neutralConfiguration(), v = VecX::Zero(m.nv());
  EXPECT_THROW(centroidalMomentum(m, data, q, VecX::Zero(3)), InputError);
  EXPECT_THROW(centroidalMomentumMatrix(m, data, VecX::Zero(5)), InputError);
  VecX bad = v;
  bad[0] = std::nan("");
  EXPECT_THROW(centroidalMomentumBias(m, data, q, bad), InputError);
  EXPECT_THROW(centroidalDynamics(m, data, q, bad), InputError);
  VecX badQ = q;
  badQ[2] = std::nan("");
  EXPECT_THROW(centroidalDynamics(m, data, badQ, v), InputError);
}

TEST(Centroidal, CallsOnPreparedDataDoNotAllocate) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator in this build";
  for (const WbcCase& c : wbcCases(false)) {
    SCOPED_TRACE(c.name);
    Data data(c.model);
    const VecX q = c.model.neutralConfiguration(), v = VecX::Ones(c.model.nv());
    centroidalDynamics(c.model, data, q, v);
    AllocationScope scope;
    centroidalMomentum(c.model, data, q, v);
    centroidalMomentumMatrix(c.model, data, q);
    centroidalMomentumBias(c.model, data, q, v);
    centroidalDynamics(c.model, data, q, v);
    EXPECT_EQ(scope.count(), 0);
  }
}
