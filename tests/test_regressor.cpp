// The inertial-parameter regressor (algorithms/regressor.hpp): Y π = C-RNEA τ on every bundled
// model and on random cluster models; a rotor's inertia changed in the model description (the
// model rebuilt from its links) changes τ exactly by Y Δπ; the body regressor equals
// I a + v ×* I v written out with spatial matrices; the parameter map round-trips.
#include <gtest/gtest.h>

#include <filesystem>

#include "cluster_support/constraint_problems.hpp"
#include "support/allocation_counter.hpp"
#include "support/dense_contacts.hpp"
#include "support/random_cluster_program.hpp"
#include "support/random_model.hpp"

namespace {

using namespace grbda;
using namespace grbda::testsupport;

std::vector<std::string> bundledModelFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(GRBDA_SOURCE_DIR) + "/models"))
    if (entry.path().extension() == ".urdf") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

void expectRegressorGivesRnea(const Model& m, Rng& rng, const std::string& label) {
  Data data(m), ref(m);
  MatX Y;
  const VecX pi = modelParameters(m);
  for (int trial = 0; trial < 2; ++trial) {
    const VecX q = randomIndependentPositions(rng, m, -0.5, 0.5);
    const VecX v = randomVector(rng, m.nv()), a = randomVector(rng, m.nv());
    VecX tau;
    try {
      tau = inverseDynamics(m, ref, q, v, a);
    } catch (const NumericalError&) {
      continue;  // a loop that cannot close at this random pose
    }
    computeRegressor(m, data, q, v, a, Y);
    ASSERT_EQ(Y.rows(), m.nv());
    ASSERT_EQ(Y.cols(), 10 * m.numBodies());
    EXPECT_LT(relDiff(Y * pi, tau), 1e-10) << label << " trial " << trial;
  }
}

TEST(Regressor, TimesTheModelParametersIsInverseDynamicsOnEveryBundledModel) {
  Rng rng(17);
  const std::vector<std::string> files = bundledModelFiles();
  ASSERT_GE(files.size(), 10u);
  for (const std::string& file : files) expectRegressorGivesRnea(loadUrdf(file), rng, file);
}

TEST(Regressor, TimesTheModelParametersIsInverseDynamicsOnRandomClusterModels) {
  Rng rng(2424);
  int built = 0;
  for (int i = 0; i < 60; ++i) {
    RngChoices choose(rng);
    const RandomProgram program = randomClusterProgram(choose, rng);
    Model m;
    try {
      m = program.builder.build();
    } catch (const ModelError&) {
      continue;
    }
    ++built;
    expectRegressorGivesRnea(m, rng, program.description);
  }
  EXPECT_GT(built, 30);
}

/// The same builder with one link's rotational inertia (about its COM) and mass changed.
ModelBuilder withLinkChanged(const ModelBuilder& in, const std::string& link, double dm, const Mat3& dI) {
  ModelBuilder out(in.name(), in.sourceFile());
  for (LinkSpec l : in.links()) {
    if (l.name == link) {
      l.mass += dm;
      l.inertia += dI;
    }
    out.addLink(l);
  }
  for (const JointSpec& j : in.joints()) out.addJoint(j);
  for (const LoopSpec& l : in.loops()) out.addLoop(l);
  for (const CouplingSpec& c : in.couplings()) out.addCoupling(c);
  for (const ConstraintSpec& c : in.constraints()) out.addConstraint(c);
  for (const FrameSpec& f : in.frames()) out.addFrame(f);
  return out;
}

TEST(Regressor, ChangingARotorInertiaChangesTauExactlyAsPredicted) {
  const ModelBuilder builder = parseUrdfFile(modelFile("mini_cheetah.urdf"));
  const Model m = builder.build();
  Mat3 dI = Mat3::Zero();
  dI.diagonal() << 2e-4, 5e-5, 3e-4;  // a heavier knee rotor, mostly about its spin axis
  dI(0, 2) = dI(2, 0) = 1e-5;
  const Model changed = withLinkChanged(builder, "FR_knee_rotor", 0.05, dI).build();
  const VecX dpi = modelParameters(changed) - modelParameters(m);
  const int rotor = m.bodyIndex("FR_knee_rotor");
  EXPECT_GT(dpi.segment<10>(10 * rotor).norm(), 0.0);
  EXPECT_EQ((VecX(dpi.head(10 * rotor))).norm() + VecX(dpi.tail(dpi.size() - 10 * (rotor + 1))).norm(), 0.0);
  Data d(m), dc(changed);
  MatX Y;
  Rng rng(6);
  for (int trial = 0; trial < 3; ++trial) {
    const VecX q = randomIndependentPositions(rng, m, -0.5, 0.5);
    const VecX v = randomVector(rng, m.nv(), -3.0, 3.0), a = randomVector(rng, m.nv(), -3.0, 3.0);
    const VecX tau0 = inverseDynamics(m, d, q, v, a);
    const VecX tau1 = inverseDynamics(changed, dc, q, v, a);
    computeRegressor(m, d, q, v, a, Y);
    const VecX predicted = Y * dpi;
    EXPECT_GT(maxAbs(tau1 - tau0), 1e-4) << "the change must show in tau";
    EXPECT_LT(maxAbs((tau1 - tau0) - predicted), 1e-12 * (1.0 + maxAbs(tau0))) << "trial " << trial;
    // the map back: the model rebuilt from π gives the changed model's τ
    Data dw(m);
    const Model rebuilt = modelWithParameters(m, modelParameters(m) + dpi);
    EXPECT_LT(relDiff(inverseDynamics(rebuilt, dw, q, v, a), tau1), 1e-12);
  }
}

TEST(Regressor, BodyRegressorEqualsTheSpatialNewtonEulerEquation) {
  Rng rng(12);
  for (int trial = 0; trial < 5; ++trial) {
    const double mass = uniform(rng, 0.5, 3.0);
    const Mat6 I = spatialInertia(mass, randomVec3(rng, -0.2, 0.2), randomRotationalInertia(rng, mass));
    Vec6 v, a;
    v << randomVec3(rng), randomVec3(rng);
    a << randomVec3(rng), randomVec3(rng);
    // f = I a + v ×* (I v), v ×* = −(v ×)ᵀ with the 6 x 6 motion cross product written out
    Mat6 vx = Mat6::Zero();
    vx.topLeftCorner<3, 3>() = skew(v.head<3>());
    vx.bottomRightCorner<3, 3>() = skew(v.head<3>());
    vx.bottomLeftCorner<3, 3>() = skew(v.tail<3>());
    const Vec6 f = I * a - vx.transpose() * (I * v);
    const Vec10 pi = inertiaParameters(I);
    EXPECT_LT((bodyRegressor(v, a) * pi - f).norm(), 1e-12 * (1.0 + f.norm()));
    EXPECT_LT((inertiaFromParameters(pi) - I).norm(), 1e-14);
    EXPECT_NEAR(pi[0], mass, 1e-15);
  }
}

TEST(Regressor, ParameterNamesAndMapsRoundTrip) {
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  const VecX pi = modelParameters(m);
  const std::vector<std::string> names = parameterNames(m);
  ASSERT_EQ(static_cast<Eigen::Index>(names.size()), pi.size());
  EXPECT_EQ(names[0], m.body(0).name + ".m");
  EXPECT_EQ(names[9], m.body(0).name + ".Izz");
  const std::vector<Mat6> inertias = bodyInertiasFromParameters(m, pi);
  for (int i = 0; i < m.numBodies(); ++i) EXPECT_LT((inertias[static_cast<size_t>(i)] - m.body(i).inertia).norm(), 1e-14);
  EXPECT_THROW(modelWithParameters(m, VecX::Zero(pi.size() - 1)), InputError);
  VecX bad = pi;
  bad[3] = std::nan("");
  EXPECT_THROW(modelWithParameters(m, bad), InputError);
  Data data(m);
  MatX Y;
  const VecX q = m.neutralConfiguration(), v = VecX::Zero(m.nv());
  EXPECT_THROW(computeRegressor(m, data, q, v, VecX::Zero(m.nv() + 1), Y), InputError);
  VecX nanA = v;
  nanA[2] = std::nan("");
  EXPECT_THROW(computeRegressor(m, data, q, v, nanA, Y), InputError);
  const Model other = loadUrdf(modelFile("arm_6dof.urdf"));
  Data otherData(other);
  EXPECT_THROW(computeRegressor(m, otherData, q, v, v, Y), InputError);
}

TEST(Regressor, NoAllocationOnceSized) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator linked";
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  Data data(m);
  MatX Y;
  Rng rng(3);
  const VecX q = randomIndependentPositions(rng, m, -0.5, 0.5), v = randomVector(rng, m.nv()), a = randomVector(rng, m.nv());
  computeRegressor(m, data, q, v, a, Y);
  AllocationScope scope;
  computeRegressor(m, data, q, v, a, Y);
  EXPECT_EQ(scope.count(), 0);
}

}  // namespace
