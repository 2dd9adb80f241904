// Issue #25, more joint types. The screw (helical) joint, checked against methods that do not use
// it: a closed form for one body on a screw; the same chain written as revolute + massless link +
// prismatic, projected onto the screw's coordinate by G = [1; p] (H = Gᵀ H_rp G, τ = Gᵀ τ_rp,
// exact because G is constant); finite differences for the analytic derivatives; energy in RK4
// simulation; the geometry of a right-handed thread; the URDF spellings and their errors.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <string>

#include "grbda/algorithms/cfa.hpp"
#include "grbda/algorithms/derivatives.hpp"
#include "grbda/algorithms/tree.hpp"
#include "grbda/grbda.hpp"
#include "grbda/model_source.hpp"
#include "grbda/sim/simulator.hpp"

using namespace grbda;

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

double maxAbs(const MatX& m) { return m.cwiseAbs().maxCoeff(); }

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
