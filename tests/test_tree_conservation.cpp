// Physics the tree dynamics must respect over time, checked by integrating forwardDynamics with
// small RK4 steps: energy conservation, the work-energy balance, momentum conservation of a
// free-floating robot and its change under gravity.
#include <gtest/gtest.h>

#include <iostream>

#include "support/random_model.hpp"
#include "support/total_mass.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

/// One RK4 step of (q, v) under constant joint forces tau. Also integrates the power tau·v into
/// `work` with the same weights, so work and energy carry the same discretisation error order.
void rk4Step(const Model& model, Data& data, VecX& q, VecX& v, const VecX& tau, double h, double& work) {
  auto acc = [&](const VecX& qq, const VecX& vv) { return VecX(forwardDynamics(model, data, qq, vv, tau)); };
  const VecX k1q = configurationRate(model, q, v), k1v = acc(q, v);
  const VecX q2 = q + 0.5 * h * k1q, v2 = v + 0.5 * h * k1v;
  const VecX k2q = configurationRate(model, q2, v2), k2v = acc(q2, v2);
  const VecX q3 = q + 0.5 * h * k2q, v3 = v + 0.5 * h * k2v;
  const VecX k3q = configurationRate(model, q3, v3), k3v = acc(q3, v3);
  const VecX q4 = q + h * k3q, v4 = v + h * k3v;
  const VecX k4q = configurationRate(model, q4, v4), k4v = acc(q4, v4);
  work += h / 6.0 * (tau.dot(v) + 2.0 * tau.dot(v2) + 2.0 * tau.dot(v3) + tau.dot(v4));
  q += h / 6.0 * (k1q + 2.0 * k2q + 2.0 * k3q + k4q);
  v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
  normalizeQuaternions(model, q);
}

struct Energies {
  double kinetic, potential;
};

Energies energies(const Model& model, Data& data, const VecX& q, const VecX& v) {
  forwardKinematics(model, data, q, v);
  return {kineticEnergy(model, data), potentialEnergy(model, data)};
}

Vec6 momentum(const Model& model, Data& data, const VecX& q, const VecX& v) {
  forwardKinematics(model, data, q, v);
  return worldMomentum(model, data);
}


constexpr double kStep = 2e-4;
constexpr int kSteps = 2500;  // 0.5 s

}  // namespace

TEST(Conservation, EnergyOfFreelySwingingRandomTreesIsConserved) {
  Rng rng(41);
  double worst = 0.0;
  for (int t = 0; t < 6; ++t) {
    TreeOptions opt;
    opt.numLinks = uniformInt(rng, 2, 6);
    const Model model = randomTree(rng, opt);
    Data data(model);
    VecX q = randomConfiguration(rng, model), v = randomVector(rng, model.nv());
    const VecX tau = VecX::Zero(model.nv());
    const Energies e0 = energies(model, data, q, v);
    double work = 0.0;
    for (int s = 0; s < kSteps; ++s) rk4Step(model, data, q, v, tau, kStep, work);
    const Energies e1 = energies(model, data, q, v);
    const double scale = std::max({1.0, e0.kinetic, std::abs(e0.potential)});
    const double drift = std::abs(e1.kinetic + e1.potential - e0.kinetic - e0.potential) / scale;
    // The test would be vacuous if nothing moved: energy must have been exchanged.
    EXPECT_GT(std::abs(e1.kinetic - e0.kinetic), 1e-3 * scale);
    EXPECT_LT(drift, 1e-8);
    worst = std::max(worst, drift);
  }
  std::cout << "[ measured ] max relative energy drift over 0.5 s = " << worst << "\n";
}

TEST(Conservation, KineticEnergyGainEqualsWorkOfJointForcesWithoutGravity) {
  Rng rng(42);
  double worst = 0.0;
  for (bool floating : {false, true}) {
    for (int t = 0; t < 4; ++t) {
      TreeOptions opt;
      opt.numLinks = uniformInt(rng, 2, 6);
      opt.floatingBase = floating;
      opt.gravity = Vec3::Zero();
      const Model model = randomTree(rng, opt);
      Data data(model);
      VecX q = randomConfiguration(rng, model), v = randomVector(rng, model.nv());
      const VecX tau = randomVector(rng, model.nv());
      const double ke0 = energies(model, data, q, v).kinetic;
      double work = 0.0;
      for (int s = 0; s < kSteps; ++s) rk4Step(model, data, q, v, tau, kStep, work);
      const double ke1 = energies(model, data, q, v).kinetic;
      EXPECT_GT(std::abs(work), 1e-3);
      const double err = std::abs(ke1 - ke0 - work) / std::max(1.0, ke0);
      EXPECT_LT(err, 1e-8);
      worst = std::max(worst, err);
    }
  }
  std::cout << "[ measured ] max |ΔKE - ∫tau·v dt| / KE0 = " << worst << "\n";
}

TEST(Conservation, FreeFloatingRobotConservesMomentumUnderInternalJointForces) {
  Rng rng(43);
  double worst = 0.0;
  for (int t = 0; t < 6; ++t) {
    TreeOptions opt;
    opt.numLinks = uniformInt(rng, 1, 6);
    opt.floatingBase = true;
    opt.gravity = Vec3::Zero();
    const Model model = randomTree(rng, opt);
    Data data(model);
    VecX q = randomConfiguration(rng, model), v = randomVector(rng, model.nv());
    VecX tau = randomVector(rng, model.nv());
    tau.head<6>().setZero();  // no force on the floating joint: only internal joint torques
    const Vec6 h0 = momentum(model, data, q, v);
    double work = 0.0;
    for (int s = 0; s < kSteps; ++s) rk4Step(model, data, q, v, tau, kStep, work);
    const Vec6 h1 = momentum(model, data, q, v);
    const double err = (h1 - h0).norm() / std::max(1.0, h0.norm());
    EXPECT_LT(err, 1e-9);
    worst = std::max(worst, err);
  }
  std::cout << "[ measured ] max relative momentum drift over 0.5 s = " << worst << "\n";
}

TEST(Conservation, GravityChangesLinearMomentumAtTotalMassTimesG) {
  Rng rng(44);
  for (int t = 0; t < 4; ++t) {
    TreeOptions opt;
    opt.numLinks = uniformInt(rng, 1, 6);
    opt.floatingBase = true;
    opt.gravity = randomVec3(rng, -10, 10);
    const Model model = randomTree(rng, opt);
    Data data(model);
    VecX q = randomConfiguration(rng, model), v = randomVector(rng, model.nv());
    VecX tau = randomVector(rng, model.nv());
    tau.head<6>().setZero();
    const Vec3 p0 = momentum(model, data, q, v).tail<3>();
    double work = 0.0;
    const int steps = 1000;
    for (int s = 0; s < steps; ++s) rk4Step(model, data, q, v, tau, kStep, work);
    const Vec3 p1 = momentum(model, data, q, v).tail<3>();
    const Vec3 expected = totalMass(model) * opt.gravity * (steps * kStep);
    EXPECT_LT((p1 - p0 - expected).norm(), 1e-9 * std::max(1.0, expected.norm()));
  }
}
