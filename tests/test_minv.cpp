// ℳ⁻¹ and log det ℳ from the articulated-cluster pivots, against the cluster CRBA's ℳ.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cluster_support/constrained_models.hpp"
#include "grbda/grbda.hpp"
#include "grbda/robots/tello.hpp"
#include "support/random_model.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

void expectInverseAndLogDet(const Model& m, const VecX& q, const std::string& label) {
  SCOPED_TRACE(label);
  Data data(m), ref(m);
  const MatX H = massMatrix(m, ref, q);
  const MatX Minv = inverseMassMatrix(m, data, q);
  const MatX I = MatX::Identity(m.nv(), m.nv());
  EXPECT_LT((Minv * H - I).cwiseAbs().maxCoeff(), 1e-12) << "cond(H) may be large";
  EXPECT_LT((Minv - Minv.transpose()).cwiseAbs().maxCoeff(), 1e-12 * Minv.cwiseAbs().maxCoeff());
  const Eigen::LLT<MatX> llt(H);
  double dense = 0.0;
  for (Eigen::Index i = 0; i < H.rows(); ++i) dense += 2.0 * std::log(llt.matrixLLT()(i, i));
  EXPECT_NEAR(logDetMassMatrix(m, data, q), dense, 1e-10 * (1.0 + std::abs(dense)));
}

}  // namespace

TEST(InverseMassMatrix, TimesTheMassMatrixIsIdentityOnBundledRobots) {
  Rng rng(71);
  for (const char* file : {"mini_cheetah.urdf", "mit_humanoid.urdf", "jvrc1_humanoid.urdf", "revolute_rotor_chain.urdf",
                           "arm_6dof.urdf"}) {
    const Model m = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/" + file);
    expectInverseAndLogDet(m, randomIndependentConfiguration(rng, m), file);
  }
  const Model tello = robots::tello();
  VecX q = tello.neutralConfiguration();
  q.tail(tello.nq() - 7) = randomVector(rng, tello.nq() - 7, -0.3, 0.3);
  expectInverseAndLogDet(tello, q, "builtin:tello");
}

TEST(InverseMassMatrix, RandomTreesAndClusterModels) {
  Rng rng(73);
  for (bool floating : {false, true})
    for (int t = 0; t < 5; ++t) {
      TreeOptions opt;
      opt.numLinks = uniformInt(rng, 1, 15);
      opt.floatingBase = floating;
      const Model m = randomTree(rng, opt);
      expectInverseAndLogDet(m, randomConfiguration(rng, m), "random tree " + std::to_string(t));
    }
  for (auto& [name, m] : constrainedModels(rng)) expectInverseAndLogDet(m, randomIndependentConfiguration(rng, m), name);
}
