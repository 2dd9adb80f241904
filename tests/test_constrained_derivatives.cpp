// Derivatives of constrained forward dynamics (algorithms/constrained_derivatives.hpp) against
// central finite differences of constrainedForwardDynamics (kkt) on the manifold (integrate), for
// q̈ and λ; ∂q̈/∂τ against the dense projected inverse; the unconstrained case against
// computeABADerivatives; refused inputs.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <utility>
#include <vector>

#include "cluster_support/constrained_models.hpp"
#include "cluster_support/constraint_problems.hpp"
#include "grbda/grbda.hpp"
#include "grbda/robots/tello.hpp"
#include "support/finite_differences.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

/// ‖a − b‖_max / max(1, ‖b‖_max), as in test_derivatives.cpp.
/// Finite differences of (q̈, λ) = constrained FD (kkt), stacked, along each tangent direction of
/// q (fourth-order stencil, h = 1e-5: a welded arm near a singular pose puts the plain central
/// difference's error at 1e-5), and of v and τ: q̈ and λ are quadratic in v and linear in τ, so
/// the plain central difference is exact at steps large enough to keep rounding out.
struct FiniteDifferences {
  MatX ddq_dq, ddq_dv, ddq_dtau, dl_dq, dl_dv, dl_dtau;
};

/// Baumgarte's reference pose at qref (the derivatives hold it fixed; without it each workspace
/// would capture the pose of its own first solve).
void setReference(const Model& model, const ConstraintModel& cm, ConstraintData& cd, const VecX& qref) {
  Data data(model);
  forwardKinematics(model, data, qref);
  cd.setReference(model, data, cm);
}

FiniteDifferences finiteDifferences(const Model& model, const ConstraintModel& cm, const VecX& q, const VecX& v,
                                    const VecX& tau, const VecX* qref) {
  Data data(model);
  ConstraintData cd(model, cm);
  if (qref) setReference(model, cm, cd, *qref);
  ConstraintSolverSettings kkt;
  kkt.solver = ConstraintSolver::KKT;
  const int nv = model.nv(), m = cm.numRows();
  FiniteDifferences fd{MatX(nv, nv), MatX(nv, nv), MatX(nv, nv), MatX(m, nv), MatX(m, nv), MatX(m, nv)};
  VecX x(nv + m);  // [q̈; λ]
  auto solve = [&](const VecX& qx, const VecX& vx, const VecX& taux) {
    constrainedForwardDynamics(model, data, cm, cd, qx, vx, taux, kkt);
    x << data.qdd, cd.lambda;
    return x;
  };
  auto split = [&](const VecX& d, MatX& a, MatX& l, int j) {
    a.col(j) = d.head(nv);
    l.col(j) = d.tail(m);
  };
  for (int j = 0; j < nv; ++j) {
    const VecX e = VecX::Unit(nv, j);
    split(tangentDerivative(model, q, j, 1e-5, [&](const VecX& qj) { return solve(qj, v, tau); }), fd.ddq_dq, fd.dl_dq, j);
    split((solve(q, v + 1e-2 * e, tau) - solve(q, v - 1e-2 * e, tau)) / 2e-2, fd.ddq_dv, fd.dl_dv, j);
    split((solve(q, v, tau + e) - solve(q, v, tau - e)) / 2.0, fd.ddq_dtau, fd.dl_dtau, j);
  }
  return fd;
}

/// The analytic derivatives (pv, then kkt) at `states` random states against finite differences.
/// With Baumgarte on, the reference pose is a random one (`qref`, else none is set).
void expectMatchesFiniteDifferences(const Model& model, const ConstraintModel& cm, Rng& rng, int states,
                                    const VecX* qref = nullptr) {
  Data data(model);
  ConstraintData cd(model, cm);
  if (qref) setReference(model, cm, cd, *qref);
  double worst = 0.0;
  for (int s = 0; s < states; ++s) {
    VecX q, v, tau;
    for (int attempt = 0; attempt < 20; ++attempt) {  // a state at which the loops close
      q = randomIndependentConfiguration(rng, model);
      v = randomVector(rng, model.nv());
      tau = randomVector(rng, model.nv());
      try {
        constrainedForwardDynamics(model, data, cm, cd, q, v, tau);
        break;
      } catch (const NumericalError&) {
      }
    }
    for (ConstraintSolver solver : {ConstraintSolver::PV, ConstraintSolver::KKT}) {
      SCOPED_TRACE(std::string("state ") + std::to_string(s) + ", " + constraintSolverName(solver));
      ConstraintSolverSettings settings;
      settings.solver = solver;
      computeConstrainedDynamicsDerivatives(model, data, cm, cd, q, v, tau, settings);
      const ConstraintDerivativesData& D = cd.derivatives;
      const FiniteDifferences fd = finiteDifferences(model, cm, q, v, tau, qref);
      EXPECT_LT(maxRelErr(D.ddq_dq, fd.ddq_dq), kDerivativeTolerance);
      EXPECT_LT(maxRelErr(D.ddq_dv, fd.ddq_dv), kDerivativeTolerance);
      EXPECT_LT(maxRelErr(D.ddq_dtau, fd.ddq_dtau), kDerivativeTolerance);
      EXPECT_LT(maxRelErr(D.dlambda_dq, fd.dl_dq), kDerivativeTolerance);
      EXPECT_LT(maxRelErr(D.dlambda_dv, fd.dl_dv), kDerivativeTolerance);
      EXPECT_LT(maxRelErr(D.dlambda_dtau, fd.dl_dtau), kDerivativeTolerance);
      EXPECT_GT(fd.dl_dq.cwiseAbs().maxCoeff(), 1e-3);  // λ really moves with q: not a vacuous check
      for (const auto& [a, b] : {std::pair<const MatX&, const MatX&>{D.ddq_dq, fd.ddq_dq}, {D.ddq_dv, fd.ddq_dv},
                                 {D.dlambda_dq, fd.dl_dq}, {D.dlambda_dv, fd.dl_dv}})
        worst = std::max(worst, maxRelErr(a, b));
    }
  }
  std::printf("  worst relative error against finite differences: %.2e\n", worst);
}

}  // namespace

TEST(ConstrainedDerivatives, MiniCheetahFourFeetMatchFiniteDifferences) {
  const Model model = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(model);
  for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) cm.addPointContact(foot);
  Rng rng(1601);
  expectMatchesFiniteDifferences(model, cm, rng, 10);
}

TEST(ConstrainedDerivatives, MiniCheetahWeldRelativeAndCustomRowsMatchFiniteDifferences) {
  // a weld on a rotor, a point off the foot, a relative weld of the hind feet, a custom row on the base
  const Model model = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(model);
  cm.addWeld("FL_knee_rotor", Vec3(0.01, 0.02, -0.03));
  cm.addPointContact("FR_foot", Vec3(0.02, -0.01, 0.0));
  cm.addRelativeWeld("HL_foot", Vec3::Zero(), "HR_foot", Vec3(0.0, 0.0, -0.1));
  MatX K(1, 6);
  K << 0.3, -0.2, 0.1, 0.5, 1.0, -0.7;
  cm.addCustomRows(model.body(0).name, K, VecX::Constant(1, 0.4));
  Rng rng(1602);
  expectMatchesFiniteDifferences(model, cm, rng, 3);
}

TEST(ConstrainedDerivatives, BaumgarteStabilisationMatchesFiniteDifferences) {
  // contacts, a weld and a relative weld with k = −(2/T) ė − (1/T²) e from a random reference
  // pose: the position-error terms (the weld's through the SO(3) log) are differentiated too
  const Model model = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(model);
  cm.addPointContact("FR_foot", Vec3(0.01, 0.0, 0.0));
  cm.addWeld("FL_foot", Vec3(0.0, 0.02, 0.0));
  cm.addRelativeWeld("HL_foot", Vec3::Zero(), "HR_foot", Vec3(0.0, 0.0, -0.1));
  cm.setBaumgarte(0.1);
  Rng rng(1608);
  const VecX qref = randomIndependentConfiguration(rng, model);
  expectMatchesFiniteDifferences(model, cm, rng, 10, &qref);
}

TEST(ConstrainedDerivatives, FixedBaseArmWithWeldOrContactAtTheTipMatchFiniteDifferences) {
  const Model model = loadUrdf(modelFile("arm_6dof.urdf"));
  Rng rng(1603);
  for (bool weld : {false, true}) {
    SCOPED_TRACE(weld ? "weld" : "point contact");
    ConstraintModel cm(model);
    if (weld) cm.addWeld("tool_flange", Vec3(0.0, 0.0, 0.05));
    else cm.addPointContact("tool_flange", Vec3(0.0, 0.0, 0.05));
    expectMatchesFiniteDifferences(model, cm, rng, 10);
  }
}

TEST(ConstrainedDerivatives, ContactsOnClusterMembersMatchFiniteDifferences) {
  // floating mechanisms with a contact on a four-bar coupler (parallelogram: constant G; and a
  // crank-rocker: G and g vary with the state), a belt-driven link, a rotor, a geared four-bar; a
  // relative point across a rotor chain; the Tello legs (differential clusters) with welded feet
  Rng rng(1604);
  struct Case {
    const char* label;
    Model model;
    std::function<void(ConstraintModel&)> add;
  };
  std::vector<Case> cases;
  cases.push_back({"four-bar coupler", fourBarChain(rng, 2, true),
                   [](ConstraintModel& cm) { cm.addPointContact("coupler2", Vec3(0.3, 0.1, 0.0)); }});
  cases.push_back({"belt lower link", beltChain(rng, 2, true),
                   [](ConstraintModel& cm) { cm.addPointContact("lower2", Vec3(0.0, 0.0, -0.2)); }});
  cases.push_back({"crank-rocker coupler (G varies)", crankRockerBuilder(rng, true).build(),
                   [](ConstraintModel& cm) { cm.addPointContact("coupler", Vec3(0.05, -0.02, 0.01)); }});
  cases.push_back({"geared four-bar rocker", gearedFourBarBuilder(rng, true).build(),
                   [](ConstraintModel& cm) { cm.addPointContact("rocker", Vec3(0.0, 0.03, 0.0)); }});
  cases.push_back({"tello legs, welded feet (differentials)", robots::telloLegs(), [](ConstraintModel& cm) {
                     cm.addWeld("left-foot");
                     cm.addWeld("right-foot", Vec3(0.02, 0.0, -0.01));
                   }});
  cases.push_back({"rotor + relative point", rotorChain(rng, 4, true), [](ConstraintModel& cm) {
                     cm.addPointContact("rotor3", Vec3(0.05, 0.0, 0.0));
                     cm.addRelativePoint("link1", Vec3(0.1, 0.0, 0.0), "link4", Vec3(0.0, 0.1, 0.0));
                   }});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    ConstraintModel cm(c.model);
    c.add(cm);
    expectMatchesFiniteDifferences(c.model, cm, rng, 10);
  }
}

TEST(ConstrainedDerivatives, RandomClusterModelsMatchFiniteDifferences) {
  // each random mechanism (floating ones: a contact leaves them free to move) with a contact at a
  // random point of its last body
  Rng rng(1605);
  for (auto& entry : constrainedModels(rng)) {
    const Model& model = entry.second;
    if (model.cluster(0).nv != 6) continue;  // fixed bases: a 3-D contact would over-constrain them
    SCOPED_TRACE(entry.first);
    ConstraintModel cm(model);
    cm.addPointContact(model.body(model.numBodies() - 1).name, randomVec3(rng, -0.2, 0.2));
    expectMatchesFiniteDifferences(model, cm, rng, 20);
  }
}

TEST(ConstrainedDerivatives, TorqueDerivativeIsTheProjectedInverseMassMatrix) {
  // ∂q̈/∂τ = ℳ⁻¹ − ℳ⁻¹Jᵀ(Jℳ⁻¹Jᵀ)⁻¹Jℳ⁻¹ with ℳ from the cluster CRBA and J from frameJacobian
  const Model model = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(model);
  cm.addWeld("FR_foot");
  for (const char* foot : {"FL_foot", "HR_foot"}) cm.addPointContact(foot);
  Data data(model), dense(model);
  ConstraintData cd(model, cm);
  Rng rng(1606);
  for (int s = 0; s < 3; ++s) {
    const VecX q = randomIndependentConfiguration(rng, model), v = randomVector(rng, model.nv()),
               tau = randomVector(rng, model.nv());
    computeConstrainedDynamicsDerivatives(model, data, cm, cd, q, v, tau);
    const MatX H = massMatrix(model, dense, q);
    MatX J(cm.numRows(), model.nv());
    J.topRows(6) = frameJacobian(model, dense, q, model.frameIndex("FR_foot"));  // ω then p: the weld's rows
    J.middleRows(6, 3) = frameJacobian(model, dense, q, model.frameIndex("FL_foot")).bottomRows(3);
    J.bottomRows(3) = frameJacobian(model, dense, q, model.frameIndex("HR_foot")).bottomRows(3);
    const MatX Hinv = H.inverse();
    const MatX projected = Hinv - Hinv * J.transpose() * (J * Hinv * J.transpose()).inverse() * J * Hinv;
    EXPECT_LT(maxRelErr(cd.derivatives.ddq_dtau, projected), 1e-9);
    EXPECT_LT(maxRelErr(cd.derivatives.J, J), 1e-12);
    // λ and q̈ are those of the solver
    EXPECT_LT(maxRelErr(cd.derivatives.ddq, data.qdd), 1e-15);
    EXPECT_LT(maxRelErr(cd.derivatives.lambda, cd.lambda), 1e-15);
  }
}

TEST(ConstrainedDerivatives, WithoutConstraintsEqualAbaDerivatives) {
  Rng rng(1607);
  for (const char* file : {"mini_cheetah.urdf", "four_bar.urdf"}) {
    SCOPED_TRACE(file);
    const Model model = loadUrdf(modelFile(file));
    ConstraintModel none(model);
    Data data(model), aba(model);
    ConstraintData cd(model, none);
    const VecX q = randomIndependentConfiguration(rng, model), v = randomVector(rng, model.nv()),
               tau = randomVector(rng, model.nv());
    computeConstrainedDynamicsDerivatives(model, data, none, cd, q, v, tau);
    computeABADerivatives(model, aba, q, v, tau);
    EXPECT_EQ(cd.derivatives.ddq, aba.derivatives.ddq);
    EXPECT_EQ(cd.derivatives.ddq_dq, aba.derivatives.ddq_dq);
    EXPECT_EQ(cd.derivatives.ddq_dv, aba.derivatives.ddq_dv);
    EXPECT_EQ(cd.derivatives.ddq_dtau, aba.Minv);
    EXPECT_EQ(cd.derivatives.dlambda_dq.rows(), 0);
  }
}

TEST(ConstrainedDerivatives, RejectBadInputs) {
  const Model model = loadUrdf(modelFile("mini_cheetah.urdf"));
  ConstraintModel cm(model);
  cm.addPointContact("FR_foot");
  Data data(model);
  ConstraintData cd(model, cm);
  const VecX q = model.neutralConfiguration(), v = VecX::Zero(model.nv());
  EXPECT_THROW(computeConstrainedDynamicsDerivatives(model, data, cm, cd, q, v, VecX::Zero(3)), InputError);
  EXPECT_THROW(computeConstrainedDynamicsDerivatives(model, data, cm, cd, q.head(3), v, v), InputError);
  VecX bad = v;
  bad[4] = std::nan("");
  EXPECT_THROW(computeConstrainedDynamicsDerivatives(model, data, cm, cd, q, bad, v), InputError);
  EXPECT_THROW(computeConstrainedDynamicsDerivatives(model, data, cm, cd, q, v, bad), InputError);
  ConstraintSolverSettings soft;
  soft.solver = ConstraintSolver::PVSoft;
  EXPECT_THROW(computeConstrainedDynamicsDerivatives(model, data, cm, cd, q, v, v, soft), InputError);
  ConstraintModel other(model);
  other.addWeld("FR_foot");
  EXPECT_THROW(computeConstrainedDynamicsDerivatives(model, data, other, cd, q, v, v), InputError);  // cd of cm
  ConstraintModel redundant(model);  // two welds on one leg: J H⁻¹ Jᵀ singular
  redundant.addWeld("FR_foot");
  redundant.addWeld("FR_knee_link");
  ConstraintData rd(model, redundant);
  EXPECT_THROW(computeConstrainedDynamicsDerivatives(model, data, redundant, rd, q, v, v), NumericalError);
}
