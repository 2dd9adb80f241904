// When constrained forward dynamics measures the equation of motion at its answer
// (ConstraintSolverSettings::checkDynamics, ConstraintData::dynamicsResidual): by default only the
// solvers whose answer can meet the rows and miss the dynamics (pv-early's deferred eliminations,
// proximal-delassus's iteration), on request every solver, never when told; −1 says "not
// measured" and the reported residual is then the rows' alone. Measured values are checked
// against the equation of motion formed densely here: H (cluster CRBA), C, and Jᵀλ from a KKT
// solve of the same rows.
#include <gtest/gtest.h>

#include "support/wbc_models.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

struct FourFeet {
  Model model = bundledModel("mini_cheetah.urdf");
  ConstraintModel contacts{model};
  VecX q, v, tau;
  FourFeet() {
    for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) contacts.addPointContact(foot);
    Rng rng(3);
    q = model.neutralConfiguration() + randomVector(rng, model.nq(), -0.4, 0.4);
    q.segment<4>(3).normalize();
    v = randomVector(rng, model.nv());
    tau = randomVector(rng, model.nv(), -5.0, 5.0);
  }
  ConstraintData solve(ConstraintSolver solver, DynamicsCheck check) {
    ConstraintData cd(model, contacts);
    Data data(model);
    ConstraintSolverSettings settings;
    settings.solver = solver;
    settings.checkDynamics = check;
    constrainedForwardDynamics(model, data, contacts, cd, q, v, tau, settings);
    return cd;
  }
};

}  // namespace

TEST(DynamicsCheck, DirectSolversMeasureTheEquationOfMotionOnlyWhenAsked) {
  FourFeet f;
  for (ConstraintSolver solver : {ConstraintSolver::PV, ConstraintSolver::PVSoft, ConstraintSolver::KKT}) {
    SCOPED_TRACE(constraintSolverName(solver));
    if (solver == ConstraintSolver::PVSoft) f.contacts.setCompliance(1e-4);
    const ConstraintData byDefault = f.solve(solver, DynamicsCheck::Auto);
    EXPECT_EQ(byDefault.dynamicsResidual, -1.0);
    EXPECT_EQ(byDefault.residual, byDefault.rowResidual);
    const ConstraintData asked = f.solve(solver, DynamicsCheck::Always);
    EXPECT_GE(asked.dynamicsResidual, 0.0);
    EXPECT_LT(asked.dynamicsResidual, 1e-9);
    EXPECT_EQ(asked.residual, std::max(asked.rowResidual, asked.dynamicsResidual));
    EXPECT_EQ(f.solve(solver, DynamicsCheck::Never).dynamicsResidual, -1.0);
  }
}

TEST(DynamicsCheck, IterativeAndEliminatingSolversMeasureItByDefault) {
  FourFeet f;
  for (ConstraintSolver solver : {ConstraintSolver::PVEarly, ConstraintSolver::ProximalDelassus}) {
    SCOPED_TRACE(constraintSolverName(solver));
    const ConstraintData cd = f.solve(solver, DynamicsCheck::Auto);
    EXPECT_GE(cd.dynamicsResidual, 0.0);
    EXPECT_LT(cd.dynamicsResidual, 1e-6);
    EXPECT_EQ(f.solve(solver, DynamicsCheck::Never).dynamicsResidual, -1.0);
  }
}

TEST(DynamicsCheck, AMeasuredResidualIsTheDenseEquationOfMotion) {
  // pv-early with deliberately loose proximal settings is not the point here: every solver's
  // measured residual must be what the dense equation of motion leaves at the returned q̈ and λ,
  // ‖H q̈ + C − τ − Σ J_iᵀ λ_i‖∞ (H from CRBA, C from RNEA, J from frame Jacobians, world axes).
  FourFeet f;
  for (ConstraintSolver solver : {ConstraintSolver::PV, ConstraintSolver::PVEarly, ConstraintSolver::KKT}) {
    SCOPED_TRACE(constraintSolverName(solver));
    Data data(f.model);
    ConstraintData cd(f.model, f.contacts);
    ConstraintSolverSettings settings;
    settings.solver = solver;
    settings.checkDynamics = DynamicsCheck::Always;
    const VecX qdd = constrainedForwardDynamics(f.model, data, f.contacts, cd, f.q, f.v, f.tau, settings);
    Data d(f.model);
    VecX r = massMatrix(f.model, d, f.q) * qdd + biasForces(f.model, d, f.q, f.v) - f.tau;
    for (int i = 0; i < f.contacts.size(); ++i) {
      const Constraint& c = f.contacts.constraint(i);
      const Mat6X J = frameJacobian(f.model, d, f.q, c.frame, c.point, ReferenceFrame::LocalWorldAligned);
      r -= J.bottomRows<3>().transpose() * cd.lambda.segment<3>(c.row);
    }
    const double scale = 1.0 + f.tau.cwiseAbs().maxCoeff();
    EXPECT_LT(std::abs(cd.dynamicsResidual - r.cwiseAbs().maxCoeff()), 1e-9 * scale);
    EXPECT_LT(cd.dynamicsResidual, 1e-8 * scale);
  }
}

TEST(DynamicsCheck, NamesAsTheCommandAndPythonSpellThem) {
  for (DynamicsCheck c : {DynamicsCheck::Auto, DynamicsCheck::Always, DynamicsCheck::Never})
    EXPECT_EQ(dynamicsCheckFromName(dynamicsCheckName(c)), c);
  EXPECT_STREQ(dynamicsCheckName(DynamicsCheck::Auto), "auto");
  EXPECT_THROW(dynamicsCheckFromName("sometimes"), InputError);
}
