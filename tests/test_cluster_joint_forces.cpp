// The force a cluster joint transmits (clusterJointForce after C-RNEA), checked against
// Newton-Euler for the whole robot: what the ground exerts on a fixed-base robot equals the rate
// of change of its total spatial momentum minus the gravity wrench. The momentum rate is taken by
// central differences along y(t) = y + ẏ t + ÿ t²/2, so it shares nothing with C-RNEA but the
// kinematics.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "grbda/grbda.hpp"

using namespace grbda;

namespace {

/// Total spatial momentum about the world origin, world coordinates.
Vec6 worldMomentum(const Model& model, Data& data, const VecX& y, const VecX& yd) {
  forwardKinematics(model, data, y, yd);
  Vec6 h = Vec6::Zero();
  for (int i = 0; i < model.numBodies(); ++i) h += data.Xa[i].applyTranspose(model.body(i).inertia * data.v[i]);
  return h;
}

/// Gravity wrench on the whole robot about the world origin, world coordinates.
Vec6 gravityWrench(const Model& model, Data& data, const VecX& y) {
  forwardKinematics(model, data, y);
  Vec6 ag = Vec6::Zero();
  ag.tail<3>() = model.gravity();
  Vec6 w = Vec6::Zero();
  for (int i = 0; i < model.numBodies(); ++i)
    w += data.Xa[i].applyTranspose(model.body(i).inertia * data.Xa[i].apply(ag));
  return w;
}

}  // namespace

TEST(ClusterJointForces, GroundReactionEqualsMomentumRateMinusGravity) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-0.5, 0.5);
  for (const std::string file : {"mit_humanoid_leg.urdf", "revolute_rotor_chain.urdf", "four_bar.urdf"}) {
    SCOPED_TRACE(file);
    const Model model = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/" + file);
    Data data(model), kin(model);
    for (int s = 0; s < 10; ++s) {
      VecX y(model.nq()), yd(model.nv()), ydd(model.nv());
      for (int j = 0; j < model.nq(); ++j) y[j] = 0.3 + U(rng);  // away from four-bar toggles at 0 and π
      for (int j = 0; j < model.nv(); ++j) yd[j] = U(rng), ydd[j] = U(rng);
      inverseDynamics(model, data, y, yd, ydd);
      Vec6 fGround = Vec6::Zero();
      for (int k = 0; k < model.numClusters(); ++k)
        if (model.cluster(k).parent < 0) fGround += clusterJointForce(model, data, k);

      const double dt = 1e-5;
      auto momentumAt = [&](double t) {
        return worldMomentum(model, kin, VecX(y + yd * t + 0.5 * ydd * t * t), VecX(yd + ydd * t));
      };
      const Vec6 hdot = (momentumAt(dt) - momentumAt(-dt)) / (2 * dt);
      const Vec6 expected = hdot - gravityWrench(model, kin, y);
      EXPECT_LT((fGround - expected).norm(), 1e-6 * (1.0 + expected.norm()))
          << "C-RNEA " << fGround.transpose() << "\nNewton-Euler " << expected.transpose();
    }
  }
}

TEST(ClusterJointForces, ClusterIndexOutOfRangeIsAnInputError) {
  const Model model = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mit_humanoid_leg.urdf");
  Data data(model);
  EXPECT_THROW(clusterJointForce(model, data, model.numClusters()), InputError);
  EXPECT_THROW(clusterJointForce(model, data, -1), InputError);
}
