// One writer per Data field (issue #26 §2): the CRBA keeps its folded forces in its own field
// (ClusterData::Fout) and leaves the articulated pass's XU, D⁻¹ and U as C-ABA left them.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "grbda/algorithms/dynamics.hpp"
#include "grbda/algorithms/osim.hpp"
#include "grbda/algorithms/constrained_dynamics.hpp"
#include "grbda/constraints/constraint_data.hpp"
#include "grbda/algorithms/reactions.hpp"
#include "grbda/errors.hpp"
#include "grbda/data.hpp"
#include "grbda/urdf/urdf.hpp"
#include "data_workspace.hpp"

using namespace grbda;

TEST(DataWriters, MassMatrixLeavesTheArticulatedPassFieldsAlone) {
  for (const char* file : {"mini_cheetah.urdf", "four_bar.urdf", "six_bar.urdf"}) {
    const Model model = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/" + file);
    Data data(model);
    const VecX q = model.neutralConfiguration();
    const VecX v = VecX::Ones(model.nv()), tau = VecX::LinSpaced(model.nv(), -1.0, 1.0);
    forwardDynamics(model, data, q, v, tau);
    std::vector<MatX> XU, U, Dinv;
    for (const ClusterData& cd : data.work().clusters) {
      XU.push_back(cd.XU);
      U.push_back(cd.U);
      Dinv.push_back(cd.Dinv);
    }
    const MatX H = massMatrix(model, data, q);
    for (size_t k = 0; k < data.work().clusters.size(); ++k) {
      EXPECT_EQ(data.work().clusters[k].XU, XU[k]) << file << " cluster " << k;
      EXPECT_EQ(data.work().clusters[k].U, U[k]) << file << " cluster " << k;
      EXPECT_EQ(data.work().clusters[k].Dinv, Dinv[k]) << file << " cluster " << k;
    }
    // and the mass matrix is still the one C-ABA inverts: H q̈ = τ − C at v = 0
    const VecX qdd = forwardDynamics(model, data, q, VecX::Zero(model.nv()), tau);
    const VecX bias = inverseDynamics(model, data, q, VecX::Zero(model.nv()), VecX::Zero(model.nv()));
    EXPECT_LT((H * qdd - (tau - bias)).norm(), 1e-9 * (1.0 + tau.norm())) << file;
  }
}

TEST(DataWriters, TransmittedForcesAreReadOnlyAfterInverseDynamicsOfTheCurrentState) {
  const Model model = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  Data data(model);
  const VecX q = model.neutralConfiguration();
  const VecX v = VecX::LinSpaced(model.nv(), -1.0, 1.0), qdd = VecX::LinSpaced(model.nv(), 0.5, -0.5);
  EXPECT_THROW(clusterJointForce(model, data, 0), InputError);  // nothing computed yet
  EXPECT_THROW(jointReactions(model, data), InputError);
  const VecX tau = inverseDynamics(model, data, q, v, qdd);
  const Vec6 f0 = clusterJointForce(model, data, 0);
  EXPECT_NO_THROW(jointReactions(model, data));
  forwardDynamics(model, data, q, v, tau);  // a new kinematics pass: f is no longer this state's
  EXPECT_THROW(clusterJointForce(model, data, 0), InputError);
  EXPECT_THROW(jointReaction(model, data, 1), InputError);
  inverseDynamics(model, data, q, v, qdd);
  EXPECT_EQ(clusterJointForce(model, data, 0), f0);  // the same call gives the same forces again
}

// Data keeps its workspace behind a pointer (issue #26 §2): a copy must own a separate workspace
// with the same state, so what one copy computes never shows in the other, and a copy of a Data
// whose pass is valid can read that pass (applyTestForce) as the original can.
TEST(DataWriters, CopiesOwnTheirWorkspaceAndMovesKeepIt) {
  const Model model = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  const VecX q1 = model.neutralConfiguration();
  VecX q2 = q1;
  q2.tail(12).setConstant(0.3);
  Data original(model);
  updateForcePropagators(model, original, q1);
  const int foot = model.frameIndex("FR_foot");
  VecX qddOriginal, qddCopy;
  const double lambdaOriginal = applyTestForce(model, original, foot, Vec3::Zero(), Vec3::UnitZ(), qddOriginal);

  Data copy = original;
  EXPECT_NE(&copy.work(), &original.work());
  const double lambdaCopy = applyTestForce(model, copy, foot, Vec3::Zero(), Vec3::UnitZ(), qddCopy);
  EXPECT_EQ(lambdaCopy, lambdaOriginal);  // the copied pass is the same pass, bit for bit
  EXPECT_EQ(qddCopy, qddOriginal);

  updateForcePropagators(model, copy, q2);  // the copy moves on; the original's pass stays valid
  VecX again;
  EXPECT_EQ(applyTestForce(model, original, foot, Vec3::Zero(), Vec3::UnitZ(), again), lambdaOriginal);
  EXPECT_EQ(again, qddOriginal);
  EXPECT_NE(applyTestForce(model, copy, foot, Vec3::Zero(), Vec3::UnitZ(), qddCopy), lambdaOriginal);

  copy = original;  // copy assignment replaces the workspace too
  EXPECT_EQ(applyTestForce(model, copy, foot, Vec3::Zero(), Vec3::UnitZ(), qddCopy), lambdaOriginal);

  const Data::Workspace* workspace = &original.work();
  Data moved = std::move(original);
  EXPECT_EQ(&moved.work(), workspace);  // a move hands the workspace over, nothing is copied
  EXPECT_EQ(applyTestForce(model, moved, foot, Vec3::Zero(), Vec3::UnitZ(), again), lambdaOriginal);
}

// A moved-from Data or ConstraintData has no workspace: every call refuses it with an error
// naming the call, instead of reading through a null workspace.
TEST(DataWriters, MovedFromWorkspacesAreRefusedWithAnError) {
  const Model model = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  const VecX q = model.neutralConfiguration(), zero = VecX::Zero(model.nv());
  const auto expectMessage = [](auto&& call, const std::string& part) {
    try {
      call();
      ADD_FAILURE() << "no error; expected one containing '" << part << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  Data data(model);
  Data taken = std::move(data);
  EXPECT_EQ(data.modelId(), 0u);  // NOLINT(bugprone-use-after-move): that is the point
  expectMessage([&] { forwardDynamics(model, data, q, zero, zero); }, "forwardDynamics: the Data was moved from");
  expectMessage([&] { inverseDynamics(model, data, q, zero, zero); }, "inverseDynamics: the Data was moved from");
  EXPECT_NO_THROW(forwardDynamics(model, taken, q, zero, zero));

  ConstraintModel feet(model);
  feet.addPointContact("FR_foot");
  feet.addPointContact("HL_foot");
  ConstraintData cd(model, feet);
  ConstraintData kept = std::move(cd);
  expectMessage([&] { constrainedForwardDynamics(model, taken, feet, cd, q, zero, zero); },
                "the ConstraintData was moved from");
  expectMessage([&] { cd.setReference(model, taken, feet); }, "the ConstraintData was moved from");
  EXPECT_NO_THROW(cd.clearReference());
  EXPECT_NO_THROW(constrainedForwardDynamics(model, taken, feet, kept, q, zero, zero));

  // setReference checks its inputs like the solvers do
  ConstraintModel oneFoot(model);
  oneFoot.addPointContact("FR_foot");
  expectMessage([&] { kept.setReference(model, taken, oneFoot); }, "ConstraintData::setReference: the ConstraintData does not match");
}
