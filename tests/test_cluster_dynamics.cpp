// The cluster algorithms against the exact baselines on the spanning tree (spec §6.9):
// C-ABA = projection = Lagrange multipliers, C-RNEA = projected RNEA, cluster CRBA = GᵀHG.
#include <gtest/gtest.h>

#include "cluster_support/constrained_models.hpp"
#include "grbda/grbda.hpp"
#include "support/compare.hpp"

using namespace grbda;
using namespace grbda::testsupport;

TEST(ClusterDynamics, ClusterAbaMatchesProjectionAndLagrange) {
  Rng rng(7);
  double worst = 0.0;
  for (auto& [name, model] : constrainedModels(rng)) {
    SCOPED_TRACE(name);
    Data data(model);
    for (int s = 0; s < 10; ++s) {
      const VecX q = randomIndependentConfiguration(rng, model);
      const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
      const VecX cluster = forwardDynamics(model, data, q, v, tau);
      const VecX projection = projectionForwardDynamics(model, data, q, v, tau);
      const VecX lagrange = lagrangeForwardDynamics(model, data, q, v, tau);
      EXPECT_LT(relErr(cluster, projection), 1e-9);
      EXPECT_LT(relErr(cluster, lagrange), 1e-9);
      worst = std::max({worst, relErr(cluster, projection), relErr(cluster, lagrange)});
    }
  }
  RecordProperty("worst_relative_error", std::to_string(worst));
  std::cout << "[ measured ] C-ABA vs projection/Lagrange worst relative error " << worst << "\n";
}

TEST(ClusterDynamics, ClusterRneaMatchesProjectedRnea) {
  Rng rng(8);
  for (auto& [name, model] : constrainedModels(rng)) {
    SCOPED_TRACE(name);
    Data data(model);
    for (int s = 0; s < 10; ++s) {
      const VecX q = randomIndependentConfiguration(rng, model);
      const VecX v = randomVector(rng, model.nv()), a = randomVector(rng, model.nv());
      const VecX cluster = inverseDynamics(model, data, q, v, a);
      EXPECT_LT(relErr(cluster, projectionInverseDynamics(model, data, q, v, a)), 1e-9);
      EXPECT_LT(relErr(forwardDynamics(model, data, q, v, cluster), a), 1e-9);  // FD(ID(a)) = a
    }
  }
}

TEST(ClusterDynamics, ClusterMassMatrixEqualsProjectedTreeMassMatrix) {
  Rng rng(9);
  for (auto& [name, model] : constrainedModels(rng)) {
    SCOPED_TRACE(name);
    Data data(model);
    for (int s = 0; s < 5; ++s) {
      const VecX q = randomIndependentConfiguration(rng, model);
      const VecX v = randomVector(rng, model.nv()), a = randomVector(rng, model.nv());
      const MatX H = massMatrix(model, data, q);
      EXPECT_LT(relErr(H, projectionMassMatrix(model, data, q)), 1e-9);
      EXPECT_EQ((H - H.transpose()).norm(), 0.0);
      EXPECT_EQ(Eigen::LLT<MatX>(H).info(), Eigen::Success);
      const VecX C = biasForces(model, data, q, v);
      EXPECT_LT(relErr(C, projectionBiasForces(model, data, q, v)), 1e-9);
      EXPECT_LT(relErr(VecX(H * a + C), inverseDynamics(model, data, q, v, a)), 1e-9);
    }
  }
}
