// The tree (no-loop) dynamics agree with themselves on random robots: ABA inverts RNEA, CRBA
// equals RNEA differences, and rewriting a model (flipped axes, rotation-free joint origins)
// leaves its dynamics unchanged. Closed-form and conservation checks are in
// test_tree_closed_form.cpp and test_tree_conservation.cpp.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <iostream>
#include <map>

#include "support/random_model.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

constexpr int kTreesPerBase = 50;

/// Runs f(model, rng) on kTreesPerBase random trees of 1..30 links for a fixed and a floating base.
template <typename F>
void forRandomTrees(unsigned seed, F f) {
  Rng rng(seed);
  for (bool floating : {false, true}) {
    for (int t = 0; t < kTreesPerBase; ++t) {
      TreeOptions opt;
      opt.numLinks = uniformInt(rng, 1, 30);
      opt.floatingBase = floating;
      const Model model = randomTree(rng, opt);
      SCOPED_TRACE("tree " + std::to_string(t) + (floating ? " (floating)" : " (fixed)") + ", " +
                   std::to_string(model.numBodies()) + " bodies");
      f(model, rng);
    }
  }
}

/// A scale for generalized forces: the larger of |tau| and the bias |C| (gravity terms dominate
/// rounding in both directions).
double forceScale(const VecX& tau, const VecX& C) { return std::max({1.0, tau.norm(), C.norm()}); }

}  // namespace

TEST(TreeDynamics, InverseOfForwardDynamicsIsIdentityOnRandomTrees) {
  double worst = 0.0;
  forRandomTrees(11, [&](const Model& model, Rng& rng) {
    Data data(model);
    for (int s = 0; s < 3; ++s) {
      const VecX q = randomConfiguration(rng, model), v = randomVector(rng, model.nv());
      const VecX tau = randomVector(rng, model.nv());
      const VecX qdd = forwardDynamics(model, data, q, v, tau);
      const VecX tauBack = inverseDynamics(model, data, q, v, qdd);
      const VecX C = biasForces(model, data, q, v);
      const double err = (tauBack - tau).norm() / forceScale(tau, C);
      worst = std::max(worst, err);
      EXPECT_LT(err, 1e-10);
    }
  });
  std::cout << "[ measured ] max |ID(FD(tau)) - tau| / scale = " << worst << "\n";
}

TEST(TreeDynamics, ForwardOfInverseDynamicsIsIdentityOnRandomTrees) {
  double worst = 0.0;
  forRandomTrees(12, [&](const Model& model, Rng& rng) {
    Data data(model);
    for (int s = 0; s < 3; ++s) {
      const VecX q = randomConfiguration(rng, model), v = randomVector(rng, model.nv());
      const VecX qdd = randomVector(rng, model.nv());
      const VecX tau = inverseDynamics(model, data, q, v, qdd);
      const VecX qddBack = forwardDynamics(model, data, q, v, tau);
      const double err = relativeError(qddBack, qdd);
      worst = std::max(worst, err);
      EXPECT_LT(err, 1e-10);
    }
  });
  std::cout << "[ measured ] max |FD(ID(qdd)) - qdd| / max(1,|qdd|) = " << worst << "\n";
}

TEST(TreeDynamics, MassMatrixColumnsEqualRneaDifferences) {
  double worst = 0.0;
  forRandomTrees(13, [&](const Model& model, Rng& rng) {
    Data data(model);
    const VecX q = randomConfiguration(rng, model);
    const MatX H = massMatrix(model, data, q);
    const VecX zero = VecX::Zero(model.nv());
    const VecX gravityOnly = inverseDynamics(model, data, q, zero, zero);
    for (int j = 0; j < model.nv(); ++j) {
      const VecX column = inverseDynamics(model, data, q, zero, VecX::Unit(model.nv(), j)) - gravityOnly;
      const double err = (H.col(j) - column).norm() / std::max(1.0, H.norm());
      worst = std::max(worst, err);
      EXPECT_LT(err, 1e-12) << "column " << j;
    }
  });
  std::cout << "[ measured ] max |H e_j - (RNEA(q,0,e_j) - RNEA(q,0,0))| / |H| = " << worst << "\n";
}

TEST(TreeDynamics, MassMatrixIsSymmetricPositiveDefinite) {
  forRandomTrees(14, [&](const Model& model, Rng& rng) {
    Data data(model);
    const MatX H = massMatrix(model, data, randomConfiguration(rng, model));
    EXPECT_EQ((H - H.transpose()).norm(), 0.0);
    Eigen::LLT<MatX> llt(H);
    EXPECT_EQ(llt.info(), Eigen::Success);
    // Kinetic energy of any velocity is positive.
    const VecX v = randomVector(rng, model.nv());
    EXPECT_GT(v.dot(H * v), 0.0);
  });
}

TEST(TreeDynamics, EquationOfMotionHoldsWithBiasForcesFromRnea) {
  double worstC = 0.0, worstEom = 0.0;
  forRandomTrees(15, [&](const Model& model, Rng& rng) {
    Data data(model);
    const VecX q = randomConfiguration(rng, model), v = randomVector(rng, model.nv());
    const VecX qdd = randomVector(rng, model.nv());
    const VecX C = biasForces(model, data, q, v);
    const VecX rneaC = inverseDynamics(model, data, q, v, VecX::Zero(model.nv()));
    const double errC = (C - rneaC).norm() / std::max(1.0, C.norm());
    EXPECT_LT(errC, 1e-14);
    const MatX H = massMatrix(model, data, q);
    const VecX tau = inverseDynamics(model, data, q, v, qdd);
    const double errEom = (H * qdd + C - tau).norm() / forceScale(tau, C);
    EXPECT_LT(errEom, 1e-12);
    // ABA solves the same equation.
    const VecX qddAba = forwardDynamics(model, data, q, v, tau);
    EXPECT_LT(relativeError(qddAba, VecX(H.llt().solve(tau - C))), 1e-9);
    worstC = std::max(worstC, errC);
    worstEom = std::max(worstEom, errEom);
  });
  std::cout << "[ measured ] max |C - RNEA(q,v,0)| = " << worstC << ", max |H qdd + C - tau| / scale = " << worstEom
            << "\n";
}

TEST(TreeDynamics, TreeAlgorithmsAgreeWithTheClusterAlgorithmsOnTreeModels) {
  // The public entry points run the cluster algorithms; on a model without loops every cluster
  // is one body, so they must reproduce Featherstone's tree algorithms.
  double worst = 0.0;
  forRandomTrees(16, [&](const Model& model, Rng& rng) {
    Data pub(model), raw(model);
    const VecX q = randomConfiguration(rng, model), v = randomVector(rng, model.nv());
    const VecX x = randomVector(rng, model.nv());
    const double e =
        std::max({relativeError(VecX(tree::rnea(model, raw, q, v, x)), VecX(inverseDynamics(model, pub, q, v, x))),
                  relativeError(VecX(tree::aba(model, raw, q, v, x)), VecX(forwardDynamics(model, pub, q, v, x))),
                  relativeError(MatX(tree::crba(model, raw, q)), MatX(massMatrix(model, pub, q))),
                  relativeError(VecX(tree::nonLinearEffects(model, raw, q, v)), VecX(biasForces(model, pub, q, v)))});
    EXPECT_LT(e, 1e-11);
    worst = std::max(worst, e);
  });
  std::cout << "[ measured ] max relative difference tree vs cluster algorithms = " << worst << "\n";
}

TEST(TreeDynamics, ArmatureAddsToTheMassMatrixDiagonal) {
  forRandomTrees(17, [&](const Model& model, Rng& rng) {
    Data data(model);
    const VecX q = randomConfiguration(rng, model), v = randomVector(rng, model.nv());
    const VecX tau = randomVector(rng, model.nv());
    VecX armature = VecX::Zero(model.nv());
    for (const Body& b : model.bodies())
      if (b.joint.type != JointType::Free) armature[b.vIndex] = uniform(rng, 0.0, 2.0);
    const MatX H = MatX(massMatrix(model, data, q)) + MatX(armature.asDiagonal());
    const VecX C = biasForces(model, data, q, v);
    const VecX qdd = tree::aba(model, data, q, v, tau, nullptr, &armature);
    EXPECT_LT(relativeError(qdd, VecX(H.llt().solve(tau - C))), 1e-9);
  });
}

// ---------------------------------------------------------------------------------------------
// Rewriting a model without changing the robot leaves the dynamics unchanged.

namespace {

/// The same robot with every revolute/prismatic axis negated: q, v, tau change sign per joint.
ModelBuilder withFlippedAxes(const ModelBuilder& in) {
  ModelBuilder out("flipped");
  for (const LinkSpec& l : in.links()) out.addLink(l);
  for (JointSpec j : in.joints()) {
    j.axis = -j.axis;
    out.addJoint(j);
  }
  return out;
}

/// Sign of each velocity coordinate under withFlippedAxes: -1 for 1-DoF joints, +1 for free.
VecX flipSigns(const Model& m) {
  VecX d = VecX::Ones(m.nv());
  for (const Body& b : m.bodies())
    if (b.joint.type != JointType::Free) d[b.vIndex] = -1.0;
  return d;
}

/// The same robot described with no rotation in any 1-DoF or fixed joint origin: each child link
/// frame is re-chosen parallel to its parent's, so the axis, the link inertia and the origins of
/// the link's own child joints are re-expressed by hand. Fills, per link, the rotation E with
/// x_old = E x_new (identity for the root and floating children).
ModelBuilder withoutOriginRotations(const ModelBuilder& in, std::map<std::string, Mat3>& oldFromNew) {
  std::map<std::string, const JointSpec*> jointInto;
  for (const JointSpec& j : in.joints()) jointInto[j.child] = &j;
  std::map<std::string, const LinkSpec*> linkByName;
  for (const LinkSpec& l : in.links()) linkByName[l.name] = &l;
  // Links in declaration order are already parent-first for the random trees.
  oldFromNew.clear();
  ModelBuilder out("rotation_free");
  std::vector<JointSpec> joints;
  std::vector<LinkSpec> links;
  for (const LinkSpec& l : in.links()) {
    LinkSpec nl = l;
    auto it = jointInto.find(l.name);
    Mat3 E = Mat3::Identity();
    if (it != jointInto.end()) {
      JointSpec j = *it->second;
      const Mat3& Ep = oldFromNew.at(j.parent);
      // ^J X_{P,new} = origin * (rotation from new parent axes to old parent axes)
      const Transform jointFromNewParent = j.origin * Transform::rotation(Ep);
      if (j.kind == JointKind::Floating) {
        j.origin = jointFromNewParent;
      } else {
        E = jointFromNewParent.E;  // old joint/link axes from new (parent-parallel) axes
        j.origin = Transform::translation(jointFromNewParent.r);
        j.axis = E.transpose() * j.axis;
      }
      joints.push_back(j);
    }
    oldFromNew[l.name] = E;
    nl.com = E.transpose() * l.com;
    nl.inertia = E.transpose() * l.inertia * E;
    links.push_back(nl);
  }
  for (auto& l : links) out.addLink(l);
  for (auto& j : joints) out.addJoint(j);
  return out;
}

}  // namespace

TEST(TreeDynamics, NegatedJointAxesWithNegatedCoordinatesGiveTheSameDynamics) {
  Rng rng(21);
  for (bool floating : {false, true}) {
    for (int t = 0; t < 20; ++t) {
      TreeOptions opt;
      opt.numLinks = uniformInt(rng, 1, 12);
      opt.floatingBase = floating;
      const ModelBuilder builder = randomTreeBuilder(rng, opt);
      const Model a = builder.build(), b = withFlippedAxes(builder).build();
      Data da(a), db(b);
      const VecX d = flipSigns(a);
      const VecX qa = randomConfiguration(rng, a), va = randomVector(rng, a.nv()), tau = randomVector(rng, a.nv());
      VecX qb = qa;
      for (const Body& body : a.bodies())
        if (body.joint.type != JointType::Free) qb[body.qIndex] = -qa[body.qIndex];
      const VecX vb = d.cwiseProduct(va);
      // H_b = D H_a D,  C_b = D C_a,  qdd_b = D qdd_a
      const MatX Ha = massMatrix(a, da, qa);
      EXPECT_LT(relativeError(MatX(massMatrix(b, db, qb)), MatX(d.asDiagonal() * Ha * d.asDiagonal())), 1e-13);
      EXPECT_LT(relativeError(VecX(biasForces(b, db, qb, vb)), VecX(d.cwiseProduct(biasForces(a, da, qa, va)))), 1e-13);
      const VecX qddA = forwardDynamics(a, da, qa, va, tau);
      const VecX qddB = forwardDynamics(b, db, qb, vb, d.cwiseProduct(tau));
      EXPECT_LT(relativeError(qddB, VecX(d.cwiseProduct(qddA))), 1e-10);
      // Same poses everywhere.
      forwardKinematics(a, da, qa);
      forwardKinematics(b, db, qb);
      for (int f = 0; f < static_cast<int>(a.frames().size()); ++f)
        EXPECT_LT((framePosition(a, da, f) - framePosition(b, db, f)).norm(), 1e-12);
    }
  }
}

TEST(TreeDynamics, SingleJointAboutMinusYEqualsJointAboutPlusYWithNegatedAngle) {
  // The brief's concrete case, on a one-link arm whose COM is off the axis.
  auto arm = [](const Vec3& axis) {
    ModelBuilder b("arm");
    b.setGravity(Vec3(0.3, -2.0, -9.81));
    LinkSpec world;
    world.name = "world";
    b.addLink(world);
    LinkSpec link;
    link.name = "arm";
    link.mass = 1.3;
    link.com = Vec3(0.4, 0.1, -0.2);
    link.inertia = Vec3(0.02, 0.03, 0.04).asDiagonal();
    b.addLink(link);
    JointSpec j;
    j.name = "shoulder";
    j.parent = "world";
    j.child = "arm";
    j.axis = axis;
    b.addJoint(j);
    return b.build();
  };
  const Model minus = arm(Vec3(0, -1, 0)), plus = arm(Vec3(0, 1, 0));
  Data dm(minus), dp(plus);
  const VecX q = VecX::Constant(1, 0.7), v = VecX::Constant(1, -0.4), tau = VecX::Constant(1, 0.25);
  EXPECT_NEAR(forwardDynamics(minus, dm, q, v, tau)[0], -forwardDynamics(plus, dp, -q, -v, -tau)[0], 1e-13);
  EXPECT_NEAR(inverseDynamics(minus, dm, q, v, tau)[0], -inverseDynamics(plus, dp, -q, -v, -tau)[0], 1e-13);
  forwardKinematics(minus, dm, q);
  forwardKinematics(plus, dp, -q);
  EXPECT_TRUE(frameRotation(minus, dm, 1).isApprox(frameRotation(plus, dp, 1), 1e-14));
}

TEST(TreeDynamics, RotationFreeJointOriginsGiveTheSameDynamics) {
  Rng rng(22);
  for (bool floating : {false, true}) {
    for (int t = 0; t < 20; ++t) {
      TreeOptions opt;
      opt.numLinks = uniformInt(rng, 1, 12);
      opt.floatingBase = floating;
      const ModelBuilder builder = randomTreeBuilder(rng, opt);
      std::map<std::string, Mat3> oldFromNew;
      const Model a = builder.build(), b = withoutOriginRotations(builder, oldFromNew).build();
      Data da(a), db(b);
      const VecX q = randomConfiguration(rng, a), v = randomVector(rng, a.nv()), tau = randomVector(rng, a.nv());
      EXPECT_LT(relativeError(MatX(massMatrix(b, db, q)), MatX(massMatrix(a, da, q))), 1e-12);
      EXPECT_LT(relativeError(VecX(biasForces(b, db, q, v)), VecX(biasForces(a, da, q, v))), 1e-12);
      EXPECT_LT(relativeError(VecX(forwardDynamics(b, db, q, v, tau)), VecX(forwardDynamics(a, da, q, v, tau))),
                1e-10);
      forwardKinematics(a, da, q);
      forwardKinematics(b, db, q);
      for (int f = 0; f < static_cast<int>(a.frames().size()); ++f) {
        const std::string& name = a.frame(f).name;
        const int fb = b.frameIndex(name);
        EXPECT_LT((framePosition(a, da, f) - framePosition(b, db, fb)).norm(), 1e-12) << name;
        // R_old = R_new E^T (E: old axes from new axes)
        const Mat3 expected = frameRotation(b, db, fb) * oldFromNew.at(name).transpose();
        EXPECT_LT((frameRotation(a, da, f) - expected).norm(), 1e-12) << name;
      }
    }
  }
}
