// A spherical joint (type="spherical") inside a loop cluster (issue 25: "each new joint works as a
// cluster member"). The compiler writes such a ball as three revolutes about the joint frame's x,
// y, z (expand_balls.cpp). Checked against the same R-S-U-R crank–rocker written by hand with the
// ball as three revolutes in two different angle sequences (x-y-z and z-y-x: a different
// parametrisation of the same physical ball, so equal dynamics in the crank coordinate is a
// property of the mechanism, not of the expansion), against projection and Lagrange, and by
// energy conservation under RK4. Bad input stays a ModelError naming the joint.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "grbda/grbda.hpp"
#include "support/model_error.hpp"
#include "support/rk4_step.hpp"
#include "support/compare.hpp"

using namespace grbda;
using grbda::testsupport::relErr;

namespace {

const char* kInertial =
    "<inertial><origin xyz=\"0.02 0.01 -0.03\"/><mass value=\"%s\"/>"
    "<inertia ixx=\"0.004\" iyy=\"0.005\" izz=\"0.003\" ixy=\"0.0004\" ixz=\"0\" iyz=\"0.0002\"/></inertial>";

std::string urdfLink(const std::string& name, const char* mass) {
  if (!mass) return "<link name=\"" + name + "\"/>\n";
  char body[400];
  std::snprintf(body, sizeof body, kInertial, mass);
  return "<link name=\"" + name + "\">" + body + "</link>\n";
}

std::string revolute(const std::string& name, const std::string& parent, const std::string& child, const char* xyz,
                     const char* axis, bool independent) {
  return "<joint name=\"" + name + "\" type=\"continuous\"" + (independent ? "" : " independent=\"false\"") +
         "><parent link=\"" + parent + "\"/><child link=\"" + child + "\"/><origin xyz=\"" + xyz +
         "\"/><axis xyz=\"" + axis + "\"/></joint>\n";
}

/// The crank–rocker of test_loop_types (R-S-U-R): a crank about z, the coupler on a ball at the
/// crank's tip, a rocker about y; the coupler closes on the rocker through a universal loop.
/// `ball`: "spherical" (one joint), "xyz" or "zyx" (three revolutes, massless links between).
std::string rsur(const std::string& ball, const std::string& extra = "") {
  std::string s = "<robot name=\"rsur_" + ball + "\">\n" + urdfLink("base", nullptr) + urdfLink("crank", "0.75") +
                  urdfLink("coupler", "1.0") + urdfLink("rocker", "1.25");
  s += revolute("crank_joint", "base", "crank", "0 0 0", "0 0 1", true);
  if (ball == "spherical") {
    s += "<joint name=\"ball\" type=\"spherical\" independent=\"false\"><parent link=\"crank\"/>"
         "<child link=\"coupler\"/><origin xyz=\"0.1 0 0\"/>" + extra + "</joint>\n";
  } else {
    const char* axes[3] = {"1 0 0", "0 1 0", "0 0 1"};
    if (ball == "zyx") std::swap(axes[0], axes[2]);
    s += urdfLink("g1", nullptr) + urdfLink("g2", nullptr);
    s += revolute("b1", "crank", "g1", "0.1 0 0", axes[0], false);
    s += revolute("b2", "g1", "g2", "0 0 0", axes[1], false);
    s += revolute("b3", "g2", "coupler", "0 0 0", axes[2], false);
  }
  s += revolute("rocker_joint", "base", "rocker", "0.35 0 0.2", "0 1 0", false);
  s += "<loop name=\"closure\" type=\"universal\"><predecessor link=\"coupler\"><origin xyz=\"0.25 0 0.1\"/>"
       "</predecessor><successor link=\"rocker\"><origin xyz=\"0 0 -0.1\"/></successor>"
       "<axis xyz=\"0 1 0\"/><axis2 xyz=\"1 0 0\"/></loop>\n</robot>\n";
  return s;
}

Model load(const std::string& ball) { return loadUrdfString(rsur(ball), "rsur_" + ball + ".urdf"); }

}  // namespace

TEST(BallInLoop, LoadsAsOneGenericClusterWhoseBallIsThreeAngles) {
  const Model model = load("spherical");
  ASSERT_EQ(model.numClusters(), 1);
  EXPECT_STREQ(model.cluster(0).typeName(), "Generic");
  EXPECT_EQ(model.nv(), 1);          // the crank
  EXPECT_EQ(model.nvSpanning(), 5);  // crank, three ball angles, rocker
  EXPECT_EQ(model.nqSpanning(), 5);  // angles, not a quaternion
  int angles = 0;
  for (const std::string& name : model.spanningPositionNames())
    angles += name.rfind("ball::", 0) == 0 ? 1 : 0;
  EXPECT_EQ(angles, 3);
}

TEST(BallInLoop, SameDynamicsAsTheBallWrittenAsRevolutesInTwoSequences) {
  const Model ball = load("spherical"), xyz = load("xyz"), zyx = load("zyx");
  Data dBall(ball), dXyz(xyz), dZyx(zyx);
  double worstSequence = 0.0, worstExpansion = 0.0, worstBaseline = 0.0;
  for (double q0 : {0.1, -0.4, 0.7}) {
    const VecX q = VecX::Constant(1, q0), v = VecX::Constant(1, 1.3 - q0), tau = VecX::Constant(1, 0.2 + q0);
    const VecX a = forwardDynamics(ball, dBall, q, v, tau);
    const VecX aXyz = forwardDynamics(xyz, dXyz, q, v, tau), aZyx = forwardDynamics(zyx, dZyx, q, v, tau);
    worstExpansion = std::max(worstExpansion, relErr(a, aXyz));
    worstSequence = std::max(worstSequence, relErr(aXyz, aZyx));
    worstBaseline = std::max({worstBaseline, relErr(a, projectionForwardDynamics(ball, dBall, q, v, tau)),
                              relErr(a, lagrangeForwardDynamics(ball, dBall, q, v, tau))});
    EXPECT_LT(relErr(inverseDynamics(ball, dBall, q, v, a), tau), 1e-10);
  }
  std::printf("[ measured ] ball vs x-y-z revolutes %.3g, x-y-z vs z-y-x %.3g, vs projection/Lagrange %.3g\n",
              worstExpansion, worstSequence, worstBaseline);
  EXPECT_LT(worstExpansion, 1e-12);
  EXPECT_LT(worstSequence, 1e-9);  // another assembly solve of the same mechanism
  EXPECT_LT(worstBaseline, 1e-9);
}

TEST(BallInLoop, Rk4ConservesEnergy) {
  const Model model = load("spherical");
  Data data(model);
  VecX q = VecX::Constant(1, -0.4), v = VecX::Constant(1, 2.0);
  const VecX tau = VecX::Zero(1);
  auto f = [&](const VecX& qq, const VecX& vv) { return VecX(forwardDynamics(model, data, qq, vv, tau)); };
  auto energy = [&](const VecX& qq, const VecX& vv) {
    return kineticEnergy(model, data, qq, vv) + potentialEnergy(model, data, qq);
  };
  const double E0 = energy(q, v), dt = 1e-3;
  double drift = 0.0;
  for (int step = 0; step < 500; ++step) {  // the crank coordinate is an angle: q̇ = v
    testsupport::rk4Step(f, dt, q, v);
    drift = std::max(drift, std::abs(energy(q, v) - E0));
  }
  std::printf("[ measured ] |E - E0| <= %.3g J over 0.5 s (E0 = %.4g J), crank at %.3g rad\n", drift, E0, q[0]);
  EXPECT_GT(std::abs(q[0] + 0.4), 0.1);  // it moved
  EXPECT_LT(drift, 1e-8 * (1.0 + std::abs(E0)));
}

TEST(BallInLoop, BadBallsAreModelErrorsNamingTheJoint) {
  using testsupport::modelErrorOf;
  // damping would act on the angles' rates, not on ω: refused rather than changed
  const std::string damped = modelErrorOf(
      [] { loadUrdfString(rsur("spherical", "<dynamics damping=\"0.1\"/>"), "damped.urdf"); });
  EXPECT_NE(damped.find("joint 'ball'"), std::string::npos) << damped;
  EXPECT_NE(damped.find("damping"), std::string::npos) << damped;
  // the names the expansion needs are taken
  std::string clash = rsur("spherical");
  clash.replace(clash.find("<link name=\"rocker\""), 0, "<link name=\"ball::1\"/>\n");
  const std::string taken = modelErrorOf([&] { loadUrdfString(clash, "clash.urdf"); });
  EXPECT_NE(taken.find("ball::1"), std::string::npos) << taken;
  EXPECT_NE(taken.find("clash.urdf"), std::string::npos) << taken;
}

TEST(BallInLoop, ABallOnACouplingChainIsStillRefused) {
  // a coupling adds joint rates along its chain; a ball has no single rate (its angles' rates are
  // not ω), so a coupling through one stays a ModelError naming the joint
  const std::string text =
      "<robot name=\"coupled_ball\">\n" + urdfLink("base", nullptr) + urdfLink("arm", "1.0") + urdfLink("rotor", "0.5") +
      std::string("<joint name=\"ball\" type=\"spherical\"><parent link=\"base\"/><child link=\"arm\"/></joint>\n") +
      revolute("rotor_joint", "base", "rotor", "0 0 0.1", "0 0 1", false) +
      "<coupling name=\"gear\"><predecessor link=\"arm\"/><successor link=\"rotor\"/><ratio value=\"3\"/>"
      "</coupling>\n</robot>\n";
  const std::string message = testsupport::modelErrorOf([&] { loadUrdfString(text, "coupled_ball.urdf"); });
  EXPECT_NE(message.find("spherical joint 'ball'"), std::string::npos) << message;
}

TEST(BallInLoop, MinvDerivativesAndEfpaAgreeWithTheirDenseReferences) {
  // the expanded ball is an ordinary member of the Generic cluster: ℳ⁻¹ against the inverse of
  // CRBA's ℳ, ∂q̈/∂q and ∂q̈/∂v against central differences of forward dynamics, and C-EFPA's
  // Λ⁻¹ at the coupler's far end against J ℳ⁻¹ Jᵀ with the frame Jacobian
  const Model model = load("spherical");
  Data data(model);
  const VecX q = VecX::Constant(1, -0.3), v = VecX::Constant(1, 0.9), tau = VecX::Constant(1, 0.25);
  const MatX H = massMatrix(model, data, q);
  const MatX Minv = inverseMassMatrix(model, data, q);
  EXPECT_LT((Minv - H.inverse()).norm(), 1e-12 * H.inverse().norm());

  computeABADerivatives(model, data, q, v, tau);
  const MatX dq = data.derivatives.ddq_dq, dv = data.derivatives.ddq_dv;
  const double h = 1e-6;
  auto fd = [&](const VecX& qq, const VecX& vv) { return VecX(forwardDynamics(model, data, qq, vv, tau)); };
  const VecX e = VecX::Ones(1);
  const VecX dqFd = (fd(q + h * e, v) - fd(q - h * e, v)) / (2.0 * h);
  const VecX dvFd = (fd(q, v + h * e) - fd(q, v - h * e)) / (2.0 * h);
  std::printf("[ measured ] dqdd/dq %.6g vs central differences %.6g; dqdd/dv %.6g vs %.6g\n", dq(0, 0), dqFd[0],
              dv(0, 0), dvFd[0]);
  EXPECT_NEAR(dq(0, 0), dqFd[0], 1e-6 * (1.0 + std::abs(dqFd[0])));
  EXPECT_NEAR(dv(0, 0), dvFd[0], 1e-6 * (1.0 + std::abs(dvFd[0])));

  const int coupler = model.frameIndex("coupler");
  const Vec3 tip(0.25, 0.0, 0.1);
  const OsimSet set(model, {EndEffector{coupler, tip}});
  const MatX LambdaInv = inverseOperationalSpaceInertia(model, data, set, q);
  const Mat6X J = frameJacobian(model, data, q, coupler, tip, ReferenceFrame::Local);
  const MatX dense = J * massMatrix(model, data, q).inverse() * J.transpose();
  EXPECT_LT((LambdaInv - dense).norm(), 1e-10 * (1.0 + dense.norm())) << LambdaInv << "\n\n" << dense;
}
