// Accuracy of the articulated-cluster pass when one heavy body is driven by several coordinates
// of its cluster: a belt pair whose second rotor (2e4 kg) turns with q1 + q2, on a 10 g floating
// base. D_k = Sᵀ IA S is then nearly singular (the rotor's inertia times [1 1; 1 1]) and the
// articulated inertia the base receives, IA − XU D⁻¹ XUᵀ, is a small remainder of large terms.
// The fuzzer found C-ABA 1e-2 off (the base's accelerations by 60 %) while a dense solve of the
// same H was right to 3e-9: the fold must be formed as Zᵀ Z with Z = L⁻¹ XUᵀ. Checked against
// H from the cluster CRBA factorised in long double, with a tolerance that follows cond(H).
#include <gtest/gtest.h>

#include <map>

#include <Eigen/Eigenvalues>

#include "cluster_support/constrained_models.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

using MatL = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;

/// The same program with each named link's mass and rotational inertia scaled.
ModelBuilder withMasses(const ModelBuilder& in, const std::map<std::string, double>& mass) {
  ModelBuilder out(in.name());
  out.setGravity(Vec3(0.0, 0.0, -9.81));
  for (LinkSpec l : in.links()) {
    const auto it = mass.find(l.name);
    if (it != mass.end() && l.mass > 0.0) {
      l.inertia *= it->second / l.mass;
      l.mass = it->second;
    }
    out.addLink(l);
  }
  for (const JointSpec& j : in.joints()) out.addJoint(j);
  for (const CouplingSpec& c : in.couplings()) out.addCoupling(c);
  return out;
}

double conditionOf(const MatX& H) {
  const VecX ev = Eigen::SelfAdjointEigenSolver<MatX>(H, Eigen::EigenvaluesOnly).eigenvalues();
  return ev[ev.size() - 1] / ev[0];
}

/// Worst relative error of C-ABA's q̈ and of ℳ⁻¹ against H from the cluster CRBA solved in long
/// double, each divided by cond(H) (a backward-stable method is off by about cond(H)·ε), at
/// `draws` random states of `builder`'s model; also the largest cond(H) seen.
struct Accuracy {
  double worstQdd = 0.0, worstMinv = 0.0, worstCondition = 0.0;
};
Accuracy accuracyAgainstDenseSolve(const ModelBuilder& builder, Rng& rng, int draws) {
  Accuracy out;
  const Model model = builder.build();
  Data data(model);
  for (int draw = 0; draw < draws; ++draw) {
    VecX q = model.neutralConfiguration() + randomVector(rng, model.nq(), -0.4, 0.4);
    q.segment<4>(3).normalize();
    const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv()) * 1e3;

    const MatX H = massMatrix(model, data, q);  // cluster CRBA: no articulated inertias
    const VecX C = biasForces(model, data, q, v);
    const double cond = conditionOf(H);
    out.worstCondition = std::max(out.worstCondition, cond);
    const Eigen::LDLT<MatL> dense(H.cast<long double>());
    const VecX qddRef = dense.solve((tau - C).cast<long double>()).cast<double>();
    const MatX MinvRef = dense.solve(MatL::Identity(model.nv(), model.nv())).cast<double>();

    const VecX qdd = forwardDynamics(model, data, q, v, tau);
    out.worstQdd = std::max(out.worstQdd, (qdd - qddRef).norm() / qddRef.norm() / cond);
    const MatX& Minv = inverseMassMatrix(model, data, q);
    out.worstMinv = std::max(out.worstMinv, (Minv - MinvRef).norm() / MinvRef.norm() / cond);
  }
  return out;
}

/// n links in series under a light floating base, each driven through a belt by a rotor on the
/// base (rotor_j turns with q_1 + … + q_j): one cluster of n degrees of freedom; the last rotor,
/// heavy, turns with all of them.
ModelBuilder beltClusterOnLightBase(Rng& rng, int n) {
  ModelBuilder b("belt_cluster");
  std::map<std::string, double> masses{{"base", 1e-2}};
  const std::string base = startModel(b, rng, true);
  std::string up = base;
  for (int j = 1; j <= n; ++j) {
    const std::string link = "link" + std::to_string(j), rotor = "rotor" + std::to_string(j);
    addLinkAndJoint(b, rng, link, up, randomAxis(rng), true, randomOrigin(rng));
    addLinkAndJoint(b, rng, rotor, base, randomAxis(rng), false, randomOrigin(rng));
    addCoupling(b, "belt" + std::to_string(j), link, rotor, uniform(rng, 1.5, 8.0));
    masses[link] = 2e-3 / j;
    masses[rotor] = j == n ? 2e4 : 1e-5;
    up = link;
  }
  return withMasses(b, masses);
}

}  // namespace

// the cancelling fold was 1.5e-13 · cond(H) off; a backward-stable one about 1e-16 · cond(H)
constexpr double kTolerancePerCondition = 1e-14;

TEST(ArticulatedAccuracy, HeavyBeltRotorOnLightFloatingBaseMatchesDenseSolve) {
  Rng rng(20261124);
  const std::map<std::string, double> masses{
      {"base", 1e-2}, {"upper1", 2e-3}, {"lower1", 2e-5}, {"rotorA1", 1e-5}, {"rotorB1", 2e4}};
  double worstCondition = 0.0;
  for (int draw = 0; draw < 20; ++draw) {  // a new geometry each time
    const Accuracy a = accuracyAgainstDenseSolve(withMasses(beltChainBuilder(rng, 1, true), masses), rng, 1);
    EXPECT_LT(a.worstQdd, kTolerancePerCondition) << "draw " << draw << ", cond H " << a.worstCondition;
    EXPECT_LT(a.worstMinv, kTolerancePerCondition) << "draw " << draw << ", cond H " << a.worstCondition;
    worstCondition = std::max(worstCondition, a.worstCondition);
  }
  EXPECT_GT(worstCondition, 1e8);  // as ill-conditioned as the fuzzer's finding
}

// d_k = 4 and 5 take the pass's dynamic-size path (Eigen's LLT of D_k instead of the unrolled one).
TEST(ArticulatedAccuracy, FourAndFiveDofBeltClustersTakeTheDynamicPathAccurately) {
  Rng rng(7);
  for (int n : {4, 5}) {
    const ModelBuilder builder = beltClusterOnLightBase(rng, n);
    const Model model = builder.build();
    ASSERT_EQ(model.numClusters(), 2);
    ASSERT_EQ(model.cluster(1).nv, n);
    const Accuracy a = accuracyAgainstDenseSolve(builder, rng, 10);
    EXPECT_LT(a.worstQdd, kTolerancePerCondition) << n << " DoF, cond H up to " << a.worstCondition;
    EXPECT_LT(a.worstMinv, kTolerancePerCondition) << n << " DoF, cond H up to " << a.worstCondition;
    EXPECT_GT(a.worstCondition, 1e8);
  }
}
