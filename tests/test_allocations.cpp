// Hot calls on a prepared Model/Data allocate nothing. This file replaces the global allocation
// functions of the test binary with counting versions: operator new/delete (every variant) and,
// because Eigen allocates with malloc, malloc/calloc/realloc/free and the aligned C functions,
// forwarding to glibc's __libc_* implementations. Counting is off except inside the measured
// scope, so the rest of the suite is unaffected. Under AddressSanitizer (which owns the
// allocator) nothing is replaced and the tests are skipped.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <new>
#include <string>

#include "cluster_support/every_cluster_type.hpp"
#include "grbda/robots/tello.hpp"
#include "support/random_model.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define GRBDA_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRBDA_COUNT_ALLOCATIONS 0
#endif
#endif
#if !defined(GRBDA_COUNT_ALLOCATIONS) && defined(__GLIBC__)
#define GRBDA_COUNT_ALLOCATIONS 1
#endif
#ifndef GRBDA_COUNT_ALLOCATIONS
#define GRBDA_COUNT_ALLOCATIONS 0
#endif

namespace {
std::atomic<bool> gCounting{false};
std::atomic<long> gAllocations{0};
inline void noteAllocation() {
  if (gCounting.load(std::memory_order_relaxed)) gAllocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

#if GRBDA_COUNT_ALLOCATIONS
extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);

void* malloc(size_t n) {
  noteAllocation();
  return __libc_malloc(n);
}
void* calloc(size_t count, size_t n) {
  noteAllocation();
  return __libc_calloc(count, n);
}
void* realloc(void* p, size_t n) {
  noteAllocation();
  return __libc_realloc(p, n);
}
void free(void* p) { __libc_free(p); }
void* aligned_alloc(size_t alignment, size_t n) {
  noteAllocation();
  return __libc_memalign(alignment, n);
}
void* memalign(size_t alignment, size_t n) {
  noteAllocation();
  return __libc_memalign(alignment, n);
}
int posix_memalign(void** out, size_t alignment, size_t n) {
  noteAllocation();
  void* p = __libc_memalign(alignment, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
}  // extern "C"

namespace {
void* newBytes(std::size_t n) {
  noteAllocation();
  void* p = __libc_malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  return p;
}
void* newAligned(std::size_t n, std::align_val_t a) {
  noteAllocation();
  void* p = __libc_memalign(static_cast<size_t>(a), n ? n : 1);
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) { return newBytes(n); }
void* operator new[](std::size_t n) { return newBytes(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return __libc_malloc(n ? n : 1); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return __libc_malloc(n ? n : 1); }
void* operator new(std::size_t n, std::align_val_t a) { return newAligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return newAligned(n, a); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  noteAllocation();
  return __libc_memalign(static_cast<size_t>(a), n ? n : 1);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  noteAllocation();
  return __libc_memalign(static_cast<size_t>(a), n ? n : 1);
}
void operator delete(void* p) noexcept { __libc_free(p); }
void operator delete[](void* p) noexcept { __libc_free(p); }
void operator delete(void* p, std::size_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::size_t) noexcept { __libc_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { __libc_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { __libc_free(p); }
#endif  // GRBDA_COUNT_ALLOCATIONS

// The shared counter API of support/allocation_counter.hpp, for the other test files.
#include "support/allocation_counter.hpp"
namespace grbda::testsupport {
bool allocationCounterAvailable() { return GRBDA_COUNT_ALLOCATIONS != 0; }
long allocationCount() { return gAllocations.load(); }
void resetAllocationCount() { gAllocations.store(0); }
void setAllocationCounting(bool on) { gCounting.store(on); }
}  // namespace grbda::testsupport

using namespace grbda;
using namespace grbda::testsupport;

namespace {

/// Allocations made by the second of two calls of f (the first is the warm-up).
long allocationsAfterWarmUp(const std::function<void()>& f) {
  f();
  gAllocations.store(0);
  gCounting.store(true);
  f();
  gCounting.store(false);
  return gAllocations.load();
}

/// Each constrained solver's call (after its warm-up) allocates nothing.
void expectNoConstraintSolverAllocates(const std::function<void(const ConstraintSolverSettings&)>& solve) {
  for (ConstraintSolver solver :
       {ConstraintSolver::PV, ConstraintSolver::PVSoft, ConstraintSolver::KKT, ConstraintSolver::ProximalDelassus,
        ConstraintSolver::LTL, ConstraintSolver::LTLSoft, ConstraintSolver::PVEarly}) {
    ConstraintSolverSettings s;
    s.solver = solver;
    EXPECT_EQ(allocationsAfterWarmUp([&] { solve(s); }), 0) << constraintSolverName(solver);
  }
}

void expectHotCallsDoNotAllocate(const Model& m, Rng& rng) {
  Data data(m);
  const VecX q = randomConfiguration(rng, m), v = randomVector(rng, m.nv()), x = randomVector(rng, m.nv());
  ExternalForces fext(static_cast<size_t>(m.numBodies()), Vec6::Zero());
  fext.back() << 1, 2, 3, 4, 5, 6;
  VecX armature = VecX::Constant(m.nv(), 0.1);
  Mat6X J(6, m.nv());
  const int frame = static_cast<int>(m.frames().size()) - 1;
  const Vec3 point(0.1, 0.2, 0.3);
  Vec6 sink = Vec6::Zero();

  const std::vector<std::pair<const char*, std::function<void()>>> calls = {
      {"forwardDynamics", [&] { forwardDynamics(m, data, q, v, x); }},
      {"forwardDynamics(fext)", [&] { forwardDynamics(m, data, q, v, x, fext); }},
      {"inverseDynamics", [&] { inverseDynamics(m, data, q, v, x); }},
      {"inverseDynamics(fext)", [&] { inverseDynamics(m, data, q, v, x, fext); }},
      {"massMatrix", [&] { massMatrix(m, data, q); }},
      {"biasForces", [&] { biasForces(m, data, q, v); }},
      {"tree::aba", [&] { tree::aba(m, data, q, v, x, &fext, &armature); }},
      {"tree::rnea", [&] { tree::rnea(m, data, q, v, x, &fext); }},
      {"tree::crba", [&] { tree::crba(m, data, q); }},
      {"tree::nonLinearEffects", [&] { tree::nonLinearEffects(m, data, q, v); }},
      {"forwardKinematics(q,v,qdd)", [&] { forwardKinematics(m, data, q, v, x); }},
      {"frameJacobian(in place, world axes)",
       [&] { frameJacobian(m, data, frame, point, ReferenceFrame::LocalWorldAligned, J); }},
      {"frameJacobian(in place, local axes)", [&] { frameJacobian(m, data, frame, point, ReferenceFrame::Local, J); }},
      {"frameVelocity/frameAcceleration",
       [&] {
         sink += frameVelocity(m, data, frame, point) + frameAcceleration(m, data, frame, point);
         sink.head<3>() += framePosition(m, data, frame, point);
       }},
  };
  for (const auto& [name, call] : calls) EXPECT_EQ(allocationsAfterWarmUp(call), 0) << name;
  EXPECT_TRUE(sink.allFinite());
}

}  // namespace

TEST(Allocations, CounterSeesEigenAndNewAllocations) {
  if (!GRBDA_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting needs glibc and no AddressSanitizer";
  // The instrument itself must work, or the zero counts below would prove nothing.
  EXPECT_GE(allocationsAfterWarmUp([] { VecX x = VecX::Zero(100); EXPECT_EQ(x.sum(), 0.0); }), 1);
  EXPECT_GE(allocationsAfterWarmUp([] { auto p = std::make_unique<double[]>(10); EXPECT_NE(p.get(), nullptr); }), 1);
  EXPECT_GE(allocationsAfterWarmUp([] { std::vector<Mat6> v(3); EXPECT_EQ(v.size(), 3u); }), 1);
}

TEST(Allocations, HotCallsOnPreparedDataDoNotAllocate) {
  if (!GRBDA_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting needs glibc and no AddressSanitizer";
  Rng rng(61);
  for (bool floating : {false, true}) {
    for (int t = 0; t < 3; ++t) {
      TreeOptions opt;
      opt.numLinks = uniformInt(rng, 2, 20);
      opt.floatingBase = floating;
      const Model m = randomTree(rng, opt);
      SCOPED_TRACE(std::string(floating ? "floating" : "fixed") + " tree with " + std::to_string(m.numBodies()) +
                   " bodies");
      expectHotCallsDoNotAllocate(m, rng);
    }
  }
}

TEST(Allocations, InputsGivenAsViewsAreNotCopied) {
  if (!GRBDA_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting needs glibc and no AddressSanitizer";
  // Inputs are VecRef: segments of one state buffer in memory the library does not own (what the
  // Python module passes for a numpy array) bind without a copy, and give what owning VecX give.
  Rng rng(97);
  const Model m = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  const int nq = m.nq(), nv = m.nv();
  VecX state(nq + 2 * nv);
  state << randomIndependentPositions(rng, m, -0.3, 0.3), randomVector(rng, nv), randomVector(rng, nv);
  const std::vector<double> foreign(state.data(), state.data() + state.size());
  const Eigen::Map<const VecX> all(foreign.data(), static_cast<Eigen::Index>(foreign.size()));
  const auto qView = all.head(nq), vView = all.segment(nq, nv), tauView = all.tail(nv);
  const VecX q = qView, v = vView, tau = tauView;
  ConstraintModel feet(m);
  for (const char* foot : {"FR_foot", "FL_foot"}) feet.addPointContact(foot);
  ConstraintData cd(m, feet);
  Data data(m);
  VecX next(nq);
  // each call once on owning vectors (the expected answer) and once, counted, on the views
  const std::vector<std::pair<const char*, std::function<void(bool, MatX&)>>> calls = {
      {"forwardDynamics",
       [&](bool views, MatX& out) { out = (views ? forwardDynamics(m, data, qView, vView, tauView) : forwardDynamics(m, data, q, v, tau)); }},
      {"inverseDynamics",
       [&](bool views, MatX& out) { out = (views ? inverseDynamics(m, data, qView, vView, tauView) : inverseDynamics(m, data, q, v, tau)); }},
      {"massMatrix", [&](bool views, MatX& out) { out = (views ? massMatrix(m, data, qView) : massMatrix(m, data, q)); }},
      {"centroidalMomentumMatrix",
       [&](bool views, MatX& out) { out = (views ? centroidalMomentumMatrix(m, data, qView) : centroidalMomentumMatrix(m, data, q)); }},
      {"centerOfMassJacobian",
       [&](bool views, MatX& out) { out = (views ? centerOfMassJacobian(m, data, qView) : centerOfMassJacobian(m, data, q)); }},
      {"integrate",
       [&](bool views, MatX& out) {
         if (views) integrate(m, qView, vView, 1e-3, next);
         else integrate(m, q, v, 1e-3, next);
         out = next;
       }},
      {"constrainedForwardDynamics",
       [&](bool views, MatX& out) {
         out = (views ? constrainedForwardDynamics(m, data, feet, cd, qView, vView, tauView)
                           : constrainedForwardDynamics(m, data, feet, cd, q, v, tau));
       }},
  };
  for (const auto& named : calls) {  // not a structured binding: C++17 lambdas cannot capture one
    const auto& call = named.second;
    MatX expected, got;
    call(false, expected);
    EXPECT_EQ(allocationsAfterWarmUp([&] { call(true, got); }), 0) << named.first;
    EXPECT_TRUE(got == expected) << named.first;
  }
}

namespace {

/// Mini Cheetah constraints of every built-in kind: two point contacts (one off the frame), a
/// weld, a relative point between two legs.
ConstraintModel mixedCheetahConstraints(const Model& m) {
  ConstraintModel cm(m);
  cm.addPointContact("FR_foot");
  cm.addPointContact("FL_foot", Vec3(0.01, 0.0, 0.0));
  cm.addWeld("HR_foot");
  cm.addRelativePoint("HL_foot", Vec3::Zero(), "FL_knee_link", Vec3(0.0, 0.0, -0.1));
  return cm;
}

}  // namespace

TEST(Allocations, ConstrainedSolversDoNotAllocate) {
  if (!GRBDA_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting needs glibc and no AddressSanitizer";
  // Every cluster type of the Mini Cheetah (free base, geared rotors), point contacts, a weld, a
  // relative constraint, Baumgarte on; every solver, also the redundant (proximal) path.
  const Model m = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  ConstraintModel cm = mixedCheetahConstraints(m);
  cm.setCompliance(1e-4);
  cm.setBaumgarte(0.1);
  ConstraintModel redundant(m);
  redundant.addWeld("FR_foot");
  redundant.addWeld("FR_knee_link");
  Data data(m);
  ConstraintData cd(m, cm), rd(m, redundant);
  Rng rng(67);
  VecX q = m.neutralConfiguration();
  q.tail(m.nq() - 7) = randomVector(rng, m.nq() - 7);
  const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  const ExternalForces fext(static_cast<size_t>(m.numBodies()), Vec6::Ones());
  expectNoConstraintSolverAllocates(
      [&](const ConstraintSolverSettings& s) { constrainedForwardDynamics(m, data, cm, cd, q, v, tau, s, fext); });
  const VecX rest = VecX::Zero(m.nv());  // two welds on one link are consistent at rest only
  SCOPED_TRACE("redundant rows");
  expectNoConstraintSolverAllocates([&](const ConstraintSolverSettings& s) {
    if (s.solver != ConstraintSolver::PVSoft && s.solver != ConstraintSolver::LTLSoft)
      constrainedForwardDynamics(m, data, redundant, rd, q, rest, tau, s);
  });
  // LTL-OSIM of the constraint rows and of end-effectors
  EXPECT_EQ(allocationsAfterWarmUp([&] { ltlConstraintDelassus(m, data, cm, cd, q); }), 0);
  LtlOsimData ws(m);
  const std::vector<EndEffector> feet = {{m.frameIndex("FR_foot"), Vec3(0.01, 0.0, 0.0)},
                                         {m.frameIndex("HL_foot"), Vec3::Zero()}};
  EXPECT_EQ(allocationsAfterWarmUp([&] { ltlInverseOperationalSpaceInertia(m, data, ws, feet, q); }), 0);
}

TEST(Allocations, ConstrainedDynamicsDerivativesDoNotAllocate) {
  if (!GRBDA_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting needs glibc and no AddressSanitizer";
  // Mini Cheetah: point contacts, a weld, a relative point and a custom row, Baumgarte on; pv and kkt
  const Model m = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  ConstraintModel cm = mixedCheetahConstraints(m);
  cm.addCustomRows(m.body(0).name, MatX::Ones(1, 6), VecX::Ones(1));
  cm.setBaumgarte(0.1);
  Data data(m);
  ConstraintData cd(m, cm);
  Rng rng(71);
  VecX q = m.neutralConfiguration();
  q.tail(m.nq() - 7) = randomVector(rng, m.nq() - 7);
  const VecX v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  for (ConstraintSolver solver : {ConstraintSolver::PV, ConstraintSolver::KKT}) {
    ConstraintSolverSettings s;
    s.solver = solver;
    EXPECT_EQ(allocationsAfterWarmUp([&] { computeConstrainedDynamicsDerivatives(m, data, cm, cd, q, v, tau, s); }), 0)
        << constraintSolverName(solver);
  }
}

TEST(Allocations, PvOsimAndPvOsimFastDoNotAllocate) {
  if (!GRBDA_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting needs glibc and no AddressSanitizer";
  // Mini Cheetah feet (the fast path), a weld on the base (the dense fallback) and a fixed-base
  // rotor chain (plain PV-OSIM); every call and both operator products.
  const Model m = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mini_cheetah.urdf");
  ConstraintModel feet(m), base(m);
  for (const char* foot : {"FR_foot", "FL_foot", "HR_foot", "HL_foot"}) feet.addPointContact(foot);
  base.addPointContact("FR_foot");
  base.addWeld(m.body(0).name);
  VecX q = m.neutralConfiguration();
  for (int leg = 0; leg < 4; ++leg) q[7 + 3 * leg + 1] = -0.8, q[7 + 3 * leg + 2] = 1.6;
  Data data(m);
  for (const ConstraintModel* cm : {&feet, &base}) {
    ConstraintData cd(m, *cm);
    PvOsimFast op(m, *cm);
    VecX x = VecX::Ones(cm->numRows()), y(cm->numRows());
    double sink = 0.0;
    EXPECT_EQ(allocationsAfterWarmUp([&] { sink += pvInverseOperationalSpaceInertia(m, data, *cm, cd, q)(0, 0); }), 0);
    EXPECT_EQ(allocationsAfterWarmUp([&] { sink += pvOperationalSpaceInertia(m, data, *cm, cd, q)(0, 0); }), 0);
    EXPECT_EQ(allocationsAfterWarmUp([&] { sink += denseInverseOperationalSpaceInertia(m, data, *cm, cd, q)(0, 0); }), 0);
    EXPECT_EQ(allocationsAfterWarmUp([&] { op.compute(m, data, *cm, cd, q); }), 0);
    EXPECT_EQ(allocationsAfterWarmUp([&] { op.applyInverse(x, y); }), 0);
    EXPECT_EQ(allocationsAfterWarmUp([&] { op.applyLambda(x, y); }), 0);
    EXPECT_EQ(op.fellBack(), cm == &base);
    EXPECT_TRUE(std::isfinite(sink));
  }
}

TEST(Allocations, InverseMassMatrixAndLogDetDoNotAllocate) {
  if (!GRBDA_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting needs glibc and no AddressSanitizer";
  const Model m = loadUrdf(std::string(GRBDA_SOURCE_DIR) + "/models/mit_humanoid.urdf");
  Data data(m);
  VecX q = m.neutralConfiguration();
  Rng rng(79);
  q.tail(m.nq() - 7) = randomVector(rng, m.nq() - 7);
  double sink = 0.0;
  EXPECT_EQ(allocationsAfterWarmUp([&] { sink += inverseMassMatrix(m, data, q)(0, 0); }), 0);
  EXPECT_EQ(allocationsAfterWarmUp([&] { sink += logDetMassMatrix(m, data, q); }), 0);
  EXPECT_TRUE(std::isfinite(sink));
}

TEST(Allocations, EveryClusterTypeAndEveryPublicAlgorithmDoNotAllocate) {
  if (!GRBDA_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting needs glibc and no AddressSanitizer";
  // The calls that return by reference into a workspace (the hot path); the baselines that
  // return by value (projection, Lagrange) allocate their result by design and are not listed.
  Rng rng(83);
  for (const Model& m : {everyClusterType(), robots::telloLegs()}) {
    SCOPED_TRACE(m.name());
    Data data(m);
    const int frame = m.frameIndex(m.body(m.numBodies() - 1).name);
    const OsimSet ends(m, {{frame, Vec3(0.1, 0.0, 0.0)}, {m.frameIndex(m.body(1).name), Vec3::Zero()}});
    ConstraintModel contacts(m);
    contacts.addPointContact(m.body(m.numBodies() - 1).name);
    contacts.addWeld(m.body(2).name);
    contacts.setCompliance(1e-4);
    ConstraintData cd(m, contacts);
    ProximalData proximal(m);
    const ApproximateModel approx = makeApproximateModel(m, RotorApproximation::Diagonal);
    Data approxData(approx.tree);
    const Model& tree = approx.tree;
    const OsimSet approxEnds(tree, {{tree.frameIndex(tree.body(tree.numBodies() - 1).name), Vec3::Zero()}});
    const VecX q = randomIndependentPositions(rng, m, -0.3, 0.3), v = randomVector(rng, m.nv()),
               x = randomVector(rng, m.nv());
    const ExternalForces fext(static_cast<size_t>(m.numBodies()), Vec6::Ones());
    Mat6X J(6, m.nv());
    VecX dydd(m.nv());
    double sink = 0.0;
    const std::vector<std::pair<const char*, std::function<void()>>> calls = {
        {"forwardDynamics(fext)", [&] { forwardDynamics(m, data, q, v, x, fext); }},
        {"inverseDynamics(fext)", [&] { inverseDynamics(m, data, q, v, x, fext); }},
        {"massMatrix", [&] { massMatrix(m, data, q); }},
        {"biasForces", [&] { biasForces(m, data, q, v); }},
        {"inverseMassMatrix", [&] { inverseMassMatrix(m, data, q); }},
        {"logDetMassMatrix", [&] { sink += logDetMassMatrix(m, data, q); }},
        {"completeConfiguration", [&] { completeConfiguration(m, data, q); }},
        {"forwardKinematics + frameJacobian",
         [&] {
           forwardKinematics(m, data, q, v);
           frameJacobian(m, data, frame, Vec3::Zero(), ReferenceFrame::LocalWorldAligned, J);
         }},
        {"inverseOperationalSpaceInertia", [&] { inverseOperationalSpaceInertia(m, data, ends, q); }},
        {"applyTestForce",
         [&] {
           updateForcePropagators(m, data, q);
           sink += applyTestForce(m, data, frame, Vec3::Zero(), Vec3::UnitZ(), dydd);
         }},
        {"proximalSparseForwardDynamics(workspace)", [&] { proximalSparseForwardDynamics(m, data, proximal, q, v, x); }},
        {"approximateForwardDynamics", [&] { approximateForwardDynamics(approx, approxData, q, v, x); }},
        {"approximateInverseDynamics", [&] { approximateInverseDynamics(approx, approxData, q, v, x); }},
        {"approximateMassMatrix", [&] { approximateMassMatrix(approx, approxData, q); }},
        {"approximateInverseOperationalSpaceInertia",
         [&] { approximateInverseOperationalSpaceInertia(approx, approxData, approxEnds, q); }},
    };
    for (const auto& [name, call] : calls) EXPECT_EQ(allocationsAfterWarmUp(call), 0) << name;
    expectNoConstraintSolverAllocates(
        [&](const ConstraintSolverSettings& s) { constrainedForwardDynamics(m, data, contacts, cd, q, v, x, s, fext); });
    EXPECT_TRUE(std::isfinite(sink));
  }
}

TEST(Allocations, CfaSerialAndParallelDoNotAllocate) {
  if (!GRBDA_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocation counting needs glibc and no AddressSanitizer";
  Rng rng(89);
  const Model m = randomChain(rng, 16, true, 3, 1);
  CfaData serial(m), parallel(m, {2});
  const VecX q = randomConfiguration(rng, m), v = randomVector(rng, m.nv()), tau = randomVector(rng, m.nv());
  const ExternalForces fext(static_cast<size_t>(m.numBodies()), Vec6::Ones());
  EXPECT_EQ(allocationsAfterWarmUp([&] { cfaForwardDynamics(m, serial, q, v, tau, &fext); }), 0);
  EXPECT_EQ(allocationsAfterWarmUp([&] { cfaParallelForwardDynamics(m, parallel, q, v, tau, &fext); }), 0);
}
