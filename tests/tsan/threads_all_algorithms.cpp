// Every public algorithm on every cluster type, from several threads at once: one shared const
// Model (and the shared const ConstraintModel, OsimSet and ApproximateModel made from it), one
// Data and one of each other workspace per thread, each thread with its own gravity (Data::
// setGravity). Each thread's answers must equal, bit for bit, those of the same call sequence run
// alone. Small enough to run under ThreadSanitizer: .ci/run builds it with the library sources
// the calls reach instrumented (tests/CMakeLists.txt, GRBDA_TSAN_THREADS).
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <set>
#include <thread>

#include "../cluster_support/every_cluster_type.hpp"
#include "grbda/algorithms/cluster_cfa.hpp"
#include "grbda/algorithms/contact_inverse_dynamics.hpp"
#include "grbda/algorithms/impulse_dynamics.hpp"
#include "grbda/algorithms/regressor.hpp"
#include "grbda/robots/tello.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

constexpr int kThreads = 4;
constexpr int kStates = 4;

/// The shared, read-only things made from one model.
struct Shared {
  explicit Shared(Model m)
      : model(std::move(m)),
        contacts(model),
        approx(makeApproximateModel(model, RotorApproximation::Diagonal)),
        ends(model, {{model.frameIndex(lastLink()), Vec3(0.1, 0.0, 0.0)}}) {
    contacts.addPointContact(lastLink());
    contacts.setCompliance(1e-4);
    contacts.setBaumgarte(0.1);
  }
  const std::string& lastLink() const { return model.body(model.numBodies() - 1).name; }
  Model model;
  ConstraintModel contacts;
  ApproximateModel approx;
  OsimSet ends;
};

/// One thread's workspaces.
struct Workspace {
  Workspace(const Shared& s, const Vec3& gravity)
      : data(s.model), approxData(s.approx.tree), contacts(s.model, s.contacts), proximal(s.model),
        delassus(s.model, s.contacts), impulse(s.model, s.contacts) {
    data.setGravity(gravity);
    approxData.setGravity(gravity);
  }
  Data data, approxData;
  ConstraintData contacts;
  ProximalData proximal;
  PvOsimFast delassus;  // keeps scratch vectors: one per thread
  ImpulseData impulse;
  MatX regressor;
};

struct State {
  VecX q, v, x;
};

/// Every public algorithm once at state s, results appended to `out`.
void runEveryAlgorithm(const Shared& s, Workspace& w, const State& st, std::vector<MatX>& out) {
  const Model& m = s.model;
  Data& d = w.data;
  auto keep = [&](const auto& x) { out.emplace_back(x); };
  // a model keeping loops as rows is refused by forwardDynamics (its rows come with s.contacts below)
  if (m.keptLoopGroups().empty()) keep(forwardDynamics(m, d, st.q, st.v, st.x));
  keep(inverseDynamics(m, d, st.q, st.v, st.x));
  keep(massMatrix(m, d, st.q));
  keep(biasForces(m, d, st.q, st.v));
  keep(inverseMassMatrix(m, d, st.q));
  keep(VecX::Constant(1, logDetMassMatrix(m, d, st.q)));
  keep(inverseOperationalSpaceInertia(m, d, s.ends, st.q));
  VecX dydd(m.nv());
  keep(VecX::Constant(1, applyTestForce(m, d, s.ends.endEffectors()[0].frame, Vec3::Zero(), Vec3::UnitZ(), dydd)));
  keep(dydd);
  keep(projectionForwardDynamics(m, d, st.q, st.v, st.x));
  keep(lagrangeForwardDynamics(m, d, st.q, st.v, st.x));
  keep(projectionInverseDynamics(m, d, st.q, st.v, st.x));
  keep(proximalSparseForwardDynamics(m, d, w.proximal, st.q, st.v, st.x).qdd);
  for (ConstraintSolver solver :
       {ConstraintSolver::PV, ConstraintSolver::PVSoft, ConstraintSolver::KKT, ConstraintSolver::ProximalDelassus,
        ConstraintSolver::PVEarly, ConstraintSolver::LTL, ConstraintSolver::LTLSoft}) {
    ConstraintSolverSettings settings;
    settings.solver = solver;
    keep(constrainedForwardDynamics(m, d, s.contacts, w.contacts, st.q, st.v, st.x, settings));
  }
  // PV-OSIM: Λ⁻¹ and Λ of the contact rows, and PV-OSIM-fast's operator products
  keep(pvInverseOperationalSpaceInertia(m, d, s.contacts, w.contacts, st.q));
  keep(pvOperationalSpaceInertia(m, d, s.contacts, w.contacts, st.q));
  w.delassus.compute(m, d, s.contacts, w.contacts, st.q);
  const VecX ones = VecX::Ones(s.contacts.numRows());
  VecX y;
  w.delassus.applyInverse(ones, y);
  keep(y);
  w.delassus.applyLambda(ones, y);
  keep(y);
  // whole-body control (issue 24 B): contact-consistent ID (st.x as q̈: a report, no throw),
  // impulses with restitution, the inertial-parameter regressor
  ContactInverseDynamicsReport report;
  keep(contactInverseDynamics(m, d, s.contacts, w.contacts, st.q, st.v, st.x, {}, &report));
  keep(w.contacts.lambda);
  keep(VecX::Constant(1, report.accelerationResidual));
  keep(impulseDynamics(m, d, s.contacts, w.contacts, w.impulse, st.q, st.v, 0.5));
  keep(w.impulse.impulses);
  keep(computeRegressor(m, d, st.q, st.v, st.x, w.regressor));
  const VecX qSpan = completeConfiguration(m, d, st.q);
  keep(qSpan);
  keep(tree::crba(m, d, qSpan));
  keep(tree::rnea(m, d, qSpan, VecX::Zero(m.nvSpanning()), VecX::Zero(m.nvSpanning())));
  forwardKinematics(m, d, st.q, st.v);
  keep(frameJacobian(m, d, st.q, s.ends.endEffectors()[0].frame));
  keep(VecX::Constant(2, potentialEnergy(m, d, st.q) + kineticEnergy(m, d, st.q, st.v)));
  // issue #24 part A: centre of mass, centroidal momentum, Coriolis matrix, J̇
  keep(centerOfMass(m, d, st.q, st.v));
  keep(d.centroidal.acomBias);
  keep(centerOfMassJacobian(m, d, st.q));
  centroidalDynamics(m, d, st.q, st.v);
  keep(d.centroidal.Ag);
  keep(d.centroidal.dhg);
  keep(centroidalMomentum(m, d, st.q, st.v));
  keep(centroidalMomentumBias(m, d, st.q, st.v));
  keep(coriolisMatrix(m, d, st.q, st.v));
  keep(gravityVector(m, d, st.q));
  keep(staticTorque(m, d, st.q, ExternalForces(static_cast<size_t>(m.numBodies()), Vec6::Ones())));
  keep(frameJacobianTimeVariation(m, d, st.q, st.v, s.ends.endEffectors()[0].frame, Vec3::Zero(), ReferenceFrame::World));
  // The approximate tree has the model's independent coordinates.
  keep(approximateForwardDynamics(s.approx, w.approxData, st.q, st.v, st.x));
  keep(approximateMassMatrix(s.approx, w.approxData, st.q));
}

/// Runs each thread's states on its own workspace; `parallel` starts the threads together.
std::vector<std::vector<MatX>> runAll(const Shared& s, const std::vector<std::vector<State>>& work, bool parallel) {
  std::vector<std::vector<MatX>> results(work.size());
  auto one = [&](size_t t) {
    Workspace w(s, Vec3(0.5 * static_cast<double>(t), 0.0, -9.81 - static_cast<double>(t)));  // its own gravity
    for (const State& st : work[t]) runEveryAlgorithm(s, w, st, results[t]);
  };
  if (!parallel) {
    for (size_t t = 0; t < work.size(); ++t) one(t);
    return results;
  }
  std::vector<std::thread> threads;
  for (size_t t = 0; t < work.size(); ++t) threads.emplace_back(one, t);
  for (auto& th : threads) th.join();
  return results;
}

void expectThreadsGiveSerialAnswers(const Shared& s, Rng& rng) {
  std::vector<std::vector<State>> work(kThreads);
  for (auto& list : work)
    for (int k = 0; k < kStates; ++k)
      list.push_back({randomIndependentPositions(rng, s.model, -0.3, 0.3), randomVector(rng, s.model.nv()),
                      randomVector(rng, s.model.nv())});
  const auto serial = runAll(s, work, false);
  const auto parallel = runAll(s, work, true);
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(parallel[t].size(), serial[t].size());
    for (size_t r = 0; r < serial[t].size(); ++r)
      ASSERT_TRUE(parallel[t][r] == serial[t][r]) << "thread " << t << ", result " << r;  // bit for bit
  }
  // The gravities differ per thread, so the answers must too (the override is really used).
  EXPECT_FALSE(serial[0][0] == serial[1][0]);
}

}  // namespace

TEST(ThreadsAllAlgorithms, EveryClusterTypeSharedModelGivesSerialAnswers) {
  const Shared s(everyClusterType());
  std::set<std::string> types;
  for (const Cluster& cl : s.model.clusters()) types.insert(cl.typeName());
  for (const char* type : {"Free", "Revolute", "Prismatic", "RevoluteWithRotor", "RevolutePairWithRotor",
                           "RevoluteTripleWithRotor", "FourBar", "Generic"})
    EXPECT_TRUE(types.count(type)) << type;
  Rng rng(152);
  expectThreadsGiveSerialAnswers(s, rng);
}

TEST(ThreadsAllAlgorithms, TelloDifferentialsSharedModelGivesSerialAnswers) {
  const Shared s(robots::telloLegs());
  Rng rng(153);
  expectThreadsGiveSerialAnswers(s, rng);
}

TEST(ThreadsAllAlgorithms, KeptLoopsSharedModelGivesSerialAnswers) {
  // the differentials kept as constraint rows (--loops constrain): every ConstraintModel carries
  // their rows, gathered through the shared model's constraint sets
  ModelBuilder builder = robots::telloBuilder(false);
  builder.setLoopTreatment(LoopTreatment::Constrain);
  const Shared s(builder.build());
  EXPECT_FALSE(s.model.keptLoopGroups().empty());
  Rng rng(155);
  expectThreadsGiveSerialAnswers(s, rng);
}

/// One workspace per thread (made inside `solveAll`), the model shared: the same answers as
/// the same work done on one thread. solveAll(states, out) appends one result per state;
/// positions(rng) draws a configuration.
template <class Positions, class SolveAll>
void expectWorkspacePerThreadGivesSerialAnswers(const Model& model, Rng& rng, Positions positions, SolveAll solveAll) {
  std::vector<std::vector<State>> work(kThreads);
  for (auto& list : work)
    for (int k = 0; k < kStates; ++k)
      list.push_back({positions(rng), randomVector(rng, model.nv()), randomVector(rng, model.nv())});
  auto run = [&](size_t t, std::vector<VecX>& out) { solveAll(work[t], out); };
  std::vector<std::vector<VecX>> serial(kThreads), parallel(kThreads);
  for (size_t t = 0; t < kThreads; ++t) run(t, serial[t]);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t) threads.emplace_back(run, t, std::ref(parallel[t]));
  for (auto& th : threads) th.join();
  for (size_t t = 0; t < kThreads; ++t)
    for (size_t k = 0; k < serial[t].size(); ++k) ASSERT_TRUE(parallel[t][k] == serial[t][k]) << t << ", " << k;
}

TEST(ThreadsAllAlgorithms, SerialCfaOnSharedChainGivesSerialAnswers) {
  Rng rng(154);
  const Model model = randomChain(rng, 12, true, 3, 1);
  auto positions = [&](Rng& r) { return randomConfiguration(r, model); };
  expectWorkspacePerThreadGivesSerialAnswers(model, rng, positions, [&](const std::vector<State>& states, std::vector<VecX>& out) {
    CfaData cfa(model);
    for (const State& st : states) out.push_back(cfaForwardDynamics(model, cfa, st.q, st.v, st.x));
  });
}

TEST(ThreadsAllAlgorithms, ClusterCfaOnSharedRotorChainGivesSerialAnswers) {
  Rng rng(156);
  const Model model = rotorChain(rng, 6, true);
  auto positions = [&](Rng& r) { return randomIndependentConfiguration(r, model); };
  expectWorkspacePerThreadGivesSerialAnswers(model, rng, positions, [&](const std::vector<State>& states, std::vector<VecX>& out) {
    ClusterCfaData cfa(model);
    for (const State& st : states) out.push_back(clusterCfaForwardDynamics(model, cfa, st.q, st.v, st.x));
  });
}
