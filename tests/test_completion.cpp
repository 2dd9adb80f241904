// Completion of independent positions to spanning positions (spec §2.4): Newton on the dependent
// coordinates for implicit constraints, γ(y) = G y for couplings. Every result is checked with
// an evaluation of the constraints that does not use the library's constraint code:
//  - <loop>: spanning-tree forward kinematics; the two loop frames (link frame ∘ <origin>) must
//    coincide in position and, per type, in orientation;
//  - <coupling>: ratio · Σ q(predecessor chain) − Σ q(successor chain), chains walked on the specs;
//  - user constraints: the user's own φ on the named joints.
#include <gtest/gtest.h>

#include <iostream>
#include <set>

#include "cluster_support/constrained_models.hpp"
#include "grbda/grbda.hpp"
#include "data_workspace.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

double spanningValue(const Model& model, const VecX& qSpan, const std::string& jointName) {
  const auto& names = model.spanningPositionNames();
  const auto it = std::find(names.begin(), names.end(), jointName);
  EXPECT_NE(it, names.end()) << jointName;
  return it == names.end() ? 0.0 : qSpan[it - names.begin()];
}

const JointSpec* parentJoint(const ModelBuilder& b, const std::string& link) {
  for (const auto& j : b.joints())
    if (j.child == link) return &j;
  return nullptr;
}

std::vector<std::string> linksToRoot(const ModelBuilder& b, std::string link) {
  std::vector<std::string> out{link};
  while (const JointSpec* j = parentJoint(b, link)) out.push_back(link = j->parent);
  return out;
}

/// Σ of the 1-DoF joint values from `link` up to (excluding) `top`.
double chainSum(const ModelBuilder& b, const Model& model, const VecX& qSpan, std::string link, const std::string& top) {
  double s = 0;
  for (; link != top; link = parentJoint(b, link)->parent) {
    const JointSpec* j = parentJoint(b, link);
    if (j->kind != JointKind::Fixed) s += spanningValue(model, qSpan, j->name);
  }
  return s;
}

/// ^F X_0 of a loop frame: <origin> composed with the link's pose from the tree kinematics.
Transform loopFrame(const Model& model, const Data& tree, const std::string& link, const Transform& origin) {
  const Frame& f = model.frame(model.frameIndex(link));
  const Transform linkPose = f.body < 0 ? f.placement : f.placement * tree.Xa[f.body];
  return origin * linkPose;
}

/// Largest violation of any constraint of the builder at spanning positions qSpan.
double independentViolation(const ModelBuilder& b, const Model& model, const VecX& qSpan) {
  Data tree(model);
  tree::forwardKinematics(model, tree, qSpan);
  double worst = 0;
  for (const LoopSpec& l : b.loops()) {
    const Transform P = loopFrame(model, tree, l.predecessor, l.predecessorOrigin);
    const Transform S = loopFrame(model, tree, l.successor, l.successorOrigin);
    worst = std::max(worst, (P.inverseTransformPoint(Vec3::Zero()) - S.inverseTransformPoint(Vec3::Zero())).norm());
    const Mat3 RP = P.E.transpose(), RS = S.E.transpose();  // frame -> world
    if (l.type == LoopKind::Fixed) worst = std::max(worst, (RP - RS).cwiseAbs().maxCoeff());
    if (l.type == LoopKind::Revolute || l.type == LoopKind::Continuous)
      worst = std::max(worst, (RP * l.axis.normalized()).cross(RS * l.axis.normalized()).norm());
  }
  for (const CouplingSpec& c : b.couplings()) {
    const auto up = linksToRoot(b, c.predecessor);
    const std::set<std::string> predAncestors(up.begin(), up.end());
    std::string nca = c.successor;
    while (!predAncestors.count(nca)) nca = parentJoint(b, nca)->parent;
    const double r = c.ratio * chainSum(b, model, qSpan, c.predecessor, nca) - chainSum(b, model, qSpan, c.successor, nca);
    worst = std::max(worst, std::abs(r));
  }
  for (const ConstraintSpec& c : b.constraints()) {
    VecX q(static_cast<Eigen::Index>(c.joints.size())), phi(c.constraint->numRows());
    for (size_t j = 0; j < c.joints.size(); ++j) q[static_cast<Eigen::Index>(j)] = spanningValue(model, qSpan, c.joints[j]);
    c.constraint->residual(q, phi);
    worst = std::max(worst, phi.cwiseAbs().maxCoeff());
  }
  return worst;
}

/// The completed spanning positions keep the independent ones unchanged.
void expectIndependentKept(const Model& model, const VecX& q, const VecX& qSpan) {
  for (int c = 0; c < model.nq(); ++c) {
    const std::string& name = model.positionNames()[static_cast<size_t>(c)];
    EXPECT_EQ(spanningValue(model, qSpan, name), q[c]) << name;
  }
}

}  // namespace

TEST(Completion, ClosesEveryConstraintToMachinePrecision) {
  Rng rng(201);
  double worst = 0;
  for (bool floating : {false, true})
    for (auto& mech : mechanismCatalogue(rng, floating)) {
      SCOPED_TRACE(mech.name + (floating ? " (floating)" : ""));
      const Model model = mech.builder.build();
      Data data(model);
      for (int s = 0; s < 20; ++s) {
        const VecX q = randomIndependentPositions(rng, model, mech.lo, mech.hi);
        const VecX qSpan = completeConfiguration(model, data, q);
        ASSERT_EQ(qSpan.size(), model.nqSpanning());
        const double violation = independentViolation(mech.builder, model, qSpan);
        EXPECT_LT(violation, 1e-12);
        worst = std::max(worst, violation);
        expectIndependentKept(model, q, qSpan);
        // a closed spanning configuration is accepted as is
        Data other(model);
        EXPECT_EQ(completeConfiguration(model, other, qSpan), qSpan);
      }
    }
  std::cout << "[ measured ] worst constraint violation after completion (independent evaluation) " << worst << "\n";
}

TEST(Completion, ColdStartWorksAcrossTheWholeRange) {
  // A fresh Data has no previous solution to warm-start from.
  Rng rng(202);
  for (auto& mech : mechanismCatalogue(rng, false)) {
    SCOPED_TRACE(mech.name);
    const Model model = mech.builder.build();
    for (int s = 0; s < 10; ++s) {
      Data fresh(model);
      const VecX q = randomIndependentPositions(rng, model, mech.lo, mech.hi);
      VecX qSpan;
      ASSERT_NO_THROW(qSpan = completeConfiguration(model, fresh, q)) << "q = " << q.transpose();
      EXPECT_LT(independentViolation(mech.builder, model, qSpan), 1e-12);
    }
  }
}

TEST(Completion, EveryChoiceOfIndependentCoordinateOfTheReferencePolynomialConstraint) {
  // spec §8.5 (GenericImplicit): φ = [q0 + q1 + q2, q0 q1 + q0 q1 q2], each coordinate in turn
  // independent. Away from the branch crossing at |y| = 1, every choice is regular.
  Rng rng(203);
  for (int independent = 0; independent < 3; ++independent) {
    SCOPED_TRACE("independent coordinate " + std::to_string(independent));
    std::vector<bool> flags(3, false);
    flags[static_cast<size_t>(independent)] = true;
    const ModelBuilder b = userConstraintBuilder(rng, std::make_shared<PolynomialConstraint>(), flags, false);
    const Model model = b.build();
    EXPECT_EQ(model.nv(), 2);  // hip + one
    for (int s = 0; s < 10; ++s) {
      Data fresh(model);
      const VecX q = randomIndependentPositions(rng, model, 0.3, 0.7);
      VecX qSpan;
      ASSERT_NO_THROW(qSpan = completeConfiguration(model, fresh, q)) << "q = " << q.transpose();
      EXPECT_LT(independentViolation(b, model, qSpan), 1e-12);
      const VecX v = randomVector(rng, model.nv());
      forwardKinematics(model, fresh, q, v);
      const ClusterData& cd = fresh.work().clusters[1];
      EXPECT_LT((cd.K * cd.G).norm(), 1e-12);
      EXPECT_LT((cd.K * cd.g - cd.k).norm(), 1e-12 * (1 + cd.k.norm()));
    }
  }
  // (g = 0 here: every branch of q0 q1 (1 + q2) = 0 is a linear manifold, so k = −K̇ q̇ = 0.)
}

TEST(Completion, WarmStartFollowsTheBranchContinuously) {
  // Along a slow sweep of the independent positions the completed spanning positions move by
  // O(step): Newton stays on the assembly mode it started in.
  Rng rng(204);
  for (auto& mech : mechanismCatalogue(rng, false)) {
    SCOPED_TRACE(mech.name);
    const Model model = mech.builder.build();
    Data data(model);
    const VecX a = randomIndependentPositions(rng, model, mech.lo, mech.hi);
    const VecX bEnd = randomIndependentPositions(rng, model, mech.lo, mech.hi);
    VecX previous = completeConfiguration(model, data, a);
    const int steps = 200;
    double worstJump = 0;
    for (int s = 1; s <= steps; ++s) {
      const VecX q = a + (bEnd - a) * (double(s) / steps);
      const VecX qSpan = completeConfiguration(model, data, q);
      worstJump = std::max(worstJump, (qSpan - previous).cwiseAbs().maxCoeff());
      previous = qSpan;
    }
    const double step = (bEnd - a).cwiseAbs().maxCoeff() / steps;
    EXPECT_LT(worstJump, 50 * step + 1e-9) << "step " << step;
  }
}

TEST(Completion, StaticCouplingsAreExactlyLinear) {
  // γ(y) = G y with no offsets: completing a sum is the sum of completions.
  Rng rng(205);
  for (const ModelBuilder& b : {rotorChainBuilder(rng, 3, false), beltChainBuilder(rng, 2, false),
                                beltTripleChainBuilder(rng, 1, false)}) {
    const Model model = b.build();
    Data data(model);
    const VecX y1 = randomVector(rng, model.nq()), y2 = randomVector(rng, model.nq());
    const VecX q1 = completeConfiguration(model, data, y1), q2 = completeConfiguration(model, data, y2);
    const VecX q12 = completeConfiguration(model, data, VecX(y1 + y2));
    EXPECT_LT((q12 - q1 - q2).cwiseAbs().maxCoeff(), 1e-14);
    EXPECT_LT(independentViolation(b, model, q12), 1e-13);
  }
}
