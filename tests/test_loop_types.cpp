// URDF+ loop closures of the types spherical, universal, prismatic and planar (issue 25, "More
// joints, inside trees and inside loops"). Each mechanism is described once below; the test writes
// its URDF+ text from that description AND computes the two loop frames' poses from it with its
// own forward kinematics (Eigen rotations, URDF's rpy = Rz Ry Rx), never with grbda's. Checked:
//  (1) the closure rows: at closed poses φ_test = 0, the library's K spans the same rows as the
//      central differences of φ_test, and the q̈ the library returns satisfies
//      J_test q̈ + d²/dh² φ_test(q + h q̇) = 0 (so the bias k is right too);
//  (2) forward dynamics by the default method equals projection and Lagrange, and the kept-loop
//      treatment (rows with multipliers) gives the same q̈;
//  (3) RK4 without damping conserves energy and keeps φ_test small;
//  (4) bad input is a ModelError naming the file, line and loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "grbda/grbda.hpp"
#include "grbda/model_source.hpp"
#include "support/model_error.hpp"
#include "support/rk4_step.hpp"
#include "support/compare.hpp"
#include "support/exact_text.hpp"

using namespace grbda;
using grbda::testsupport::exactNumber;
using grbda::testsupport::exactVec3;
using grbda::testsupport::relErr;

namespace {

// ---- a mechanism, described once ------------------------------------------------------------

struct TJoint {
  std::string name, parent, child;
  Vec3 xyz, rpy, axis;
  bool independent;
};
struct TLoop {
  std::string name, type, pred, succ;
  Vec3 predXyz, succXyz;
  Vec3 axis = Vec3::UnitX(), axis2 = Vec3::Zero();
  bool hasAxis2 = false;
};
struct LoopMechanism {
  std::string name;
  std::vector<std::string> links;  // links[0] is the fixed base
  std::vector<TJoint> joints;      // parent before child
  std::vector<TLoop> loops;
};


std::string urdfOf(const LoopMechanism& m) {
  std::string s = "<robot name=\"" + m.name + "\">\n";
  for (size_t i = 0; i < m.links.size(); ++i) {
    s += "  <link name=\"" + m.links[i] + "\">";
    if (i > 0) {
      const double mass = 0.5 + 0.25 * static_cast<double>(i);  // distinct, all positive
      s += "<inertial><origin xyz=\"0.02 0.01 -0.03\"/><mass value=\"" + exactNumber(mass) +
           "\"/><inertia ixx=\"0.004\" iyy=\"0.005\" izz=\"0.003\" ixy=\"0.0004\" ixz=\"0\" iyz=\"0.0002\"/></inertial>";
    }
    s += "</link>\n";
  }
  for (const TJoint& j : m.joints)
    s += "  <joint name=\"" + j.name + "\" type=\"revolute\"" + (j.independent ? "" : " independent=\"false\"") +
         "><parent link=\"" + j.parent + "\"/><child link=\"" + j.child + "\"/><origin xyz=\"" + exactVec3(j.xyz) +
         "\" rpy=\"" + exactVec3(j.rpy) + "\"/><axis xyz=\"" + exactVec3(j.axis) +
         "\"/><limit lower=\"-10\" upper=\"10\" effort=\"100\" velocity=\"100\"/></joint>\n";
  for (const TLoop& l : m.loops) {
    s += "  <loop name=\"" + l.name + "\" type=\"" + l.type + "\">\n    <predecessor link=\"" + l.pred +
         "\"><origin xyz=\"" + exactVec3(l.predXyz) + "\"/></predecessor>\n    <successor link=\"" + l.succ +
         "\"><origin xyz=\"" + exactVec3(l.succXyz) + "\"/></successor>\n    <axis xyz=\"" + exactVec3(l.axis) + "\"/>\n";
    if (l.hasAxis2) s += "    <axis2 xyz=\"" + exactVec3(l.axis2) + "\"/>\n";
    s += "  </loop>\n";
  }
  s += "</robot>\n";
  return s;
}

// ---- the test's own kinematics ------------------------------------------------------------------

struct Pose {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
};

Mat3 rpyMatrix(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

/// Spanning index of each joint (by name) in the model.
std::vector<int> spanIndexOf(const LoopMechanism& m, const Model& model) {
  std::vector<int> idx;
  for (const TJoint& j : m.joints) {
    int found = -1;
    for (int b = 0; b < model.numBodies(); ++b)
      if (model.body(b).jointName == j.name) found = model.body(b).qIndex;
    EXPECT_GE(found, 0) << j.name;
    idx.push_back(found);
  }
  return idx;
}

/// World poses of the two frames of loop l at spanning positions qs.
std::pair<Pose, Pose> loopFrames(const LoopMechanism& m, const TLoop& l, const std::vector<int>& idx, const VecX& qs) {
  std::map<std::string, Pose> link{{m.links[0], Pose{}}};
  for (size_t i = 0; i < m.joints.size(); ++i) {
    const TJoint& j = m.joints[i];
    const Pose& P = link.at(j.parent);
    Pose C;
    C.R = P.R * rpyMatrix(j.rpy) * Eigen::AngleAxisd(qs[idx[i]], j.axis.normalized()).toRotationMatrix();
    C.p = P.p + P.R * j.xyz;
    link[j.child] = C;
  }
  const Pose& A = link.at(l.pred);
  const Pose& B = link.at(l.succ);
  return {Pose{A.R, A.p + A.R * l.predXyz}, Pose{B.R, B.p + B.R * l.succXyz}};
}

/// One loop's closure residual as the test states it (not the library's rows; several are redundant).
VecX loopResidual(const LoopMechanism& m, const TLoop& l, const std::vector<int>& idx, const VecX& qs) {
  const auto [P, S] = loopFrames(m, l, idx, qs);
  const Vec3 d = P.p - S.p;
  const Vec3 a = l.axis.normalized();
  const Mat3 rel = P.R.transpose() * S.R;
  const Vec3 skew(rel(2, 1) - rel(1, 2), rel(0, 2) - rel(2, 0), rel(1, 0) - rel(0, 1));  // 0 iff rel = I (near I)
  VecX phi;
  if (l.type == "spherical") {
    phi = d;
  } else if (l.type == "universal") {
    phi.resize(4);
    phi << d, (P.R * a).dot(S.R * l.axis2.normalized());
  } else if (l.type == "prismatic") {  // origins on the axis line, frames aligned
    phi.resize(6);
    phi << d.cross(P.R * a), skew;
  } else {  // planar: normals parallel, origins in one plane
    phi.resize(4);
    phi << (P.R * a).dot(d), (P.R * a).cross(S.R * a);
  }
  return phi;
}

/// Every loop's residual, stacked.
VecX residual(const LoopMechanism& m, const std::vector<int>& idx, const VecX& qs) {
  VecX all(0);
  for (const TLoop& l : m.loops) {
    const VecX r = loopResidual(m, l, idx, qs);
    VecX next(all.size() + r.size());
    next << all, r;
    all = next;
  }
  return all;
}

MatX centralDifferences(const LoopMechanism& m, const std::vector<int>& idx, const VecX& qs) {
  const double h = 1e-6;
  const VecX phi0 = residual(m, idx, qs);
  MatX J(phi0.size(), qs.size());
  for (Eigen::Index i = 0; i < qs.size(); ++i) {
    VecX qp = qs, qm = qs;
    qp[i] += h;
    qm[i] -= h;
    J.col(i) = (residual(m, idx, qp) - residual(m, idx, qm)) / (2.0 * h);
  }
  return J;
}

int rankOf(const MatX& A, double tol = 1e-6) {
  Eigen::JacobiSVD<MatX> svd(A);
  const auto& s = svd.singularValues();
  int r = 0;
  for (Eigen::Index i = 0; i < s.size(); ++i) r += s[i] > tol * std::max(1.0, s[0]);
  return r;
}

// ---- the mechanisms -----------------------------------------------------------------------------

/// Spatial crank–rocker R-U-S-R: a crank about z, a coupler on a universal (two revolutes), a
/// rocker about y at another height; the coupler's far end meets the rocker's tip in a ball.
LoopMechanism rusrSpherical() {
  LoopMechanism m;
  m.name = "rusr";
  m.links = {"base", "crank", "cross", "coupler", "rocker"};
  m.joints = {{"crank_joint", "base", "crank", Vec3::Zero(), Vec3::Zero(), Vec3::UnitZ(), true},
              {"u1", "crank", "cross", Vec3(0.1, 0, 0), Vec3::Zero(), Vec3::UnitZ(), false},
              {"u2", "cross", "coupler", Vec3::Zero(), Vec3::Zero(), Vec3::UnitY(), false},
              {"rocker_joint", "base", "rocker", Vec3(0.35, 0, 0.2), Vec3::Zero(), Vec3::UnitY(), false}};
  m.loops = {{"closure", "spherical", "coupler", "rocker", Vec3(0.25, 0, 0.1), Vec3(0, 0, -0.1)}};
  return m;
}

/// R-S-U-R: the same crank and rocker, the coupler on a ball (three revolutes z, y, x) at the crank
/// and closed by a universal at the rocker: its axis across the coupler (y), axis2 the rocker's x.
LoopMechanism rsurUniversal() {
  LoopMechanism m;
  m.name = "rsur";
  m.links = {"base", "crank", "g1", "g2", "coupler", "rocker"};
  m.joints = {{"crank_joint", "base", "crank", Vec3::Zero(), Vec3::Zero(), Vec3::UnitZ(), true},
              {"s1", "crank", "g1", Vec3(0.1, 0, 0), Vec3::Zero(), Vec3::UnitZ(), false},
              {"s2", "g1", "g2", Vec3::Zero(), Vec3::Zero(), Vec3::UnitY(), false},
              {"s3", "g2", "coupler", Vec3::Zero(), Vec3::Zero(), Vec3::UnitX(), false},
              {"rocker_joint", "base", "rocker", Vec3(0.35, 0, 0.2), Vec3::Zero(), Vec3::UnitY(), false}};
  m.loops = {{"closure", "universal", "coupler", "rocker", Vec3(0.25, 0, 0.1), Vec3(0, 0, -0.1)}};
  m.loops[0].axis = Vec3::UnitY();
  m.loops[0].axis2 = Vec3::UnitX();
  m.loops[0].hasAxis2 = true;
  return m;
}

/// Slider–crank in the vertical x-z plane: crank and rod about y, the slider hinged to the rod
/// and held on a rail along x by a prismatic loop to the base.
LoopMechanism sliderCrankPrismatic() {
  LoopMechanism m;
  m.name = "slider_crank";
  m.links = {"base", "crank", "rod", "slider"};
  m.joints = {{"crank_joint", "base", "crank", Vec3::Zero(), Vec3::Zero(), Vec3::UnitY(), true},
              {"rod_joint", "crank", "rod", Vec3(0, 0, 0.1), Vec3::Zero(), Vec3::UnitY(), false},
              {"slider_joint", "rod", "slider", Vec3(0.3, 0, -0.1), Vec3::Zero(), Vec3::UnitY(), false}};
  m.loops = {{"closure", "prismatic", "base", "slider", Vec3(0.05, 0, 0), Vec3::Zero()}};
  m.loops[0].axis = Vec3::UnitX();
  return m;
}

/// A leg on a floor: hip roll (x) and three pitch joints (y); a planar loop with normal z keeps
/// the foot flat and at the floor's height. Bent knee in the file's pose, so the pose is regular.
LoopMechanism legPlanar() {
  LoopMechanism m;
  m.name = "leg_on_floor";
  m.links = {"base", "hip", "thigh", "shank", "foot"};
  const double h = 0.6 * std::cos(0.5);  // the foot's depth in the file's pose
  m.joints = {{"hip_roll", "base", "hip", Vec3::Zero(), Vec3::Zero(), Vec3::UnitX(), false},
              {"hip_pitch", "hip", "thigh", Vec3::Zero(), Vec3(0, 0.5, 0), Vec3::UnitY(), true},
              {"knee", "thigh", "shank", Vec3(0, 0, -0.3), Vec3(0, -1.0, 0), Vec3::UnitY(), false},
              {"ankle", "shank", "foot", Vec3(0, 0, -0.3), Vec3(0, 0.5, 0), Vec3::UnitY(), false}};
  m.loops = {{"closure", "planar", "base", "foot", Vec3(0.2, -0.1, -h), Vec3(0.03, 0, 0)}};
  m.loops[0].axis = Vec3::UnitZ();
  return m;
}

/// Loops between two moving bodies, so that the predecessor's loop frame turns (the rows' terms
/// in ω_P): each body on a ball of three revolutes (z, y, x) at its own ground point.
/// Prismatic: a sleeve at A and a rod at B telescope along AB (5 rows); the strut can only spin
/// about AB (1 DoF).
LoopMechanism strutPrismatic() {
  LoopMechanism m;
  m.name = "strut";
  m.links = {"base", "a1", "a2", "sleeve", "b1", "b2", "rod"};
  const Vec3 B(0.3, 0.1, 0.2);
  m.joints = {{"a_z", "base", "a1", Vec3::Zero(), Vec3::Zero(), Vec3::UnitZ(), true},
              {"a_y", "a1", "a2", Vec3::Zero(), Vec3::Zero(), Vec3::UnitY(), false},
              {"a_x", "a2", "sleeve", Vec3::Zero(), Vec3::Zero(), Vec3::UnitX(), false},
              {"b_z", "base", "b1", B, Vec3::Zero(), Vec3::UnitZ(), false},
              {"b_y", "b1", "b2", Vec3::Zero(), Vec3::Zero(), Vec3::UnitY(), false},
              {"b_x", "b2", "rod", Vec3::Zero(), Vec3::Zero(), Vec3::UnitX(), false}};
  m.loops = {{"closure", "prismatic", "sleeve", "rod", Vec3::Zero(), Vec3::Zero()}};
  m.loops[0].axis = B.normalized();
  return m;
}

/// Planar: two plates on balls at A and B, the second sliding on the first's plane (normals z
/// parallel, the loop points at one height): 3 rows, 3 DoF.
LoopMechanism platesPlanar() {
  LoopMechanism m;
  m.name = "plates";
  m.links = {"base", "a1", "a2", "plate_a", "b1", "b2", "plate_b"};
  m.joints = {{"a_z", "base", "a1", Vec3::Zero(), Vec3::Zero(), Vec3::UnitZ(), true},
              {"a_y", "a1", "a2", Vec3::Zero(), Vec3::Zero(), Vec3::UnitY(), false},
              {"a_x", "a2", "plate_a", Vec3::Zero(), Vec3::Zero(), Vec3::UnitX(), false},
              {"b_z", "base", "b1", Vec3(0.25, 0, 0), Vec3::Zero(), Vec3::UnitZ(), true},
              {"b_y", "b1", "b2", Vec3::Zero(), Vec3::Zero(), Vec3::UnitY(), false},
              {"b_x", "b2", "plate_b", Vec3::Zero(), Vec3::Zero(), Vec3::UnitX(), true}};
  m.loops = {{"closure", "planar", "plate_a", "plate_b", Vec3(0.15, 0.02, 0.05), Vec3(-0.05, -0.03, 0.05)}};
  m.loops[0].axis = Vec3::UnitZ();
  return m;
}

/// 2-RSU parallel ankle as on recent humanoids: the foot on a universal (pitch y, roll x) below a
/// fixed shank, two cranks about y high on the shank, each driving a vertical rod down to the
/// foot behind the ankle. Left: the rod on a universal at the crank (two revolutes) and a ball at
/// the foot (spherical loop); right: a ball at the crank (three revolutes) and a universal at the
/// foot (universal loop, axis x across the rod, axis2 the foot's y). Two actuators, two DoF.
LoopMechanism ankle2Rsu() {
  LoopMechanism m;
  m.name = "ankle_2rsu";
  m.links = {"shank", "ankle_cross", "foot", "crank_l", "rod_l_x", "rod_l", "crank_r", "rod_r_x", "rod_r_y", "rod_r"};
  m.joints = {{"ankle_pitch", "shank", "ankle_cross", Vec3::Zero(), Vec3::Zero(), Vec3::UnitY(), false},
              {"ankle_roll", "ankle_cross", "foot", Vec3::Zero(), Vec3::Zero(), Vec3::UnitX(), false},
              {"crank_l_joint", "shank", "crank_l", Vec3(0, 0.03, 0.2), Vec3::Zero(), Vec3::UnitY(), true},
              {"rod_l_u1", "crank_l", "rod_l_x", Vec3(-0.04, 0, 0), Vec3::Zero(), Vec3::UnitX(), false},
              {"rod_l_u2", "rod_l_x", "rod_l", Vec3::Zero(), Vec3::Zero(), Vec3::UnitY(), false},
              {"crank_r_joint", "shank", "crank_r", Vec3(0, -0.03, 0.2), Vec3::Zero(), Vec3::UnitY(), true},
              {"rod_r_s1", "crank_r", "rod_r_x", Vec3(-0.04, 0, 0), Vec3::Zero(), Vec3::UnitX(), false},
              {"rod_r_s2", "rod_r_x", "rod_r_y", Vec3::Zero(), Vec3::Zero(), Vec3::UnitY(), false},
              {"rod_r_s3", "rod_r_y", "rod_r", Vec3::Zero(), Vec3::Zero(), Vec3::UnitZ(), false}};
  m.loops = {{"left_ball", "spherical", "rod_l", "foot", Vec3(0, 0, -0.23), Vec3(-0.04, 0.03, -0.03)},
             {"right_cardan", "universal", "rod_r", "foot", Vec3(0, 0, -0.23), Vec3(-0.04, -0.03, -0.03)}};
  m.loops[1].axis = Vec3::UnitX();
  m.loops[1].axis2 = Vec3::UnitY();
  m.loops[1].hasAxis2 = true;
  return m;
}

std::vector<LoopMechanism> allMechanisms() {
  return {rusrSpherical(), rsurUniversal(), sliderCrankPrismatic(), legPlanar(), strutPrismatic(), platesPlanar(),
          ankle2Rsu()};
}

Model load(const LoopMechanism& m, LoopTreatment t = LoopTreatment::Embed) {
  return loadUrdfString(urdfOf(m), m.name + ".urdf", LoadOptions{t});
}

/// Independent positions near the neutral pose (the ankle's two cranks move unequally: pitch and roll).
VecX poseAt(const Model& model, double offset) {
  VecX q = model.neutralConfiguration();
  for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += (i % 2 == 0 ? 1.0 : -0.6) * offset;
  return q;
}

}  // namespace

TEST(LoopTypes, EachMechanismLoadsWithTheExpectedRowsAndDegreesOfFreedom) {
  // spherical 3 rows (4 joints), universal 4 (5 joints), prismatic 2 of 5 in the plane (3
  // joints), planar 3 (4 joints); spatial prismatic 5 and planar 3 over 6 joints; the ankle:
  // 3 + 4 rows over 9 joints, 2 DoF
  const std::map<std::string, std::vector<int>> rows{{"rusr", {3}},  {"rsur", {4}},   {"slider_crank", {2}},
                                                     {"leg_on_floor", {3}}, {"strut", {5}}, {"plates", {3}},
                                                     {"ankle_2rsu", {3, 4}}};
  const std::map<std::string, int> dof{{"ankle_2rsu", 2}, {"plates", 3}};
  for (const LoopMechanism& m : allMechanisms()) {
    SCOPED_TRACE(m.name);
    const Model model = load(m);
    ASSERT_EQ(model.loops().size(), m.loops.size());
    for (size_t l = 0; l < m.loops.size(); ++l) EXPECT_EQ(model.loops()[l].numRows, rows.at(m.name)[l]);
    EXPECT_EQ(model.nv(), dof.count(m.name) ? dof.at(m.name) : 1);
    EXPECT_EQ(model.nvSpanning(), static_cast<int>(m.joints.size()));
    EXPECT_STREQ(model.cluster(model.body(model.loops()[0].successorBody).cluster).typeName(), "Generic");
  }
}

TEST(LoopTypes, RowsAreTheDerivativeOfTheTestsOwnResidualAndTheBiasIsRight) {
  double worstRows = 0.0, worstAcc = 0.0;
  for (const LoopMechanism& m : allMechanisms()) {
    SCOPED_TRACE(m.name);
    const Model model = load(m);
    const std::vector<int> idx = spanIndexOf(m, model);
    Data data(model);
    for (double offset : {0.0, 0.1, -0.25, -0.4}) {
      SCOPED_TRACE(offset);
      const VecX q = poseAt(model, offset), v = VecX::LinSpaced(model.nv(), 1.3, -0.7),
                 tau = VecX::Constant(model.nv(), 0.4);
      const VecX qdd = forwardDynamics(model, data, q, v, tau);
      const VecX qs = data.qSpan;
      // the completion closes the loop as the test states it
      EXPECT_LT(residual(m, idx, qs).norm(), 1e-9);
      // K's rows span the test's rows (same row space: equal ranks, and K vanishes on the null
      // space of the test's Jacobian)
      ProjectionMatrices cm;
      projectionMatrices(model, data, q, v, cm);
      const MatX J = centralDifferences(m, idx, qs);
      ASSERT_EQ(cm.K.cols(), J.cols());
      const int rank = rankOf(J);
      EXPECT_EQ(rankOf(cm.K), cm.K.rows());
      EXPECT_EQ(rank, cm.K.rows());
      Eigen::JacobiSVD<MatX> svd(J, Eigen::ComputeFullV);
      const MatX nullJ = svd.matrixV().rightCols(J.cols() - rank);
      const double rowGap = (cm.K * nullJ).norm() / cm.K.norm();
      EXPECT_LT(rowGap, 1e-7);
      // velocity level: the spanning rates G v are tangent to the test's constraint
      const VecX qdS = cm.G * v;
      EXPECT_LT((J * qdS).norm(), 1e-7);
      // acceleration level: φ̈ = J q̈ + d²/dh² φ(q + h q̇) = 0 along the motion
      const VecX qddS = cm.G * qdd + cm.g;
      const double h = 1e-4;
      const VecX curvature =
          (residual(m, idx, qs + h * qdS) - 2.0 * residual(m, idx, qs) + residual(m, idx, qs - h * qdS)) / (h * h);
      EXPECT_LT((J * qddS + curvature).norm(), 1e-5 * (1.0 + qddS.norm()));
      worstRows = std::max(worstRows, rowGap);
      worstAcc = std::max(worstAcc, (J * qddS + curvature).norm() / (1.0 + qddS.norm()));
    }
  }
  std::printf("rows vs the test's residual: row-space gap <= %.3g, acceleration-level residual <= %.3g\n", worstRows,
              worstAcc);
}

TEST(LoopTypes, ForwardDynamicsAgreesWithProjectionLagrangeAndKeptLoops) {
  double worstBaseline = 0.0, worstKept = 0.0;
  for (const LoopMechanism& m : allMechanisms()) {
    SCOPED_TRACE(m.name);
    const Model model = load(m);
    const Model kept = load(m, LoopTreatment::Constrain);
    ASSERT_EQ(kept.keptLoopGroups().size(), 1u);
    Data data(model), dataK(kept);
    ConstraintModel cmodel(kept);
    ConstraintData cdata(kept, cmodel);
    for (double offset : {0.05, -0.2, -0.45}) {
      SCOPED_TRACE(offset);
      const VecX q = poseAt(model, offset), v = VecX::LinSpaced(model.nv(), -0.9 + offset, 0.6),
                 tau = VecX::LinSpaced(model.nv(), 0.3, -0.2);
      const VecX qdd = forwardDynamics(model, data, q, v, tau);
      EXPECT_LT(relErr(qdd, projectionForwardDynamics(model, data, q, v, tau)), 1e-9);
      EXPECT_LT(relErr(qdd, lagrangeForwardDynamics(model, data, q, v, tau)), 1e-9);
      const VecX qK = expandPositions(kept, q), vK = expandVelocities(kept, qK, v);
      for (ConstraintSolver solver : {ConstraintSolver::KKT, ConstraintSolver::PV}) {
        ConstraintSolverSettings settings;
        settings.solver = solver;
        const VecX qddK = constrainedForwardDynamics(kept, dataK, cmodel, cdata, qK, vK, expandForces(kept, tau), settings);
        EXPECT_LT(relErr(reduceVelocities(kept, qddK), qdd), 1e-8) << constraintSolverName(solver);
        worstKept = std::max(worstKept, relErr(reduceVelocities(kept, qddK), qdd));
      }
      worstBaseline = std::max({worstBaseline, relErr(qdd, projectionForwardDynamics(model, data, q, v, tau)),
                                relErr(qdd, lagrangeForwardDynamics(model, data, q, v, tau))});
    }
  }
  std::printf("q̈ vs projection/Lagrange <= %.3g, vs kept loops (kkt, pv) <= %.3g\n", worstBaseline, worstKept);
}

TEST(LoopTypes, Rk4ConservesEnergyAndKeepsTheLoopClosed) {
  for (const LoopMechanism& m : allMechanisms()) {
    SCOPED_TRACE(m.name);
    Model model = load(m);
    // the unactuated ankle falls onto a toggle (a rod folding) within 0.1 s under gravity: it
    // coasts without gravity instead (its kinetic energy alone is conserved)
    const bool ankle = m.name == "ankle_2rsu";
    if (ankle) model.setGravity(Vec3::Zero());
    const std::vector<int> idx = spanIndexOf(m, model);
    Data data(model);
    const VecX q0 = poseAt(model, ankle ? 0.0 : -0.4);
    VecX q = q0, v = VecX::LinSpaced(model.nv(), 0.3, -0.2);
    const VecX tau = VecX::Zero(model.nv());
    auto f = [&](const VecX& qq, const VecX& vv) { return VecX(forwardDynamics(model, data, qq, vv, tau)); };
    auto energy = [&](const VecX& qq, const VecX& vv) {
      return kineticEnergy(model, data, qq, vv) + potentialEnergy(model, data, qq);
    };
    const double E0 = energy(q, v), dt = 1e-3;
    double worstDrift = 0.0, worstGap = 0.0, travel = 0.0;
    for (int step = 0; step < 300; ++step) {  // 0.3 s; revolute coordinates: q̇ = v
      testsupport::rk4Step(f, dt, q, v);
      travel = std::max(travel, (q - q0).norm());
      worstDrift = std::max(worstDrift, std::abs(energy(q, v) - E0));
      forwardKinematics(model, data, q);
      worstGap = std::max(worstGap, residual(m, idx, data.qSpan).norm());
      EXPECT_LT(loopClosureError(model, data), 1e-9);
    }
    RecordProperty(m.name + "_energy_drift", std::to_string(worstDrift));
    std::printf("%s: |E - E0| <= %.3g J (E0 = %.4g J), residual <= %.3g, travel %.3g rad\n", m.name.c_str(),
                worstDrift, E0, worstGap, travel);
    EXPECT_GT(travel, 1e-2);  // it moved
    EXPECT_LT(worstDrift, 1e-8 * (1.0 + std::abs(E0)));
    EXPECT_LT(worstGap, 1e-9);
  }
}

TEST(LoopTypes, ProximalUnreducedRowsTakeBallsAndUniversalsAndRefuseTheRest) {
  // Pinocchio-style unreduced rows (LoopFull): a ball is its 3 point rows, a universal adds the row
  // along axis × axis2 — the proximal solve must then reach C-ABA's q̈ on the spatial mechanisms;
  // prismatic and planar loops have no unreduced form and are refused naming the loop
  double worst = 0.0;
  for (const LoopMechanism& m : allMechanisms()) {
    SCOPED_TRACE(m.name);
    const Model model = load(m);
    const bool refused = std::any_of(m.loops.begin(), m.loops.end(),
                                     [](const TLoop& l) { return l.type == "prismatic" || l.type == "planar"; });
    if (refused) {
      for (ProximalConstraintRows rows : {ProximalConstraintRows::LoopFull, ProximalConstraintRows::LoopPoint3D}) {
        const std::string message = testsupport::modelErrorOf([&] { ProximalData refusedData(model, rows); });
        EXPECT_NE(message.find("loop 'closure'"), std::string::npos) << message;
        EXPECT_NE(message.find("prismatic or planar"), std::string::npos) << message;
      }
      continue;
    }
    Data data(model);
    ProximalData pd(model, ProximalConstraintRows::LoopFull);
    ProximalSettings settings;
    settings.rows = ProximalConstraintRows::LoopFull;
    settings.maxIterations = 50;
    for (double offset : {0.05, -0.2}) {
      const VecX q = poseAt(model, offset), v = VecX::LinSpaced(model.nv(), -0.9 + offset, 0.6),
                 tau = VecX::LinSpaced(model.nv(), 0.3, -0.2);
      const VecX aba = forwardDynamics(model, data, q, v, tau);
      const ProximalResult& r = proximalSparseForwardDynamics(model, data, pd, q, v, tau, settings);
      EXPECT_TRUE(r.converged);
      worst = std::max(worst, relErr(r.qdd, aba));
    }
  }
  std::printf("[ measured ] unreduced ball/universal rows: proximal q̈ vs C-ABA <= %.3g\n", worst);
  EXPECT_LT(worst, 1e-8);
}

TEST(LoopTypes, BadInputIsAModelErrorNamingFileLineAndLoop) {
  using testsupport::modelErrorOf;
  LoopMechanism u = rsurUniversal();
  u.loops[0].hasAxis2 = false;  // a universal without <axis2>
  std::string msg = modelErrorOf([&] { load(u); });
  EXPECT_NE(msg.find("rsur.urdf:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("loop 'closure'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("axis2"), std::string::npos) << msg;

  u = rsurUniversal();
  u.loops[0].axis2 = Vec3(1, 0.2, 0);  // not perpendicular to axis (0 1 0) in the file's pose
  msg = modelErrorOf([&] { load(u); });
  EXPECT_NE(msg.find("rsur.urdf:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("loop 'closure'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not perpendicular"), std::string::npos) << msg;

  u = rsurUniversal();
  u.loops[0].axis2 = Vec3::Zero();  // <axis2 xyz="0 0 0">
  msg = modelErrorOf([&] { load(u); });
  EXPECT_NE(msg.find("loop 'closure'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("zero"), std::string::npos) << msg;

  for (LoopMechanism m : {sliderCrankPrismatic(), legPlanar()}) {  // zero axis
    m.loops[0].axis = Vec3::Zero();
    msg = modelErrorOf([&] { load(m); });
    EXPECT_NE(msg.find(m.name + ".urdf:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("loop 'closure'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("zero"), std::string::npos) << msg;
  }

  // the line is the <loop> element's
  u = rsurUniversal();
  u.loops[0].hasAxis2 = false;
  const std::string text = urdfOf(u);
  int line = 1;
  for (size_t i = 0; i < text.find("<loop"); ++i) line += text[i] == '\n';
  msg = modelErrorOf([&] { loadUrdfString(text, "rsur.urdf"); });
  EXPECT_NE(msg.find("rsur.urdf:" + std::to_string(line) + ":"), std::string::npos) << msg;

}

TEST(LoopTypes, SavedModelsKeepTheLoopTypeAndAxis2) {
  // built from a ModelBuilder, so the archive holds the LoopSpecs (a loaded file travels as text)
  for (const LoopMechanism& m : {rsurUniversal(), ankle2Rsu(), strutPrismatic()}) {
    SCOPED_TRACE(m.name);
    const Model model = parseUrdfString(urdfOf(m), m.name + ".urdf").build();
    ASSERT_TRUE(model.source() && model.source()->urdf.empty() && model.source()->builder);
    const Model back = deserializeModel(serializeModel(model));
    ASSERT_EQ(back.loops().size(), model.loops().size());
    for (size_t l = 0; l < model.loops().size(); ++l) {
      EXPECT_EQ(back.loops()[l].type, model.loops()[l].type);
      EXPECT_EQ(back.loops()[l].axis2, model.loops()[l].axis2);
      EXPECT_EQ(back.loops()[l].numRows, model.loops()[l].numRows);
    }
    Data d1(model), d2(back);
    const VecX q = poseAt(model, 0.1), v = VecX::Constant(model.nv(), 0.4), tau = VecX::Constant(model.nv(), 0.2);
    EXPECT_EQ(forwardDynamics(model, d1, q, v, tau), forwardDynamics(back, d2, q, v, tau));
  }
}
