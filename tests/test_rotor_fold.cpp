// The articulated pass folds a rotor whose own turning leaves its inertia unchanged (a body of
// revolution about its joint axis, a leaf hanging from its cluster's output body) as one constant
// inertia in the parent, instead of transforming it at every call. Pinned here: which bodies fold
// (the Mini Cheetah's twelve rotors; not the two a lopsided edit breaks; none when a leaf term
// such as PV-soft's point masses changed the leaf's inertia), and that C-ABA, ℳ⁻¹ and PV-soft keep
// their answers against references that never fold: a long-double solve of the cluster CRBA's H
// (which uses no articulated inertias) and, for PV-soft, the KKT solver of the same soft system.
#include <gtest/gtest.h>

#include "data_workspace.hpp"
#include "support/wbc_models.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

using MatL = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;

std::vector<std::string> foldedBodies(const Model& model) {
  const Data data(model);
  std::vector<std::string> names;
  for (int i = 0; i < model.numBodies(); ++i)
    if (data.work().turnsWithoutChange[static_cast<size_t>(i)]) names.push_back(model.body(i).name);
  return names;
}

/// max over random states of the relative error of C-ABA's q̈ and of ℳ⁻¹ against H from the
/// cluster CRBA solved in long double.
std::pair<double, double> worstAgainstDenseSolve(const Model& model, int draws) {
  Rng rng(11);
  Data data(model);
  double qddError = 0.0, minvError = 0.0;
  for (int draw = 0; draw < draws; ++draw) {
    VecX q = model.neutralConfiguration() + randomVector(rng, model.nq(), -0.8, 0.8);
    q.segment<4>(3).normalize();
    const VecX v = randomVector(rng, model.nv(), -3.0, 3.0), tau = randomVector(rng, model.nv(), -5.0, 5.0);
    const MatX H = massMatrix(model, data, q);
    const VecX C = biasForces(model, data, q, v);
    const Eigen::LDLT<MatL> dense(H.cast<long double>());
    const VecX qddRef = dense.solve((tau - C).cast<long double>()).cast<double>();
    const MatX minvRef = dense.solve(MatL::Identity(model.nv(), model.nv())).cast<double>();
    qddError = std::max(qddError, (forwardDynamics(model, data, q, v, tau) - qddRef).norm() / qddRef.norm());
    minvError = std::max(minvError, (inverseMassMatrix(model, data, q) - minvRef).norm() / minvRef.norm());
  }
  return {qddError, minvError};
}

}  // namespace

TEST(RotorFold, OnlyRotorsThatTurnWithoutChangeFoldAsConstants) {
  const std::vector<std::string> cheetah = foldedBodies(bundledModel("mini_cheetah.urdf"));
  ASSERT_EQ(cheetah.size(), 12u);
  for (const std::string& name : cheetah) EXPECT_NE(name.find("rotor"), std::string::npos) << name;
  const std::vector<std::string> lopsided = foldedBodies(lopsidedRotorCheetah());
  EXPECT_EQ(lopsided.size(), 10u);
  for (const std::string& name : lopsided) {
    EXPECT_NE(name, "FR_hip_rotor");   // its centre of mass is off its axis
    EXPECT_NE(name, "FR_knee_rotor");  // its inertia differs across its axis
  }
}

TEST(RotorFold, ForwardDynamicsAndInverseMassMatrixMatchALongDoubleSolveOfH) {
  for (const Model& model : {bundledModel("mini_cheetah.urdf"), lopsidedRotorCheetah()}) {
    SCOPED_TRACE(model.name());
    const auto [qdd, minv] = worstAgainstDenseSolve(model, 20);
    EXPECT_LT(qdd, 1e-12);
    EXPECT_LT(minv, 1e-12);
  }
}

TEST(RotorFold, SoftContactsOnARotorLeafTakeTheGeneralFold) {
  // PV-soft adds each soft point contact to its body's IA as a point mass before any fold: a rotor
  // with a contact no longer has IA = I and must not fold as its constant inertia. The soft
  // system solved by PV-soft must equal the same system solved densely (LTL-soft factorises H).
  const Model model = bundledModel("mini_cheetah.urdf");
  ConstraintModel contacts(model);
  for (const char* rotor : {"FR_knee_rotor", "HL_hip_rotor"}) contacts.addPointContact(rotor, Vec3(0.01, 0.0, 0.02));
  contacts.setCompliance(1e-3);
  ConstraintData cd(model, contacts);
  Data data(model);
  Rng rng(5);
  VecX q = model.neutralConfiguration() + randomVector(rng, model.nq(), -0.5, 0.5);
  q.segment<4>(3).normalize();
  const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
  ConstraintSolverSettings pvSoft, ltlSoft;
  pvSoft.solver = ConstraintSolver::PVSoft;
  ltlSoft.solver = ConstraintSolver::LTLSoft;
  const VecX a = constrainedForwardDynamics(model, data, contacts, cd, q, v, tau, pvSoft);
  const VecX b = constrainedForwardDynamics(model, data, contacts, cd, q, v, tau, ltlSoft);
  EXPECT_LT((a - b).norm(), 1e-10 * (1.0 + b.norm()));
}
