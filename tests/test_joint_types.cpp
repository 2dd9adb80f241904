// Issue #25, more joint types. The screw (helical) joint, checked against methods that do not use
// it: a closed form for one body on a screw; the same chain written as revolute + massless link +
// prismatic, projected onto the screw's coordinate by G = [1; p] (H = Gᵀ H_rp G, τ = Gᵀ τ_rp,
// exact because G is constant); finite differences for the analytic derivatives; energy in RK4
// simulation; the geometry of a right-handed thread; the URDF spellings and their errors.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <utility>

#include "grbda/algorithms/cfa.hpp"
#include "grbda/algorithms/derivatives.hpp"
#include "grbda/algorithms/osim.hpp"
#include "grbda/algorithms/tree.hpp"
#include "grbda/baselines/projection.hpp"
#include "grbda/grbda.hpp"
#include "grbda/model_source.hpp"
#include "grbda/sim/simulator.hpp"
#include "support/allocation_counter.hpp"
#include "support/cli_runner.hpp"
#include "support/compare.hpp"

using namespace grbda;
using grbda::testsupport::maxAbs;

namespace {

constexpr double kPitch = 0.31 / (2.0 * M_PI);  // <screw_thread_pitch>0.31</...>: metres per radian

std::string inertial(double m, const char* com, const char* inertia) {
  return std::string("<inertial><origin xyz=\"") + com + "\"/><mass value=\"" + std::to_string(m) +
         "\"/><inertia " + inertia + "/></inertial>";
}

/// base -j1 (continuous)- l1 -j2 (screw, or revolute + massless link + prismatic)- l2 -j3- l3.
std::string chainUrdf(bool screw) {
  const std::string j2origin = "<origin xyz=\"0.3 0.05 0\" rpy=\"0 0.2 0.3\"/>";
  const std::string axis = "<axis xyz=\"0 0.6 0.8\"/>";
  std::string s = "<robot name=\"screw_chain\"><link name=\"base\"/>";
  s += "<link name=\"l1\">" + inertial(1.3, "0.1 0.02 -0.05", "ixx=\"0.02\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.03\" iyz=\"0\" izz=\"0.025\"") + "</link>";
  s += "<link name=\"l2\">" + inertial(0.9, "0.03 -0.04 0.12", "ixx=\"0.011\" ixy=\"0\" ixz=\"0.002\" iyy=\"0.014\" iyz=\"0\" izz=\"0.009\"") + "</link>";
  s += "<link name=\"l3\">" + inertial(0.5, "0.2 0 0.01", "ixx=\"0.003\" ixy=\"0\" ixz=\"0\" iyy=\"0.008\" iyz=\"0.0005\" izz=\"0.007\"") + "</link>";
  s += "<joint name=\"j1\" type=\"continuous\"><parent link=\"base\"/><child link=\"l1\"/>"
       "<origin xyz=\"0 0 0.1\" rpy=\"0.1 0 0\"/><axis xyz=\"0 1 0\"/></joint>";
  if (screw) {
    s += "<joint name=\"j2\" type=\"screw\"><parent link=\"l1\"/><child link=\"l2\"/>" + j2origin + axis +
         "<screw_thread_pitch>0.31</screw_thread_pitch></joint>";
  } else {
    s += "<link name=\"l2a\"/>";
    s += "<joint name=\"j2\" type=\"continuous\"><parent link=\"l1\"/><child link=\"l2a\"/>" + j2origin + axis + "</joint>";
    s += "<joint name=\"j2p\" type=\"prismatic\"><parent link=\"l2a\"/><child link=\"l2\"/>" + axis +
         "<limit lower=\"-10\" upper=\"10\" effort=\"1\" velocity=\"1\"/></joint>";
  }
  s += "<joint name=\"j3\" type=\"continuous\"><parent link=\"l2\"/><child link=\"l3\"/>"
       "<origin xyz=\"0 0 0.25\"/><axis xyz=\"1 0 0\"/></joint></robot>";
  return s;
}

/// G: screw-chain velocities (j1, j2, j3) -> revolute-prismatic velocities (their body order).
MatX projection(const Model& rp) {
  MatX G = MatX::Zero(rp.nv(), 3);
  G(rp.body(rp.bodyIndex("l1")).vIndex, 0) = 1.0;
  G(rp.body(rp.bodyIndex("l2a")).vIndex, 1) = 1.0;
  G(rp.body(rp.bodyIndex("l2")).vIndex, 1) = kPitch;
  G(rp.body(rp.bodyIndex("l3")).vIndex, 2) = 1.0;
  return G;
}

/// The screw chain's coordinates in the order of its own bodies (j1, j2, j3).
VecX ordered(const Model& screw, const Vec3& x) {
  VecX out(3);
  out[screw.body(screw.bodyIndex("l1")).vIndex] = x[0];
  out[screw.body(screw.bodyIndex("l2")).vIndex] = x[1];
  out[screw.body(screw.bodyIndex("l3")).vIndex] = x[2];
  return out;
}

struct Pair {
  Model screw = loadUrdfString(chainUrdf(true), "screw_chain.urdf");
  Model rp = loadUrdfString(chainUrdf(false), "screw_chain_rp.urdf");
  MatX G = projection(rp);
};

const std::string kOneBody =
    "<robot name=\"nut\"><link name=\"base\"/><link name=\"nut\"><inertial><origin xyz=\"0.07 -0.02 0.03\"/>"
    "<mass value=\"2.5\"/><inertia ixx=\"0.004\" ixy=\"0.0003\" ixz=\"0.0002\" iyy=\"0.005\" iyz=\"-0.0001\" "
    "izz=\"0.006\"/></inertial></link>"
    "<joint name=\"screw\" type=\"screw\"><parent link=\"base\"/><child link=\"nut\"/>"
    "<axis xyz=\"0 0 1\"/>PITCH</joint></robot>";

std::string oneBody(const std::string& pitchElement) {
  std::string s = kOneBody;
  s.replace(s.find("PITCH"), 5, pitchElement);
  return s;
}

}  // namespace

// One body on a vertical screw: H = a·I_c a + m (p² + |a × c|²) (the COM moves p q̇ along a and
// a × c q̇ around it, two orthogonal parts), gravity's generalised force m g p, no Coriolis term
// (H does not depend on q). So H q̈ + m g p = τ exactly.
TEST(ScrewJoint, OneBodyMatchesTheClosedForm) {
  const double p = -0.004;  // <thread_pitch> 250 rad/m, left-handed positive: p = −1/250 m/rad
  const Model model = loadUrdfString(oneBody("<thread_pitch>250</thread_pitch>"), "nut.urdf");
  ASSERT_EQ(model.body(0).joint.type, JointType::Screw);
  EXPECT_DOUBLE_EQ(model.body(0).joint.pitch, p);
  const double m = 2.5;
  const Vec3 a(0, 0, 1), c(0.07, -0.02, 0.03);
  const double H = 0.006 + m * (p * p + a.cross(c).squaredNorm());
  Data data(model);
  VecX q(1), v(1), tau(1);
  q << 0.7;
  v << -3.0;
  tau << 0.4;
  EXPECT_NEAR(massMatrix(model, data, q)(0, 0), H, 1e-15);
  const double qdd = (tau[0] - m * 9.81 * p) / H;
  EXPECT_NEAR(forwardDynamics(model, data, q, v, tau)[0], qdd, 1e-12 * std::abs(qdd));
  EXPECT_NEAR(tree::aba(model, data, q, v, tau)[0], qdd, 1e-12 * std::abs(qdd));
  VecX a1(1);
  a1 << qdd;
  EXPECT_NEAR(inverseDynamics(model, data, q, v, a1)[0], tau[0], 1e-12);
  EXPECT_NEAR(tree::crba(model, data, q)(0, 0), H, 1e-15);
}

// The thread's hand: SDFormat's <screw_thread_pitch> s (m/rev, right-handed positive) and
// <thread_pitch> t (rad/m, left-handed positive) with t = −2π/s give the same joint, and a
// right-handed thread advances along +a when it turns positively about a.
TEST(ScrewJoint, BothSdformatSpellingsGiveTheSameRightHandedThread) {
  const Model perRev = loadUrdfString(oneBody("<screw_thread_pitch>0.5</screw_thread_pitch>"), "a.urdf");
  const Model radPerM = loadUrdfString(oneBody("<thread_pitch>-12.566370614359172</thread_pitch>"), "b.urdf");
  const Model both = loadUrdfString(
      oneBody("<screw_thread_pitch>0.5</screw_thread_pitch><thread_pitch>-12.566370614359172</thread_pitch>"), "c.urdf");
  EXPECT_NEAR(perRev.body(0).joint.pitch, 0.5 / (2 * M_PI), 1e-16);
  EXPECT_NEAR(radPerM.body(0).joint.pitch, perRev.body(0).joint.pitch, 1e-15);
  EXPECT_NEAR(both.body(0).joint.pitch, perRev.body(0).joint.pitch, 1e-15);
  Data data(perRev);
  VecX q(1);
  q << 2 * M_PI;  // one turn
  forwardKinematics(perRev, data, q);
  const int frame = perRev.frameIndex("nut");
  const Vec3 origin = framePosition(perRev, data, frame);
  EXPECT_NEAR(origin.z(), 0.5, 1e-12);  // one pitch up
  q << M_PI / 2;                        // a quarter turn: x -> y, a quarter pitch up
  forwardKinematics(perRev, data, q);
  const Vec3 point = framePosition(perRev, data, frame, Vec3(1, 0, 0));
  EXPECT_NEAR((point - Vec3(0, 1, 0.125)).norm(), 0.0, 1e-12);
}

// The chain with a screw in the middle equals revolute + massless link + prismatic projected on
// G = [1; p] (constant, so no Ġ q̇ term): H = Gᵀ H_rp G, τ = Gᵀ τ_rp(G q, G q̇, G q̈),
// q̈ = (Gᵀ H_rp G)⁻¹ (τ − Gᵀ C_rp(G q, G q̇)); by C-ABA, C-RNEA, CRBA, ℳ⁻¹, the tree algorithms
// and the CFA.
TEST(ScrewJoint, ChainEqualsRevolutePrismaticProjection) {
  const Pair m;
  Data ds(m.screw), drp(m.rp);
  ASSERT_EQ(m.screw.nv(), 3);
  EXPECT_STREQ(m.screw.cluster(m.screw.body(m.screw.bodyIndex("l2")).cluster).typeName(), "Screw");
  double worst = 0.0;
  for (int trial = 0; trial < 5; ++trial) {
    const Vec3 q3 = Vec3::Random() * 2.0, v3 = Vec3::Random() * 3.0, a3 = Vec3::Random() * 4.0,
               t3 = Vec3::Random() * 2.0;
    const VecX q = ordered(m.screw, q3), v = ordered(m.screw, v3), qdd = ordered(m.screw, a3),
               tau = ordered(m.screw, t3);
    // ordered() and G use the same (j1, j2, j3) columns, so map through the component vectors
    const VecX qrp = m.G * VecX(q3), vrp = m.G * VecX(v3), arp = m.G * VecX(a3);
    const MatX P = [&] {  // screw-chain order <- (j1, j2, j3)
      MatX out = MatX::Zero(3, 3);
      out(m.screw.body(m.screw.bodyIndex("l1")).vIndex, 0) = 1;
      out(m.screw.body(m.screw.bodyIndex("l2")).vIndex, 1) = 1;
      out(m.screw.body(m.screw.bodyIndex("l3")).vIndex, 2) = 1;
      return out;
    }();
    const MatX Href = P * m.G.transpose() * massMatrix(m.rp, drp, qrp) * m.G * P.transpose();
    const VecX tauRef = P * m.G.transpose() * inverseDynamics(m.rp, drp, qrp, vrp, arp);
    const VecX biasRef = P * m.G.transpose() * biasForces(m.rp, drp, qrp, vrp);
    const VecX qddRef = Href.ldlt().solve(tau - biasRef);
    const auto check = [&](const MatX& got, const MatX& want, const char* what) {
      const double e = maxAbs(got - want) / std::max(1.0, maxAbs(want));
      EXPECT_LT(e, 1e-12) << what << " trial " << trial;
      worst = std::max(worst, e);
    };
    check(massMatrix(m.screw, ds, q), Href, "CRBA");
    check(tree::crba(m.screw, ds, q), Href, "tree CRBA");
    check(inverseDynamics(m.screw, ds, q, v, qdd), tauRef, "C-RNEA");
    check(tree::rnea(m.screw, ds, q, v, qdd), tauRef, "tree RNEA");
    check(forwardDynamics(m.screw, ds, q, v, tau), qddRef, "C-ABA");
    check(tree::aba(m.screw, ds, q, v, tau), qddRef, "tree ABA");
    check(inverseMassMatrix(m.screw, ds, q), Href.inverse(), "Minv");
    ASSERT_EQ(cfaUnsupportedReason(m.screw), "");
    CfaData cfa(m.screw);
    check(cfaForwardDynamics(m.screw, cfa, q, v, tau), qddRef, "CFA");
  }
  std::cout << "[ measured ] screw chain vs revolute-prismatic projection: max relative error " << worst << "\n";
}

// Analytic ∂q̈/∂q, ∂q̈/∂v through the screw against central differences of forwardDynamics
// (the screw's X_J(q) = exp(−q S×) with S constant, the property the analytic pass uses).
TEST(ScrewJoint, AnalyticDerivativesMatchFiniteDifferences) {
  const Pair m;
  Data data(m.screw), fd(m.screw);
  const VecX q = ordered(m.screw, Vec3(0.3, -1.1, 0.8)), v = ordered(m.screw, Vec3(1.5, -2.0, 0.7)),
             tau = ordered(m.screw, Vec3(0.2, -0.4, 0.1));
  computeABADerivatives(m.screw, data, q, v, tau);
  const double h = 1e-6;
  double worst = 0.0;
  for (int k = 0; k < 3; ++k) {
    VecX qp = q, qm = q, vp = v, vm = v;
    qp[k] += h;
    qm[k] -= h;
    vp[k] += h;
    vm[k] -= h;
    const VecX dq = (VecX(forwardDynamics(m.screw, fd, qp, v, tau)) - VecX(forwardDynamics(m.screw, fd, qm, v, tau))) / (2 * h);
    const VecX dv = (VecX(forwardDynamics(m.screw, fd, q, vp, tau)) - VecX(forwardDynamics(m.screw, fd, q, vm, tau))) / (2 * h);
    worst = std::max({worst, maxAbs(data.derivatives.ddq_dq.col(k) - dq), maxAbs(data.derivatives.ddq_dv.col(k) - dv)});
  }
  EXPECT_LT(worst, 1e-6);
  std::cout << "[ measured ] screw chain derivatives vs central differences: " << worst << "\n";
}

// Energy in simulation: RK4 without rows (no limits, damping or contact) keeps kinetic +
// potential energy of the free chain; the screw exchanges rotation, lift and gravity.
TEST(ScrewJoint, SimulationConservesEnergyUnderRk4) {
  const Pair m;
  SimulatorOptions options;
  options.integrator = Integrator::RK4;
  options.dt = 1e-3;
  Simulator sim(m.screw, World(), options);
  sim.setState(ordered(m.screw, Vec3(0.4, 0.2, -0.3)), ordered(m.screw, Vec3(1.0, 4.0, -2.0)));
  const double e0 = sim.energy();
  const double q2start = sim.q()[m.screw.body(m.screw.bodyIndex("l2")).vIndex];
  sim.step(1000);
  const double drift = std::abs(sim.energy() - e0) / std::max(1.0, std::abs(e0));
  EXPECT_GT(std::abs(sim.q()[m.screw.body(m.screw.bodyIndex("l2")).vIndex] - q2start), 0.1);  // it moved
  EXPECT_LT(drift, 1e-8);
  std::cout << "[ measured ] screw chain, RK4 dt = 1 ms, 1 s: relative energy drift " << drift << "\n";
}

TEST(ScrewJoint, SerialisesWithItsPitch) {
  const Pair m;
  const Model back = deserializeModel(serializeModel(m.screw));
  const Body& b = back.body(back.bodyIndex("l2"));
  EXPECT_EQ(b.joint.type, JointType::Screw);
  EXPECT_DOUBLE_EQ(b.joint.pitch, kPitch);
}

// Bad pitches: ModelError with the file and the line of the element.
TEST(ScrewJoint, BadPitchIsAModelErrorWithFileAndLine) {
  const auto expectError = [](const std::string& pitch, const char* needle) {
    std::string xml = oneBody(pitch);
    xml.replace(xml.find("<joint"), 6, "\n\n<joint");  // the joint on line 3
    try {
      loadUrdfString(xml, "bad_screw.urdf");
      ADD_FAILURE() << "accepted " << pitch;
    } catch (const ModelError& e) {
      EXPECT_EQ(e.file(), "bad_screw.urdf");
      EXPECT_EQ(e.line(), 3) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expectError("", "needs its pitch");
  expectError("<thread_pitch>nan</thread_pitch>", "not a finite number");
  expectError("<screw_thread_pitch>inf</screw_thread_pitch>", "not a finite number");
  expectError("<thread_pitch>0</thread_pitch>", "infinite pitch");
  expectError("<screw_thread_pitch>0.5</screw_thread_pitch><thread_pitch>12.5</thread_pitch>", "disagree");
}

// A ball-screw actuator as a loop: the motor turns the shaft (θ, independent), the nut rides on it
// by a screw joint (φ) and is welded (fixed <loop>) to a slider on a prismatic guide (s). The
// loop leaves φ = −θ (the nut does not turn) and s = p φ = −p θ, so the nut and slider only
// translate: H = I_shaft,axis + (m_nut + m_slider) p², and gravity's generalised force is
// −(m_nut + m_slider) g p (V = M g s). H is constant: H θ̈ − M g p = τ. A Generic cluster.
TEST(ScrewJoint, BallScrewInALoopMatchesTheClosedForm) {
  const std::string xml =
      "<robot name=\"ball_screw\"><link name=\"base\"/>"
      "<link name=\"shaft\">" + inertial(0.4, "0.001 0.002 0.05", "ixx=\"0.0004\" ixy=\"0\" ixz=\"0\" iyy=\"0.0004\" iyz=\"0\" izz=\"0.0002\"") + "</link>"
      "<link name=\"nut\">" + inertial(0.3, "0.02 0 0", "ixx=\"0.0001\" ixy=\"0\" ixz=\"0\" iyy=\"0.0001\" iyz=\"0\" izz=\"0.00015\"") + "</link>"
      "<link name=\"slider\">" + inertial(0.2, "0 0.01 0", "ixx=\"0.0002\" ixy=\"0\" ixz=\"0\" iyy=\"0.0002\" iyz=\"0\" izz=\"0.0002\"") + "</link>"
      "<joint name=\"motor\" type=\"continuous\"><parent link=\"base\"/><child link=\"shaft\"/><axis xyz=\"0 0 1\"/></joint>"
      "<joint name=\"thread\" type=\"screw\" independent=\"false\"><parent link=\"shaft\"/><child link=\"nut\"/>"
      "<origin xyz=\"0 0 0.1\"/><axis xyz=\"0 0 1\"/><screw_thread_pitch>0.005</screw_thread_pitch></joint>"
      "<joint name=\"guide\" type=\"prismatic\" independent=\"false\"><parent link=\"base\"/><child link=\"slider\"/>"
      "<origin xyz=\"0 0 0.1\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"100\" velocity=\"1\"/></joint>"
      "<loop name=\"nut_on_slider\" type=\"fixed\"><predecessor link=\"nut\"/><successor link=\"slider\"/></loop>"
      "</robot>";
  const Model model = loadUrdfString(xml, "ball_screw.urdf");
  ASSERT_EQ(model.nv(), 1);
  const double p = 0.005 / (2 * M_PI), M = 0.3 + 0.2;
  const double H = 0.0002 + 0.4 * (0.001 * 0.001 + 0.002 * 0.002) + M * p * p;
  Data data(model);
  VecX q(1), v(1), tau(1);
  q << 0.9;
  v << 25.0;
  tau << 0.01;
  EXPECT_NEAR(massMatrix(model, data, q)(0, 0), H, 1e-12 * H);
  const double qdd = (tau[0] + M * 9.81 * p) / H;
  EXPECT_NEAR(forwardDynamics(model, data, q, v, tau)[0], qdd, 1e-9 * std::abs(qdd));
  VecX a(1);
  a << qdd;
  EXPECT_NEAR(inverseDynamics(model, data, q, v, a)[0], tau[0], 1e-9 * std::abs(tau[0]));
  // the completed loop: the nut turned back by θ and the slider lowered by p θ
  const VecX qs = completeConfiguration(model, data, q);
  EXPECT_NEAR(qs[model.body(model.bodyIndex("nut")).qIndex], -0.9, 1e-9);
  EXPECT_NEAR(qs[model.body(model.bodyIndex("slider")).qIndex], -p * 0.9, 1e-9);
}

// ---------------------------------------------------------------------------------------------
// The spherical (ball) joint: q = unit quaternion (w, x, y, z) of the child in the joint frame,
// v = ω in child coordinates, as the free joint's rotational part.

namespace {

using Vec4 = Eigen::Vector4d;
const char* kBobInertia = "ixx=\"0.021\" ixy=\"0.002\" ixz=\"-0.001\" iyy=\"0.034\" iyz=\"0.003\" izz=\"0.015\"";

/// A bob on a ball joint at the origin of `base`, centre of mass below and off the pivot.
std::string sphericalPendulumUrdf(const std::string& jointExtra = "") {
  return "<robot name=\"ball_pendulum\"><link name=\"base\"/><link name=\"bob\">" +
         inertial(1.7, "0.05 -0.03 -0.45", kBobInertia) +
         "</link>\n<joint name=\"ball\" type=\"spherical\"><parent link=\"base\"/><child link=\"bob\"/>"
         "<origin xyz=\"0 0 1\" rpy=\"0.2 -0.1 0.3\"/>" + jointExtra + "</joint></robot>";
}

Vec4 unitQuaternion(const Vec4& raw) { return raw.normalized(); }

/// The spherical joint's state block (quaternion) at `iq` filled with a unit quaternion.
VecX withQuaternion(VecX q, int iq, const Vec4& raw) {
  q.segment<4>(iq) = unitQuaternion(raw);
  return q;
}

/// Euler's equations of a rigid body about a fixed pivot, in body coordinates, written out by
/// hand (no spatial algebra): I_o ω̇ + ω × I_o ω = τ + c × (m Rᵀ g), with I_o the rotational
/// inertia about the pivot, c the centre of mass (both body frame), R body -> world.
Vec3 eulerAboutPivot(double m, const Vec3& c, const Mat3& Icom, const Mat3& R, const Vec3& w, const Vec3& tau) {
  const Mat3 Io = Icom + m * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  const Vec3 g = R.transpose() * Vec3(0, 0, -9.81);
  return Io.ldlt().solve(tau + c.cross(m * g) - w.cross(Io * w));
}

}  // namespace

// C-ABA q̈ = Euler's equations about the pivot (written here by hand); C-RNEA of that q̈ gives τ
// back; the dense H⁻¹(τ − C) from CRBA and the bias; ℳ⁻¹; the tree algorithms; ½ vᵀ H v equals
// the kinetic energy summed body by body.
TEST(SphericalJoint, PendulumMatchesEulerAboutThePivot) {
  const Model model = loadUrdfString(sphericalPendulumUrdf(), "ball_pendulum.urdf");
  ASSERT_EQ(model.nq(), 4);
  ASSERT_EQ(model.nv(), 3);
  ASSERT_EQ(model.body(0).joint.type, JointType::Spherical);
  EXPECT_STREQ(model.cluster(0).typeName(), "Spherical");
  EXPECT_EQ(model.positionNames(), (std::vector<std::string>{"ball:qw", "ball:qx", "ball:qy", "ball:qz"}));
  EXPECT_EQ(model.velocityNames(), (std::vector<std::string>{"ball:wx", "ball:wy", "ball:wz"}));
  EXPECT_EQ(model.neutralConfiguration(), (VecX(4) << 1, 0, 0, 0).finished());
  Data data(model);
  Mat3 Icom;
  Icom << 0.021, 0.002, -0.001, 0.002, 0.034, 0.003, -0.001, 0.003, 0.015;
  const Vec3 c(0.05, -0.03, -0.45);
  const Mat3 Ejoint = urdfOriginToTransform(Vec3(0, 0, 1), Vec3(0.2, -0.1, 0.3)).E;  // parent -> joint coordinates
  double worst = 0.0;
  for (int trial = 0; trial < 6; ++trial) {
    const VecX q = withQuaternion(VecX(4), 0, Vec4::Random() + Vec4(0.1, 0, 0, 0));
    const VecX v = Vec3::Random() * 3.0, tau = Vec3::Random() * 2.0;
    const Eigen::Quaterniond quat(q[0], q[1], q[2], q[3]);
    const Mat3 R = Ejoint.transpose() * quat.toRotationMatrix();  // bob -> world
    const Vec3 ref = eulerAboutPivot(1.7, c, Icom, R, v, tau);
    const VecX qdd = forwardDynamics(model, data, q, v, tau);
    const auto rel = [](const VecX& a, const VecX& b) { return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff()); };
    worst = std::max(worst, rel(qdd, ref));
    EXPECT_LT(rel(qdd, ref), 1e-12) << "C-ABA vs Euler, trial " << trial;
    EXPECT_LT(rel(inverseDynamics(model, data, q, v, qdd), tau), 1e-12) << "C-RNEA(C-ABA) = tau";
    const MatX H = massMatrix(model, data, q);
    const VecX C = biasForces(model, data, q, v);
    EXPECT_LT(rel(H.ldlt().solve(tau - C), ref), 1e-12) << "CRBA";
    EXPECT_LT(maxAbs(inverseMassMatrix(model, data, q) - H.inverse()), 1e-10) << "Minv";
    EXPECT_LT(rel(tree::aba(model, data, q, v, tau), ref), 1e-12) << "tree ABA";
    EXPECT_LT(rel(tree::rnea(model, data, q, v, ref), tau), 1e-12) << "tree RNEA";
    EXPECT_LT(maxAbs(tree::crba(model, data, q) - H), 1e-13) << "tree CRBA";
    EXPECT_NEAR(0.5 * v.dot(H * v), kineticEnergy(model, data, q, v), 1e-12);
  }
  std::cout << "[ measured ] spherical pendulum, C-ABA vs Euler's equations about the pivot: " << worst << "\n";
}

// integrate/difference on the quaternion (the exponential map, body-frame ω, as the free joint);
// a zero quaternion is refused by name.
TEST(SphericalJoint, IntegrateAndDifferenceAreInverse) {
  const Model model = loadUrdfString(sphericalPendulumUrdf(), "ball_pendulum.urdf");
  const VecX q = withQuaternion(VecX(4), 0, Vec4(0.3, -0.5, 0.2, 0.7));
  const VecX v = Vec3(0.4, -1.2, 0.9);
  const VecX q1 = integrate(model, q, v, 0.5);
  EXPECT_NEAR(q1.norm(), 1.0, 1e-15);
  EXPECT_LT((difference(model, q, q1) - 0.5 * v).norm(), 1e-12);
  // the turn is about the body axis: R1 = R0 exp(0.5 ω×)
  const Mat3 R0 = Eigen::Quaterniond(q[0], q[1], q[2], q[3]).toRotationMatrix();
  const Mat3 R1 = Eigen::Quaterniond(q1[0], q1[1], q1[2], q1[3]).toRotationMatrix();
  const Mat3 turn = Eigen::AngleAxisd(0.5 * v.norm(), v.normalized()).toRotationMatrix();
  EXPECT_LT((R1 - R0 * turn).norm(), 1e-12);
  // positionRate: d/dt of the quaternion is ½ q ⊗ (0, ω), compared with a central difference
  const double h = 1e-6;
  const VecX rate = positionRate(model, q, v);
  EXPECT_LT((rate - (integrate(model, q, v, h) - integrate(model, q, v, -h)) / (2 * h)).norm(), 1e-8);
  try {
    forwardDynamics(model, *std::make_unique<Data>(model), VecX::Zero(4), VecX(v), VecX::Zero(3));
    ADD_FAILURE() << "zero quaternion accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("quaternion of joint 'ball'"), std::string::npos) << e.what();
  }
}

namespace {

/// Classical RK4 on the embedding (the quaternion as four numbers, its rate ½ q ⊗ (0, ω) from
/// positionRate), written here independently of the Simulator: the state after `steps` steps.
std::pair<VecX, VecX> rk4OnEmbedding(const Model& model, VecX q, VecX v, double dt, int steps) {
  Data data(model);
  const VecX tau = VecX::Zero(model.nv());
  const auto f = [&](const VecX& x, const VecX& w, VecX& dq, VecX& dv) {
    dq = positionRate(model, x, w);
    dv = forwardDynamics(model, data, x, w, tau);
  };
  VecX k1q, k1v, k2q, k2v, k3q, k3v, k4q, k4v;
  for (int s = 0; s < steps; ++s) {
    f(q, v, k1q, k1v);
    f(q + 0.5 * dt * k1q, v + 0.5 * dt * k1v, k2q, k2v);
    f(q + 0.5 * dt * k2q, v + 0.5 * dt * k2v, k3q, k3v);
    f(q + dt * k3q, v + dt * k3v, k4q, k4v);
    q += (dt / 6.0) * (k1q + 2.0 * k2q + 2.0 * k3q + k4q);
    v += (dt / 6.0) * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
  }
  normalizeConfiguration(model, q);
  return {q, v};
}

double energyAfterRk4(const Model& model, const VecX& q, const VecX& v, double dt, int steps) {
  const auto [q1, v1] = rk4OnEmbedding(model, q, v, dt, steps);
  Data data(model);
  return kineticEnergy(model, data, q1, v1) + potentialEnergy(model, data, q1);
}

}  // namespace

// Energy: classical RK4 on the embedding keeps kinetic + potential energy, and the drift shrinks
// as dt⁴ (the dynamics is conservative and smooth). The Simulator's RK4 (Runge–Kutta–Munthe-Kaas
// in the tangent space, with the dexp⁻¹ correction) is fourth order too: its drift shrinks as dt⁴.
// (Before the correction, the step moved the quaternion along the stages' mean body velocity and
// was second order: ratio 4.)
TEST(SphericalJoint, PendulumConservesEnergyAndDriftShrinksWithDt) {
  const Model model = loadUrdfString(sphericalPendulumUrdf(), "ball_pendulum.urdf");
  const VecX q0 = withQuaternion(VecX(4), 0, Vec4(0.9, 0.3, -0.4, 0.2));
  const VecX v0 = Vec3(2.0, -1.0, 3.0);
  Data data(model);
  const double e0 = kineticEnergy(model, data, q0, v0) + potentialEnergy(model, data, q0);
  double drift[2], simDrift[2];
  const double dts[2] = {4e-3, 2e-3};
  for (int k = 0; k < 2; ++k) {
    const int steps = static_cast<int>(std::lround(2.0 / dts[k]));
    drift[k] = std::abs(energyAfterRk4(model, q0, v0, dts[k], steps) - e0) / std::abs(e0);
    SimulatorOptions options;
    options.integrator = Integrator::RK4;
    options.dt = dts[k];
    Simulator sim(model, World(), options);
    sim.setState(q0, v0);
    EXPECT_NEAR(sim.energy(), e0, 1e-12 * std::abs(e0));
    sim.step(steps);
    simDrift[k] = std::abs(sim.energy() - e0) / std::abs(e0);
    EXPECT_GT(difference(model, q0, sim.q()).norm(), 0.3);  // it swung
  }
  EXPECT_LT(drift[0], 1e-8);
  EXPECT_GT(drift[0] / drift[1], 8.0);  // fourth order: ~16 (12.9 measured; the end normalisation blurs it)
  EXPECT_LT(simDrift[0], 1e-8);
  EXPECT_GT(simDrift[0] / simDrift[1], 8.0);  // fourth order: ~16
  std::cout << "[ measured ] spherical pendulum, 2 s, relative energy drift: RK4 on the embedding " << drift[0]
            << " (dt 4 ms), " << drift[1] << " (dt 2 ms), ratio " << drift[0] / drift[1] << "; Simulator RK4 "
            << simDrift[0] << ", " << simDrift[1] << ", ratio " << simDrift[0] / simDrift[1] << "\n";
}

// A free body tumbling under gravity (asymmetric inertia, centre of mass off the frame origin, so
// that the turn and the flight are coupled): the Simulator's RK4 state after 1 s converges to the
// independent classical RK4 on the embedding (at dt/16, its error ~1e-12) as dt⁴, on the
// quaternion and on the position, which moves by the turning body-frame velocity (the free
// joint's u̇_p = Exp(u_ω) v_lin). The energy drift shrinks as dt⁴ too.
TEST(FreeJoint, SimulatorRk4IsFourthOrderOnAFreeTumblingBody) {
  std::string urdf = sphericalPendulumUrdf();
  urdf.replace(urdf.find("type=\"spherical\""), std::string("type=\"spherical\"").size(), "type=\"floating\"");
  const Model model = loadUrdfString(urdf, "free_bob.urdf");
  ASSERT_EQ(model.nq(), 7);
  VecX q0(7);
  q0 << 0.3, -0.2, 1.1, 0, 0, 0, 0;
  q0 = withQuaternion(q0, 3, Vec4(0.9, 0.3, -0.4, 0.2));
  VecX v0(6);
  v0 << 2.0, -1.0, 3.0, 0.4, 0.7, -0.5;
  Data data(model);
  const double e0 = kineticEnergy(model, data, q0, v0) + potentialEnergy(model, data, q0);
  const double T = 1.0;
  const auto [qRef, vRef] = rk4OnEmbedding(model, q0, v0, 2e-3 / 16.0, static_cast<int>(std::lround(T * 8000.0)));
  double err[2], drift[2];
  const double dts[2] = {4e-3, 2e-3};
  for (int k = 0; k < 2; ++k) {
    SimulatorOptions options;
    options.integrator = Integrator::RK4;
    options.dt = dts[k];
    Simulator sim(model, World(), options);
    sim.setState(q0, v0);
    sim.step(static_cast<int>(std::lround(T / dts[k])));
    err[k] = difference(model, qRef, sim.q()).norm() + (sim.v() - vRef).norm();
    drift[k] = std::abs(sim.energy() - e0) / std::abs(e0);
  }
  EXPECT_GT(difference(model, q0, qRef).head<3>().norm(), 1.0);  // it turned
  EXPECT_LT(err[0], 1e-6);
  EXPECT_GT(err[0] / err[1], 11.0);  // fourth order: ~16 (second order would give ~4)
  EXPECT_GT(drift[0] / drift[1], 8.0);
  std::cout << "[ measured ] free tumbling body, 1 s, Simulator RK4 state error " << err[0] << " (dt 4 ms), " << err[1]
            << " (dt 2 ms), ratio " << err[0] / err[1] << "; energy drift " << drift[0] << ", " << drift[1] << "\n";
}

namespace {

/// base -j1 (revolute)- l1 -ball (spherical)- l2 -j3 (revolute)- l3, a rotor on l2 driving j3
/// (ratio 7, a RevoluteWithRotor cluster hanging from the ball's body) and a rotor on the base
/// driving j1 (ratio -5).
std::string mixedChainUrdf() {
  std::string s = "<robot name=\"ball_chain\"><link name=\"base\"/>";
  s += "<link name=\"l1\">" + inertial(1.1, "0.02 0.1 0.03", "ixx=\"0.012\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.009\" iyz=\"0\" izz=\"0.011\"") + "</link>";
  s += "<link name=\"l2\">" + inertial(0.8, "0.03 -0.02 -0.2", kBobInertia) + "</link>";
  s += "<link name=\"l3\">" + inertial(0.4, "0.15 0 -0.02", "ixx=\"0.002\" ixy=\"0\" ixz=\"0.0003\" iyy=\"0.006\" iyz=\"0\" izz=\"0.005\"") + "</link>";
  s += "<link name=\"rotor1\">" + inertial(0.2, "0 0 0", "ixx=\"0.0004\" ixy=\"0\" ixz=\"0\" iyy=\"0.0004\" iyz=\"0\" izz=\"0.0007\"") + "</link>";
  s += "<link name=\"rotor3\">" + inertial(0.1, "0 0 0", "ixx=\"0.0002\" ixy=\"0\" ixz=\"0\" iyy=\"0.0003\" iyz=\"0\" izz=\"0.0002\"") + "</link>";
  s += "<joint name=\"j1\" type=\"continuous\"><parent link=\"base\"/><child link=\"l1\"/><axis xyz=\"0 0 1\"/></joint>";
  s += "<joint name=\"ball\" type=\"spherical\"><parent link=\"l1\"/><child link=\"l2\"/><origin xyz=\"0 0.2 0.05\" rpy=\"0.3 0 0\"/></joint>";
  s += "<joint name=\"j3\" type=\"continuous\"><parent link=\"l2\"/><child link=\"l3\"/><origin xyz=\"0 0 -0.4\"/><axis xyz=\"0 1 0\"/></joint>";
  s += "<joint name=\"m1\" type=\"continuous\" independent=\"false\"><parent link=\"base\"/><child link=\"rotor1\"/><origin xyz=\"0.05 0 0\"/><axis xyz=\"0 0 1\"/></joint>";
  s += "<joint name=\"m3\" type=\"continuous\" independent=\"false\"><parent link=\"l2\"/><child link=\"rotor3\"/><origin xyz=\"0 0.03 -0.3\"/><axis xyz=\"1 0 0\"/></joint>";
  s += "<coupling name=\"g1\"><predecessor link=\"l1\"/><successor link=\"rotor1\"/><ratio value=\"-5\"/></coupling>";
  s += "<coupling name=\"g3\"><predecessor link=\"l3\"/><successor link=\"rotor3\"/><ratio value=\"7\"/></coupling>";
  return s + "</robot>";
}

/// A random valid state of the mixed chain (independent coordinates).
void mixedState(const Model& model, VecX& q, VecX& v, VecX& tau) {
  q = VecX::Random(model.nq());
  for (const Cluster& cl : model.clusters())
    if (model.body(cl.firstBody).joint.type == JointType::Spherical)
      q.segment<4>(cl.qIndex) = (Vec4::Random() + Vec4(0.2, 0, 0, 0)).normalized();
  v = VecX::Random(model.nv()) * 2.0;
  tau = VecX::Random(model.nv());
}

}  // namespace

// Spherical among revolute joints and rotor clusters: C-ABA, C-RNEA, CRBA + dense solve, ℳ⁻¹,
// the projection (Gᵀ H_s G on the spanning tree) and Lagrange baselines agree; ½ vᵀ ℳ v is the
// kinetic energy summed body by body; C-EFPA's Λ⁻¹ = J ℳ⁻¹ Jᵀ; and RK4 keeps its energy.
TEST(SphericalJoint, ChainWithRevoluteAndRotorClustersAgreesEverywhere) {
  const Model model = loadUrdfString(mixedChainUrdf(), "ball_chain.urdf");
  ASSERT_EQ(model.nv(), 5);  // j1, ball (3), j3
  ASSERT_EQ(model.nq(), 6);
  const Cluster& ball = model.cluster(model.body(model.bodyIndex("l2")).cluster);
  EXPECT_STREQ(ball.typeName(), "Spherical");
  EXPECT_STREQ(model.cluster(model.body(model.bodyIndex("l3")).cluster).typeName(), "RevoluteWithRotor");
  Data data(model);
  const int frame = model.frameIndex("l3");
  const Vec3 point(0.2, 0.01, -0.03);
  const OsimSet set(model, {EndEffector{frame, point}});
  double worst = 0.0;
  for (int trial = 0; trial < 5; ++trial) {
    VecX q, v, tau;
    mixedState(model, q, v, tau);
    const MatX H = massMatrix(model, data, q);
    const VecX C = biasForces(model, data, q, v);
    const VecX ref = H.ldlt().solve(tau - C);
    const auto rel = [](const MatX& a, const MatX& b) { return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff()); };
    const auto check = [&](double e, const char* what) {
      EXPECT_LT(e, 1e-11) << what << " trial " << trial;
      worst = std::max(worst, e);
    };
    const VecX qdd = forwardDynamics(model, data, q, v, tau);
    check(rel(qdd, ref), "C-ABA vs CRBA dense solve");
    check(rel(inverseDynamics(model, data, q, v, qdd), tau), "C-RNEA(C-ABA)");
    check(rel(inverseMassMatrix(model, data, q), H.inverse()), "Minv");
    check(rel(projectedMassMatrix(model, data, q), H), "projected H");
    check(rel(projectionForwardDynamics(model, data, q, v, tau), ref), "projection fd");
    check(rel(lagrangeForwardDynamics(model, data, q, v, tau), ref), "Lagrange fd");
    check(std::abs(0.5 * v.dot(H * v) - kineticEnergy(model, data, q, v)), "kinetic energy");
    const Mat6X J = frameJacobian(model, data, q, frame, point, ReferenceFrame::Local);
    check(rel(inverseOperationalSpaceInertia(model, data, set, q), J * H.inverse() * J.transpose()), "C-EFPA");
  }
  std::cout << "[ measured ] spherical + revolute + rotor chain, all methods vs CRBA dense solve: " << worst << "\n";

  VecX q, v, tau;
  mixedState(model, q, v, tau);
  const double e0 = kineticEnergy(model, data, q, v) + potentialEnergy(model, data, q);
  const double drift = std::abs(energyAfterRk4(model, q, v, 1e-3, 1000) - e0) / std::abs(e0);
  EXPECT_LT(drift, 1e-8);
  std::cout << "[ measured ] spherical + rotor chain, RK4 on the embedding, dt = 1 ms, 1 s: relative energy drift "
            << drift << "\n";
}

// Analytic ∂q̈/∂q (tangent space: q moved by integrate(q, δ e_k)) and ∂q̈/∂v through a spherical
// joint with a parent and with children, against central differences of forwardDynamics.
TEST(SphericalJoint, AnalyticDerivativesMatchFiniteDifferences) {
  const Model model = loadUrdfString(mixedChainUrdf(), "ball_chain.urdf");
  Data data(model), fd(model);
  VecX q, v, tau;
  mixedState(model, q, v, tau);
  computeABADerivatives(model, data, q, v, tau);
  const double h = 1e-6;
  double worst = 0.0;
  for (int k = 0; k < model.nv(); ++k) {
    const VecX e = VecX::Unit(model.nv(), k);
    const VecX dq = (VecX(forwardDynamics(model, fd, integrate(model, q, e, h), v, tau)) -
                     VecX(forwardDynamics(model, fd, integrate(model, q, e, -h), v, tau))) / (2 * h);
    const VecX dv = (VecX(forwardDynamics(model, fd, q, v + h * e, tau)) -
                     VecX(forwardDynamics(model, fd, q, v - h * e, tau))) / (2 * h);
    worst = std::max({worst, maxAbs(data.derivatives.ddq_dq.col(k) - dq), maxAbs(data.derivatives.ddq_dv.col(k) - dv)});
  }
  EXPECT_LT(worst, 1e-5);
  std::cout << "[ measured ] spherical chain derivatives vs central differences: " << worst << "\n";
}

// URDF errors: ModelError with the file and the line of the offending element.
TEST(SphericalJoint, BadElementsAreModelErrorsWithFileAndLine) {
  const auto expectError = [](const std::string& xml, int line, const char* needle) {
    try {
      loadUrdfString(xml, "bad_ball.urdf");
      ADD_FAILURE() << "accepted " << xml;
    } catch (const ModelError& e) {
      EXPECT_EQ(e.file(), "bad_ball.urdf");
      EXPECT_EQ(e.line(), line) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expectError(sphericalPendulumUrdf("\n<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>"), 3,
              "no single angle to bound");
  expectError(sphericalPendulumUrdf("\n\n<mimic joint=\"x\"/>"), 4, "cannot follow another joint");
  expectError(sphericalPendulumUrdf("\n<axis xyz=\"nan 0 0\"/>"), 3, "not a finite number");
  // a coupling or a loop through a ball joint: refused, naming it
  std::string coupled = mixedChainUrdf();
  const std::string from = "<predecessor link=\"l1\"/>";  // g1: the base rotor now drives j1 + ball
  coupled.replace(coupled.find(from), from.size(), "<predecessor link=\"l2\"/>");
  try {
    loadUrdfString(coupled, "ball_coupled.urdf");
    ADD_FAILURE() << "a coupling through the ball was accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("through spherical joint 'ball'"), std::string::npos) << e.what();
  }
  // effort/velocity alone are accepted (and unused)
  EXPECT_NO_THROW(loadUrdfString(sphericalPendulumUrdf("<limit effort=\"1\" velocity=\"1\"/>"), "ok.urdf"));
}

TEST(SphericalJoint, SerialisesAndRebuildsTheSameDynamics) {
  const Model model = loadUrdfString(mixedChainUrdf(), "ball_chain.urdf");
  const Model back = deserializeModel(serializeModel(model));
  EXPECT_EQ(back.body(back.bodyIndex("l2")).joint.type, JointType::Spherical);
  EXPECT_EQ(back.nq(), model.nq());
  Data a(model), b(back);
  VecX q, v, tau;
  mixedState(model, q, v, tau);
  EXPECT_EQ(VecX(forwardDynamics(model, a, q, v, tau)), VecX(forwardDynamics(back, b, q, v, tau)));
}

// Every forward-dynamics method of the table (methods.hpp) on the spherical + rotor chain: the
// exact ones (cfa: the cluster CFA here) give the CRBA dense solve's q̈; the parallel chain CFA
// refuses with an InputError; the approximate models (rotors as armature or dropped) are other
// models.
TEST(SphericalJoint, EveryExactForwardDynamicsMethodAgrees) {
  const Model model = loadUrdfString(mixedChainUrdf(), "ball_chain.urdf");
  Data data(model);
  VecX q, v, tau;
  mixedState(model, q, v, tau);
  const VecX ref = massMatrix(model, data, q).ldlt().solve(tau - biasForces(model, data, q, v));
  int checked = 0;
  for (const MethodInfo& m : methodTable()) {
    if (!m.accepts(kMethodFd) || m.approximate) continue;
    if (m.id == MethodId::CfaParallel) {  // the chain CFA: single-body clusters only
      EXPECT_THROW(Solver(model, m), InputError) << m.name;
      continue;
    }
    Solver solver(model, m);
    const VecX qdd = solver.compute(q, v, tau);
    EXPECT_LT((qdd - ref).cwiseAbs().maxCoeff(), m.needsCompliance || m.id == MethodId::Proximal ||
                                                         m.id == MethodId::ProximalSparse ? 1e-6 : 1e-10)
        << m.name;
    ++checked;
  }
  EXPECT_GE(checked, 8);
  // the chain CFA names the ball joint when it is the only obstacle
  const Model pendulum = loadUrdfString(sphericalPendulumUrdf(), "ball_pendulum.urdf");
  EXPECT_NE(cfaUnsupportedReason(pendulum).find("joint 'ball' is spherical"), std::string::npos)
      << cfaUnsupportedReason(pendulum);
}

// The hot calls on a prepared Data allocate nothing with a ball joint in the tree (C-ABA, C-RNEA,
// CRBA, ℳ⁻¹, integrate into a sized vector).
// The Simulator's RK4 step on a model with a quaternion joint (the stage rates through dexp⁻¹):
// after a first step sizes its workspace, a step allocates nothing, and a simulator that first ran
// another state reaches bit for bit the same state from the same start.
TEST(SphericalJoint, Rk4StepAllocatesNothingAndIgnoresCallHistory) {
  using namespace grbda::testsupport;
  const Model model = loadUrdfString(mixedChainUrdf(), "ball_chain.urdf");
  VecX q, v, tau;
  mixedState(model, q, v, tau);
  SimulatorOptions options;
  options.integrator = Integrator::RK4;
  options.dt = 1e-3;
  Simulator fresh(model, World(), options), used(model, World(), options);
  fresh.setState(q, v);
  used.setState(integrate(model, q, v, 0.3), 2.0 * v);
  used.step(7);  // another history
  used.setState(q, v);
  fresh.step();
  used.step();
  EXPECT_EQ(fresh.q(), used.q());
  EXPECT_EQ(fresh.v(), used.v());
  if (!allocationCounterLinked()) return;
  AllocationScope scope;
  fresh.step(3);
  EXPECT_EQ(scope.count(), 0);
}

TEST(SphericalJoint, HotCallsAllocateNothing) {
  using namespace grbda::testsupport;
  if (!allocationCounterLinked()) GTEST_SKIP() << "no allocation counter linked in (see tests/support/allocation_counter.hpp)";
  const Model model = loadUrdfString(mixedChainUrdf(), "ball_chain.urdf");
  Data data(model);
  VecX q, v, tau;
  mixedState(model, q, v, tau);
  VecX next = q;
  forwardDynamics(model, data, q, v, tau);  // first calls size what they size
  inverseMassMatrix(model, data, q);
  AllocationScope scope;
  forwardDynamics(model, data, q, v, tau);
  inverseDynamics(model, data, q, v, tau);
  massMatrix(model, data, q);
  inverseMassMatrix(model, data, q);
  integrate(model, q, v, 1e-3, next);
  EXPECT_EQ(scope.count(), 0);
}

#ifdef GRBDA_CLI_PATH
// `grbda info --json` shows the ball joint: type "spherical", no axis, nq 4, nv 3, its
// coordinate names; `grbda fd` takes its quaternion and returns Euler's ω̇ (checked above).
TEST(SphericalJoint, CliInfoShowsTheJoint) {
  namespace fs = std::filesystem;
  const fs::path file = fs::temp_directory_path() / ("grbda_ball_" + std::to_string(::getpid()) + ".urdf");
  {
    std::ofstream out(file);
    out << sphericalPendulumUrdf();
  }
  const grbda::testing::Json info = grbda::testing::grbdaJson({"info", file.string()});
  fs::remove(file);
  if (info.type == grbda::testing::Json::Type::Null) return;  // reported by grbdaJson
  const auto& body = info["bodies"][0];
  EXPECT_EQ(body["type"].text, "spherical");
  EXPECT_EQ(body["axis"].type, grbda::testing::Json::Type::Null);
  EXPECT_EQ(body["nq"].number, 4);
  EXPECT_EQ(body["nv"].number, 3);
  EXPECT_EQ(info["position_names"].strings(), (std::vector<std::string>{"ball:qw", "ball:qx", "ball:qy", "ball:qz"}));
  EXPECT_EQ(info["velocity_names"].strings(), (std::vector<std::string>{"ball:wx", "ball:wy", "ball:wz"}));
}
#endif
