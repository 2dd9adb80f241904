// The cluster joints (spec §2.2-2.3, §4.3-4.5, §5) against independent evidence, for one
// mechanism of every constraint kind (geared rotor, belt pair, belt triple, planar and spatial
// <loop>s of revolute and fixed type, user implicit constraints, coupling + loop in one cluster,
// two loops sharing bodies):
//  - identities: K G = 0, K g = k, K (G ÿ + g) = k; K and k against finite differences of φ;
//  - G, g against the derivative of the position map: complete y(t) = y0 + t ẏ + ½ t² ÿ and
//    differentiate the spanning positions numerically (q̇ = G ẏ, q̈ = G ÿ + g);
//  - S, bias c and Xout: body velocities and accelerations of the cluster recursion equal those
//    of the spanning tree driven by (q̇, q̈) — exact (G, g) and finite-difference versions;
//  - specialised transmissions (RevoluteWithRotor, RevolutePairWithRotor, RevoluteTripleWithRotor)
//    equal the Generic joint on the same constraints, joint by joint and in the dynamics.
#include <gtest/gtest.h>

#include <iostream>
#include <limits>

#include "cluster/cluster_joint.hpp"
#include "cluster_support/constrained_models.hpp"
#include "grbda/grbda.hpp"
#include "support/compare.hpp"
#include "data_workspace.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

/// Global q̈_span = G ÿ + g assembled from the clusters' data (after forwardKinematics with v).
VecX spanningAcceleration(const Model& model, const Data& data, const VecX& ydd) {
  VecX qdd = VecX::Zero(model.nvSpanning());
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = data.work().clusters[static_cast<size_t>(k)];
    qdd.segment(cl.vSpanIndex, cl.nvSpan) = cd.G * ydd.segment(cl.vIndex, cl.nv) + cd.g;
  }
  return qdd;
}

bool isConstrained(const Cluster& cl) { return cl.nvSpan != cl.nv; }

double scaleOf(const MatX& M) { return 1.0 + M.cwiseAbs().maxCoeff(); }

struct Path {
  VecX y0, yd, ydd;
  VecX at(double t) const { return y0 + t * yd + 0.5 * t * t * ydd; }
};

}  // namespace

TEST(ClusterJoints, ConstraintIdentitiesHoldAtRandomClosedStates) {
  Rng rng(101);
  for (bool floating : {false, true})
    for (auto& mech : mechanismCatalogue(rng, floating)) {
      SCOPED_TRACE(mech.name + (floating ? " (floating)" : ""));
      const Model model = mech.builder.build();
      ASSERT_TRUE(model.hasConstraints());
      Data data(model);
      double worstKG = 0, worstKg = 0, worstKqdd = 0;
      for (int s = 0; s < 20; ++s) {
        const VecX q = randomIndependentPositions(rng, model, mech.lo, mech.hi);
        const VecX v = randomVector(rng, model.nv(), -2, 2), ydd = randomVector(rng, model.nv(), -2, 2);
        forwardKinematics(model, data, q, v);
        for (int k = 0; k < model.numClusters(); ++k) {
          const Cluster& cl = model.cluster(k);
          if (!isConstrained(cl)) continue;
          const ClusterData& cd = data.work().clusters[static_cast<size_t>(k)];
          ASSERT_EQ(cd.K.rows(), cl.nvSpan - cl.nv);
          ASSERT_EQ(cd.G.rows(), cl.nvSpan);
          ASSERT_EQ(cd.G.cols(), cl.nv);
          const double sc = scaleOf(cd.K) * scaleOf(cd.G);
          worstKG = std::max(worstKG, (cd.K * cd.G).cwiseAbs().maxCoeff() / sc);
          worstKg = std::max(worstKg, (cd.K * cd.g - cd.k).cwiseAbs().maxCoeff() / (sc * (1 + cd.k.norm())));
          const VecX qdd = cd.G * ydd.segment(cl.vIndex, cl.nv) + cd.g;
          worstKqdd = std::max(worstKqdd, (cd.K * qdd - cd.k).cwiseAbs().maxCoeff() / (sc * (1 + cd.k.norm())));
          // G selects the independent coordinates: their rows form the identity, in order
          int c = 0;
          for (int r = 0; r < cl.numBodies; ++r)
            if (model.body(cl.firstBody + r).independent) {
              EXPECT_TRUE(cd.G.row(r).isApprox(MatX::Identity(cl.nv, cl.nv).row(c), 0.0)) << "row " << r;
              ++c;
            }
          EXPECT_EQ(c, cl.nv);
          // the constraint is non-trivial (K couples something)
          EXPECT_GT(cd.K.cwiseAbs().maxCoeff(), 1e-6);
        }
      }
      EXPECT_LT(worstKG, 1e-12);
      EXPECT_LT(worstKg, 1e-12);
      EXPECT_LT(worstKqdd, 1e-12);
      std::cout << "[ measured ] " << mech.name << (floating ? " (floating)" : "") << ": |KG| " << worstKG
                << ", |Kg-k| " << worstKg << ", |K qdd - k| " << worstKqdd << "\n";
    }
}

TEST(ClusterJoints, JacobianAndBiasOfTheConstraintsMatchFiniteDifferencesOfPhi) {
  // φ(q) of the cluster (internal ConstraintSet::residual) differentiated numerically along
  // random closed motions: K = ∂φ/∂q and k = −K̇ q̇ (K̇ q̇ by differencing K(q + t q̇) q̇).
  Rng rng(102);
  for (auto& mech : mechanismCatalogue(rng, false)) {
    SCOPED_TRACE(mech.name);
    const Model model = mech.builder.build();
    Data data(model), scratch(model);
    for (int s = 0; s < 5; ++s) {
      const VecX q = randomIndependentPositions(rng, model, mech.lo, mech.hi);
      const VecX v = randomVector(rng, model.nv());
      forwardKinematics(model, data, q, v);
      for (int k = 0; k < model.numClusters(); ++k) {
        const Cluster& cl = model.cluster(k);
        if (!isConstrained(cl)) continue;
        const auto& set = cl.joint->constraints();
        const ClusterData& cd = data.work().clusters[static_cast<size_t>(k)];
        ClusterData& work = scratch.work().clusters[static_cast<size_t>(k)];
        const VecX qs = data.qSpan.segment(cl.qSpanIndex, cl.nqSpan);
        const VecX qd = data.vSpan.segment(cl.vSpanIndex, cl.nvSpan);
        const double h = 1e-6;
        MatX Kfd(cd.K.rows(), cl.nvSpan);
        for (int j = 0; j < cl.nvSpan; ++j) {
          VecX qp = qs, qm = qs;
          qp[j] += h;
          qm[j] -= h;
          set.residual(qp.data(), work);
          const VecX phiP = work.phi;
          set.residual(qm.data(), work);
          Kfd.col(j) = (phiP - work.phi) / (2 * h);
        }
        EXPECT_LT((Kfd - cd.K).cwiseAbs().maxCoeff(), 1e-7 * scaleOf(cd.K));
        const double t = 1e-5;
        VecX qp = qs + t * qd, qm = qs - t * qd;
        set.jacobian(qp.data(), work);
        const VecX KqdP = work.K * qd;
        set.jacobian(qm.data(), work);
        const VecX kfd = -(KqdP - work.K * qd) / (2 * t);
        EXPECT_LT((kfd - cd.k).cwiseAbs().maxCoeff(), 1e-6 * (1 + cd.k.norm()));
        // the state is closed
        set.residual(qs.data(), work);
        EXPECT_LT(work.phi.cwiseAbs().maxCoeff(), 1e-12);
      }
    }
  }
}

TEST(ClusterJoints, ExplicitFormMatchesTheDerivativesOfTheCompletedPositions) {
  // y(t) = y0 + t ẏ + ½ t² ÿ, spanning q(t) from completeConfiguration (Newton, warm-started so
  // the branch is followed). Five-point stencils (h = 2e-3, O(h⁴)) and the plain central
  // difference (h = 1e-4, O(h²); its error is dominated by the completion tolerance |φ| < 1e-12
  // divided by h², hence the looser bound).
  Rng rng(103);
  double worstV = 0, worstA = 0, worstA4 = 0;
  for (auto& mech : mechanismCatalogue(rng, false)) {
    SCOPED_TRACE(mech.name);
    const Model model = mech.builder.build();
    Data data(model), tree(model);
    for (int s = 0; s < 5; ++s) {
      Path path{randomIndependentPositions(rng, model, mech.lo, mech.hi), randomVector(rng, model.nv()),
                randomVector(rng, model.nv())};
      auto qAt = [&](double t) { return VecX(completeConfiguration(model, data, path.at(t))); };
      const VecX q0 = qAt(0.0);
      const double h = 2e-3;
      const VecX qp1 = qAt(h), qp2 = qAt(2 * h), qm1 = qAt(-h), qm2 = qAt(-2 * h);
      const VecX qdFD = (-qp2 + 8 * qp1 - 8 * qm1 + qm2) / (12 * h);
      const VecX qddFD = (-qp2 + 16 * qp1 - 30 * q0 + 16 * qm1 - qm2) / (12 * h * h);
      const double hs = 1e-4;
      const VecX qsp = qAt(hs), qsm = qAt(-hs), qs0 = qAt(0.0);
      const VecX qdd2 = (qsp - 2 * qs0 + qsm) / (hs * hs);
      // the exact quantities at the same (closed, same-branch) spanning state
      forwardKinematics(model, data, q0, path.yd);
      const VecX qd = data.vSpan, qdd = spanningAcceleration(model, data, path.ydd);
      const double vErr = (qdFD - qd).norm() / (1 + qd.norm());
      const double aErr = (qddFD - qdd).norm() / (1 + qdd.norm());
      const double a2Err = (qdd2 - qdd).norm() / (1 + qdd.norm());
      EXPECT_LT(vErr, 1e-6);
      EXPECT_LT(aErr, 2e-5);  // spatial loops: completion tolerance / K_d conditioning dominate
      EXPECT_LT(a2Err, 1e-3);
      worstV = std::max(worstV, vErr);
      worstA4 = std::max(worstA4, aErr);
      worstA = std::max(worstA, a2Err);
      // body accelerations of the cluster recursion = spanning tree driven by the numerical q̇, q̈
      forwardKinematics(model, data, q0, path.yd, path.ydd);
      tree::forwardKinematics(model, tree, q0, qdFD, qddFD);
      for (int i = 0; i < model.numBodies(); ++i) {
        EXPECT_LT((data.v[i] - tree.v[i]).norm(), 1e-6 * (1 + tree.v[i].norm())) << "body " << i;
        EXPECT_LT((data.a[i] - tree.a[i]).norm(), 2e-5 * (1 + tree.a[i].norm())) << "body " << i;
      }
    }
  }
  std::cout << "[ measured ] |qd_FD - G yd| " << worstV << ", |qdd_FD(5-point, h=2e-3) - (G ydd + g)| " << worstA4
            << ", |qdd_FD(central, h=1e-4) - (G ydd + g)| " << worstA << " (relative)\n";
}

TEST(ClusterJoints, ClusterRecursionEqualsSpanningTreeKinematicsOnEveryBody) {
  // S_k, c_k and Xout from the cluster joints vs the spanning tree (Featherstone's recursion on
  // every joint) at q̇ = G ẏ, q̈ = G ÿ + g: poses, v_i = Xout_i v_Λ(i) + S_i ẏ (S used directly),
  // a_i = Xout_i a_Λ(i) + S_i ÿ + c_i.
  Rng rng(104);
  double worst = 0;
  for (bool floating : {false, true})
    for (auto& mech : mechanismCatalogue(rng, floating)) {
      SCOPED_TRACE(mech.name + (floating ? " (floating)" : ""));
      const Model model = mech.builder.build();
      Data data(model), tree(model);
      for (int s = 0; s < 10; ++s) {
        const VecX q = randomIndependentPositions(rng, model, mech.lo, mech.hi);
        const VecX v = randomVector(rng, model.nv(), -2, 2), ydd = randomVector(rng, model.nv(), -2, 2);
        forwardKinematics(model, data, q, v, ydd);
        const VecX qSpan = data.qSpan, vSpan = data.vSpan, qddSpan = spanningAcceleration(model, data, ydd);
        tree::forwardKinematics(model, tree, qSpan, vSpan, qddSpan);
        for (int i = 0; i < model.numBodies(); ++i) {
          const Body& b = model.body(i);
          const Cluster& cl = model.cluster(b.cluster);
          const ClusterData& cd = data.work().clusters[static_cast<size_t>(b.cluster)];
          const int r = i - cl.firstBody;
          EXPECT_TRUE(data.Xa[i].isApprox(tree.Xa[i], 1e-12)) << "body " << i;
          EXPECT_TRUE(data.work().Xup[i].isApprox(tree.work().Xup[i], 1e-12)) << "body " << i;
          const Transform XaOut = b.output < 0 ? Transform() : tree.Xa[b.output];
          EXPECT_TRUE(data.work().Xout[i].isApprox(tree.Xa[i] * XaOut.inverse(), 1e-10)) << "body " << i;
          const Vec6 vOut = b.output < 0 ? Vec6::Zero() : tree.v[b.output];
          const Vec6 aOut = b.output < 0 ? Vec6::Zero() : tree.a[b.output];
          const auto Si = cd.S.middleRows(6 * r, 6);
          const Vec6 vS = data.work().Xout[i].apply(vOut) + Si * v.segment(cl.vIndex, cl.nv);
          const Vec6 aS = data.work().Xout[i].apply(aOut) + Si * ydd.segment(cl.vIndex, cl.nv) + data.work().c[i];
          const double ev = (vS - tree.v[i]).norm() / (1 + tree.v[i].norm());
          const double ea = (data.a[i] - tree.a[i]).norm() / (1 + tree.a[i].norm());
          const double eaS = (aS - tree.a[i]).norm() / (1 + tree.a[i].norm());
          EXPECT_LT(ev, 1e-12) << "body " << i;
          EXPECT_LT((data.v[i] - tree.v[i]).norm(), 1e-12 * (1 + tree.v[i].norm())) << "body " << i;
          EXPECT_LT(ea, 1e-11) << "body " << i;
          EXPECT_LT(eaS, 1e-11) << "body " << i;
          worst = std::max({worst, ev, ea, eaS});
        }
      }
    }
  std::cout << "[ measured ] cluster vs spanning-tree body velocity/acceleration worst relative error " << worst
            << "\n";
}

namespace {

/// The same model with every specialised transmission joint replaced by a Generic joint over the
/// same constraints (Model is a value type; its clusters are only const-exposed, hence the cast
/// on our own copy).
Model withGenericJoints(const Model& model) {
  Model generic = model;
  for (int k = 0; k < generic.numClusters(); ++k) {
    auto& cl = const_cast<Cluster&>(generic.cluster(k));
    const std::string type = cl.typeName();
    if (type.find("WithRotor") != std::string::npos)
      cl.joint = std::make_shared<detail::GenericJoint>(cl.joint->constraints());
  }
  return generic;
}

struct Transmission {
  std::string name, type;
  Model model;
};

std::vector<Transmission> transmissions(Rng& rng) {
  std::vector<Transmission> t;
  t.push_back({"rotor chain", "RevoluteWithRotor", rotorChain(rng, 3, false)});
  t.push_back({"rotor chain floating", "RevoluteWithRotor", rotorChain(rng, 2, true)});
  t.push_back({"belt pair chain", "RevolutePairWithRotor", beltChain(rng, 2, false)});
  t.push_back({"belt pair floating", "RevolutePairWithRotor", beltChain(rng, 1, true)});
  t.push_back({"belt pair random axes", "RevolutePairWithRotor", beltChainBuilder(rng, 2, false).build()});
  t.push_back({"belt triple chain", "RevoluteTripleWithRotor", beltTripleChain(rng, 2, false)});
  t.push_back({"belt triple floating", "RevoluteTripleWithRotor", beltTripleChain(rng, 1, true)});
  return t;
}

}  // namespace

TEST(ClusterJoints, SpecialisedTransmissionJointEqualsGenericJointUpdate) {
  Rng rng(105);
  for (auto& t : transmissions(rng)) {
    SCOPED_TRACE(t.name);
    const Model& model = t.model;
    int specialised = 0;
    for (const auto& cl : model.clusters())
      if (isConstrained(cl)) {
        EXPECT_EQ(std::string(cl.typeName()), t.type);
        ++specialised;
      }
    ASSERT_GT(specialised, 0);
    Data fast(model);
    for (int s = 0; s < 10; ++s) {
      const VecX q = randomIndependentConfiguration(rng, model);
      const VecX v = randomVector(rng, model.nv(), -2, 2);
      forwardKinematics(model, fast, q, v);
      for (int k = 0; k < model.numClusters(); ++k) {
        const Cluster& cl = model.cluster(k);
        if (!isConstrained(cl)) continue;
        Data slow = fast;  // same state; poison what the update must write
        const double nan = std::numeric_limits<double>::quiet_NaN();
        ClusterData& cs = slow.work().clusters[static_cast<size_t>(k)];
        cs.S.setConstant(nan);
        for (int r = 0; r < cl.numBodies; ++r) {
          const int i = cl.firstBody + r;
          slow.v[i].setConstant(nan);
          slow.work().c[i].setConstant(nan);
          slow.work().Xout[i] = slow.work().Xup[i] = slow.Xa[i] = Transform(Mat3::Constant(nan), Vec3::Constant(nan));
        }
        slow.vSpan.segment(cl.vSpanIndex, cl.nvSpan).setConstant(nan);
        const detail::GenericJoint generic(cl.joint->constraints());
        ASSERT_TRUE(generic.update(model, cl, slow, v.data() + cl.vIndex));
        const ClusterData& cf = fast.work().clusters[static_cast<size_t>(k)];
        EXPECT_LT(relErr(cs.S, cf.S), 1e-14);
        EXPECT_LT(relErr(slow.vSpan, fast.vSpan), 1e-14);
        for (int r = 0; r < cl.numBodies; ++r) {
          const int i = cl.firstBody + r;
          EXPECT_LT(relErr(slow.v[i], fast.v[i]), 1e-14) << "body " << i;
          EXPECT_LT(relErr(slow.work().c[i], fast.work().c[i]), 1e-14) << "body " << i;
          EXPECT_TRUE(slow.work().Xout[i].isApprox(fast.work().Xout[i], 1e-14)) << "body " << i;
          EXPECT_TRUE(slow.work().Xup[i].isApprox(fast.work().Xup[i], 1e-14)) << "body " << i;
          EXPECT_TRUE(slow.Xa[i].isApprox(fast.Xa[i], 1e-14)) << "body " << i;
        }
      }
    }
  }
}

TEST(ClusterJoints, SpecialisedTransmissionDynamicsEqualGenericDynamics) {
  Rng rng(106);
  double worst = 0;
  for (auto& t : transmissions(rng)) {
    SCOPED_TRACE(t.name);
    const Model generic = withGenericJoints(t.model);
    for (const auto& cl : generic.clusters())
      if (isConstrained(cl)) EXPECT_STREQ(cl.typeName(), "Generic");
    Data dFast(t.model), dGeneric(generic);
    for (int s = 0; s < 10; ++s) {
      const VecX q = randomIndependentConfiguration(rng, t.model);
      const VecX v = randomVector(rng, t.model.nv(), -2, 2), w = randomVector(rng, t.model.nv(), -2, 2);
      const double e[] = {
          relErr(forwardDynamics(t.model, dFast, q, v, w), forwardDynamics(generic, dGeneric, q, v, w)),
          relErr(inverseDynamics(t.model, dFast, q, v, w), inverseDynamics(generic, dGeneric, q, v, w)),
          relErr(massMatrix(t.model, dFast, q), massMatrix(generic, dGeneric, q)),
          relErr(biasForces(t.model, dFast, q, v), biasForces(generic, dGeneric, q, v))};
      for (double x : e) {
        EXPECT_LT(x, 1e-12);
        worst = std::max(worst, x);
      }
    }
  }
  std::cout << "[ measured ] specialised vs Generic dynamics worst relative difference " << worst << "\n";
}
