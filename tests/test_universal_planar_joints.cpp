// Issue #25: universal and planar joints (docs/urdf-plus.md), which the URDF reader builds from
// revolute/prismatic joints joined by massless links, and MJCF ball joints read as grbda's
// spherical joint (docs/mjcf.md). Each is checked against a method written here, not the library's:
//   - the child's pose as the product of Rot/Trans factors the docs state (closed form);
//   - ℳ as Σ Jᵀ M J over the bodies, J from central differences of that closed form;
//   - C-ABA against H⁻¹(τ − C), against the power balance dE/dt = vᵀτ with E from the reference ℳ,
//     and energy conservation in RK4;
//   - a Hooke's (Cardan) joint closed by a revolute loop against its textbook velocity ratio;
//   - an MJCF ball model against the same model written as URDF with type="spherical".
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <functional>
#include <string>
#include <vector>

#include "grbda/grbda.hpp"
#include "grbda/mjcf/mjcf.hpp"
#include "support/model_error.hpp"
#include "support/exact_text.hpp"
#include "support/compare.hpp"

using namespace grbda;
using grbda::testsupport::maxAbs;
using grbda::testsupport::exactNumber;
using grbda::testsupport::exactVec3;

namespace {

// --- the test's own kinematics ----------------------------------------------------------------------

Mat3 rot(const Vec3& axis, double angle) { return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(); }
/// URDF's rpy: roll about x, then pitch about y, then yaw about z, all fixed axes.
Mat3 rpy(const Vec3& a) { return rot(Vec3::UnitZ(), a.z()) * rot(Vec3::UnitY(), a.y()) * rot(Vec3::UnitX(), a.x()); }

/// A frame in its parent: axes R (columns in parent coordinates) and origin p.
struct Pose {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  Pose operator*(const Pose& b) const { return {R * b.R, p + R * b.p}; }
};
Pose trans(const Vec3& p) { return {Mat3::Identity(), p}; }
Pose turn(const Vec3& axis, double angle) { return {rot(axis, angle), Vec3::Zero()}; }
Pose origin(const Vec3& xyz, const Vec3& r) { return {rpy(r), xyz}; }


struct ChainBody {
  std::string link;
  double m;
  Vec3 c;  ///< centre of mass, link frame
  Mat3 I;  ///< about the centre of mass, link axes
};

Mat3 inertia(double xx, double yy, double zz, double xy, double xz, double yz) {
  Mat3 I;
  I << xx, xy, xz, xy, yy, yz, xz, yz, zz;
  return I;
}

std::string linkXml(const ChainBody& b) {
  const Mat3& I = b.I;
  return "<link name=\"" + b.link + "\"><inertial><origin xyz=\"" + exactVec3(b.c) + "\"/><mass value=\"" + exactNumber(b.m) +
         "\"/><inertia ixx=\"" + exactNumber(I(0, 0)) + "\" ixy=\"" + exactNumber(I(0, 1)) + "\" ixz=\"" + exactNumber(I(0, 2)) + "\" iyy=\"" +
         exactNumber(I(1, 1)) + "\" iyz=\"" + exactNumber(I(1, 2)) + "\" izz=\"" + exactNumber(I(2, 2)) + "\"/></inertial></link>\n";
}

std::string originXml(const Vec3& xyz, const Vec3& r) { return "<origin xyz=\"" + exactVec3(xyz) + "\" rpy=\"" + exactVec3(r) + "\"/>"; }

/// A robot for the test: its URDF, the test's coordinate order, its massive bodies and the world
/// pose of each body as the test computes it.
struct Mechanism {
  std::string urdf;
  std::vector<std::string> coordinates;
  std::vector<ChainBody> bodies;
  std::function<std::vector<Pose>(const VecX&)> fk;
};

const ChainBody kL0{"l0", 1.3, Vec3(0.1, 0.02, -0.05), inertia(0.02, 0.03, 0.025, 0.001, 0.0, 0.0)};
const ChainBody kL1{"l1", 0.9, Vec3(0.03, -0.04, 0.12), inertia(0.011, 0.014, 0.009, 0.0, 0.002, 0.0)};
const ChainBody kL2{"l2", 0.5, Vec3(0.2, 0.0, 0.01), inertia(0.003, 0.008, 0.007, 0.0, 0.0, 0.0005)};

// base -j0 (continuous)- l0 -hip (universal)- l1 -j2 (continuous)- l2: the universal joint inside
// a tree, with an origin, non-unit and non-orthogonal axes.
Mechanism universalChain(const std::string& extra = "") {
  const Vec3 o0(0.1, 0, 0.2), r0(0, 0, 0.3), a0(0, 0, 1);
  const Vec3 ou(0.3, 0.05, -0.1), ru(0.2, -0.4, 0.1), a1(0, 0.6, 0.8), a2(1, 0.2, -0.1);
  const Vec3 o2(0, 0, -0.3), a3(1, 0, 0);
  Mechanism m;
  m.urdf = "<robot name=\"ujoint\">\n<link name=\"base\"/>\n" + linkXml(kL0) + linkXml(kL1) + linkXml(kL2) +
           "<joint name=\"j0\" type=\"continuous\"><parent link=\"base\"/><child link=\"l0\"/>" + originXml(o0, r0) +
           "<axis xyz=\"" + exactVec3(a0) + "\"/></joint>\n" +
           "<joint name=\"hip\" type=\"universal\"><parent link=\"l0\"/><child link=\"l1\"/>" + originXml(ou, ru) +
           "<axis xyz=\"0 0.6 0.8\"/><axis2 xyz=\"1 0.2 -0.1\"/>" + extra + "</joint>\n" +
           "<joint name=\"j2\" type=\"continuous\"><parent link=\"l1\"/><child link=\"l2\"/>" + originXml(o2, Vec3::Zero()) +
           "<axis xyz=\"" + exactVec3(a3) + "\"/></joint>\n</robot>\n";
  m.coordinates = {"j0", "hip::1", "hip::2", "j2"};
  m.bodies = {kL0, kL1, kL2};
  m.fk = [=](const VecX& q) {
    const Pose T0 = origin(o0, r0) * turn(a0, q[0]);
    const Pose T1 = T0 * origin(ou, ru) * turn(a1, q[1]) * turn(a2, q[2]);  // axis2 turns with the first angle
    const Pose T2 = T1 * origin(o2, Vec3::Zero()) * turn(a3, q[3]);
    return std::vector<Pose>{T0, T1, T2};
  };
  return m;
}

// base -slide (planar)- l1 -j2 (continuous)- l2. `n` is the plane's normal; e1, e2 as the docs
// say: the joint frame's x projected into the plane (y when x is the normal), e2 = n × e1.
Mechanism planarChain(const Vec3& n = Vec3(0.2, -0.3, 0.9)) {
  const Vec3 op(0.1, 0.2, 0.3), rp(0.3, 0.1, -0.2);
  const Vec3 o2(0.2, 0, 0), a3(0, 1, 0);
  const Vec3 nh = n.normalized();
  Vec3 e1 = Vec3::UnitX() - Vec3::UnitX().dot(nh) * nh;
  if (e1.norm() < 1e-3) e1 = Vec3::UnitY() - Vec3::UnitY().dot(nh) * nh;
  e1.normalize();
  const Vec3 e2 = nh.cross(e1);
  Mechanism m;
  m.urdf = "<robot name=\"planar\">\n<link name=\"base\"/>\n" + linkXml(kL1) + linkXml(kL2) +
           "<joint name=\"slide\" type=\"planar\"><parent link=\"base\"/><child link=\"l1\"/>" + originXml(op, rp) +
           "<axis xyz=\"" + exactVec3(n) + "\"/></joint>\n" +
           "<joint name=\"j2\" type=\"continuous\"><parent link=\"l1\"/><child link=\"l2\"/>" + originXml(o2, Vec3::Zero()) +
           "<axis xyz=\"" + exactVec3(a3) + "\"/></joint>\n</robot>\n";
  m.coordinates = {"slide::1", "slide::2", "slide::3", "j2"};
  m.bodies = {kL1, kL2};
  m.fk = [=](const VecX& q) {
    const Pose T1 = origin(op, rp) * trans(q[0] * e1 + q[1] * e2) * turn(nh, q[2]);
    const Pose T2 = T1 * origin(o2, Vec3::Zero()) * turn(a3, q[3]);
    return std::vector<Pose>{T1, T2};
  };
  return m;
}

/// Index in the model's coordinates of each of the test's coordinates (all 1-DoF: q and v alike).
std::vector<int> indices(const Model& model, const Mechanism& m) {
  std::vector<int> out;
  const std::vector<std::string>& names = model.velocityNames();
  for (const std::string& c : m.coordinates) {
    const auto it = std::find(names.begin(), names.end(), c);
    EXPECT_NE(it, names.end()) << "no coordinate '" << c << "'";
    out.push_back(it == names.end() ? 0 : static_cast<int>(it - names.begin()));
  }
  return out;
}

VecX toModel(const VecX& x, const std::vector<int>& idx) {
  VecX out(x.size());
  for (size_t k = 0; k < idx.size(); ++k) out[idx[k]] = x[static_cast<Eigen::Index>(k)];
  return out;
}
VecX fromModel(const VecX& x, const std::vector<int>& idx) {
  VecX out(x.size());
  for (size_t k = 0; k < idx.size(); ++k) out[static_cast<Eigen::Index>(k)] = x[idx[k]];
  return out;
}

/// ℳ(q) = Σ_bodies m J_cᵀ J_c + J_ωᵀ I_c J_ω, with the body-frame angular velocity J_ω and the
/// velocity of the centre of mass J_c per coordinate from central differences of m.fk.
MatX referenceMassMatrix(const Mechanism& m, const VecX& q, double h = 1e-5) {
  const int n = static_cast<int>(q.size());
  MatX H = MatX::Zero(n, n);
  const std::vector<Pose> T = m.fk(q);
  std::vector<MatX> Jw(m.bodies.size(), MatX(3, n)), Jc(m.bodies.size(), MatX(3, n));
  for (int k = 0; k < n; ++k) {
    VecX qp = q, qm = q;
    qp[k] += h;
    qm[k] -= h;
    const std::vector<Pose> Tp = m.fk(qp), Tm = m.fk(qm);
    for (size_t b = 0; b < m.bodies.size(); ++b) {
      const Mat3 W = T[b].R.transpose() * (Tp[b].R - Tm[b].R) / (2 * h);  // [ω]× in body axes
      const Vec3 w(0.5 * (W(2, 1) - W(1, 2)), 0.5 * (W(0, 2) - W(2, 0)), 0.5 * (W(1, 0) - W(0, 1)));
      const Vec3 vo = T[b].R.transpose() * (Tp[b].p - Tm[b].p) / (2 * h);  // origin velocity, body axes
      Jw[b].col(k) = w;
      Jc[b].col(k) = vo + w.cross(m.bodies[b].c);
    }
  }
  for (size_t b = 0; b < m.bodies.size(); ++b)
    H += m.bodies[b].m * Jc[b].transpose() * Jc[b] + Jw[b].transpose() * m.bodies[b].I * Jw[b];
  return H;
}

/// E = ½ vᵀ ℳ_ref v + Σ m g z_c (gravity 9.81 along −z).
double referenceEnergy(const Mechanism& m, const VecX& q, const VecX& v) {
  double potential = 0.0;
  const std::vector<Pose> T = m.fk(q);
  for (size_t b = 0; b < m.bodies.size(); ++b) potential += m.bodies[b].m * 9.81 * (T[b] * trans(m.bodies[b].c)).p.z();
  return 0.5 * v.dot(referenceMassMatrix(m, q) * v) + potential;
}

Model loadQuietly(const std::string& urdf, const std::string& name, std::string& log) {
  setLogLevel(LogLevel::Warn);
  ::testing::internal::CaptureStderr();
  try {
    Model m = loadUrdfString(urdf, name);
    log = ::testing::internal::GetCapturedStderr();
    return m;
  } catch (...) {
    log = ::testing::internal::GetCapturedStderr();
    throw;
  }
}

std::vector<Mechanism> mechanisms() { return {universalChain(), planarChain(), planarChain(Vec3(-2, 0, 0))}; }

}  // namespace

// (1) The expansion's names and masses, no load-time warning, and each body's world pose equal to
// the test's product of Rot/Trans factors at random q.
TEST(UniversalPlanarJoints, PosesMatchTheClosedForm) {
  double worst = 0.0;
  for (const Mechanism& mech : mechanisms()) {
    std::string log;
    const Model model = loadQuietly(mech.urdf, "mech.urdf", log);
    EXPECT_EQ(log.find("singular"), std::string::npos) << log;
    EXPECT_EQ(log.find("massless"), std::string::npos) << log;
    ASSERT_EQ(model.nv(), static_cast<int>(mech.coordinates.size()));
    const std::vector<int> idx = indices(model, mech);
    Data data(model);
    for (int trial = 0; trial < 8; ++trial) {
      const VecX x = VecX::Random(model.nv()) * 2.0;
      forwardKinematics(model, data, toModel(x, idx));
      const std::vector<Pose> T = mech.fk(x);
      for (size_t b = 0; b < mech.bodies.size(); ++b) {
        const int f = model.frameIndex(mech.bodies[b].link);
        worst = std::max({worst, maxAbs(frameRotation(model, data, f) - T[b].R),
                          maxAbs(framePosition(model, data, f) - T[b].p)});
      }
    }
  }
  EXPECT_LT(worst, 1e-13);
  std::cout << "[ measured ] universal/planar poses vs the closed form: " << worst << "\n";

  // the intermediate links are the expansion's, massless, and named as documented
  const Model u = loadUrdfString(universalChain().urdf, "u.urdf");
  EXPECT_EQ(u.body(u.bodyIndex("hip::1")).jointName, "hip::1");
  EXPECT_TRUE(u.body(u.bodyIndex("hip::1")).inertia.isZero(0.0));
  EXPECT_EQ(u.body(u.bodyIndex("l1")).jointName, "hip::2");
  const Model p = loadUrdfString(planarChain().urdf, "p.urdf");
  EXPECT_EQ(p.body(p.bodyIndex("slide::1")).joint.type, JointType::Prismatic);
  EXPECT_EQ(p.body(p.bodyIndex("slide::2")).joint.type, JointType::Prismatic);
  EXPECT_EQ(p.body(p.bodyIndex("l1")).jointName, "slide::3");
  EXPECT_EQ(p.body(p.bodyIndex("l1")).joint.type, JointType::Revolute);
}

// (2) CRBA's ℳ equals Σ Jᵀ M J with J from differences of the test's kinematics.
TEST(UniversalPlanarJoints, MassMatrixEqualsTheDenseReference) {
  double worst = 0.0;
  for (const Mechanism& mech : mechanisms()) {
    const Model model = loadUrdfString(mech.urdf, "mech.urdf");
    const std::vector<int> idx = indices(model, mech);
    Data data(model);
    for (int trial = 0; trial < 6; ++trial) {
      const VecX x = VecX::Random(model.nv()) * 2.0;
      const MatX ref = referenceMassMatrix(mech, x);
      const MatX& H = massMatrix(model, data, toModel(x, idx));
      MatX Ht(H.rows(), H.cols());  // in the test's order
      for (int i = 0; i < H.rows(); ++i)
        for (int j = 0; j < H.cols(); ++j) Ht(i, j) = H(idx[static_cast<size_t>(i)], idx[static_cast<size_t>(j)]);
      worst = std::max(worst, maxAbs(Ht - ref) / maxAbs(ref));
    }
  }
  EXPECT_LT(worst, 1e-8);
  std::cout << "[ measured ] universal/planar CRBA vs Σ JᵀMJ (differences, h = 1e-5): " << worst << "\n";
}

// (3) C-ABA equals H⁻¹(τ − C) (CRBA, C-RNEA) and satisfies the power balance dE/dt = vᵀτ with the
// test's energy; RK4 without damping keeps the test's energy.
TEST(UniversalPlanarJoints, ForwardDynamicsBalancesPowerAndConservesEnergy) {
  double worstSolve = 0.0, worstPower = 0.0, worstDrift = 0.0;
  for (const Mechanism& mech : mechanisms()) {
    const Model model = loadUrdfString(mech.urdf, "mech.urdf");
    const std::vector<int> idx = indices(model, mech);
    Data data(model);
    const int n = model.nv();
    for (int trial = 0; trial < 5; ++trial) {
      const VecX x = VecX::Random(n), w = VecX::Random(n) * 2.0, t = VecX::Random(n);
      const VecX q = toModel(x, idx), v = toModel(w, idx), tau = toModel(t, idx);
      const VecX qdd = forwardDynamics(model, data, q, v, tau);
      const MatX H = massMatrix(model, data, q);
      const VecX C = biasForces(model, data, q, v);
      worstSolve = std::max(worstSolve, maxAbs(H.ldlt().solve(tau - C) - qdd) / std::max(1.0, maxAbs(qdd)));
      const VecX a = fromModel(qdd, idx);
      const auto rate = [&](double h) {  // dE/dt along (q̇, q̈) = (v, a), central difference
        return (referenceEnergy(mech, x + h * w, w + h * a) - referenceEnergy(mech, x - h * w, w - h * a)) / (2 * h);
      };
      const double dEdt = (4.0 * rate(1e-3) - rate(2e-3)) / 3.0;  // Richardson: the h² error cancels
      worstPower = std::max(worstPower, std::abs(dEdt - w.dot(t)) / (1.0 + std::abs(w.dot(t))));
    }
    // RK4, 1 s at dt = 1 ms, no torque and no damping
    VecX q = toModel(VecX::Random(n), idx), v = toModel(VecX::Random(n), idx);
    const VecX zero = VecX::Zero(n);
    const double e0 = referenceEnergy(mech, fromModel(q, idx), fromModel(v, idx));
    const double dt = 1e-3;
    for (int s = 0; s < 1000; ++s) {
      const VecX k1 = forwardDynamics(model, data, q, v, zero);
      const VecX k2 = forwardDynamics(model, data, q + 0.5 * dt * v, v + 0.5 * dt * k1, zero);
      const VecX k3 = forwardDynamics(model, data, q + 0.5 * dt * (v + 0.5 * dt * k1), v + 0.5 * dt * k2, zero);
      const VecX k4 = forwardDynamics(model, data, q + dt * (v + 0.5 * dt * k2), v + dt * k3, zero);
      q += dt * v + dt * dt / 6.0 * (k1 + k2 + k3);
      v += dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    const double e1 = referenceEnergy(mech, fromModel(q, idx), fromModel(v, idx));
    worstDrift = std::max(worstDrift, std::abs(e1 - e0) / std::abs(e0));
  }
  EXPECT_LT(worstSolve, 1e-10);
  EXPECT_LT(worstPower, 1e-7);
  EXPECT_LT(worstDrift, 1e-7);
  std::cout << "[ measured ] universal/planar: C-ABA vs H⁻¹(τ − C) " << worstSolve << ", power balance "
            << worstPower << ", RK4 1 s energy drift " << worstDrift << "\n";
}

// <limit> and <dynamics> per coordinate, as docs/urdf-plus.md says.
TEST(UniversalPlanarJoints, LimitsAndDynamicsApplyToEachCoordinate) {
  const Model u = loadUrdfString(
      universalChain("<limit lower=\"-0.5\" upper=\"0.7\" effort=\"3\" velocity=\"4\"/><dynamics damping=\"0.2\" friction=\"0.1\"/>").urdf,
      "u.urdf");
  for (const char* name : {"hip::1", "l1"}) {
    const grbda::Body& b = u.body(u.bodyIndex(name));
    EXPECT_TRUE(b.limits.hasPositionLimits) << name;
    EXPECT_EQ(b.limits.lower, -0.5);
    EXPECT_EQ(b.limits.upper, 0.7);
    EXPECT_EQ(b.limits.effort, 3.0);
    EXPECT_EQ(b.dynamics.damping, 0.2);
    EXPECT_EQ(b.dynamics.friction, 0.1);
  }
  std::string planar = planarChain().urdf;
  const std::string at = "</joint>";
  planar.insert(planar.find(at), "<limit effort=\"5\" velocity=\"1\"/><dynamics damping=\"0.3\"/>");
  const Model p = loadUrdfString(planar, "p.urdf");
  for (const char* name : {"slide::1", "slide::2", "l1"}) {
    const grbda::Body& b = p.body(p.bodyIndex(name));
    EXPECT_FALSE(b.limits.hasPositionLimits) << name;
    EXPECT_EQ(b.limits.effort, 5.0);
    EXPECT_EQ(b.dynamics.damping, 0.3);
  }
}

// (4) Bad input: a ModelError naming the file and the line of the offending element.
TEST(UniversalPlanarJoints, BadInputIsAModelErrorWithFileAndLine) {
  const auto robot = [](const std::string& type, const std::string& body) {
    return "<robot name=\"bad\">\n<link name=\"base\"/>\n" + linkXml(kL1) + "<joint name=\"hip\" type=\"" + type +
           "\">\n<parent link=\"base\"/><child link=\"l1\"/>\n" + body + "</joint>\n</robot>\n";
  };
  struct Case {
    std::string xml;
    int line;
    const char* needle;
  };
  const std::vector<Case> cases = {
      {robot("universal", "<axis xyz=\"0 0 1\"/>\n"), 4, "needs its second axis"},
      {robot("universal", "<axis xyz=\"0 0 1\"/>\n<axis2 xyz=\"0 0 0\"/>\n"), 7, "<axis2> has zero length"},
      {robot("universal", "<axis xyz=\"0 0 0\"/>\n<axis2 xyz=\"0 1 0\"/>\n"), 6, "<axis> has zero length"},
      {robot("universal", "<axis xyz=\"0 0 1\"/>\n<axis2 xyz=\"0 0 -2\"/>\n"), 7, "parallel"},
      {robot("universal", "<axis xyz=\"0 0 1\"/>\n<axis2 xyz=\"0 1 0\"/>\n<mimic joint=\"x\"/>\n"), 8, "cannot follow"},
      {robot("planar", "\n<axis xyz=\"0 0 0\"/>\n"), 7, "the plane's normal) has zero length"},
      {robot("planar", "<limit lower=\"0\" upper=\"1\" effort=\"1\" velocity=\"1\"/>\n"), 6, "no single one to bound"},
  };
  for (const Case& c : cases) {
    try {
      loadUrdfString(c.xml, "bad_joint.urdf");
      ADD_FAILURE() << "accepted:\n" << c.xml;
    } catch (const ModelError& e) {
      EXPECT_EQ(e.file(), "bad_joint.urdf") << e.what();
      EXPECT_EQ(e.line(), c.line) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("bad_joint.urdf:" + std::to_string(c.line)), std::string::npos) << e.what();
    }
  }
  // a generated name the robot already uses: refused at the compound joint
  std::string clash = robot("universal", "<axis xyz=\"0 0 1\"/>\n<axis2 xyz=\"0 1 0\"/>\n");
  clash.insert(clash.find("</robot>"), "<link name=\"hip::1\"/>\n");
  const std::string message = testsupport::modelErrorOf([&] { loadUrdfString(clash, "bad_joint.urdf"); });
  EXPECT_NE(message.find("bad_joint.urdf:4"), std::string::npos) << message;
  EXPECT_NE(message.find("'hip::1'"), std::string::npos) << message;
}

namespace {

// A Hooke's (Cardan) joint: input shaft about x, the cross a universal joint whose first axis is the
// input fork (y of the input shaft) and whose second is the output fork; the output shaft held in a
// bearing along d = Rz(β) x by a revolute loop. The joint frame is turned by β about z so that the
// output shaft lies along d at q = 0 (the axes in that frame: Rz(−β) y and z).
std::string cardanUrdf(double beta) {
  const ChainBody in{"in", 1.2, Vec3(-0.2, 0, 0), inertia(0.004, 0.02, 0.021, 0.0, 0.0, 0.001)};
  const ChainBody out{"out", 0.7, Vec3(0.25, 0, 0), inertia(0.006, 0.015, 0.014, 0.002, -0.001, 0.0)};
  const std::string b = exactNumber(beta);
  return "<robot name=\"cardan\">\n<link name=\"ground\"/>\n" + linkXml(in) + linkXml(out) +
         "<joint name=\"drive\" type=\"continuous\"><parent link=\"ground\"/><child link=\"in\"/><axis xyz=\"1 0 0\"/></joint>\n"
         "<joint name=\"cross\" type=\"universal\" independent=\"false\"><parent link=\"in\"/><child link=\"out\"/>"
         "<origin rpy=\"0 0 " + b + "\"/><axis xyz=\"" + exactVec3(Vec3(std::sin(beta), std::cos(beta), 0)) +
         "\"/><axis2 xyz=\"0 0 1\"/></joint>\n"
         "<loop name=\"bearing\" type=\"revolute\"><predecessor link=\"ground\"><origin rpy=\"0 0 " + b +
         "\"/></predecessor><successor link=\"out\"/><axis xyz=\"1 0 0\"/></loop>\n</robot>\n";
}

}  // namespace

// A universal joint inside a loop (a Generic cluster): the output shaft turns at
// r(θ) = cos β / (1 − sin²β cos²θ) times the input (the Cardan joint's textbook ratio), so
// L = ½ (J_in + J_out r²) θ̇² and (J_in + J_out r²) θ̈ + J_out r r' θ̇² = τ. Only the moments about
// the shaft axes enter (J = I_xx: both centres of mass lie on their axes). C-ABA, C-RNEA, CRBA and
// ℳ⁻¹ are each checked against these closed forms.
TEST(UniversalPlanarJoints, CardanJointInALoopMatchesTheTextbookRatio) {
  const double beta = 0.5, J_in = 0.004, J_out = 0.006;
  std::string log;
  const Model model = loadQuietly(cardanUrdf(beta), "cardan.urdf", log);
  EXPECT_EQ(log.find("singular"), std::string::npos) << log;
  ASSERT_EQ(model.nv(), 1);
  ASSERT_EQ(model.clusters().size(), 1u);
  EXPECT_STREQ(model.cluster(0).typeName(), "Generic");
  Data data(model);
  const double sb2 = std::sin(beta) * std::sin(beta);
  double worstE = 0.0, worstA = 0.0;
  for (int trial = 0; trial < 8; ++trial) {
    const double th = -1.2 + 0.3 * trial, thd = 1.7 - 0.4 * trial, tau = 0.3 * std::sin(3.0 * trial);
    const double den = 1.0 - sb2 * std::cos(th) * std::cos(th);
    const double r = std::cos(beta) / den;
    const double rp = -std::cos(beta) * 2.0 * sb2 * std::cos(th) * std::sin(th) / (den * den);
    const double M = J_in + J_out * r * r;
    const VecX q = VecX::Constant(1, th), v = VecX::Constant(1, thd), t = VecX::Constant(1, tau);
    worstE = std::max(worstE, std::abs(kineticEnergy(model, data, q, v) - 0.5 * M * thd * thd));
    const double qdd = (tau - J_out * r * rp * thd * thd) / M;
    worstA = std::max(worstA, std::abs(forwardDynamics(model, data, q, v, t)[0] - qdd) / std::max(1.0, std::abs(qdd)));
    const VecX a = VecX::Constant(1, qdd);
    worstA = std::max(worstA, std::abs(inverseDynamics(model, data, q, v, a)[0] - tau));  // C-RNEA
    worstA = std::max(worstA, std::abs(massMatrix(model, data, q)(0, 0) - M) / M);         // CRBA
    worstA = std::max(worstA, std::abs(inverseMassMatrix(model, data, q)(0, 0) * M - 1.0));  // ℳ⁻¹
  }
  EXPECT_LT(worstE, 1e-12);
  EXPECT_LT(worstA, 1e-10);
  std::cout << "[ measured ] Cardan joint in a loop vs the textbook ratio: kinetic energy " << worstE << ", q̈ "
            << worstA << "\n";
}

namespace {

// The same three-body chain as MJCF (a hinge, a ball with an anchor `pos`, a hinge) and as URDF
// (type="spherical"); a link frame is its MJCF body frame moved to the joint's anchor.
const char* kBallMjcf = R"(<mujoco model="ballchain">
  <compiler angle="radian" eulerseq="XYZ"/>
  <worldbody>
    <body name="l1" pos="0 0 1">
      <joint name="j1" type="hinge" axis="0 0 1"/>
      <inertial pos="0.02 0.1 0.03" mass="1.1" fullinertia="0.012 0.009 0.011 0.001 0 0"/>
      <body name="l2" pos="0 0.2 0.05" euler="0.3 -0.2 0.1">
        <joint name="ball" type="ball" pos="0 0 0.1" damping="0"/>
        <inertial pos="0.03 -0.02 -0.2" mass="0.8" diaginertia="0.021 0.034 0.015"/>
        <body name="l3" pos="0 0 -0.4">
          <joint name="j3" type="hinge" axis="0 1 0"/>
          <inertial pos="0.15 0 -0.02" mass="0.4" diaginertia="0.002 0.006 0.005"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
)";

std::string ballUrdf() {
  const ChainBody l1{"l1", 1.1, Vec3(0.02, 0.1, 0.03), inertia(0.012, 0.009, 0.011, 0.001, 0, 0)};
  const ChainBody l2{"l2", 0.8, Vec3(0.03, -0.02, -0.3), inertia(0.021, 0.034, 0.015, 0, 0, 0)};  // COM − anchor
  const ChainBody l3{"l3", 0.4, Vec3(0.15, 0, -0.02), inertia(0.002, 0.006, 0.005, 0, 0, 0)};
  // l2's joint frame: the body frame (pos, euler = URDF rpy with eulerseq XYZ) moved by the anchor
  const Vec3 anchor = Vec3(0, 0.2, 0.05) + rpy(Vec3(0.3, -0.2, 0.1)) * Vec3(0, 0, 0.1);
  return "<robot name=\"ballchain\">\n<link name=\"world\"/>\n" + linkXml(l1) + linkXml(l2) + linkXml(l3) +
         "<joint name=\"j1\" type=\"continuous\"><parent link=\"world\"/><child link=\"l1\"/><origin xyz=\"0 0 1\"/><axis xyz=\"0 0 1\"/></joint>\n"
         "<joint name=\"ball\" type=\"spherical\"><parent link=\"l1\"/><child link=\"l2\"/>" +
         originXml(anchor, Vec3(0.3, -0.2, 0.1)) + "</joint>\n" +
         "<joint name=\"j3\" type=\"continuous\"><parent link=\"l2\"/><child link=\"l3\"/><origin xyz=\"0 0 -0.5\"/><axis xyz=\"0 1 0\"/></joint>\n</robot>\n";
}

}  // namespace

// MJCF `ball` = URDF type="spherical": the same coordinates (MuJoCo's qpos quaternion w, x, y, z and
// body-frame ω), the same q̈ to 1e-12; and the ball body's orientation is MuJoCo's
// parent · body quat · joint quat.
TEST(MjcfBallJoint, EqualsTheUrdfSphericalJoint) {
  const Model mj = loadMjcfString(kBallMjcf, "ballchain.xml");
  const Model ur = loadUrdfString(ballUrdf(), "ballchain.urdf");
  ASSERT_EQ(mj.nq(), 6);
  ASSERT_EQ(mj.nv(), 5);
  ASSERT_EQ(mj.positionNames(), ur.positionNames());
  ASSERT_EQ(mj.velocityNames(), ur.velocityNames());
  EXPECT_EQ(mj.body(mj.bodyIndex("l2")).joint.type, JointType::Spherical);
  Data dm(mj), du(ur);
  double worst = 0.0, worstPose = 0.0;
  for (int trial = 0; trial < 8; ++trial) {
    VecX q = VecX::Random(6);
    const int qb = mj.cluster(mj.body(mj.bodyIndex("l2")).cluster).qIndex;
    q.segment<4>(qb) = (Eigen::Vector4d::Random() + Eigen::Vector4d(0.3, 0, 0, 0)).normalized();
    const VecX v = VecX::Random(5) * 2.0, tau = VecX::Random(5);
    const VecX a = forwardDynamics(mj, dm, q, v, tau), b = forwardDynamics(ur, du, q, v, tau);
    worst = std::max(worst, maxAbs(a - b) / std::max(1.0, maxAbs(b)));
    // MuJoCo: xquat(l2) = xquat(l1) · body quat · ball qpos; xpos at the anchor is the ball's centre
    forwardKinematics(mj, dm, q);
    const double q1 = q[mj.cluster(mj.body(mj.bodyIndex("l1")).cluster).qIndex];
    const Mat3 R1 = rot(Vec3::UnitZ(), q1);
    const Eigen::Quaterniond ball(q[qb], q[qb + 1], q[qb + 2], q[qb + 3]);
    const Mat3 R2 = R1 * rpy(Vec3(0.3, -0.2, 0.1)) * ball.toRotationMatrix();
    const int f = mj.frameIndex("l2");
    worstPose = std::max(worstPose, maxAbs(frameRotation(mj, dm, f) - R2));
  }
  EXPECT_LT(worst, 1e-12);
  EXPECT_LT(worstPose, 1e-14);
  std::cout << "[ measured ] MJCF ball vs URDF spherical, q̈: " << worst << "; orientation vs MuJoCo's rule "
            << worstPose << "\n";
  // an <equality joint> cannot couple a ball joint
  std::string coupled = kBallMjcf;
  coupled.replace(coupled.find("</mujoco>"), 9,
                  "<equality><joint joint1=\"j1\" joint2=\"ball\"/></equality>\n</mujoco>");
  const std::string message = testsupport::modelErrorOf([&] { loadMjcfString(coupled, "ballchain.xml"); });
  EXPECT_NE(message.find("is a ball joint"), std::string::npos) << message;
}
