// The simulator's contact physics against closed forms: a box on an incline sticks iff tan θ ≤ μ
// and otherwise slides at g (sin θ − μ cos θ); a pushed box; drops that come to rest; energy that
// never grows; a pendulum on its limit; implicit damping; dry friction, on a rotor's joint equal to
// its reflected equivalent; ADMM against PGS; the Mini Cheetah standing on four feet.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "grbda/grbda.hpp"
#include "grbda/sim/simulator.hpp"
#include "sim_scenarios.hpp"
#include "support/allocation_counter.hpp"
#include "support/floating_body.hpp"
#include "support/gravity.hpp"
#include "support/total_mass.hpp"

namespace grbda {
namespace {

using testsupport::boxInertia;
using testsupport::floatingBody;
using testsupport::totalMass;

using testsupport::kG;



const Vec3 kBoxSize(0.4, 0.3, 0.1);
constexpr double kBoxMass = 2.0;
Model box() { return floatingBody(kBoxMass, boxInertia(kBoxMass, kBoxSize), CollisionShape::box(kBoxSize)); }

/// q of a body turned by `angle` about y with its centre at `centre`.
VecX pose(const Vec3& centre, double angle) {
  VecX q(7);
  q << centre, std::cos(0.5 * angle), 0.0, std::sin(0.5 * angle), 0.0;
  return q;
}

/// A ground tilted by θ about y, and the box resting flush on it.
struct Incline {
  World world;
  Vec3 downhill;
  VecX q0;
  Incline(double theta, double mu) {
    world.groundNormal = Vec3(-std::sin(theta), 0.0, std::cos(theta));
    world.friction = mu;
    downhill = -Vec3(std::cos(theta), 0.0, std::sin(theta));
    q0 = pose(world.groundNormal * 0.5 * kBoxSize.z(), -theta);
  }
};

Vec3 worldVelocity(const VecX& q, const VecX& v) {
  const Eigen::Quaterniond quat(q[3], q[4], q[5], q[6]);
  return quat.toRotationMatrix() * v.segment<3>(3);
}

SimulatorOptions options(ContactSolverType type) {
  SimulatorOptions o;
  o.solver.type = type;
  return o;
}

class ConeSolvers : public ::testing::TestWithParam<ContactSolverType> {};

TEST_P(ConeSolvers, BoxOnInclineSticksWhenTanThetaIsBelowMu) {
  const Incline incline(std::atan(0.4), 0.5);
  Simulator sim(box(), incline.world, options(GetParam()));
  sim.setState(incline.q0, VecX::Zero(6));
  sim.step(1000);
  const double slip = (sim.q().head<3>() - incline.q0.head<3>()).dot(incline.downhill);
  EXPECT_LT(std::abs(slip), 1e-6) << "slid " << slip << " m in 1 s";
  EXPECT_TRUE(sim.lastStep().solver.converged);
  EXPECT_NEAR(sim.lastStep().normalForceSum(), kBoxMass * kG * std::cos(std::atan(0.4)), 1e-6 * kBoxMass * kG);
}

TEST_P(ConeSolvers, BoxOnInclineSlidesAtTheCoulombAcceleration) {
  const double theta = std::atan(0.7), mu = 0.5;
  const Incline incline(theta, mu);
  Simulator sim(box(), incline.world, options(GetParam()));
  sim.setState(incline.q0, VecX::Zero(6));
  sim.step(500);
  const double a = kG * (std::sin(theta) - mu * std::cos(theta));
  const double speed = worldVelocity(sim.q(), sim.v()).dot(incline.downhill);
  EXPECT_NEAR(speed / sim.time(), a, 1e-6 * a);
  for (const ContactForce& f : sim.lastStep().contacts) {
    EXPECT_TRUE(f.sliding);
    EXPECT_NEAR(f.frictionForce.norm(), mu * f.normalForce, 1e-6 * kBoxMass * kG);
    EXPECT_LT(f.frictionForce.dot(incline.downhill), 0.0) << "friction must point uphill";
  }
}

INSTANTIATE_TEST_SUITE_P(AdmmAndPgs, ConeSolvers, ::testing::Values(ContactSolverType::ADMM, ContactSolverType::PGS));

TEST(SimulatorContact, PushedBoxStaysBelowMuMgAndAcceleratesAbove) {
  const double mu = 0.5, weight = kBoxMass * kG;
  World world;
  world.friction = mu;
  for (double fraction : {0.8, 1.2}) {
    Simulator sim(box(), world);
    sim.setState(pose(Vec3(0, 0, 0.5 * kBoxSize.z()), 0.0), VecX::Zero(6));
    VecX tau = VecX::Zero(6);
    tau[3] = fraction * mu * weight;  // along x through the centre of mass
    sim.setTorque(tau);
    sim.step(500);
    const double expected = fraction < 1.0 ? 0.0 : (fraction - 1.0) * mu * weight / kBoxMass;
    EXPECT_NEAR(worldVelocity(sim.q(), sim.v()).x() / sim.time(), expected, 1e-6) << "F = " << fraction << " mu m g";
    if (fraction < 1.0) EXPECT_LT(std::abs(sim.q()[0]), 1e-8);
  }
}

struct Drop {
  double maxPenetration = 0.0, maxEnergyRise = 0.0;
};

Drop dropAndSettle(Simulator& sim, int steps) {
  Drop d;
  double energy = sim.energy();
  for (int i = 0; i < steps; ++i) {
    sim.step();
    for (const ContactForce& f : sim.lastStep().contacts) d.maxPenetration = std::max(d.maxPenetration, -f.contact.distance);
    const double now = sim.energy();
    d.maxEnergyRise = std::max(d.maxEnergyRise, now - energy);
    energy = now;
  }
  return d;
}

TEST(SimulatorContact, DroppedBoxAndSphereComeToRestWithoutBouncing) {
  const double h = 0.2;
  {
    Simulator sim(box());
    sim.setState(pose(Vec3(0, 0, h + 0.5 * kBoxSize.z()), 0.0), VecX::Zero(6));
    const Drop d = dropAndSettle(sim, 1500);
    EXPECT_LT(sim.v().norm(), 1e-6);
    EXPECT_LT(d.maxPenetration, 2e-4);
    EXPECT_LT(d.maxEnergyRise, 1e-5 * kBoxMass * kG * h) << "a passive drop gained energy in a step";
    EXPECT_NEAR(sim.lastStep().normalForceSum(), kBoxMass * kG, 1e-6 * kBoxMass * kG);
    EXPECT_EQ(sim.lastStep().contacts.size(), 4u);  // the four bottom corners
  }
  {
    const double r = 0.05, m = 1.0;
    Simulator sim(floatingBody(m, Mat3::Identity() * 0.4 * m * r * r, CollisionShape::sphere(r)));
    sim.setState(pose(Vec3(0, 0, h + r), 0.0), VecX::Zero(6));
    const Drop d = dropAndSettle(sim, 1000);
    EXPECT_LT(sim.v().norm(), 1e-6);
    EXPECT_LT(d.maxPenetration, 2e-4);
    EXPECT_LT(d.maxEnergyRise, 1e-5 * m * kG * h);
    EXPECT_NEAR(sim.q()[2], r, 2e-4);
  }
}

TEST(SimulatorContact, FullRestitutionBouncesBackToTheDropHeight) {
  const double r = 0.05, m = 1.0, h = 0.2;
  World world;
  world.restitution = 1.0;
  SimulatorOptions o;
  o.dt = 1e-4;
  Simulator sim(floatingBody(m, Mat3::Identity() * 0.4 * m * r * r, CollisionShape::sphere(r)), world, o);
  sim.setState(pose(Vec3(0, 0, h + r), 0.0), VecX::Zero(6));
  double apex = 0.0;
  bool bounced = false;
  for (int i = 0; i < 6000; ++i) {
    sim.step();
    if (sim.v()[5] > 0.0) bounced = true;
    if (bounced) apex = std::max(apex, sim.q()[2] - r);
  }
  EXPECT_TRUE(bounced);
  EXPECT_NEAR(apex, h, 0.01 * h);
}

// ---- joints: one revolute joint, axis y (a pendulum) or z (a disc, gravity plays no part) ----

Model singleJoint(const Vec3& axis, double m, const Vec3& com, const Mat3& inertia, const JointLimits& limits,
                  const JointDynamics& dynamics) {
  ModelBuilder b("joint");
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  b.addLink(LinkSpec{"link", m, com, inertia, {}});
  JointSpec j;
  j.name = "hinge";
  j.parent = "world";
  j.child = "link";
  j.axis = axis;
  j.limits = limits;
  j.dynamics = dynamics;
  b.addJoint(j);
  return b.build();
}

TEST(SimulatorJoints, PendulumComesToRestOnItsLimitWithThePositiveForceStaticsPredicts) {
  JointLimits limits;
  limits.hasPositionLimits = true;
  limits.lower = 0.2;
  limits.upper = 1.0;
  const double m = 1.0, l = 0.5;
  // axis y, centre of mass below the joint: gravity turns it back towards q = 0, onto the lower limit
  Simulator sim(singleJoint(Vec3::UnitY(), m, Vec3(0, 0, -l), Mat3::Identity() * 1e-3, limits, {}));
  sim.setState(VecX::Constant(1, 0.6), VecX::Zero(1));
  double lowest = 1.0;
  for (int i = 0; i < 2000; ++i) {
    sim.step();
    lowest = std::min(lowest, sim.q()[0]);
  }
  EXPECT_GT(lowest, 0.2 - 1e-3) << "passed through its lower limit";
  EXPECT_NEAR(sim.q()[0], 0.2, 1e-4);
  EXPECT_LT(std::abs(sim.v()[0]), 1e-6);
  ASSERT_EQ(sim.lastStep().joints.size(), 1u);
  const JointRowForce& f = sim.lastStep().joints[0];
  EXPECT_EQ(f.kind, JointRowKind::LowerLimit);
  EXPECT_NEAR(f.force, m * kG * l * std::sin(sim.q()[0]), 1e-6);  // holds gravity's torque, pushing up
}

TEST(SimulatorJoints, ImplicitDampingDecaysAsItsClosedForm) {
  JointDynamics dyn;
  dyn.damping = 0.5;
  const double I = 0.1, v0 = 3.0, dt = 1e-3;
  Simulator sim(singleJoint(Vec3::UnitZ(), 1.0, Vec3::Zero(), Mat3::Identity() * I, {}, dyn));
  sim.setState(VecX::Zero(1), VecX::Constant(1, v0));
  sim.step(1000);
  // backward Euler of I v̇ = −b v: v_n = v0 / (1 + b dt / I)^n, within O(dt) of v0 exp(−b t / I)
  // (to the contact solver's tolerance: the damper is one of its rows)
  EXPECT_NEAR(sim.v()[0], v0 / std::pow(1.0 + dyn.damping * dt / I, 1000), 1e-9 * v0);
  EXPECT_NEAR(sim.v()[0], v0 * std::exp(-dyn.damping / I), 2e-3 * v0);
  // a stiff damper (b dt / I = 1e4) does not blow up the step
  JointDynamics stiff;
  stiff.damping = 1e3;
  Simulator stiffSim(singleJoint(Vec3::UnitZ(), 1.0, Vec3::Zero(), Mat3::Identity() * I, {}, stiff));
  stiffSim.setState(VecX::Zero(1), VecX::Constant(1, v0));
  stiffSim.step(10);
  EXPECT_GT(stiffSim.v()[0], 0.0);
  EXPECT_LT(stiffSim.v()[0], v0 * 1e-3);
}

TEST(SimulatorJoints, DryFrictionHoldsBelowItsThresholdAndReleasesAbove) {
  JointDynamics dyn;
  dyn.friction = 0.2;
  const double I = 0.1;
  for (double tau : {0.15, 0.3}) {
    Simulator sim(singleJoint(Vec3::UnitZ(), 1.0, Vec3::Zero(), Mat3::Identity() * I, {}, dyn));
    sim.setTorque(VecX::Constant(1, tau));
    sim.step(1000);
    const double expected = tau < dyn.friction ? 0.0 : (tau - dyn.friction) / I * sim.time();
    EXPECT_NEAR(sim.v()[0], expected, 1e-9) << "tau = " << tau;
  }
}

/// A link and its rotor on the ground, coupled by the gear ratio N (q_rotor = N q_link).
Model linkWithRotor(double N, const JointDynamics& linkDyn, const JointDynamics& rotorDyn) {
  ModelBuilder b("geared");
  b.addLink(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  b.addLink(LinkSpec{"link", 1.0, Vec3(0.1, 0, 0), Vec3(0.01, 0.02, 0.03).asDiagonal(), {}});
  b.addLink(LinkSpec{"rotor", 0.1, Vec3::Zero(), Vec3(2e-5, 2e-5, 4e-5).asDiagonal(), {}});
  JointSpec link;
  link.name = "link_joint";
  link.parent = "world";
  link.child = "link";
  link.axis = Vec3::UnitZ();
  link.dynamics = linkDyn;
  b.addJoint(link);
  JointSpec rotor = link;
  rotor.name = "rotor_joint";
  rotor.child = "rotor";
  rotor.origin = Transform::translation(Vec3(0, 0.05, 0));
  rotor.independent = false;
  rotor.dynamics = rotorDyn;
  b.addJoint(rotor);
  b.addCoupling(CouplingSpec{"gear", "link", "rotor", N, {}});
  return b.build();
}

TEST(SimulatorJoints, RotorSideFrictionAndDampingEqualTheirReflectedEquivalents) {
  const double N = 6.0;
  JointDynamics rotorSide, linkSide;
  rotorSide.friction = 0.01;
  rotorSide.damping = 2e-4;
  linkSide.friction = N * rotorSide.friction;       // |τ_link| ≤ N f_rotor
  linkSide.damping = N * N * rotorSide.damping;     // τ_link = −N² b_rotor q̇_link
  for (double tau : {0.03, 0.2}) {  // below and above the reflected threshold 0.06
    Simulator onRotor(linkWithRotor(N, {}, rotorSide)), onLink(linkWithRotor(N, linkSide, {}));
    for (Simulator* s : {&onRotor, &onLink}) {
      s->setTorque(VecX::Constant(1, tau));
      s->step(300);
    }
    // equal to the contact solver's tolerance (1e-10 on the rows' velocities)
    EXPECT_NEAR(onRotor.v()[0], onLink.v()[0], 1e-9 * (1.0 + std::abs(onLink.v()[0]))) << "tau = " << tau;
    EXPECT_NEAR(onRotor.q()[0], onLink.q()[0], 1e-9);
    if (tau < 0.06) EXPECT_LT(std::abs(onRotor.v()[0]), 1e-9);
    else EXPECT_GT(onRotor.v()[0], 0.1);
  }
}

// ---- solvers against each other ----

TEST(SimulatorContact, AdmmAndPgsAgreeOnOneStepAndCompliantTendsToHard) {
  const Incline incline(std::atan(0.7), 0.5);
  VecX v0 = VecX::Zero(6);
  v0[3] = 0.3;  // sliding sideways across the slope too
  VecX vAdmm, vPgs;
  for (ContactSolverType type : {ContactSolverType::ADMM, ContactSolverType::PGS}) {
    Simulator sim(box(), incline.world, options(type));
    sim.setState(incline.q0, v0);
    sim.step();
    (type == ContactSolverType::ADMM ? vAdmm : vPgs) = sim.v();
  }
  EXPECT_LT((vAdmm - vPgs).norm(), 1e-8);
  // resting on flat ground: the compliant contact sinks less as its time constant shrinks, and
  // its steady force is the weight
  double previousDepth = 1.0;
  for (double T : {0.04, 0.01, 0.0025}) {
    SimulatorOptions o = options(ContactSolverType::Compliant);
    o.solver.timeConstant = T;
    Simulator sim(box(), World(), o);
    sim.setState(pose(Vec3(0, 0, 0.5 * kBoxSize.z()), 0.0), VecX::Zero(6));
    sim.step(2000);
    const double depth = 0.5 * kBoxSize.z() - sim.q()[2];
    EXPECT_GT(depth, 0.0);
    EXPECT_LT(depth, 0.3 * previousDepth) << "T = " << T;
    EXPECT_NEAR(sim.lastStep().normalForceSum(), kBoxMass * kG, 1e-3 * kBoxMass * kG);
    previousDepth = depth;
  }
}

// ---- the Mini Cheetah on four frictional feet ----

/// The issue's drop pose: torso at `height`, legs (abad, hip, knee) = (0, -1, 2) (bench's scenario).
VecX crouch(const Model& model, double height) { return bench::crouchedCheetah(model, height); }


/// The largest distance a foot's material point slid over `steps` steps: ∫ ‖slip velocity‖ dt
/// (a sphere rolling as its leg turns moves its contact point without sliding).
double footSlide(Simulator& sim, int steps) {
  std::vector<double> slid(4, 0.0);
  for (int i = 0; i < steps; ++i) {
    sim.step();
    const auto& contacts = sim.lastStep().contacts;
    EXPECT_EQ(contacts.size(), 4u) << "a foot lifted at t = " << sim.time();
    for (size_t c = 0; c < std::min<size_t>(contacts.size(), 4); ++c) slid[c] += contacts[c].slipVelocity.norm() * sim.options().dt;
  }
  return *std::max_element(slid.begin(), slid.end());
}

TEST(SimulatorMiniCheetah, DroppedUnderPdItLandsOnFourFeetAndStandsWithoutSliding) {
  // the issue's drop: torso at 0.30 m, legs (0, -1, 2), kp = 50, kd = 0.4 (MuJoCo's anchor:
  // touchdown at 0.112 s)
  const Model model = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  ASSERT_EQ(model.collisionGeometries().size(), 4u);
  Simulator sim(model);
  sim.setState(crouch(model, 0.30), VecX::Zero(model.nv()));
  sim.setPd(50.0, 0.4);
  double touchdown = -1.0;
  while (sim.time() < 1.5) {
    sim.step();
    if (touchdown < 0.0 && !sim.lastStep().contacts.empty()) touchdown = sim.time();
  }
  EXPECT_NEAR(touchdown, 0.112, 0.002);
  EXPECT_GT(sim.q()[2], 0.15);  // standing, not collapsed
  EXPECT_LT(footSlide(sim, 1000), 1e-6);  // its feet stick while the body still sways
}

TEST(SimulatorMiniCheetah, AtRestItsFeetCarryItsWeightAndNeverSlide) {
  const Model model = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  Simulator sim(model);
  sim.setState(crouch(model, 0.30), VecX::Zero(model.nv()));
  sim.setPd(50.0, 2.0);  // damped enough to come to rest within 3 s
  sim.step(3000);
  const double weight = totalMass(model) * kG;
  EXPECT_NEAR(sim.lastStep().normalForceSum(), weight, 1e-6 * weight);
  EXPECT_LT(footSlide(sim, 2000), 1e-6);
  EXPECT_LT(sim.v().norm(), 1e-6);
}

TEST(SimulatorMiniCheetah, APreparedStepAllocatesNothing) {
  if (!testsupport::allocationCounterLinked()) GTEST_SKIP() << "no counting allocator in this build";
  const Model model = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  Simulator sim(model);
  sim.setState(crouch(model, 0.25), VecX::Zero(model.nv()));
  sim.setPd(50.0, 0.4);
  sim.step(300);  // contacts made
  testsupport::AllocationScope scope;
  sim.step(20);
  EXPECT_EQ(scope.count(), 0);
}

// ---- the tree's Delassus and solver against a dense reference written here ----

/// The exact-cone NCP by a plain projected fixed-point iteration on dense matrices:
/// λ ← Π_K(λ − α (G λ + b + s(λ))), s_n = μ ‖(Gλ + b)_t‖ (De Saxcé), α = 1 / ‖G‖.
VecX denseConeSolve(const MatX& G, const VecX& b, const std::vector<double>& mu) {
  const int m = static_cast<int>(b.size());
  VecX lambda = VecX::Zero(m);
  const double alpha = 1.0 / G.norm();
  for (int it = 0; it < 200000; ++it) {
    const VecX c = G * lambda + b;
    VecX next = lambda - alpha * c;
    for (int r = 0; r < m; r += 3) {
      next[r] -= alpha * mu[static_cast<size_t>(r / 3)] * c.segment<2>(r + 1).norm();
      const double t = next.segment<2>(r + 1).norm(), n = next[r], f = mu[static_cast<size_t>(r / 3)];
      if (t <= f * n) continue;
      if (f * t <= -n) { next.segment<3>(r).setZero(); continue; }
      const double a = (f * t + n) / (f * f + 1.0);
      next[r] = a;
      next.segment<2>(r + 1) *= f * a / t;
    }
    if ((next - lambda).norm() < 1e-15 * (1.0 + lambda.norm())) return next;
    lambda = next;
  }
  return lambda;
}

TEST(SimulatorDelassus, OneStepMatchesADenseReferenceNcpSolve) {
  const Model model = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  SimulatorOptions tight;  // the Delassus matrix is under test, not the default tolerance
  tight.solver.tolerance = 1e-12;
  tight.solver.maxIterations = 5000;
  Simulator sim(model, World(), tight);
  sim.setState(crouch(model, 0.30), VecX::Zero(model.nv()));
  sim.setPd(50.0, 2.0);
  sim.step(1500);  // standing on four feet
  std::srand(3);
  for (int trial = 0; trial < 5; ++trial) {
    const VecX q = sim.q();
    const VecX v = sim.v() + 0.05 * VecX::Random(model.nv());  // a shove: some feet may slide
    sim.setState(q, v);
    sim.step();
    const StepResult& r = sim.lastStep();
    ASSERT_EQ(r.contacts.size(), 4u);
    // the same step, densely: H, C, J from the library's plain algorithms
    Data data(model);
    const double dt = sim.options().dt;
    const MatX H = massMatrix(model, data, q);
    const VecX C = biasForces(model, data, q, v);
    const VecX vf = v + dt * H.ldlt().solve(sim.appliedTorque() - C);
    forwardKinematics(model, data, q);
    const int m = 12;
    MatX J(m, model.nv());
    VecX b(m);
    std::vector<double> mu;
    for (int c = 0; c < 4; ++c) {
      const ContactPoint& cp = r.contacts[static_cast<size_t>(c)].contact;
      const Vec3 n = cp.normal, t1 = n.cross(Vec3::UnitX()).normalized(), t2 = n.cross(t1);
      const int frame = model.frameIndex(model.body(cp.body).name);
      const Vec3 point = data.Xa[static_cast<size_t>(cp.body)].transformPoint(cp.point);
      const Mat6X Jc = frameJacobian(model, data, q, frame, point, ReferenceFrame::LocalWorldAligned);
      J.row(3 * c) = n.transpose() * Jc.bottomRows<3>();
      J.row(3 * c + 1) = t1.transpose() * Jc.bottomRows<3>();
      J.row(3 * c + 2) = t2.transpose() * Jc.bottomRows<3>();
      const double target = cp.distance > 0.0 ? -cp.distance / dt : -0.2 * cp.distance / dt;  // docs/simulation.md
      b.segment<3>(3 * c) = J.middleRows<3>(3 * c) * vf;
      b[3 * c] -= target;
      mu.push_back(cp.friction);
    }
    const MatX G = J * H.ldlt().solve(J.transpose());
    const VecX lambda = denseConeSolve(G, b, mu);
    const VecX vPlus = vf + H.ldlt().solve(J.transpose() * lambda);
    EXPECT_LT((sim.v() - vPlus).norm(), 1e-7 * (1.0 + vPlus.norm())) << "trial " << trial;
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(r.contacts[static_cast<size_t>(c)].normalForce, lambda[3 * c] / dt, 1e-5 * (1.0 + lambda[3 * c] / dt));
  }
}

// ---- bad input ----

TEST(SimulatorErrors, BadWorldOptionsAndStatesAreTypedErrorsNamingTheValue) {
  World world;
  world.friction = -0.1;
  EXPECT_THROW(Simulator(box(), world), InputError);
  world = World();
  world.restitution = 1.5;
  EXPECT_THROW(Simulator(box(), world), InputError);
  SimulatorOptions o;
  o.dt = -1e-3;
  EXPECT_THROW(Simulator(box(), World(), o), InputError);
  Simulator sim(box());
  VecX q = pose(Vec3(0, 0, 1), 0.0);
  q[0] = std::nan("");
  EXPECT_THROW(sim.setState(q, VecX::Zero(6)), InputError);
  EXPECT_THROW(sim.setState(pose(Vec3(0, 0, 1), 0.0), VecX::Zero(5)), InputError);
  EXPECT_THROW(sim.setPd(VecX::Constant(3, 1.0), VecX::Constant(1, 0.0)), InputError);
  SimulatorOptions admm;  // ADMM on the pyramid is a solver now (tests/test_contact_pyramid.cpp)
  admm.solver.pyramidal = true;
  EXPECT_NO_THROW(Simulator(box(), World(), admm));
}

TEST(SimulatorErrors, BadStaticBoxesAndNamesAreRefusedNamingTheItem) {
  const auto message = [](const World& w) {
    try {
      w.validate();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  World w;
  w.boxes.push_back(StaticBox{});
  w.boxes[0].rotation = 2.0 * Mat3::Identity();
  EXPECT_NE(message(w).find("box 0's rotation is not a rotation matrix"), std::string::npos) << message(w);
  w.boxes[0].rotation = Mat3::Identity();
  w.boxes[0].halfExtents = Vec3(0.1, -0.1, 0.1);
  EXPECT_NE(message(w).find("box 0's half extents must be positive"), std::string::npos) << message(w);
  w.boxes[0].halfExtents = Vec3::Constant(0.1);
  w.groundNormal = Vec3(0, 0, 2);
  EXPECT_NE(message(w).find("ground normal must be a unit vector"), std::string::npos) << message(w);
  try {
    integratorFromName("euler");
    FAIL() << "an unknown integrator was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown integrator 'euler'"), std::string::npos);
  }
  try {
    contactSolverFromName("newton");
    FAIL() << "an unknown contact solver was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown contact solver 'newton'"), std::string::npos);
  }
}

TEST(SimulatorErrors, APassiveRunThatGainsEnergyStopsSayingItDiverged) {
  // restitution 1 with a huge push-out of a deep penetration pumps energy in: the passive run
  // (no torque, PD or controller) must stop with NumericalError naming the time
  World world;
  world.restitution = 1.0;
  SimulatorOptions o;
  o.solver.erp = 1.0;
  Simulator sim(box(), world, o);
  sim.setState(pose(Vec3(0, 0, 0.5 * kBoxSize.z() - 0.04), 0.0), VecX::Zero(6));  // 4 cm deep
  try {
    sim.step(2000);
    FAIL() << "a run gaining energy without input was not stopped";
  } catch (const NumericalError& e) {
    EXPECT_NE(std::string(e.what()).find("diverged at t = "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("without input"), std::string::npos) << e.what();
  }
}

TEST(SimulatorErrors, UrdfLimitsDynamicsAndCollisionsAreReadAndCheckedWithTheirLine) {
  const std::string head = R"(<robot name="r"><link name="base"/><link name="arm"><inertial><mass value="1"/>
<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><origin xyz="0 0 0.1"/><geometry><capsule radius="0.02" length="0.3"/></geometry></collision></link>
<joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>)";
  const Model ok = loadUrdfString(head + R"(<limit lower="-1" upper="2" effort="5" velocity="3"/>
<dynamics damping="0.1" friction="0.2"/></joint></robot>)");
  const Body& arm = ok.body(ok.bodyIndex("arm"));
  EXPECT_TRUE(arm.limits.hasPositionLimits);
  EXPECT_EQ(arm.limits.lower, -1.0);
  EXPECT_EQ(arm.limits.upper, 2.0);
  EXPECT_EQ(arm.limits.effort, 5.0);
  EXPECT_EQ(arm.dynamics.damping, 0.1);
  EXPECT_EQ(arm.dynamics.friction, 0.2);
  ASSERT_EQ(ok.collisionGeometries().size(), 1u);
  EXPECT_EQ(ok.collisionGeometries()[0].shape.type, ShapeType::Capsule);
  EXPECT_NEAR(ok.collisionGeometries()[0].placement.r.z(), 0.1, 1e-15);
  for (const std::string& bad : {std::string(R"(<limit lower="2" upper="-1" effort="5" velocity="3"/></joint></robot>)"),
                                 std::string(R"(<limit effort="5" velocity="3"/><dynamics damping="-1"/></joint></robot>)")}) {
    try {
      loadUrdfString(head + bad, "bad.urdf");
      FAIL() << "accepted " << bad;
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find("bad.urdf:"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace grbda
