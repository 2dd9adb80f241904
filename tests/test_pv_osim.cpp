// PV-OSIM and PV-OSIM-fast (seed 003 §VII, spec §2.11 test 3): Λ⁻¹ by the row propagation of the
// articulated pass against the dense J H⁻¹ Jᵀ (cluster CRBA + body Jacobians), against C-EFPA
// (points as custom rows) and against each other; the operator's Λ x against a dense solve of
// J H⁻¹ Jᵀ; eq. 48; the fallback; the user's row order; the error paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "cluster_support/constrained_models.hpp"
#include "cluster_support/constraint_problems.hpp"
#include "grbda/grbda.hpp"
#include "support/compare.hpp"
#include "support/model_files.hpp"
#include "support/osim_reference.hpp"
#include "support/random_cluster_program.hpp"
#include "support/random_model.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

/// The end-effectors as custom rows in C-EFPA's layout: a_P = ^P X_link a_link (link axes, at the
/// point, angular rows first), or its linear rows.
ConstraintModel pointRows(const Model& m, const std::vector<EndEffector>& ees, bool linear) {
  ConstraintModel cm(m);
  for (const EndEffector& e : ees) {
    const Mat6 X = Transform::translation(e.point).toMatrix();
    const MatX K = linear ? MatX(X.bottomRows<3>()) : MatX(X);
    cm.addCustomRows(m.frame(e.frame).name, K, VecX::Zero(K.rows()));
  }
  return cm;
}

/// J H⁻¹ Jᵀ, independent of the library's dense baseline: H by the cluster CRBA (massMatrix) and
/// J stacked from frameJacobian per constraint (world axes for contacts and welds, K · J_link for
/// custom rows).
MatX referenceDelassus(const Model& m, const ConstraintModel& cm, const VecX& q) {
  Data data(m);
  const MatX H = massMatrix(m, data, q);
  MatX J = MatX::Zero(cm.numRows(), m.nv());
  Mat6X Ja, Jb;
  for (const Constraint& c : cm.constraints()) {
    if (c.kind == ConstraintKind::Custom) {
      frameJacobian(m, data, c.frame, Vec3::Zero(), ReferenceFrame::Local, Ja);
      J.middleRows(c.row, c.numRows) = c.K * Ja;
      continue;
    }
    frameJacobian(m, data, c.frame, c.point, ReferenceFrame::LocalWorldAligned, Ja);
    MatX rows = c.hasAngularRows() ? MatX(Ja) : MatX(Ja.bottomRows<3>());
    if (c.isRelative() && c.frame2 >= 0) {
      frameJacobian(m, data, c.frame2, c.point2, ReferenceFrame::LocalWorldAligned, Jb);
      rows -= c.hasAngularRows() ? MatX(Jb) : MatX(Jb.bottomRows<3>());
    }
    J.middleRows(c.row, c.numRows) = rows;
  }
  return J * H.llt().solve(J.transpose());
}

/// Positions near the neutral pose that close every loop (NumericalError: try another).
VecX closableConfiguration(const Model& m, Rng& rng) {
  Data data(m);
  for (int attempt = 0;; ++attempt) {
    VecX q = m.neutralConfiguration();
    q += randomVector(rng, m.nq(), -0.4, 0.4);
    for (const auto& cl : m.clusters())
      if (std::string(cl.typeName()) == "Free") {
        const Eigen::Quaterniond r = randomQuaternion(rng);
        q.segment<4>(cl.qIndex + 3) << r.w(), r.x(), r.y(), r.z();
      }
    try {
      completeConfiguration(m, data, q);
      return q;
    } catch (const NumericalError&) {
      if (attempt > 20) throw;
    }
  }
}

/// Up to `count` moving frames on distinct bodies, deepest bodies first.
std::vector<int> framesOnDistinctBodies(const Model& m, int count) {
  std::vector<int> frames, bodies;
  const std::vector<int> moving = movingFrames(m);
  for (auto it = moving.rbegin(); it != moving.rend() && static_cast<int>(frames.size()) < count; ++it) {
    const int body = m.frame(*it).body;
    if (std::find(bodies.begin(), bodies.end(), body) != bodies.end()) continue;
    bodies.push_back(body);
    frames.push_back(*it);
  }
  return frames;
}

/// Floating robots and their constraint sets for PV-OSIM-fast.
struct FloatingProblem {
  std::string label, file;
  std::vector<std::pair<ConstraintKind, std::string>> constraints;
};

std::vector<FloatingProblem> floatingProblems() {
  using K = ConstraintKind;
  return {
      {"mini cheetah 4 feet", "mini_cheetah.urdf",
       {{K::PointContact, "FR_foot"}, {K::PointContact, "FL_foot"}, {K::PointContact, "HR_foot"},
        {K::PointContact, "HL_foot"}}},
      {"mit humanoid feet + hands points", "mit_humanoid.urdf",
       {{K::PointContact, "right_foot"}, {K::PointContact, "left_foot"}, {K::PointContact, "right_hand"},
        {K::PointContact, "left_hand"}}},
      {"mit humanoid feet welded + hands", "mit_humanoid.urdf",
       {{K::Weld, "right_foot"}, {K::Weld, "left_foot"}, {K::PointContact, "right_hand"},
        {K::PointContact, "left_hand"}}},
      {"jvrc1 2F+2H welds", "jvrc1_humanoid.urdf",
       {{K::Weld, "right-foot"}, {K::Weld, "left-foot"}, {K::Weld, "right-hand"}, {K::Weld, "left-hand"}}},
  };
}

/// Mini Cheetah with bent legs (straight legs make each foot's L_b block singular).
VecX bentCheetah(const Model& m, Rng& rng) {
  VecX q = m.neutralConfiguration();
  const Eigen::Quaterniond r = randomQuaternion(rng);
  q.segment<4>(3) << r.w(), r.x(), r.y(), r.z();
  for (int leg = 0; leg < 4; ++leg) {
    q[7 + 3 * leg] = uniform(rng, -0.3, 0.3);
    q[7 + 3 * leg + 1] = uniform(rng, -1.0, -0.6);
    q[7 + 3 * leg + 2] = uniform(rng, 1.2, 1.8);
  }
  return q;
}

/// The operator against the dense Delassus matrix Ld: Λ⁻¹ x, Λ x, and eq. 48.
void expectOperatorMatches(const PvOsimFast& op, const MatX& Ld, Rng& rng) {
  const int m = op.size();
  ASSERT_EQ(Ld.rows(), m);
  const Eigen::LDLT<MatX> ldlt(Ld);
  VecX y;
  for (int t = 0; t < 3; ++t) {
    const VecX x = randomVector(rng, m);
    op.applyInverse(x, y);
    EXPECT_LT(relErr(y, VecX(Ld * x)), 1e-10);
    op.applyLambda(x, y);
    const VecX lambda = ldlt.solve(x);
    EXPECT_LT((y - lambda).norm() / lambda.norm(), 1e-8);
    VecX back;
    op.applyInverse(y, back);  // Λ⁻¹ Λ x = x
    EXPECT_LT((back - x).norm() / x.norm(), 1e-9);
    op.solve(x, back);
    EXPECT_EQ(back, y);
  }
  if (op.floatingBase()) {  // eq. 48: L_0 = L_b + K_b H_b^A⁻¹ K_bᵀ
    const MatX Kb = op.baseRows();
    const MatX L0 = op.branchDelassus() + Kb * op.baseInertia().llt().solve(Kb.transpose());
    EXPECT_LT(strictRelErr(L0, Ld), 1e-10);
  }
}

}  // namespace

TEST(PvOsim, PointsEqualEfpaAndDenseOnEveryBundledRobot) {
  setLogLevel(LogLevel::Error);  // some bundled models warn while loading
  Rng rng(301);
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(GRBDA_SOURCE_DIR) + "/models")) {
    if (entry.path().extension() != ".urdf") continue;
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    const Model m = loadUrdf(entry.path().string());
    const std::vector<int> frames = framesOnDistinctBodies(m, 3);
    if (frames.empty()) continue;
    std::vector<EndEffector> ees;
    for (int f : frames) ees.push_back({f, randomVec3(rng, -0.1, 0.1)});
    const OsimSet set(m, ees);
    Data data(m), efpaData(m);
    const VecX q = closableConfiguration(m, rng);
    for (bool linear : {false, true}) {
      SCOPED_TRACE(linear ? "linear rows" : "6-D blocks");
      const ConstraintModel cm = pointRows(m, ees, linear);
      ConstraintData cd(m, cm);
      const MatX efpa = inverseOperationalSpaceInertia(m, efpaData, set, q, linear);
      const MatX pv = pvInverseOperationalSpaceInertia(m, data, cm, cd, q);
      EXPECT_LT(strictRelErr(pv, efpa), 1e-10);
      EXPECT_LT(strictRelErr(pv, referenceDelassus(m, cm, q)), 1e-9);
      EXPECT_LT(strictRelErr(MatX(denseInverseOperationalSpaceInertia(m, data, cm, cd, q)), pv), 1e-9);
      EXPECT_EQ((pv - pv.transpose()).norm(), 0.0);  // symmetric by construction
    }
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

TEST(PvOsim, ContactsWeldsRelativeAndCustomRowsOnClusterMembers) {
  Rng rng(302);
  for (auto& [name, m] : constrainedModels(rng)) {
    SCOPED_TRACE(name);
    // a contact on the deepest body, a weld-like custom block on a member of a multi-body
    // cluster (rotor, belt rotor, four-bar link), a relative point between the two, a contact on
    // a dependent body: rows on every kind of cluster member
    ConstraintModel cm(m);
    const int last = m.numBodies() - 1;
    cm.addPointContact(m.body(last).name, randomVec3(rng, -0.1, 0.1));
    int member = -1;
    for (int i = last - 1; i > 0 && member < 0; --i)
      if (m.cluster(m.body(i).cluster).numBodies > 1 && m.body(i).cluster != m.body(last).cluster) member = i;
    if (member < 0) member = 1;
    MatX K = MatX::Random(2, 6);
    cm.addCustomRows(m.body(member).name, K, VecX::Zero(2));
    cm.addRelativePoint(m.body(last).name, randomVec3(rng, -0.1, 0.1), m.body(member).name, randomVec3(rng, -0.1, 0.1));
    Data data(m);
    ConstraintData cd(m, cm);
    for (int t = 0; t < 3; ++t) {
      const VecX q = randomIndependentConfiguration(rng, m);
      const MatX reference = referenceDelassus(m, cm, q);
      EXPECT_LT(strictRelErr(pvInverseOperationalSpaceInertia(m, data, cm, cd, q), reference), 1e-9);
      EXPECT_LT(strictRelErr(denseInverseOperationalSpaceInertia(m, data, cm, cd, q), reference), 1e-9);
    }
  }
}

TEST(PvOsim, RandomClusterModelsEqualDense) {
  Rng rng(304);
  int checked = 0;
  for (int i = 0; i < 60; ++i) {
    RngChoices choose(rng);
    const RandomProgram program = randomClusterProgram(choose, rng);
    if (program.hasMistake) continue;
    SCOPED_TRACE("program " + std::to_string(i) + ": " + program.description);
    Model m;
    try {
      m = program.builder.build();
    } catch (const ModelError&) {
      continue;
    }
    if (m.numBodies() < 1) continue;
    // two to four constraints of every kind on random bodies (rows may be redundant: Λ⁻¹ exists)
    ConstraintModel cm(m);
    const int n = uniformInt(rng, 2, 4);
    for (int c = 0; c < n; ++c) {
      const std::string a = m.body(uniformInt(rng, 0, m.numBodies() - 1)).name;
      const std::string b = m.body(uniformInt(rng, 0, m.numBodies() - 1)).name;
      switch (uniformInt(rng, 0, 3)) {
        case 0: cm.addPointContact(a, randomVec3(rng, -0.1, 0.1)); break;
        case 1: cm.addWeld(a, randomVec3(rng, -0.1, 0.1)); break;
        case 2:
          if (a != b) cm.addRelativePoint(a, randomVec3(rng, -0.1, 0.1), b, randomVec3(rng, -0.1, 0.1));
          else cm.addPointContact(a);
          break;
        default: {
          const int rows = uniformInt(rng, 1, 3);
          cm.addCustomRows(a, MatX::Random(rows, 6), VecX::Zero(rows));
          break;
        }
      }
    }
    Data data(m), ref(m);
    ConstraintData cd(m, cm);
    VecX q;
    try {
      q = closableConfiguration(m, rng);
    } catch (const NumericalError&) {
      continue;
    }
    const double cond = [&] {
      Eigen::SelfAdjointEigenSolver<MatX> eig(massMatrix(m, ref, q));
      return eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
    }();
    const double tolerance = std::max(1e-10, 1e-13 * cond);
    const MatX pv = pvInverseOperationalSpaceInertia(m, data, cm, cd, q);
    EXPECT_LT(strictRelErr(pv, referenceDelassus(m, cm, q)), tolerance) << "cond H " << cond;
    ++checked;
  }
  EXPECT_GE(checked, 30);
}

TEST(PvOsim, RowsKeepTheUsersOrder) {
  // The same rows added in two orders: Λ⁻¹ is the same matrix with rows and columns permuted.
  Rng rng(305);
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel a(m), b(m);
  a.addPointContact("HL_foot");
  a.addWeld("FR_knee_rotor");
  a.addPointContact("FL_foot");
  b.addPointContact("FL_foot");
  b.addPointContact("HL_foot");
  b.addWeld("FR_knee_rotor");
  const std::vector<int> perm = {3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2};  // row of a -> row of b
  Data data(m);
  ConstraintData ca(m, a), cb(m, b);
  const VecX q = bentCheetah(m, rng);
  const MatX La = pvInverseOperationalSpaceInertia(m, data, a, ca, q), Lb = pvInverseOperationalSpaceInertia(m, data, b, cb, q);
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) EXPECT_NEAR(La(i, j), Lb(perm[i], perm[j]), 1e-12 * (1.0 + Lb.norm()));
  EXPECT_LT(strictRelErr(La, referenceDelassus(m, a, q)), 1e-9);
}

TEST(PvOsimFast, OperatorAndPvOsimEqualDenseOnFloatingRobots) {
  Rng rng(306);
  for (const FloatingProblem& p : floatingProblems()) {
    SCOPED_TRACE(p.label);
    const Model m = loadUrdf(modelFile(p.file));
    const ConstraintModel cm = makeConstraints(m, p.constraints, Vec3(0.01, -0.02, 0.03));
    Data data(m);
    ConstraintData cd(m, cm);
    PvOsimFast op(m, cm);
    EXPECT_TRUE(op.floatingBase());
    for (int t = 0; t < 3; ++t) {
      SCOPED_TRACE("state " + std::to_string(t));
      const VecX q = p.file == "mini_cheetah.urdf" ? bentCheetah(m, rng) : closableConfiguration(m, rng);
      op.compute(m, data, cm, cd, q);
      const MatX reference = referenceDelassus(m, cm, q);
      expectOperatorMatches(op, reference, rng);
      // PV-OSIM on the same rows, and Λ by factorising it: Λ Λ⁻¹ = 1
      const MatX pv = pvInverseOperationalSpaceInertia(m, data, cm, cd, q);
      EXPECT_LT(strictRelErr(pv, reference), 1e-9);
      const MatX Lambda = pvOperationalSpaceInertia(m, data, cm, cd, q);
      EXPECT_LT((Lambda * reference - MatX::Identity(cm.numRows(), cm.numRows())).norm(), 1e-7);
      EXPECT_EQ(cd.LambdaInv, pv);
      // 6-D welds on the 5-DoF legs of the MIT humanoid make their branch blocks singular
      const bool expectFallback = p.label == "mit humanoid feet welded + hands";
      EXPECT_EQ(op.fellBack(), expectFallback);
      EXPECT_EQ(op.fast(), !expectFallback);
      EXPECT_TRUE(op.invertible());
    }
    // branches: each leg (and each arm of the cheetah/MIT humanoid) alone; JVRC-1's arms share
    // the waist
    EXPECT_EQ(op.numBranches(), p.file == "jvrc1_humanoid.urdf" ? 3 : 4);
  }
}

TEST(PvOsimFast, RelativeRowsJoinBranches) {
  Rng rng(307);
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(m);
  cm.addPointContact("FR_foot");
  cm.addRelativePoint("FL_foot", Vec3::Zero(), "HL_foot", Vec3(0.0, 0.0, 0.01));  // joins FL and HL
  cm.addPointContact("HR_foot");
  PvOsimFast op(m, cm);
  EXPECT_EQ(op.numBranches(), 3);
  Data data(m);
  ConstraintData cd(m, cm);
  const VecX q = bentCheetah(m, rng);
  op.compute(m, data, cm, cd, q);
  EXPECT_TRUE(op.fast());
  expectOperatorMatches(op, referenceDelassus(m, cm, q), rng);
}

TEST(PvOsimFast, FallsBackWhenTheBaseBlockIsSingular) {
  Rng rng(308);
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  Data data(m);
  {  // a weld on the base link itself: its rows never enter L_b^A
    SCOPED_TRACE("weld on the base");
    ConstraintModel cm(m);
    cm.addPointContact("FR_foot");
    cm.addWeld(m.body(0).name, Vec3(0.05, 0.0, 0.0));
    cm.addPointContact("HL_foot");
    ConstraintData cd(m, cm);
    PvOsimFast op(m, cm);
    const VecX q = bentCheetah(m, rng);
    op.compute(m, data, cm, cd, q);
    EXPECT_TRUE(op.fellBack());
    EXPECT_FALSE(op.fast());
    expectOperatorMatches(op, referenceDelassus(m, cm, q), rng);
  }
  {  // straight legs: every foot's block is singular, L_0 is not
    SCOPED_TRACE("straight legs");
    ConstraintModel cm = makeConstraints(m, floatingProblems()[0].constraints, Vec3::Zero());
    ConstraintData cd(m, cm);
    PvOsimFast op(m, cm);
    VecX q = m.neutralConfiguration();
    q[2] = 0.4;
    op.compute(m, data, cm, cd, q);
    EXPECT_TRUE(op.fellBack());
    expectOperatorMatches(op, referenceDelassus(m, cm, q), rng);
    op.compute(m, data, cm, cd, bentCheetah(m, rng));  // and back on the fast path
    EXPECT_TRUE(op.fast());
  }
}

TEST(PvOsimFast, FixedBaseIsPlainPvOsim) {
  Rng rng(309);
  const Model m = rotorChain(rng, 4, false);
  ConstraintModel cm(m);
  cm.addPointContact("link4", Vec3(0.1, 0.0, 0.0));
  cm.addCustomRows("rotor2", MatX::Random(1, 6), VecX::Zero(1));
  Data data(m);
  ConstraintData cd(m, cm);
  PvOsimFast op(m, cm);
  EXPECT_FALSE(op.floatingBase());
  const VecX q = randomIndependentConfiguration(rng, m);
  op.compute(m, data, cm, cd, q);
  EXPECT_FALSE(op.fellBack());
  EXPECT_FALSE(op.fast());
  expectOperatorMatches(op, referenceDelassus(m, cm, q), rng);
}

TEST(PvOsim, RedundantRowsAndBadInputsGiveTypedErrors) {
  Rng rng(310);
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  const VecX q = bentCheetah(m, rng);
  Data data(m);
  ConstraintModel redundant(m);  // two welds on one leg: 12 rows on 3 joints + the base
  redundant.addWeld("FR_foot");
  redundant.addWeld("FR_knee_link");
  ConstraintData rd(m, redundant);
  const MatX L = pvInverseOperationalSpaceInertia(m, data, redundant, rd, q);  // Λ⁻¹ exists, singular
  EXPECT_TRUE(L.allFinite());
  EXPECT_LT(strictRelErr(L, referenceDelassus(m, redundant, q)), 1e-9);
  EXPECT_THROW(pvOperationalSpaceInertia(m, data, redundant, rd, q), NumericalError);
  PvOsimFast rop(m, redundant);  // Λ⁻¹ x still works, Λ x is refused
  rop.compute(m, data, redundant, rd, q);
  EXPECT_TRUE(rop.fellBack());
  EXPECT_FALSE(rop.invertible());
  const VecX x = randomVector(rng, redundant.numRows());
  VecX y;
  rop.applyInverse(x, y);
  EXPECT_LT(relErr(y, VecX(L * x)), 1e-10);
  EXPECT_THROW(rop.applyLambda(x, y), NumericalError);

  ConstraintModel cm(m);
  cm.addPointContact("FR_foot");
  ConstraintData cd(m, cm);
  PvOsimFast op(m, cm);
  EXPECT_THROW(op.applyInverse(VecX::Zero(3), y), InputError);  // before compute
  op.compute(m, data, cm, cd, q);
  EXPECT_THROW(op.applyLambda(VecX::Zero(4), y), InputError);
  EXPECT_THROW(pvInverseOperationalSpaceInertia(m, data, cm, rd, q), InputError);  // workspace of another set
  EXPECT_THROW(op.compute(m, data, redundant, rd, q), InputError);
  EXPECT_THROW(pvInverseOperationalSpaceInertia(m, data, cm, cd, VecX::Zero(3)), InputError);
  VecX bad = q;
  bad[8] = std::nan("");
  EXPECT_THROW(pvInverseOperationalSpaceInertia(m, data, cm, cd, bad), InputError);
}
