// Constrained forward dynamics on the cluster tree (PV, PV-soft, KKT, proximal): the solvers
// against each other, against kinematics (the constrained points really stop accelerating),
// against inverse dynamics (RNEA(q̈) = τ + Jᵀλ with λ as external forces), against hand-derived
// mechanisms, and the error paths.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cluster_support/constrained_models.hpp"
#include "cluster_support/constraint_problems.hpp"
#include "grbda/grbda.hpp"
#include "support/compare.hpp"
#include "support/random_model.hpp"
#include "constraints/constraint_workspace.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

/// World wrench (moment about the origin, force) of a force f at world point p.
Vec6 wrenchAt(const Vec3& p, const Vec3& f, const Vec3& moment = Vec3::Zero()) {
  Vec6 w;
  w << moment + p.cross(f), f;
  return w;
}

/// The constraint forces as external forces per body (world coordinates), the way the issue
/// defines λ: contact force at the point, weld moment about the point then force, relative: on
/// the first link (and the opposite on the second).
ExternalForces constraintForcesAsExternal(const Model& m, Data& data, const ConstraintModel& cm,
                                          const ConstraintData& cd) {
  ExternalForces fext(static_cast<size_t>(m.numBodies()), Vec6::Zero());
  for (const Constraint& c : cm.constraints()) {
    const Vec3 pA = framePosition(m, data, c.frame, c.point);
    Vec3 moment = Vec3::Zero(), force;
    if (c.hasAngularRows()) {
      moment = cd.lambda.segment<3>(c.row);
      force = cd.lambda.segment<3>(c.row + 3);
    } else {
      force = cd.lambda.segment<3>(c.row);
    }
    fext[static_cast<size_t>(c.body)] += wrenchAt(pA, force, moment);
    if (c.isRelative() && c.body2 >= 0) {
      const Vec3 pB = framePosition(m, data, c.frame2, c.point2);
      fext[static_cast<size_t>(c.body2)] -= wrenchAt(pB, force, moment);
    }
  }
  return fext;
}

void expectSolversAgree(const Model& m, const ConstraintModel& cm, const VecX& q, const VecX& v, const VecX& tau,
                        const std::string& label) {
  SCOPED_TRACE(label);
  Data data(m);
  ConstraintData cd(m, cm);
  ConstraintSolverSettings s;
  s.solver = ConstraintSolver::KKT;
  const VecX qddKkt = constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
  const VecX lambdaKkt = cd.lambda;
  for (ConstraintSolver solver : {ConstraintSolver::PV, ConstraintSolver::PVEarly, ConstraintSolver::ProximalDelassus}) {
    SCOPED_TRACE(constraintSolverName(solver));
    s.solver = solver;
    const VecX qdd = constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
    EXPECT_LT(relErr(qdd, qddKkt), 1e-10);
    EXPECT_LT((cd.lambda - lambdaKkt).norm() / (1.0 + lambdaKkt.norm()), 1e-8);
    EXPECT_LT(cd.residual, 1e-8);
  }
}

}  // namespace

TEST(Constraints, PvWithoutConstraintsIsCaba) {
  Rng rng(3);
  std::vector<std::pair<std::string, Model>> models = constrainedModels(rng);
  for (const char* file : {"mini_cheetah.urdf", "mit_humanoid.urdf", "revolute_rotor_chain.urdf"})
    models.emplace_back(file, loadUrdf(modelFile(file)));
  for (const auto& [name, m] : models) {
    SCOPED_TRACE(name);
    Data data(m), ref(m);
    const ConstraintModel none(m);
    ConstraintData cd(m, none);
    const VecX q = randomIndependentConfiguration(rng, m);
    const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
    const VecX qddAba = forwardDynamics(m, ref, q, v, tau);
    const VecX qddPv = constrainedForwardDynamics(m, data, none, cd, q, v, tau);
    EXPECT_LT((qddPv - qddAba).cwiseAbs().maxCoeff(), 1e-14 * (1.0 + qddAba.cwiseAbs().maxCoeff()));
  }
}

TEST(Constraints, PvKktAndProximalAgreeOnBundledRobots) {
  Rng rng(11);
  for (const Problem& p : bundledProblems()) {
    const ConstraintModel cm = makeConstraints(p.model, p.constraints);
    for (int t = 0; t < 3; ++t) {
      const VecX q = randomIndependentConfiguration(rng, p.model);
      const VecX v = randomVector(rng, p.model.nv()), tau = randomVector(rng, p.model.nv(), -5.0, 5.0);
      expectSolversAgree(p.model, cm, q, v, tau, p.label + " state " + std::to_string(t));
    }
  }
}

TEST(Constraints, SolversAgreeWithContactsOnClusterMembers) {
  // Floating mechanisms, so that two contacts (6 rows) on rotor, belt and four-bar members have a
  // full-rank J: a contact on the last body and one on a member of another cluster.
  Rng rng(5);
  int checked = 0;
  for (auto& [name, m] : constrainedModels(rng)) {
    if (!m.isFloatingBase()) continue;
    ConstraintModel cm(m);
    const int last = m.numBodies() - 1;
    cm.addPointContact(m.body(last).name, randomVec3(rng, -0.1, 0.1));
    for (int i = last - 1; i > 0; --i)
      if (m.body(i).cluster != m.body(last).cluster && m.cluster(m.body(i).cluster).numBodies > 1) {
        cm.addPointContact(m.body(i).name, randomVec3(rng, -0.1, 0.1));
        break;
      }
    for (int t = 0; t < 3; ++t) {
      const VecX q = randomIndependentConfiguration(rng, m);
      const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
      expectSolversAgree(m, cm, q, v, tau, name + " with " + std::to_string(cm.size()) + " contacts");
    }
    ++checked;
  }
  EXPECT_GE(checked, 3);
}

TEST(Constraints, ConstrainedPointsStopAcceleratingInWorldAxes) {
  // Checked with the frame kinematics (classical accelerations), not with the solver's own rows.
  Rng rng(17);
  for (const Problem& p : bundledProblems()) {
    SCOPED_TRACE(p.label);
    const Vec3 offset(0.01, -0.02, 0.03);
    const ConstraintModel cm = makeConstraints(p.model, p.constraints, offset);
    Data data(p.model), kin(p.model);
    ConstraintData cd(p.model, cm);
    const VecX q = randomIndependentConfiguration(rng, p.model);
    const VecX v = randomVector(rng, p.model.nv(), -2.0, 2.0), tau = randomVector(rng, p.model.nv());
    const VecX qdd = constrainedForwardDynamics(p.model, data, cm, cd, q, v, tau);
    forwardKinematics(p.model, kin, q, v, qdd);
    for (const Constraint& c : cm.constraints()) {
      const Vec6 a = frameAcceleration(p.model, kin, c.frame, c.point, ReferenceFrame::LocalWorldAligned);
      EXPECT_LT(a.tail<3>().norm(), 1e-9) << c.name;
      if (c.hasAngularRows()) EXPECT_LT(a.head<3>().norm(), 1e-9) << c.name;
    }
  }
}

TEST(Constraints, InverseDynamicsWithTheConstraintForcesGivesTau) {
  Rng rng(23);
  for (const Problem& p : bundledProblems()) {
    SCOPED_TRACE(p.label);
    const ConstraintModel cm = makeConstraints(p.model, p.constraints, Vec3(0.02, 0.0, -0.01));
    Data data(p.model), id(p.model);
    ConstraintData cd(p.model, cm);
    const VecX q = randomIndependentConfiguration(rng, p.model);
    const VecX v = randomVector(rng, p.model.nv()), tau = randomVector(rng, p.model.nv(), -3.0, 3.0);
    const VecX qdd = constrainedForwardDynamics(p.model, data, cm, cd, q, v, tau);
    forwardKinematics(p.model, id, q);
    const ExternalForces fext = constraintForcesAsExternal(p.model, id, cm, cd);
    const VecX tauBack = inverseDynamics(p.model, id, q, v, qdd, fext);
    EXPECT_LT(relErr(tauBack, tau), 1e-9);
  }
}

TEST(Constraints, FourFeetForcesBalanceGravityAndMomentumRate) {
  // Σ contact forces + m g = d/dt (linear momentum), the rate taken from the body accelerations.
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  const ConstraintModel cm = makeConstraints(
      m, {{ConstraintKind::PointContact, "FR_foot"}, {ConstraintKind::PointContact, "FL_foot"},
          {ConstraintKind::PointContact, "HR_foot"}, {ConstraintKind::PointContact, "HL_foot"}});
  Data data(m), kin(m);
  ConstraintData cd(m, cm);
  Rng rng(29);
  VecX q = m.neutralConfiguration();  // bent legs: straight ones are singular for foot contacts
  q[2] = 0.3;
  for (int leg = 0; leg < 4; ++leg) q[7 + 3 * leg + 1] = -0.8, q[7 + 3 * leg + 2] = 1.6;
  const VecX v = randomVector(rng, m.nv(), -0.5, 0.5);
  VecX tau = randomVector(rng, m.nv(), -2.0, 2.0);
  tau.head<6>().setZero();  // the free joint's "torque" would be one more external wrench
  const VecX qdd = constrainedForwardDynamics(m, data, cm, cd, q, v, tau);
  forwardKinematics(m, kin, q, v, qdd);
  Vec3 momentumRate = Vec3::Zero(), contact = Vec3::Zero();
  double mass = 0.0;
  for (int i = 0; i < m.numBodies(); ++i) {  // Σ m_i (classical acceleration of the COM)
    const Mat6& I = m.body(i).inertia;
    const double mi = I(5, 5);
    if (mi <= 0.0) continue;
    mass += mi;
    const Vec3 com(I(2, 4) / mi, I(0, 5) / mi, I(1, 3) / mi);  // [h×] = m [c×] in the upper-right block
    int frame = -1;
    for (size_t f = 0; f < m.frames().size(); ++f)
      if (m.frames()[f].body == i && m.frames()[f].name == m.body(i).name) frame = static_cast<int>(f);
    ASSERT_GE(frame, 0);
    const Vec3 comInFrame = m.frame(frame).placement.transformPoint(com);
    momentumRate += mi * frameAcceleration(m, kin, frame, comInFrame).tail<3>();
  }
  for (int c = 0; c < 4; ++c) contact += cd.lambda.segment<3>(3 * c);
  EXPECT_LT((contact + mass * m.gravity() - momentumRate).norm(), 1e-8 * (1.0 + momentumRate.norm()));
}

TEST(Constraints, PointMassOnALineMatchesTheClosedForm) {
  // Two prismatic joints x, y carrying a mass m, force F; custom row nᵀ a = k:
  // a = F/m + n (k − nᵀF/m),  λ = m k − nᵀF  (with m a = F + n λ).
  ModelBuilder b("point_mass");
  b.setGravity(Vec3::Zero());
  LinkSpec world, slider, mass;
  world.name = "world";
  slider.name = "slider";
  mass.name = "mass";
  mass.mass = 2.5;
  mass.inertia = Mat3::Identity() * 0.01;
  b.addLink(world);
  b.addLink(slider);
  b.addLink(mass);
  JointSpec jx, jy;
  jx.name = "x";
  jx.kind = JointKind::Prismatic;
  jx.parent = "world";
  jx.child = "slider";
  jx.axis = Vec3::UnitX();
  jy.name = "y";
  jy.kind = JointKind::Prismatic;
  jy.parent = "slider";
  jy.child = "mass";
  jy.axis = Vec3::UnitY();
  b.addJoint(jx);
  b.addJoint(jy);
  const Model m = b.build();
  const Vec3 n = Vec3(0.6, 0.8, 0.0);
  MatX K = MatX::Zero(1, 6);
  K.block<1, 3>(0, 3) = n.transpose();
  VecX k(1);
  k << 0.7;
  ConstraintModel cm(m);
  cm.addCustomRows("mass", K, k);
  Data data(m);
  ConstraintData cd(m, cm);
  const VecX F = (VecX(2) << 3.0, -1.0).finished();
  for (ConstraintSolver solver : {ConstraintSolver::PV, ConstraintSolver::KKT, ConstraintSolver::ProximalDelassus}) {
    ConstraintSolverSettings s;
    s.solver = solver;
    const VecX a = constrainedForwardDynamics(m, data, cm, cd, VecX::Zero(2), VecX::Zero(2), F, s);
    const Eigen::Vector2d n2 = n.head<2>();
    const Eigen::Vector2d expected = F / 2.5 + n2 * (0.7 - n2.dot(F) / 2.5);
    EXPECT_LT((a - expected).norm(), 1e-13) << constraintSolverName(solver);
    EXPECT_NEAR(cd.lambda[0], 2.5 * 0.7 - n2.dot(F), 1e-12) << constraintSolverName(solver);
  }
}

TEST(Constraints, SphericalPendulumTwoWays) {
  // A free body held at a point p by a contact = the same body on a z-y-x gimbal at p (ABA), at
  // non-zero angular velocity: a spatial-vs-classical mix-up in k would show here.
  Rng rng(31);
  const Vec3 p(0.3, -0.2, 0.5);  // the pivot in body coordinates
  LinkSpec body;
  body.name = "body";
  body.mass = 1.7;
  body.com = Vec3(0.05, 0.1, -0.2);
  body.inertia = randomRotationalInertia(rng, body.mass);

  ModelBuilder fb("floating_body");
  LinkSpec world;
  world.name = "world";
  fb.addLink(world);
  fb.addLink(body);
  addFloatingBaseJoint(fb, "body");
  const Model floating = fb.build();

  ModelBuilder gb("gimbal");
  gb.addLink(world);
  LinkSpec g1, g2, bob = body;
  g1.name = "g1";
  g2.name = "g2";
  bob.name = "bob";
  bob.com = body.com - p;  // same body, frame moved to the pivot
  gb.addLink(g1);
  gb.addLink(g2);
  gb.addLink(bob);
  const char* names[3][3] = {{"jz", "world", "g1"}, {"jy", "g1", "g2"}, {"jx", "g2", "bob"}};
  const Vec3 axes[3] = {Vec3::UnitZ(), Vec3::UnitY(), Vec3::UnitX()};
  for (int a = 0; a < 3; ++a) {
    JointSpec j;
    j.name = names[a][0];
    j.parent = names[a][1];
    j.child = names[a][2];
    j.axis = axes[a];
    j.kind = JointKind::Continuous;
    gb.addJoint(j);
  }
  const Model gimbal = gb.build();

  Data gd(gimbal), fd(floating);
  ConstraintModel cm(floating);
  cm.addPointContact("body", p);
  ConstraintData cd(floating, cm);
  for (int t = 0; t < 5; ++t) {
    const VecX qg = randomVector(rng, 3, -1.2, 1.2), vg = randomVector(rng, 3, -3.0, 3.0);
    const VecX tauG = VecX::Zero(3);
    const VecX qddG = forwardDynamics(gimbal, gd, qg, vg, tauG);
    forwardKinematics(gimbal, gd, qg, vg, qddG);
    const int bobFrame = gimbal.frameIndex("bob");
    const Mat3 R = frameRotation(gimbal, gd, bobFrame);
    const Vec3 w = frameVelocity(gimbal, gd, bobFrame, Vec3::Zero(), ReferenceFrame::Local).head<3>();
    const Vec3 alphaG = frameAcceleration(gimbal, gd, bobFrame).head<3>();

    VecX q(7), v(6);
    const Eigen::Quaterniond quat(R);
    q << -(R * p), quat.w(), quat.x(), quat.y(), quat.z();  // body origin such that the pivot is at 0
    v << w, -w.cross(p);                                    // the pivot does not move
    const VecX qdd = constrainedForwardDynamics(floating, fd, cm, cd, q, v, VecX::Zero(6));
    forwardKinematics(floating, fd, q, v, qdd);
    const Vec3 alphaF = frameAcceleration(floating, fd, floating.frameIndex("body")).head<3>();
    EXPECT_LT((alphaF - alphaG).norm(), 1e-9 * (1.0 + alphaG.norm())) << "state " << t;
  }
}

TEST(Constraints, SoftSolutionConvergesToTheHardOne) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  Rng rng(37);
  const VecX q = randomIndependentConfiguration(rng, m);
  const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  const std::vector<std::pair<ConstraintKind, std::string>> feet = {
      {ConstraintKind::PointContact, "FR_foot"}, {ConstraintKind::Weld, "HL_foot"}};
  ConstraintModel hard = makeConstraints(m, feet);
  Data data(m);
  ConstraintData hd(m, hard);
  const VecX qddHard = constrainedForwardDynamics(m, data, hard, hd, q, v, tau);
  double previous = 1e300;
  for (double R : {1e-2, 1e-3, 1e-4, 1e-5, 1e-6}) {
    ConstraintModel soft = makeConstraints(m, feet);
    soft.setCompliance(R);
    ConstraintData sd(m, soft);
    ConstraintSolverSettings s;
    s.solver = ConstraintSolver::PVSoft;
    const VecX qdd = constrainedForwardDynamics(m, data, soft, sd, q, v, tau, s);
    const double err = relErr(qdd, qddHard);
    EXPECT_LT(err, previous) << "R = " << R;
    previous = err;
    // the soft force is R⁻¹ (k − K a): the same rows that KKT-soft would use
    EXPECT_LT((sd.lambda - hd.lambda).norm(), 1e4 * R * (1.0 + hd.lambda.norm())) << "R = " << R;
  }
  EXPECT_LT(previous, 1e-3);
}

TEST(Constraints, SoftEqualsTheJointSpaceSoftGaussSolution) {
  // (H + Jᵀ R⁻¹ J) ÿ = τ − C + Jᵀ R⁻¹ (k − J̇ẏ): J and J̇ẏ from the KKT baseline's rows.
  const Model m = loadUrdf(modelFile("mit_humanoid.urdf"));
  Rng rng(41);
  const VecX q = randomIndependentConfiguration(rng, m);
  const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  ConstraintModel cm = makeConstraints(m, {{ConstraintKind::Weld, "right_foot"}, {ConstraintKind::PointContact, "left_hand"}});
  cm.setCompliance(3e-3);
  cm.addRelativePoint("left_foot", Vec3::Zero(), "right_hand", Vec3(0.0, 0.0, 0.1));
  cm.setRowCompliance(cm.numRows() - 1, 5e-3);
  for (int r = cm.numRows() - 3; r < cm.numRows() - 1; ++r) cm.setRowCompliance(r, 2e-3);
  Data data(m), ref(m);
  ConstraintData cd(m, cm), kkt(m, cm);
  ConstraintSolverSettings s;
  s.solver = ConstraintSolver::PVSoft;
  const VecX qdd = constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
  // J, J̇ẏ from the KKT baseline: its b = k − J̇ẏ − J H⁻¹(τ − C) after a solve
  s.solver = ConstraintSolver::KKT;
  constrainedForwardDynamics(m, ref, cm, kkt, q, v, tau, s);
  const MatX& J = kkt.work().J;
  const MatX H = massMatrix(m, ref, q);
  const VecX C = biasForces(m, ref, q, v);
  const VecX Jdqd = kkt.work().k - (kkt.work().hard.b + J * H.llt().solve(tau - C));  // k − J̇ẏ − ... rearranged
  const VecX Rinv = cm.compliance().cwiseInverse();
  const MatX A = H + J.transpose() * Rinv.asDiagonal() * J;
  const VecX rhs = tau - C + J.transpose() * (Rinv.asDiagonal() * (kkt.work().k - Jdqd));
  const VecX expected = A.llt().solve(rhs);
  EXPECT_LT(relErr(qdd, expected), 1e-10);
}

TEST(Constraints, RedundantRowsAreDetectedAndSolvedWithoutNan) {
  // A 3-D contact on a planar arm: the row normal to the plane is zero in J.
  const Model m = loadUrdf(modelFile("planar_arm_3dof.urdf"));
  ConstraintModel cm(m);
  const std::string tip = m.frames().back().name;
  cm.addPointContact(tip, Vec3(0.05, 0.0, 0.0));
  Rng rng(43);
  const VecX q = randomVector(rng, m.nv(), -1.0, 1.0), v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  Data data(m), kin(m);
  for (ConstraintSolver solver :
       {ConstraintSolver::PV, ConstraintSolver::KKT, ConstraintSolver::ProximalDelassus, ConstraintSolver::PVEarly}) {
    SCOPED_TRACE(constraintSolverName(solver));
    ConstraintData cd(m, cm);
    ConstraintSolverSettings s;
    s.solver = solver;
    const VecX qdd = constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s);
    EXPECT_TRUE(qdd.allFinite());
    EXPECT_TRUE(cd.lambda.allFinite());
    if (solver != ConstraintSolver::ProximalDelassus) {  // the proximal solver does not measure the rank
      EXPECT_EQ(cd.rank, 2);
      EXPECT_TRUE(cd.redundant);
    }
    forwardKinematics(m, kin, q, v, qdd);
    EXPECT_LT(frameAcceleration(m, kin, m.frameIndex(tip), Vec3(0.05, 0.0, 0.0)).tail<3>().norm(), 1e-8);
  }
}

TEST(Constraints, TwoWeldsOnOneLinkAreRedundantButConsistent) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  cm.addWeld("FR_foot");
  cm.addWeld("FR_knee_link", Vec3(0.0, 0.0, -0.1));
  Rng rng(47);
  Data data(m);
  ConstraintData cd(m, cm);
  // at rest: with the link turning, zero acceleration at two points and ω̇ = 0 would contradict
  const VecX q = randomIndependentConfiguration(rng, m), v = VecX::Zero(m.nv()), tau = randomVector(rng, m.nv());
  const VecX qdd = constrainedForwardDynamics(m, data, cm, cd, q, v, tau);
  EXPECT_TRUE(cd.redundant);
  EXPECT_EQ(cd.rank, 6);
  EXPECT_LT(cd.residual, 1e-8);
  EXPECT_TRUE(qdd.allFinite());
}

TEST(Constraints, BaumgarteKeepsStandingFeetWithinAMillimetre) {
  // Mini Cheetah standing on four feet, 1 s at 1 kHz (semi-implicit Euler), joint PD torques
  // holding the pose against gravity; the feet may only drift by integration error.
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm = makeConstraints(
      m, {{ConstraintKind::PointContact, "FR_foot"}, {ConstraintKind::PointContact, "FL_foot"},
          {ConstraintKind::PointContact, "HR_foot"}, {ConstraintKind::PointContact, "HL_foot"}});
  cm.setBaumgarte(0.1);
  Data data(m), kin(m);
  ConstraintData cd(m, cm);
  VecX q = m.neutralConfiguration();
  q[2] = 0.25;
  for (int leg = 0; leg < 4; ++leg) {  // bent legs: hip -0.8, knee 1.6
    q[7 + 3 * leg + 1] = -0.8;
    q[7 + 3 * leg + 2] = 1.6;
  }
  VecX v = VecX::Zero(m.nv());
  Rng rng(53);
  v.tail(m.nv() - 6) = randomVector(rng, m.nv() - 6, -0.05, 0.05);  // a small disturbance
  const VecX q0 = q;
  VecX tau = VecX::Zero(m.nv());
  forwardKinematics(m, kin, q);
  std::vector<Vec3> start;
  for (const Constraint& c : cm.constraints()) start.push_back(framePosition(m, kin, c.frame));
  const double h = 1e-3;
  double drift = 0.0;
  for (int step = 0; step < 1000; ++step) {
    tau.tail(m.nv() - 6) = -20.0 * (q.tail(m.nq() - 7) - q0.tail(m.nq() - 7)) - 0.5 * v.tail(m.nv() - 6);
    const VecX qdd = constrainedForwardDynamics(m, data, cm, cd, q, v, tau);
    v += h * qdd;
    const Eigen::Quaterniond quat(q[3], q[4], q[5], q[6]);
    q.head<3>() += h * (quat.toRotationMatrix() * v.segment<3>(3));
    const Vec3 w = v.head<3>();
    const Eigen::Quaterniond next =
        (quat * (w.norm() > 0 ? Eigen::Quaterniond(Eigen::AngleAxisd(h * w.norm(), w.normalized()))
                              : Eigen::Quaterniond::Identity())).normalized();
    q.segment<4>(3) << next.w(), next.x(), next.y(), next.z();
    q.tail(m.nq() - 7) += h * v.tail(m.nv() - 6);
    forwardKinematics(m, kin, q);
    for (size_t c = 0; c < start.size(); ++c)
      drift = std::max(drift, (framePosition(m, kin, cm.constraint(static_cast<int>(c)).frame) - start[c]).norm());
  }
  EXPECT_LT(drift, 1e-3);
}

TEST(ConstraintErrors, BadConstraintsNameTheConstraint) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  auto expectMessage = [](auto&& call, const std::string& text) {
    try {
      call();
      ADD_FAILURE() << "no error; expected: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  expectMessage([&] { cm.addPointContact("no_such_foot"); }, "unknown link 'no_such_foot'");
  expectMessage([&] { cm.addPointContact("FR_foot", Vec3(0.0, NAN, 0.0)); }, "contact constraint 'FR_foot': the point");
  expectMessage([&] { cm.addWeld("base"); }, "fixed to the world");
  expectMessage([&] { cm.addCustomRows("FR_foot", MatX::Ones(2, 5), VecX::Zero(2), "rows"); }, "K must be m x 6");
  expectMessage([&] { cm.addCustomRows("FR_foot", MatX::Ones(2, 6), VecX::Zero(3), "rows"); }, "k has 3 entries");
  expectMessage([&] { cm.setCompliance(0.0); }, "must be positive");
  expectMessage([&] { cm.setCompliance(-1.0); }, "must be positive");
  expectMessage([&] { cm.setBaumgarte(-0.1); }, "time constant");
  EXPECT_EQ(cm.size(), 0);

  cm.addPointContact("FR_foot");
  Data data(m);
  ConstraintData cd(m, cm);
  const VecX q = m.neutralConfiguration(), z = VecX::Zero(m.nv());
  ConstraintSolverSettings soft;
  soft.solver = ConstraintSolver::PVSoft;
  expectMessage([&] { constrainedForwardDynamics(m, data, cm, cd, q, z, z, soft); }, "needs a compliance");
  cm.addPointContact("FL_foot");
  expectMessage([&] { constrainedForwardDynamics(m, data, cm, cd, q, z, z); }, "does not match the ConstraintModel");
  const Model other = loadUrdf(modelFile("mit_humanoid.urdf"));
  Data otherData(other);
  ConstraintData fresh(m, cm);
  expectMessage([&] { constrainedForwardDynamics(m, otherData, cm, fresh, q, z, z); }, "Data was made for another model");
  expectMessage([&] { forwardDynamics(m, otherData, q, z, z); }, "Data was made for another model");
  expectMessage([&] { constraintSolverFromName("pvv"); }, "valid: pv, pv-soft, kkt, proximal");
}
