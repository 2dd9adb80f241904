// Frame kinematics checked independently: poses against transforms composed directly from the
// URDF-shaped specs (Eigen isometries, no grbda spatial code), velocities and accelerations
// against finite differences, Jacobians against velocities, and external forces against Jᵀ F.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <stdexcept>

#include "support/random_model.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

using Iso = Eigen::Isometry3d;

/// World pose of every link, composed link by link from the builder's specs: parent pose, then
/// the joint origin (rotation Eᵀ, translation r), then the joint motion.
std::map<std::string, Iso> referenceLinkPoses(const ModelBuilder& builder, const Model& model, const VecX& q) {
  std::map<std::string, const Body*> bodyOfJoint;
  for (const Body& b : model.bodies()) bodyOfJoint[b.jointName] = &b;
  std::map<std::string, Iso> pose;
  pose[builder.links().front().name] = Iso::Identity();  // the random trees' root comes first
  for (const JointSpec& j : builder.joints()) {          // declared parent-first
    Iso origin = Iso::Identity();
    origin.linear() = j.origin.E.transpose();
    origin.translation() = j.origin.r;
    Iso motion = Iso::Identity();
    if (j.kind != JointKind::Fixed) {
      const Body& b = *bodyOfJoint.at(j.name);
      const double x = q[b.qIndex];
      const Vec3 axis = j.axis.normalized();
      switch (j.kind) {
        case JointKind::Revolute:
        case JointKind::Continuous: motion.linear() = Eigen::AngleAxisd(x, axis).toRotationMatrix(); break;
        case JointKind::Prismatic: motion.translation() = x * axis; break;
        case JointKind::Floating:
          motion.translation() = q.segment<3>(b.qIndex);
          motion.linear() = freeJointQuaternion(b, q).normalized().toRotationMatrix();
          break;
        case JointKind::Fixed: break;
        case JointKind::Screw:
        case JointKind::Spherical:  // not in the models this reference is used on
          throw std::invalid_argument("reference poses: no closed form here for joint " + j.name);
      }
    }
    pose[j.child] = pose.at(j.parent) * origin * motion;
  }
  return pose;
}

struct RandomCase {
  ModelBuilder builder;
  Model model;
};

RandomCase randomCase(Rng& rng, bool floating) {
  TreeOptions opt;
  opt.numLinks = uniformInt(rng, 1, 15);
  opt.floatingBase = floating;
  opt.fixedJointChance = 0.3;
  ModelBuilder b = randomTreeBuilder(rng, opt);
  Model m = b.build();
  return {std::move(b), std::move(m)};
}

/// Runs f(model, data) on 20 random trees with a fixed base, then 20 with a floating one.
template <typename F>
void forRandomCases(Rng& rng, F f) {
  for (bool floating : {false, true}) {
    for (int t = 0; t < 20; ++t) {
      const RandomCase c = randomCase(rng, floating);
      Data data(c.model);
      f(c.model, data);
    }
  }
}

/// World angular velocity ω from rotations a time 2h apart: R(+h) R(-h)ᵀ = exp(2h ω̂).
Vec3 angularRate(const Mat3& Rminus, const Mat3& Rplus, double h) {
  const Eigen::AngleAxisd rel(Rplus * Rminus.transpose());
  return rel.angle() * rel.axis() / (2.0 * h);
}

Vec6 inAxes(const Vec6& world, const Mat3& R, ReferenceFrame axes) {
  if (axes == ReferenceFrame::LocalWorldAligned) return world;
  Vec6 local;
  local << R.transpose() * world.head<3>(), R.transpose() * world.tail<3>();
  return local;
}

}  // namespace

TEST(Kinematics, FramePosesMatchTransformsComposedFromTheUrdfSpecs) {
  Rng rng(51);
  double worst = 0.0;
  for (bool floating : {false, true}) {
    for (int t = 0; t < 30; ++t) {
      const RandomCase c = randomCase(rng, floating);
      Data data(c.model);
      const VecX q = randomConfiguration(rng, c.model);
      forwardKinematics(c.model, data, q);
      const auto ref = referenceLinkPoses(c.builder, c.model, q);
      ASSERT_EQ(c.model.frames().size(), c.builder.links().size());  // every link, merged or not
      for (int f = 0; f < static_cast<int>(c.model.frames().size()); ++f) {
        const Iso& T = ref.at(c.model.frame(f).name);
        const Vec3 point = randomVec3(rng);
        const double e = std::max({(framePosition(c.model, data, f) - T.translation()).norm(),
                                   (frameRotation(c.model, data, f) - T.linear()).norm(),
                                   (framePosition(c.model, data, f, point) - T * point).norm()});
        EXPECT_LT(e, 1e-12) << c.model.frame(f).name;
        worst = std::max(worst, e);
      }
    }
  }
  std::cout << "[ measured ] max frame pose error = " << worst << "\n";
}

TEST(Kinematics, FrameVelocityIsTheTimeDerivativeOfTheFramePose) {
  Rng rng(52);
  const double h = 1e-6;
  double worst = 0.0;
  forRandomCases(rng, [&](const Model& m, Data& data) {
    const VecX q = randomConfiguration(rng, m), v = randomVector(rng, m.nv());
    const VecX qp = integrateConfiguration(m, q, v, h), qm = integrateConfiguration(m, q, v, -h);
    for (int f = 0; f < static_cast<int>(m.frames().size()); ++f) {
      const Vec3 point = randomVec3(rng);
      forwardKinematics(m, data, qp);
      const Vec3 pp = framePosition(m, data, f, point);
      const Mat3 Rp = frameRotation(m, data, f);
      forwardKinematics(m, data, qm);
      const Vec3 pm = framePosition(m, data, f, point);
      const Mat3 Rm = frameRotation(m, data, f);
      Vec6 expected;
      expected << angularRate(Rm, Rp, h), (pp - pm) / (2.0 * h);
      forwardKinematics(m, data, q, v);
      const Mat3 R = frameRotation(m, data, f);
      for (ReferenceFrame axes : {ReferenceFrame::LocalWorldAligned, ReferenceFrame::Local}) {
        const Vec6 got = frameVelocity(m, data, f, point, axes);
        const double e = (got - inAxes(expected, R, axes)).norm() / std::max(1.0, expected.norm());
        EXPECT_LT(e, 1e-7) << m.frame(f).name;
        worst = std::max(worst, e);
      }
    }
  });
  std::cout << "[ measured ] max frame velocity vs finite difference = " << worst << "\n";
}

TEST(Kinematics, JacobianTimesVelocityEqualsFrameVelocity) {
  Rng rng(53);
  forRandomCases(rng, [&](const Model& m, Data& data) {
    const VecX q = randomConfiguration(rng, m), v = randomVector(rng, m.nv());
    forwardKinematics(m, data, q, v);
    Mat6X J(6, m.nv());
    for (int f = 0; f < static_cast<int>(m.frames().size()); ++f) {
      const Vec3 point = randomVec3(rng);
      for (ReferenceFrame axes : {ReferenceFrame::LocalWorldAligned, ReferenceFrame::Local}) {
        frameJacobian(m, data, f, point, axes, J);
        const Vec6 vel = frameVelocity(m, data, f, point, axes);
        EXPECT_LT((J * v - vel).norm(), 1e-12 * std::max(1.0, vel.norm())) << m.frame(f).name;
        Data fresh(m);
        const Mat6X J2 = frameJacobian(m, fresh, q, f, point, axes);
        EXPECT_LT((J2 - J).norm(), 1e-14 * std::max(1.0, J.norm()));
      }
    }
  });
}

TEST(Kinematics, FrameAccelerationIsTheTimeDerivativeOfFrameVelocity) {
  Rng rng(54);
  const double h = 1e-6;
  double worst = 0.0;
  forRandomCases(rng, [&](const Model& m, Data& data) {
    const VecX q = randomConfiguration(rng, m), v = randomVector(rng, m.nv()), qdd = randomVector(rng, m.nv());
    const VecX qp = integrateConfiguration(m, q, v, h), qm = integrateConfiguration(m, q, v, -h);
    const VecX vp = v + h * qdd, vm = v - h * qdd;
    for (int f = 0; f < static_cast<int>(m.frames().size()); ++f) {
      const Vec3 point = randomVec3(rng);
      const auto world = ReferenceFrame::LocalWorldAligned;
      forwardKinematics(m, data, qp, vp);
      const Vec6 velPlus = frameVelocity(m, data, f, point, world);
      forwardKinematics(m, data, qm, vm);
      const Vec6 velMinus = frameVelocity(m, data, f, point, world);
      const Vec6 expected = (velPlus - velMinus) / (2.0 * h);
      forwardKinematics(m, data, q, v, qdd);
      const Vec6 got = frameAcceleration(m, data, f, point, world);
      const double e = (got - expected).norm() / std::max(1.0, expected.norm());
      EXPECT_LT(e, 1e-7) << m.frame(f).name;
      worst = std::max(worst, e);
      // Local: the same vectors in the frame's axes (the reference point is the frame point).
      const Vec6 local = frameAcceleration(m, data, f, point, ReferenceFrame::Local);
      EXPECT_LT((local - inAxes(got, frameRotation(m, data, f), ReferenceFrame::Local)).norm(),
                1e-12 * std::max(1.0, got.norm()));
    }
  });
  std::cout << "[ measured ] max frame acceleration vs finite difference = " << worst << "\n";
}

TEST(Kinematics, FrameAccelerationBiasIsJdotV) {
  // J̇ v = d/dt (J v) at q̈ = 0: central differences of the frame velocity along the motion with
  // constant v; and frameAcceleration(q̈) = J q̈ + J̇ v.
  Rng rng(55);
  const double h = 1e-6;
  forRandomCases(rng, [&](const Model& m, Data& data) {
    const VecX q = randomConfiguration(rng, m), v = randomVector(rng, m.nv()), qdd = randomVector(rng, m.nv());
    const VecX qp = integrateConfiguration(m, q, v, h), qm = integrateConfiguration(m, q, v, -h);
    Mat6X J(6, m.nv());
    for (int f = 0; f < static_cast<int>(m.frames().size()); ++f) {
      const Vec3 point = randomVec3(rng);
      for (ReferenceFrame axes : {ReferenceFrame::LocalWorldAligned, ReferenceFrame::Local}) {
        if (axes == ReferenceFrame::Local) continue;  // d/dt of local-axis velocity differs by ω ×
        forwardKinematics(m, data, qp, v);
        const Vec6 velPlus = frameVelocity(m, data, f, point, axes);
        forwardKinematics(m, data, qm, v);
        const Vec6 expected = (velPlus - frameVelocity(m, data, f, point, axes)) / (2.0 * h);
        forwardKinematics(m, data, q, v, qdd);
        const Vec6 bias = frameAccelerationBias(m, data, f, point, axes);
        EXPECT_LT((bias - expected).norm() / std::max(1.0, expected.norm()), 1e-7) << m.frame(f).name;
        frameJacobian(m, data, f, point, axes, J);
        const Vec6 full = frameAcceleration(m, data, f, point, axes);
        EXPECT_LT((J * qdd + bias - full).norm(), 1e-12 * std::max(1.0, full.norm())) << m.frame(f).name;
      }
      // Local axes: the same vectors rotated
      forwardKinematics(m, data, q, v, qdd);
      EXPECT_LT((frameAccelerationBias(m, data, f, point, ReferenceFrame::Local) -
                 inAxes(frameAccelerationBias(m, data, f, point), frameRotation(m, data, f), ReferenceFrame::Local))
                    .norm(),
                1e-12 * (1.0 + frameAccelerationBias(m, data, f, point).norm()));
    }
  });
}

TEST(Kinematics, ExternalForceActsLikeJacobianTransposeTimesForce) {
  // A force F (world axes) at world point p is the spatial force [p × F; F] about the world
  // origin; its generalized force is J_pᵀ F with J_p the point Jacobian's linear rows in world
  // axes, and a pure moment n gives J_ωᵀ n. RNEA returns H qdd + C - Jᵀ f.
  Rng rng(55);
  double worst = 0.0;
  forRandomCases(rng, [&](const Model& m, Data& data) {
    const VecX q = randomConfiguration(rng, m), v = randomVector(rng, m.nv()), qdd = randomVector(rng, m.nv());
    const VecX tauFree = inverseDynamics(m, data, q, v, qdd);
    const int body = uniformInt(rng, 0, m.numBodies() - 1);
    const int frame = m.frameIndex(m.body(body).name);
    const Vec3 p = randomVec3(rng, -2, 2), F = randomVec3(rng, -5, 5), n = randomVec3(rng, -2, 2);
    ExternalForces fext(static_cast<size_t>(m.numBodies()), Vec6::Zero());
    fext[static_cast<size_t>(body)] << p.cross(F) + n, F;

    forwardKinematics(m, data, q);
    const Vec3 pLocal = frameTransform(m, data, frame).transformPoint(p);
    Mat6X J(6, m.nv());
    frameJacobian(m, data, frame, pLocal, ReferenceFrame::LocalWorldAligned, J);
    const VecX generalized = J.bottomRows<3>().transpose() * F + J.topRows<3>().transpose() * n;

    const VecX tauWith = inverseDynamics(m, data, q, v, qdd, fext);
    const double e = (tauWith - tauFree + generalized).norm() / std::max(1.0, generalized.norm());
    EXPECT_LT(e, 1e-12);
    worst = std::max(worst, e);
    // Forward dynamics sees the same generalized force.
    const VecX tau = randomVector(rng, m.nv());
    const VecX a1 = forwardDynamics(m, data, q, v, tau, fext);
    const VecX a2 = forwardDynamics(m, data, q, v, VecX(tau + generalized));
    EXPECT_LT(relativeError(a1, a2), 1e-10);
  });
  std::cout << "[ measured ] max |ΔRNEA + Jᵀf| / |Jᵀf| = " << worst << "\n";
}

TEST(Kinematics, FramesWeldedToTheGroundDoNotMove) {
  ModelBuilder b("welded");
  LinkSpec world, plate, arm;
  world.name = "world";
  plate.name = "plate";
  plate.mass = 1.0;
  plate.inertia = Mat3::Identity() * 0.1;
  arm = plate;
  arm.name = "arm";
  b.addLink(world);
  b.addLink(plate);
  b.addLink(arm);
  JointSpec weld;
  weld.name = "weld";
  weld.kind = JointKind::Fixed;
  weld.parent = "world";
  weld.child = "plate";
  weld.origin = urdfOriginToTransform(Vec3(0.1, 0.2, 0.3), Vec3(0.4, -0.5, 0.6));
  b.addJoint(weld);
  JointSpec hinge;
  hinge.name = "hinge";
  hinge.parent = "plate";
  hinge.child = "arm";
  hinge.axis = Vec3(0, 0, -1);
  b.addJoint(hinge);
  const Model m = b.build();
  ASSERT_EQ(m.numBodies(), 1);
  Data data(m);
  const VecX q = VecX::Constant(1, 0.3), v = VecX::Constant(1, 2.0), qdd = VecX::Constant(1, -1.0);
  forwardKinematics(m, data, q, v, qdd);
  const int plateFrame = m.frameIndex("plate");
  EXPECT_LT((framePosition(m, data, plateFrame) - Vec3(0.1, 0.2, 0.3)).norm(), 1e-15);
  EXPECT_LT((frameRotation(m, data, plateFrame) - rpyToRotation(Vec3(0.4, -0.5, 0.6))).norm(), 1e-15);
  EXPECT_EQ(frameVelocity(m, data, plateFrame, Vec3(1, 2, 3)), Vec6::Zero());
  EXPECT_EQ(frameAcceleration(m, data, plateFrame, Vec3(1, 2, 3)), Vec6::Zero());
  Mat6X J(6, 1);
  frameJacobian(m, data, plateFrame, Vec3(1, 2, 3), ReferenceFrame::Local, J);
  EXPECT_EQ(J.norm(), 0.0);
  // The arm rotates about the plate's -z axis: its angular velocity is -2 along plate z.
  const Vec6 w = frameVelocity(m, data, m.frameIndex("arm"));
  EXPECT_LT((w.head<3>() - rpyToRotation(Vec3(0.4, -0.5, 0.6)) * Vec3(0, 0, -2.0)).norm(), 1e-14);
}

namespace {

/// A hinged arm (link "arm" on joint "hinge" about y).
ModelBuilder hingedArm() {
  ModelBuilder b("arm");
  LinkSpec world, arm;
  world.name = "world";
  arm.name = "arm";
  arm.mass = 2.0;
  arm.com = Vec3(0.2, 0.0, 0.05);
  arm.inertia = Vec3(0.01, 0.02, 0.025).asDiagonal();
  b.addLink(world);
  b.addLink(arm);
  JointSpec hinge;
  hinge.name = "hinge";
  hinge.parent = "world";
  hinge.child = "arm";
  hinge.axis = Vec3(0, 1, 0);
  b.addJoint(hinge);
  return b;
}

/// The arm with a frame "tip" at `origin` from its link: either a named frame (addFrame) or, the
/// old way, a massless dummy link on a fixed joint.
Model armWithTip(bool namedFrame, const Transform& origin) {
  ModelBuilder b = hingedArm();
  if (namedFrame) {
    b.addFrame(FrameSpec{"tip", "arm", origin, {}});
  } else {
    LinkSpec tip;
    tip.name = "tip";
    b.addLink(tip);
    JointSpec fixed;
    fixed.name = "arm_to_tip";
    fixed.kind = JointKind::Fixed;
    fixed.parent = "arm";
    fixed.child = "tip";
    fixed.origin = origin;
    b.addJoint(fixed);
  }
  return b.build();
}

}  // namespace

TEST(Kinematics, NamedFramesSitWhereAFixedDummyLinkWould) {
  const Transform origin = urdfOriginToTransform(Vec3(0.4, 0.01, -0.02), Vec3(0.3, 0.2, -0.1));
  const Model named = armWithTip(true, origin), dummy = armWithTip(false, origin);
  ASSERT_EQ(named.numBodies(), dummy.numBodies());
  Data dn(named), dd(dummy);
  const VecX q = VecX::Constant(1, 0.7), v = VecX::Constant(1, -1.3), qdd = VecX::Constant(1, 2.1);
  forwardKinematics(named, dn, q, v, qdd);
  forwardKinematics(dummy, dd, q, v, qdd);
  const int fn = named.frameIndex("tip"), fd = dummy.frameIndex("tip");
  ASSERT_GE(fn, 0);
  const Vec3 p(0.01, 0.02, 0.03);
  EXPECT_LT((framePosition(named, dn, fn, p) - framePosition(dummy, dd, fd, p)).norm(), 1e-15);
  EXPECT_LT((frameRotation(named, dn, fn) - frameRotation(dummy, dd, fd)).norm(), 1e-15);
  EXPECT_LT((frameAcceleration(named, dn, fn, p) - frameAcceleration(dummy, dd, fd, p)).norm(), 1e-13);
  // A frame carries no mass: the dynamics are those of the arm alone.
  EXPECT_NEAR(massMatrix(named, dn, q)(0, 0), massMatrix(dummy, dd, q)(0, 0), 1e-15);
  // The arm's tip, independently: R_y(q) applied to the frame's offset from the hinge.
  const Vec3 tipWorld = Eigen::AngleAxisd(0.7, Vec3::UnitY()) * Vec3(0.4, 0.01, -0.02);
  EXPECT_LT((framePosition(named, dn, fn) - tipWorld).norm(), 1e-14);
  // Constraints take the frame's name.
  ConstraintModel cm(named);
  EXPECT_NO_THROW(cm.addPointContact("tip"));
}

TEST(Kinematics, NamedFrameErrorsNameTheFrame) {
  auto expectError = [](FrameSpec f, const std::string& what) {
    ModelBuilder b = hingedArm();
    b.addFrame(f);
    try {
      b.build();
      ADD_FAILURE() << "no error for " << what;
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("frame '" + f.name + "'"), std::string::npos) << e.what();
    }
  };
  expectError(FrameSpec{"tip", "nowhere", Transform(), {}}, "unknown link 'nowhere'");
  expectError(FrameSpec{"arm", "arm", Transform(), {}}, "duplicate name");
  expectError(FrameSpec{"tip", "arm", Transform(Mat3::Identity() * 2.0, Vec3::Zero()), {}}, "not a rotation");
  expectError(FrameSpec{"tip", "arm", Transform(Mat3::Identity(), Vec3(NAN, 0, 0)), {}}, "not finite");
}
