// Hybrid loops (issue #11): a loop or coupling kept as constraint rows on the spanning tree
// (ModelBuilder::setLoopTreatment, `--loops constrain|auto`) must give the dynamics of the same
// robot with the loop embedded in its cluster. Checked against the embedded model's C-ABA (and
// its constrained solvers when contacts are added), by virtual work (the loop forces do no work
// on any motion the loops allow) and through the coordinate maps.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "grbda/grbda.hpp"
#include "grbda/robots/tello.hpp"
#include "support/allocation_counter.hpp"
#include "support/compare.hpp"
#include "support/random_model.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

struct ModelPair {
  std::string name;
  Model embedded, kept;
};

Model buildWith(ModelBuilder b, LoopTreatment t) {
  b.setLoopTreatment(t);
  return b.build();
}

/// Every bundled model with loops or couplings (and the code-built Tello), embedded and with its
/// loops treated as `t`.
std::vector<ModelPair> loopModels(LoopTreatment t) {
  namespace fs = std::filesystem;
  setLogLevel(LogLevel::Error);  // the Tello URDF warns about its code-built differentials
  std::vector<fs::path> files;
  for (const char* dir : {"/models", "/models/generated"})
    for (const auto& e : fs::directory_iterator(fs::path(GRBDA_SOURCE_DIR).string() + dir))
      if (e.path().extension() == ".urdf") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<ModelPair> out;
  for (const auto& f : files) {
    ModelBuilder b = parseUrdfFile(f.string());
    Model embedded = b.build();
    if (!embedded.hasConstraints()) continue;
    out.push_back({f.filename().string(), std::move(embedded), buildWith(b, t)});
  }
  out.push_back({"builtin:tello", robots::tello(), buildWith(robots::telloBuilder(), t)});
  EXPECT_GE(out.size(), 12u);  // the sweeps below must not pass by running on nothing
  return out;
}

/// A closed state of the embedded model near its neutral pose (loops close there) and its
/// expansion onto the kept model.
struct HybridState {
  VecX y, yd, tau;     // reduced (= the embedded model's independent coordinates)
  VecX q, v, tauKept;  // the kept model's
};

HybridState randomState(Rng& rng, const ModelPair& p, double spread = 0.3) {
  HybridState s;
  s.y = integrate(p.embedded, p.embedded.neutralConfiguration(), randomVector(rng, p.embedded.nv(), -spread, spread), 1.0);
  s.yd = randomVector(rng, p.embedded.nv());
  s.tau = randomVector(rng, p.embedded.nv());
  s.q = expandPositions(p.kept, s.y);
  s.v = expandVelocities(p.kept, s.q, s.yd);
  s.tauKept = expandForces(p.kept, s.tau);
  return s;
}

const ConstraintSolver kHardSolvers[] = {ConstraintSolver::KKT, ConstraintSolver::PV, ConstraintSolver::PVEarly,
                                         ConstraintSolver::ProximalDelassus, ConstraintSolver::LTL};

}  // namespace

TEST(HybridLoops, LoopTreatmentNames) {
  for (LoopTreatment t : {LoopTreatment::Embed, LoopTreatment::Constrain, LoopTreatment::Auto})
    EXPECT_EQ(loopTreatmentFromName(loopTreatmentName(t)), t);
  EXPECT_THROW(loopTreatmentFromName("cut"), InputError);
}

TEST(HybridLoops, ConstrainKeepsEveryLoopAndTheReducedCoordinatesAreTheEmbeddedOnes) {
  for (const ModelPair& p : loopModels(LoopTreatment::Constrain)) {
    SCOPED_TRACE(p.name);
    const Model& C = p.kept;
    EXPECT_FALSE(C.hasConstraints());  // every cluster is a single body now
    EXPECT_EQ(C.nv(), p.embedded.nvSpanning());
    EXPECT_FALSE(C.keptLoopGroups().empty());
    int rows = 0;
    for (const KeptLoopGroup& lc : C.keptLoopGroups()) rows += lc.numRows;
    EXPECT_EQ(rows, p.embedded.nvSpanning() - p.embedded.nv());
    EXPECT_EQ(reducedNv(C), p.embedded.nv());
    EXPECT_EQ(reducedVelocityNames(C), p.embedded.velocityNames());
    EXPECT_EQ(reducedPositionNames(C), p.embedded.positionNames());
    EXPECT_EQ(C.positionNames(), p.embedded.spanningPositionNames());
    // the kept model's neutral pose closes its loops: it is the embedded neutral pose, expanded
    EXPECT_LT(relErr(C.neutralConfiguration(), expandPositions(C, p.embedded.neutralConfiguration())), 1e-9);
    ConstraintModel cm(C);
    EXPECT_EQ(cm.numKeptLoopGroups(), static_cast<int>(C.keptLoopGroups().size()));
    EXPECT_EQ(cm.numRows(), rows);
  }
}

TEST(HybridLoops, ExpandedPositionsAreTheEmbeddedSpanningPositions) {
  Rng rng(11);
  for (const ModelPair& p : loopModels(LoopTreatment::Constrain)) {
    SCOPED_TRACE(p.name);
    const HybridState s = randomState(rng, p);
    Data data(p.embedded);
    forwardKinematics(p.embedded, data, s.y, s.yd);
    EXPECT_LT(relErr(s.q, data.qSpan), 1e-9);
    EXPECT_LT(relErr(s.v, data.vSpan), 1e-9);
    EXPECT_LT(relErr(reduceVelocities(p.kept, s.v), s.yd), 1e-14);
  }
}

TEST(HybridLoops, ConstrainedLoopsGiveTheEmbeddedDynamics) {
  Rng rng(7);
  for (const ModelPair& p : loopModels(LoopTreatment::Constrain)) {
    SCOPED_TRACE(p.name);
    Data dataE(p.embedded), dataC(p.kept);
    ConstraintModel cm(p.kept);
    ConstraintData cd(p.kept, cm);
    for (int trial = 0; trial < 3; ++trial) {
      const HybridState s = randomState(rng, p);
      const VecX reference = forwardDynamics(p.embedded, dataE, s.y, s.yd, s.tau);
      for (ConstraintSolver solver : kHardSolvers) {
        SCOPED_TRACE(constraintSolverName(solver));
        ConstraintSolverSettings settings;
        settings.solver = solver;
        const VecX qdd = constrainedForwardDynamics(p.kept, dataC, cm, cd, s.q, s.v, s.tauKept, settings);
        EXPECT_LT(relErr(reduceVelocities(p.kept, qdd), reference), 1e-8);
        EXPECT_LT(cd.residual, 1e-8 * (1.0 + reference.cwiseAbs().maxCoeff()));
      }
      // pv-soft with a stiff compliance approaches the same answer
      ConstraintModel soft(p.kept);
      soft.setCompliance(1e-9);
      ConstraintData cds(p.kept, soft);
      ConstraintSolverSettings settings;
      settings.solver = ConstraintSolver::PVSoft;
      const VecX qddSoft = constrainedForwardDynamics(p.kept, dataC, soft, cds, s.q, s.v, s.tauKept, settings);
      EXPECT_LT(relErr(reduceVelocities(p.kept, qddSoft), reference), 1e-4);
    }
  }
}

TEST(HybridLoops, LoopForcesDoNoWorkOnTheMotionsTheLoopsAllow) {
  // ID(q, v, q̈) − τ = Kᵀλ: orthogonal to every admissible velocity u = G(q) e_i.
  Rng rng(5);
  for (const ModelPair& p : loopModels(LoopTreatment::Constrain)) {
    SCOPED_TRACE(p.name);
    const HybridState s = randomState(rng, p);
    Data data(p.kept);
    ConstraintModel cm(p.kept);
    ConstraintData cd(p.kept, cm);
    const VecX qdd = constrainedForwardDynamics(p.kept, data, cm, cd, s.q, s.v, s.tauKept);
    const VecX loopForce = inverseDynamics(p.kept, data, s.q, s.v, qdd) - s.tauKept;
    EXPECT_GT(loopForce.norm(), 1e-6);  // the loops do carry force
    for (int i = 0; i < reducedNv(p.kept); ++i) {
      const VecX u = expandVelocities(p.kept, s.q, VecX::Unit(reducedNv(p.kept), i));
      EXPECT_LT(std::abs(u.dot(loopForce)), 1e-8 * (1.0 + loopForce.norm() * u.norm()));
    }
  }
}

TEST(HybridLoops, ContactsOnTopOfConstrainedLoops) {
  // Mini Cheetah on four feet: the rotor couplings as rows beside the contacts.
  Rng rng(3);
  const std::string file = std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf";
  ModelBuilder b = parseUrdfFile(file);
  const ModelPair p{"mini_cheetah", b.build(), buildWith(b, LoopTreatment::Constrain)};
  ConstraintModel cmE(p.embedded), cmC(p.kept);
  for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) {
    cmE.addPointContact(foot);
    cmC.addPointContact(foot);
  }
  const int loopRows = cmC.numRows() - cmE.numRows();
  EXPECT_EQ(loopRows, 12);
  Data dataE(p.embedded), dataC(p.kept);
  ConstraintData cdE(p.embedded, cmE), cdC(p.kept, cmC);
  for (int trial = 0; trial < 3; ++trial) {
    const HybridState s = randomState(rng, p);
    const VecX reference = constrainedForwardDynamics(p.embedded, dataE, cmE, cdE, s.y, s.yd, s.tau);
    for (ConstraintSolver solver : kHardSolvers) {
      SCOPED_TRACE(constraintSolverName(solver));
      ConstraintSolverSettings settings;
      settings.solver = solver;
      const VecX qdd = constrainedForwardDynamics(p.kept, dataC, cmC, cdC, s.q, s.v, s.tauKept, settings);
      EXPECT_LT(relErr(reduceVelocities(p.kept, qdd), reference), 1e-8);
      EXPECT_LT(relErr(VecX(cdC.lambda.tail(cmE.numRows())), cdE.lambda), 1e-7);  // the foot forces
    }
  }
}

TEST(HybridLoops, AutoEmbedsClosedFormClustersAndAgreesEverywhere) {
  Rng rng(9);
  for (const ModelPair& p : loopModels(LoopTreatment::Auto)) {
    SCOPED_TRACE(p.name);
    for (const KeptLoopGroup& lc : p.kept.keptLoopGroups()) EXPECT_GE(lc.numBodies, 2);
    if (p.name == "mini_cheetah.urdf" || p.name == "four_bar.urdf") EXPECT_TRUE(p.kept.keptLoopGroups().empty());
    Data dataE(p.embedded), dataC(p.kept);
    ConstraintModel cm(p.kept);
    ConstraintData cd(p.kept, cm);
    const HybridState s = randomState(rng, p);
    const VecX reference = forwardDynamics(p.embedded, dataE, s.y, s.yd, s.tau);
    const VecX qdd = cm.numRows() == 0 ? forwardDynamics(p.kept, dataC, s.q, s.v, s.tauKept)
                                       : constrainedForwardDynamics(p.kept, dataC, cm, cd, s.q, s.v, s.tauKept);
    EXPECT_LT(relErr(reduceVelocities(p.kept, qdd), reference), 1e-8);
  }
}

TEST(HybridLoops, BaumgarteHoldsAConstrainedLoopClosed) {
  // A four-bar with its loop as rows, simulated 0.5 s at 1 kHz from a slightly open velocity:
  // with Baumgarte the loop's position error stays small; the embedded four-bar is the reference.
  ModelBuilder b = parseUrdfFile(std::string(GRBDA_SOURCE_DIR) + "/models/four_bar.urdf");
  const Model C = buildWith(b, LoopTreatment::Constrain);
  ConstraintModel cm(C);
  cm.setBaumgarte(0.02);
  ConstraintData cd(C, cm);
  Data data(C);
  VecX q = C.neutralConfiguration(), v = expandVelocities(C, q, VecX::Ones(reducedNv(C)));
  const VecX tau = VecX::Zero(C.nv());
  for (int step = 0; step < 500; ++step) {
    const VecX qdd = constrainedForwardDynamics(C, data, cm, cd, q, v, tau);
    v += 1e-3 * qdd;
    q = integrate(C, q, v, 1e-3);
  }
  // the closed pose with the same independent coordinate is the loop's own completion
  const VecX closed = expandPositions(C, VecX(reduceVelocities(C, q)));
  EXPECT_LT((q - closed).cwiseAbs().maxCoeff(), 1e-3);
}

TEST(HybridLoops, NoAllocationPerCall) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator linked";
  Rng rng(2);
  for (const ModelPair& p : loopModels(LoopTreatment::Constrain)) {
    SCOPED_TRACE(p.name);
    const HybridState s = randomState(rng, p);
    Data data(p.kept);
    ConstraintModel cm(p.kept);
    cm.setBaumgarte(0.1);
    ConstraintData cd(p.kept, cm);
    for (ConstraintSolver solver : {ConstraintSolver::PV, ConstraintSolver::KKT, ConstraintSolver::LTL}) {
      ConstraintSolverSettings settings;
      settings.solver = solver;
      constrainedForwardDynamics(p.kept, data, cm, cd, s.q, s.v, s.tauKept, settings);  // warm
      AllocationScope scope;
      constrainedForwardDynamics(p.kept, data, cm, cd, s.q, s.v, s.tauKept, settings);
      EXPECT_EQ(scope.count(), 0) << constraintSolverName(solver);
    }
  }
}

TEST(HybridLoops, ConstrainedDerivativesRefuseKeptLoops) {
  ModelBuilder b = parseUrdfFile(std::string(GRBDA_SOURCE_DIR) + "/models/four_bar.urdf");
  const Model C = buildWith(b, LoopTreatment::Constrain);
  ConstraintModel cm(C);
  ConstraintData cd(C, cm);
  Data data(C);
  const VecX q = C.neutralConfiguration(), zero = VecX::Zero(C.nv());
  try {
    computeConstrainedDynamicsDerivatives(C, data, cm, cd, q, zero, zero);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("loop1"), std::string::npos) << e.what();
  }
}

TEST(HybridLoops, CoordinateMapsRejectBadVectorsByName) {
  ModelBuilder b = parseUrdfFile(std::string(GRBDA_SOURCE_DIR) + "/models/four_bar.urdf");
  const Model C = buildWith(b, LoopTreatment::Constrain);
  const auto expectError = [](auto call, const std::string& mention) {
    try {
      call();
      FAIL() << "expected an InputError mentioning " << mention;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
    }
  };
  expectError([&] { expandPositions(C, VecX::Zero(2)); }, "expandPositions: reduced q has 2 entries, expected 1");
  expectError([&] { expandPositions(C, VecX::Constant(1, std::nan(""))); }, "reduced q[0] is not finite");
  expectError([&] { expandVelocities(C, C.neutralConfiguration(), VecX::Zero(3)); }, "reduced v has 3 entries");
  expectError([&] { expandForces(C, VecX::Zero(3)); }, "reduced tau has 3 entries");
  expectError([&] { reduceVelocities(C, VecX::Zero(1)); }, "reduceVelocities: x has 1 entries, expected 3");
}
