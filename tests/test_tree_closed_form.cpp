// The tree dynamics against equations derived by hand: a pendulum, the textbook planar double
// pendulum, and a single free rigid body (Newton-Euler written out in body coordinates).
#include <gtest/gtest.h>

#include <iostream>

#include "support/random_model.hpp"
#include "support/gravity.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

using testsupport::kG;

LinkSpec makeLink(const std::string& name, double mass, const Vec3& com, const Mat3& inertia) {
  LinkSpec l;
  l.name = name;
  l.mass = mass;
  l.com = com;
  l.inertia = inertia;
  return l;
}

JointSpec makeJoint(const std::string& name, JointKind kind, const std::string& parent, const std::string& child,
                    const Vec3& axis, const Vec3& xyz = Vec3::Zero()) {
  JointSpec j;
  j.name = name;
  j.kind = kind;
  j.parent = parent;
  j.child = child;
  j.axis = axis;
  j.origin = Transform::translation(xyz);
  return j;
}

}  // namespace

// Pendulum: a bob of mass m whose COM hangs at (0, -l, 0) in the link frame at q = 0, revolute
// joint about +z through the origin, gravity (0, -g, 0), rotational inertia Izz about the COM.
// Rotating by q about z moves the COM to (l sin q, -l cos q, 0); the potential energy is
// V = m g y = -m g l cos q, so dV/dq = m g l sin q. With J = Izz + m l² (parallel axis):
//   tau = J qdd + m g l sin q,     qdd = (tau - m g l sin q) / J.
// There is no velocity term (a single rotation about a fixed axis).
TEST(ClosedForm, PendulumMatchesHandDerivedEquation) {
  const double m = 1.7, l = 0.6, Izz = 0.03;
  ModelBuilder b("pendulum");
  b.setGravity(Vec3(0.0, -kG, 0.0));
  b.addLink(makeLink("world", 0.0, Vec3::Zero(), Mat3::Zero()));
  b.addLink(makeLink("bob", m, Vec3(0.0, -l, 0.0), Vec3(0.01, 0.02, Izz).asDiagonal()));
  b.addJoint(makeJoint("pivot", JointKind::Continuous, "world", "bob", Vec3::UnitZ()));
  const Model model = b.build();
  Data data(model);
  const double J = Izz + m * l * l;
  Rng rng(31);
  for (int k = 0; k < 20; ++k) {
    const double q = uniform(rng, -kPi, kPi), v = uniform(rng, -3, 3), x = uniform(rng, -5, 5);
    const VecX Q = VecX::Constant(1, q), V = VecX::Constant(1, v), X = VecX::Constant(1, x);
    EXPECT_NEAR(inverseDynamics(model, data, Q, V, X)[0], J * x + m * kG * l * std::sin(q), 1e-12);
    EXPECT_NEAR(forwardDynamics(model, data, Q, V, X)[0], (x - m * kG * l * std::sin(q)) / J, 1e-12);
    EXPECT_NEAR(massMatrix(model, data, Q)(0, 0), J, 1e-14);
    EXPECT_NEAR(biasForces(model, data, Q, V)[0], m * kG * l * std::sin(q), 1e-12);
  }
}

// Planar double pendulum (Spong, Hutchinson & Vidyasagar, "Robot Modeling and Control", §7.4.1):
// two links in the x-y plane, both joints about +z, angles from the +x axis (q2 relative to
// link 1). Link i: mass mi, length li, COM at lci along its x axis, inertia Ii about the COM
// about z. Gravity (0, -g, 0). With h = -m2 l1 lc2 sin q2:
//   M11 = m1 lc1² + m2 (l1² + lc2² + 2 l1 lc2 cos q2) + I1 + I2
//   M12 = M21 = m2 (lc2² + l1 lc2 cos q2) + I2,      M22 = m2 lc2² + I2
//   c1 = h qd2² + 2 h qd1 qd2,                        c2 = -h qd1²
//   g1 = (m1 lc1 + m2 l1) g cos q1 + m2 lc2 g cos(q1 + q2),   g2 = m2 lc2 g cos(q1 + q2)
// The links are rods along x (tiny inertia about x, I about y and z), lc ≠ l/2 on purpose.
TEST(ClosedForm, DoublePendulumMatchesTextbookEquations) {
  const double m1 = 1.3, l1 = 0.9, lc1 = 0.35, I1 = 0.08;
  const double m2 = 0.7, l2 = 0.6, lc2 = 0.4, I2 = 0.03;
  (void)l2;  // the second link's length does not enter the dynamics
  ModelBuilder b("double_pendulum");
  b.setGravity(Vec3(0.0, -kG, 0.0));
  b.addLink(makeLink("world", 0.0, Vec3::Zero(), Mat3::Zero()));
  b.addLink(makeLink("upper", m1, Vec3(lc1, 0, 0), Vec3(1e-3, I1, I1).asDiagonal()));
  b.addLink(makeLink("lower", m2, Vec3(lc2, 0, 0), Vec3(1e-3, I2, I2).asDiagonal()));
  b.addJoint(makeJoint("shoulder", JointKind::Revolute, "world", "upper", Vec3::UnitZ()));
  b.addJoint(makeJoint("elbow", JointKind::Revolute, "upper", "lower", Vec3::UnitZ(), Vec3(l1, 0, 0)));
  const Model model = b.build();
  Data data(model);

  Rng rng(32);
  double worst = 0.0;
  for (int k = 0; k < 50; ++k) {
    const VecX q = randomVector(rng, 2, -kPi, kPi), v = randomVector(rng, 2, -3, 3), tau = randomVector(rng, 2, -5, 5);
    const double c2 = std::cos(q[1]), h = -m2 * l1 * lc2 * std::sin(q[1]);
    Eigen::Matrix2d M;
    M(0, 0) = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + I1 + I2;
    M(0, 1) = M(1, 0) = m2 * (lc2 * lc2 + l1 * lc2 * c2) + I2;
    M(1, 1) = m2 * lc2 * lc2 + I2;
    const Eigen::Vector2d coriolis(h * v[1] * v[1] + 2 * h * v[0] * v[1], -h * v[0] * v[0]);
    const Eigen::Vector2d gravity((m1 * lc1 + m2 * l1) * kG * std::cos(q[0]) + m2 * lc2 * kG * std::cos(q[0] + q[1]),
                                  m2 * lc2 * kG * std::cos(q[0] + q[1]));
    const Eigen::Vector2d bias = coriolis + gravity;
    const Eigen::Vector2d qdd = M.inverse() * (tau - bias);

    const double eM = (massMatrix(model, data, q) - M).norm() / M.norm();
    const double eC = (biasForces(model, data, q, v) - bias).norm() / std::max(1.0, bias.norm());
    const double eF = (forwardDynamics(model, data, q, v, tau) - qdd).norm() / std::max(1.0, qdd.norm());
    const double eI = (inverseDynamics(model, data, q, v, qdd) - tau).norm() / std::max(1.0, tau.norm());
    EXPECT_LT(eM, 1e-12);
    EXPECT_LT(eC, 1e-12);
    EXPECT_LT(eF, 1e-12);
    EXPECT_LT(eI, 1e-12);
    worst = std::max({worst, eM, eC, eF, eI});
  }
  std::cout << "[ measured ] double pendulum max relative error = " << worst << "\n";
}

// ---------------------------------------------------------------------------------------------
// A single free rigid body. With R the body orientation (body -> world), c the COM in body
// coordinates, Ic the inertia about the COM in body axes, ω and v_o the body-coordinate angular
// velocity and origin velocity, and a world wrench (F through the COM, moment n), Newton-Euler is
//   Ic ω̇ + ω × Ic ω = Rᵀ n,          m p̈_c = F + m g,
// and, differentiating p_c = p + R c and v_o = Rᵀ ṗ in body coordinates,
//   Rᵀ p̈ = Rᵀ p̈_c - ω̇ × c - ω × (ω × c),      v̇_o = Rᵀ p̈ - ω × v_o.
// The free joint's qdd is [ω̇; v̇_o].

namespace {

struct FreeBody {
  double m;
  Vec3 c;
  Mat3 Ic;
  Model model;
};

FreeBody makeFreeBody(Rng& rng, const Vec3& gravity) {
  FreeBody fb;
  fb.m = uniform(rng, 0.5, 3.0);
  fb.c = randomVec3(rng, -0.3, 0.3);
  fb.Ic = randomRotationalInertia(rng, fb.m);
  ModelBuilder b("free_body");
  b.setGravity(gravity);
  b.addLink(makeLink("world", 0.0, Vec3::Zero(), Mat3::Zero()));
  b.addLink(makeLink("body", fb.m, fb.c, fb.Ic));
  b.addJoint(makeJoint("free", JointKind::Floating, "world", "body", Vec3::UnitX()));
  fb.model = b.build();
  return fb;
}

}  // namespace

TEST(ClosedForm, FreeBodyPushedThroughItsComAcceleratesAtForceOverMass) {
  Rng rng(33);
  for (int k = 0; k < 20; ++k) {
    const FreeBody fb = makeFreeBody(rng, Vec3::Zero());
    Data data(fb.model);
    const VecX q = randomConfiguration(rng, fb.model);
    const Mat3 R = freeJointQuaternion(fb.model.body(0), q).toRotationMatrix();
    const Vec3 pc = q.head<3>() + R * fb.c;  // world COM
    const Vec3 F = randomVec3(rng, -5, 5);
    ExternalForces fext(1);
    fext[0] << pc.cross(F), F;  // the force F acting along a line through the COM
    const VecX qdd = forwardDynamics(fb.model, data, q, VecX::Zero(6), VecX::Zero(6), fext);
    EXPECT_LT(qdd.head<3>().norm(), 1e-12);                                      // no rotation
    EXPECT_LT((qdd.tail<3>() - R.transpose() * F / fb.m).norm(), 1e-12);       // a = F / m
  }
}

TEST(ClosedForm, FreeBodyFollowsNewtonEulerEquations) {
  Rng rng(34);
  double worst = 0.0;
  for (int k = 0; k < 50; ++k) {
    const Vec3 g = randomVec3(rng, -10, 10);
    const FreeBody fb = makeFreeBody(rng, g);
    Data data(fb.model);
    const VecX q = randomConfiguration(rng, fb.model);
    const VecX v = randomVector(rng, 6, -2, 2);
    const Mat3 R = freeJointQuaternion(fb.model.body(0), q).toRotationMatrix();
    const Vec3 w = v.head<3>(), vo = v.tail<3>();
    const Vec3 pc = q.head<3>() + R * fb.c;
    const Vec3 F = randomVec3(rng, -5, 5), n = randomVec3(rng, -2, 2);
    ExternalForces fext(1);
    fext[0] << pc.cross(F) + n, F;

    const Vec3 wdot = fb.Ic.inverse() * (R.transpose() * n - w.cross(fb.Ic * w));
    const Vec3 pddBody = R.transpose() * (F / fb.m + g) - wdot.cross(fb.c) - w.cross(w.cross(fb.c));
    VecX expected(6);
    expected << wdot, pddBody - w.cross(vo);

    const VecX qdd = forwardDynamics(fb.model, data, q, v, VecX::Zero(6), fext);
    const double err = relativeError(qdd, expected);
    worst = std::max(worst, err);
    EXPECT_LT(err, 1e-11);
    // Inverse dynamics: the joint wrench that replaces fext is zero.
    EXPECT_LT(inverseDynamics(fb.model, data, q, v, expected, fext).norm(), 1e-10);
  }
  std::cout << "[ measured ] free body vs Newton-Euler max relative error = " << worst << "\n";
}

TEST(ClosedForm, FreeJointCoordinatesArePositionAndQuaternionOfTheBodyInTheWorld) {
  // q = [x y z qw qx qy qz]: the body origin in the world and the rotation body -> world;
  // v = [ω; v_o] in body coordinates, so the world velocity of the origin is R v_o.
  Rng rng(35);
  const FreeBody fb = makeFreeBody(rng, Vec3::Zero());
  Data data(fb.model);
  const int frame = fb.model.frameIndex("body");
  for (int k = 0; k < 20; ++k) {
    const VecX q = randomConfiguration(rng, fb.model), v = randomVector(rng, 6);
    const Mat3 R = Eigen::Quaterniond(q[3], q[4], q[5], q[6]).toRotationMatrix();
    forwardKinematics(fb.model, data, q, v);
    EXPECT_LT((framePosition(fb.model, data, frame) - q.head<3>()).norm(), 1e-14);
    EXPECT_LT((frameRotation(fb.model, data, frame) - R).norm(), 1e-14);
    const Vec6 world = frameVelocity(fb.model, data, frame, Vec3::Zero(), ReferenceFrame::LocalWorldAligned);
    EXPECT_LT((world.head<3>() - R * v.head<3>()).norm(), 1e-14);
    EXPECT_LT((world.tail<3>() - R * v.tail<3>()).norm(), 1e-14);
    // The origin's world position changes at R v_o: central difference through the exact
    // motion with constant body velocity for ±h (p(±h) = p ± h R v_o to first order).
    const double h = 1e-6;
    const VecX qp = integrateConfiguration(fb.model, q, v, h), qm = integrateConfiguration(fb.model, q, v, -h);
    forwardKinematics(fb.model, data, qp);
    const Vec3 pp = framePosition(fb.model, data, frame);
    const Mat3 Rp = frameRotation(fb.model, data, frame);
    forwardKinematics(fb.model, data, qm);
    const Vec3 pm = framePosition(fb.model, data, frame);
    const Mat3 Rm = frameRotation(fb.model, data, frame);
    EXPECT_LT(((pp - pm) / (2 * h) - R * v.tail<3>()).norm(), 1e-8);
    // Body angular velocity: R(+h) = R(-h) exp(2h ω̂).
    const Eigen::AngleAxisd rel(Rm.transpose() * Rp);
    EXPECT_LT((rel.angle() * rel.axis() / (2 * h) - v.head<3>()).norm(), 1e-7);
  }
}
