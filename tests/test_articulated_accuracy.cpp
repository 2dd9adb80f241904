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

}  // namespace

TEST(ArticulatedAccuracy, HeavyBeltRotorOnLightFloatingBaseMatchesDenseSolve) {
  Rng rng(20261124);
  const std::map<std::string, double> masses{
      {"base", 1e-2}, {"upper1", 2e-3}, {"lower1", 2e-5}, {"rotorA1", 1e-5}, {"rotorB1", 2e4}};
  double worstCondition = 0.0;
  for (int draw = 0; draw < 20; ++draw) {
    const Model model = withMasses(beltChainBuilder(rng, 1, true), masses).build();
    Data data(model);
    VecX q = model.neutralConfiguration() + randomVector(rng, model.nq(), -0.4, 0.4);
    q.segment<4>(3).normalize();
    const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv()) * 1e3;

    const MatX H = massMatrix(model, data, q);  // cluster CRBA: no articulated inertias
    const VecX C = biasForces(model, data, q, v);
    const double cond = conditionOf(H);
    worstCondition = std::max(worstCondition, cond);
    const Eigen::LDLT<MatL> dense(H.cast<long double>());
    const VecX qddRef = dense.solve((tau - C).cast<long double>()).cast<double>();
    const MatX MinvRef = dense.solve(MatL::Identity(model.nv(), model.nv())).cast<double>();

    // a backward-stable method is off by about cond(H)·ε; the cancelling fold was 1.5e-13·cond(H)
    const double tolerance = 1e-14 * cond;
    const VecX qdd = forwardDynamics(model, data, q, v, tau);
    EXPECT_LT((qdd - qddRef).norm() / qddRef.norm(), tolerance) << "draw " << draw << ", cond H " << cond;
    const MatX& Minv = inverseMassMatrix(model, data, q);
    EXPECT_LT((Minv - MinvRef).norm() / MinvRef.norm(), tolerance) << "draw " << draw << ", cond H " << cond;
  }
  EXPECT_GT(worstCondition, 1e8);  // the draws are as ill-conditioned as the fuzzer's finding
}
