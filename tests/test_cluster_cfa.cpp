// The cluster CFA (spec §3.6 C5, research): seed 004's Eq. 16 with cluster blocks. Checked against
// C-ABA (an independent algorithm: articulated inertias, no constraint forces) on every mechanism
// of the catalogue, fixed and floating, the bundled cluster chains, and by the property that
// defines it: ℳ ÿ = τ − C with ℳ from the cluster CRBA.
#include <gtest/gtest.h>

#include "cluster_support/constrained_models.hpp"
#include "grbda/algorithms/cluster_cfa.hpp"
#include "grbda/grbda.hpp"
#include "support/allocation_counter.hpp"

namespace {

using namespace grbda;
using namespace grbda::testsupport;

double relativeError(const VecX& a, const VecX& b) { return (a - b).norm() / (1.0 + b.norm()); }

void expectAgreesWithClusterAba(const Model& m, Rng& rng, double lo, double hi) {
  ClusterCfaData cfa(m);
  Data data(m);
  for (int trial = 0; trial < 5; ++trial) {
    const VecX q = randomIndependentPositions(rng, m, lo, hi);
    const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv(), -5.0, 5.0);
    const VecX qdd = clusterCfaForwardDynamics(m, cfa, q, v, tau);
    const VecX reference = forwardDynamics(m, data, q, v, tau);
    EXPECT_LT(relativeError(qdd, reference), 1e-9) << "trial " << trial;
    // ℳ ÿ + C = τ: the definition, with ℳ from the cluster CRBA and C from C-RNEA
    const VecX Mqdd = massMatrix(m, data, q) * qdd, C = inverseDynamics(m, data, q, v, VecX::Zero(m.nv()));
    EXPECT_LT((Mqdd + C - tau).norm() / (1.0 + Mqdd.norm() + C.norm() + tau.norm()), 1e-10) << "trial " << trial;
  }
}

TEST(ClusterCfa, EqualsClusterAbaOnEveryMechanismFixedAndFloating) {
  Rng rng(2026);
  int tested = 0;
  for (bool floating : {false, true})
    for (Mechanism& mech : mechanismCatalogue(rng, floating)) {
      SCOPED_TRACE(mech.name + (floating ? " (floating)" : ""));
      const Model m = mech.builder.build();
      const std::string reason = clusterCfaUnsupportedReason(m);
      if (!reason.empty()) {  // only two clusters on one body are refused
        EXPECT_NE(reason.find("both hang from body"), std::string::npos) << reason;
        continue;
      }
      expectAgreesWithClusterAba(m, rng, mech.lo, mech.hi);
      ++tested;
    }
  EXPECT_GE(tested, 18);
}

TEST(ClusterCfa, EqualsClusterAbaOnLongChains) {
  Rng rng(7);
  for (int n : {1, 8, 24}) {
    SCOPED_TRACE(n);
    expectAgreesWithClusterAba(rotorChain(rng, n, n == 8), rng, -1.0, 1.0);
    expectAgreesWithClusterAba(beltChain(rng, n, false), rng, -1.0, 1.0);
    expectAgreesWithClusterAba(beltTripleChain(rng, std::max(1, n / 3), true), rng, -1.0, 1.0);
    expectAgreesWithClusterAba(fourBarChain(rng, std::max(1, n / 4), n == 24), rng, -1.0, 1.0);
  }
}

TEST(ClusterCfa, BundledModels) {
  // Every bundled model with loops that the CFA takes; the others are refused for one of the two
  // stated reasons (several clusters on one body — a legged robot's trunk —, or a singular body
  // inertia: a rotor modelled without mass, a planar link).
  Rng rng(11);
  std::vector<std::string> tested;
  for (const char* file : {"generated/revolute_rotor_chain_12.urdf", "generated/revolute_belt_pair_chain_12.urdf",
                           "generated/revolute_belt_triple_chain_12.urdf", "generated/parallel_chain_explicit_d5_l4.urdf",
                           "generated/parallel_chain_implicit_d5_l5.urdf", "revolute_rotor_chain.urdf", "four_bar.urdf",
                           "six_bar.urdf", "planar_leg_linkage.urdf", "mit_humanoid_leg.urdf", "mini_cheetah.urdf",
                           "mit_humanoid.urdf", "tello_humanoid.urdf"}) {
    SCOPED_TRACE(file);
    const Model m = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/" + file);
    const std::string reason = clusterCfaUnsupportedReason(m);
    if (reason.empty()) {
      expectAgreesWithClusterAba(m, rng, -0.3, 0.3);
      tested.push_back(file);
    } else {
      EXPECT_TRUE(reason.find("both hang from body") != std::string::npos || reason.find("singular inertia") != std::string::npos)
          << reason;
    }
  }
  std::string list;
  for (const auto& t : tested) list += t + " ";
  RecordProperty("tested", list);
  EXPECT_GE(tested.size(), 3u) << list;
}

TEST(ClusterCfa, BlockSizesAreSixPerBodyLessTheDegreesOfFreedom) {
  Rng rng(3);
  const Model m = rotorChain(rng, 4, true);  // a floating base, then four rotor pairs
  const ClusterCfaData cfa(m);
  ASSERT_EQ(m.numClusters(), 5);
  EXPECT_EQ(cfa.blockSize(0), 0);  // a free body: no constraint force
  for (int k = 1; k < 5; ++k) EXPECT_EQ(cfa.blockSize(k), 11);  // link + rotor, 1 DoF
  EXPECT_EQ(cfa.systemSize(), 44);
}

TEST(ClusterCfa, RefusesSiblingsOnOneBodyByNameAndForeignModels) {
  const Model cheetah = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  try {
    ClusterCfaData cfa(cheetah);
    FAIL() << "the Mini Cheetah's legs all hang from its body";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("both hang from body"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("mini_cheetah"), std::string::npos) << e.what();
  }
  Rng rng(5);
  const Model m = rotorChain(rng, 2, false);
  ClusterCfaData cfa(m);
  const VecX q = VecX::Zero(m.nq());
  EXPECT_THROW(clusterCfaForwardDynamics(m, cfa, q, VecX::Zero(m.nv() + 1), VecX::Zero(m.nv())), InputError);
  try {
    clusterCfaForwardDynamics(cheetah, cfa, VecX::Zero(cheetah.nq()), VecX::Zero(cheetah.nv()), VecX::Zero(cheetah.nv()));
    FAIL() << "a workspace of another model";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("ClusterCfaData was made for model '" + m.name() + "', not 'mini_cheetah'"),
              std::string::npos)
        << e.what();
  }
}

TEST(ClusterCfa, DoesNotAllocatePerCall) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no allocation counter linked in (see tests/support/allocation_counter.hpp)";
  Rng rng(89);
  for (const Model& m : {rotorChain(rng, 6, true), beltTripleChain(rng, 2, false), fourBarChain(rng, 2, true)}) {
    ClusterCfaData cfa(m);
    const VecX q = randomIndependentPositions(rng, m, -1.0, 1.0), v = randomVector(rng, m.nv()),
               tau = randomVector(rng, m.nv());
    clusterCfaForwardDynamics(m, cfa, q, v, tau);  // warm-up: the first call may size lazily
    AllocationScope scope;
    clusterCfaForwardDynamics(m, cfa, q, v, tau);
    EXPECT_EQ(scope.count(), 0) << m.name();
  }
}

}  // namespace
