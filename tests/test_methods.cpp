// The method table and Solver (include/grbda/methods.hpp): every forward-dynamics entry's Solver
// against a dense reference written here — H q̈ = τ − C (massMatrix, biasForces) without rows, the
// KKT system [H −Jᵀ; J R][q̈; λ] = [τ − C; −J̇v] with the contact Jacobians (frameJacobian,
// frameAccelerationBias) on the Mini Cheetah standing on two feet, and the embedded model's
// dynamics for the four-bar whose loop a row-solving method keeps as rows. Also: aliases resolve
// to their entry, unknown names are a typed error listing the valid ones, and compute() allocates
// nothing after construction.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "grbda/grbda.hpp"
#include "grbda/methods.hpp"
#include "support/allocation_counter.hpp"
#include "support/compare.hpp"
#include "support/model_files.hpp"
#include "support/random_model.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

Model loadWith(const std::string& file, LoopTreatment loops) {
  LoadOptions options;
  options.loops = loops;
  return loadUrdf(modelFile(file), options);
}

constexpr double kCompliance = 1e-3;  // soft rows on the contacts [m s⁻² N⁻¹]
const char* kFeet[] = {"FR_foot", "HL_foot"};

struct MethodState {
  VecX q, v, tau;
};

MethodState randomState(Rng& rng, const Model& m) {
  MethodState s;
  s.q = integrate(m, m.neutralConfiguration(), randomVector(rng, m.nv(), -0.3, 0.3), 1.0);
  s.v = randomVector(rng, m.nv());
  s.tau = randomVector(rng, m.nv(), -5.0, 5.0);
  return s;
}

/// H⁻¹ (τ − C) from the CRBA's H and the RNEA's C (not the articulated-body pass).
VecX denseForwardDynamics(const Model& m, const MethodState& s) {
  Data d(m);
  const MatX H = massMatrix(m, d, s.q);
  const VecX C = biasForces(m, d, s.q, s.v);
  return H.llt().solve(s.tau - C);
}

/// The same for the approximate model of `method` (its own H with armature and C).
VecX denseApproximate(const Model& m, MethodId method, const MethodState& s) {
  const ApproximateModel approx = makeApproximateModel(
      m, method == MethodId::Approximate ? RotorApproximation::Diagonal : RotorApproximation::None);
  Data d(approx.tree);
  const MatX H = approximateMassMatrix(approx, d, s.q);
  const VecX C = approximateBiasForces(approx, d, s.q, s.v);
  return H.llt().solve(s.tau - C);
}

struct Kkt {
  VecX qdd, lambda;
};

/// Point contacts at the feet's origins: J the linear rows of the world-aligned frame Jacobian,
/// J̇v the classical acceleration bias; R = 0 hard, R > 0 soft (λ = R⁻¹ (−J̇v − J q̈)).
Kkt denseContactKkt(const Model& m, const MethodState& s, double R) {
  Data d(m);
  const MatX H = massMatrix(m, d, s.q);
  const VecX C = biasForces(m, d, s.q, s.v);
  forwardKinematics(m, d, s.q, s.v);
  const int n = m.nv(), rows = 3 * static_cast<int>(std::size(kFeet));
  MatX J(rows, n);
  VecX bias(rows);
  for (size_t c = 0; c < std::size(kFeet); ++c) {
    const int frame = m.frameIndex(kFeet[c]);
    Mat6X Jc;
    frameJacobian(m, d, frame, Vec3::Zero(), ReferenceFrame::LocalWorldAligned, Jc);
    J.middleRows(3 * static_cast<int>(c), 3) = Jc.bottomRows(3);
    bias.segment<3>(3 * static_cast<int>(c)) =
        frameAccelerationBias(m, d, frame, Vec3::Zero(), ReferenceFrame::LocalWorldAligned).tail<3>();
  }
  MatX K = MatX::Zero(n + rows, n + rows);
  K.topLeftCorner(n, n) = H;
  K.topRightCorner(n, rows) = -J.transpose();
  K.bottomLeftCorner(rows, n) = J;
  K.bottomRightCorner(rows, rows) = R * MatX::Identity(rows, rows);
  VecX rhs(n + rows);
  rhs << s.tau - C, -bias;
  const VecX x = K.fullPivLu().solve(rhs);
  return {x.head(n), x.tail(rows)};
}

ConstraintModel feetContacts(const Model& m, bool soft) {
  ConstraintModel cm(m);
  for (const char* foot : kFeet) cm.addPointContact(foot);
  if (soft) cm.setCompliance(kCompliance);
  return cm;
}

/// How closely an entry must match: direct solvers to roundoff, the proximal iterations to their
/// convergence.
double tolerance(const MethodInfo& info) {
  return info.id == MethodId::Proximal || info.id == MethodId::ProximalSparse || info.id == MethodId::ProximalDelassus
             ? 1e-6
             : 1e-8;
}

std::vector<const MethodInfo*> forwardDynamicsEntries() {
  std::vector<const MethodInfo*> out;
  for (const MethodInfo& info : methodTable())
    if (info.accepts(kMethodFd)) out.push_back(&info);
  EXPECT_EQ(out.size(), 16u);  // the 16 methods `grbda fd --method` offers
  return out;
}

/// Whether an entry applies to a model: cfa refuses models that are not chains (InputError),
/// the approximate methods models without an independent tree (ModelError).
template <class Make>
std::unique_ptr<Solver> makeIfApplicable(Make make) {
  try {
    return make();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()), "");
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()), "");
  }
  return nullptr;
}

}  // namespace

TEST(MethodTable, EntriesAreConsistent) {
  const auto& table = methodTable();
  ASSERT_EQ(table.size(), 19u);  // the 19 methods of the command line's --method
  std::set<std::string> spellings;
  for (size_t i = 0; i < table.size(); ++i) {
    const MethodInfo& m = table[i];
    EXPECT_EQ(static_cast<size_t>(m.id), i) << m.name;
    EXPECT_EQ(&methodInfo(m.id), &m);
    EXPECT_TRUE(spellings.insert(m.name).second) << "duplicate spelling " << m.name;
    for (const char* alias : m.aliases)
      if (alias) EXPECT_TRUE(spellings.insert(alias).second) << "duplicate spelling " << alias;
    EXPECT_GT(std::string(m.summary).size(), 10u) << m.name;
    EXPECT_NE(m.commands, 0u) << m.name;
    if (m.constrained || m.exactRows || m.needsCompliance) EXPECT_TRUE(m.solvesRows) << m.name;
    if (m.needsCompliance) EXPECT_FALSE(m.exactRows) << m.name;
    if (m.benchKey) EXPECT_TRUE(m.accepts(kMethodFd)) << m.name;
  }
  EXPECT_TRUE(methodInfo(MethodId::PVSoft).needsCompliance);
  EXPECT_TRUE(methodInfo(MethodId::LTLSoft).needsCompliance);
  EXPECT_FALSE(methodInfo(MethodId::Cluster).solvesRows);
  EXPECT_EQ(methodNames(kMethodId), "cluster, projection, approximate, unconstrained");
}

TEST(MethodTable, AliasesResolveToTheirEntry) {
  const Model m = loadUrdf(modelFile("arm_6dof.urdf"));
  int aliases = 0;
  for (const MethodInfo& info : methodTable()) {
    EXPECT_EQ(lookupMethod(info.name), &info);
    EXPECT_EQ(&findMethod(info.name), &info);
    for (const char* alias : info.aliases) {
      if (!alias) continue;
      ++aliases;
      EXPECT_EQ(lookupMethod(alias), &info) << alias;
      if (info.accepts(kMethodFd) && !info.solvesRows && info.id != MethodId::Cfa && info.id != MethodId::CfaParallel)
        EXPECT_EQ(Solver(m, alias).method().id, info.id) << alias;
    }
  }
  EXPECT_GE(aliases, 5);
  EXPECT_EQ(lookupMethod("pv_soft"), &methodInfo(MethodId::PVSoft));
  EXPECT_EQ(Solver(m, "pv_early").method().id, MethodId::PVEarly);
}

TEST(MethodTable, UnknownNamesAreATypedErrorListingTheValidOnes) {
  const Model m = loadUrdf(modelFile("arm_6dof.urdf"));
  EXPECT_EQ(lookupMethod("no-such-method"), nullptr);
  try {
    Solver solver(m, "no-such-method");
    FAIL() << "an unknown method was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no-such-method"), std::string::npos) << what;
    for (const char* name : {"cluster", "pv-early", "proximal-sparse", "cfa-parallel"})
      EXPECT_NE(what.find(name), std::string::npos) << name << " missing in: " << what;
    EXPECT_EQ(what.find("pv-fast"), std::string::npos) << "an osim-only method offered for forward dynamics: " << what;
  }
  // osim-only entries exist but compute no forward dynamics
  EXPECT_THROW(Solver(m, "pv-fast"), InputError);
  EXPECT_THROW(Solver(m, methodInfo(MethodId::Dense)), InputError);
  EXPECT_THROW(findMethod("efpa", kMethodFd), InputError);
  // a method without rows refuses rows; a soft one without compliance fails when solving
  const Model cheetah = loadUrdf(modelFile("mini_cheetah.urdf"));
  EXPECT_THROW(Solver(cheetah, "cluster", feetContacts(cheetah, false)), InputError);
  // a method without rows refuses a model that keeps loops as rows
  const Model kept = loadWith("four_bar.urdf", LoopTreatment::Constrain);
  ASSERT_FALSE(kept.keptLoopGroups().empty());
  EXPECT_THROW(Solver(kept, "cluster"), InputError);
  // constraints of another model
  EXPECT_THROW(Solver(m, "pv", feetContacts(cheetah, false)), InputError);
}

TEST(MethodSolver, EveryEntryMatchesTheDenseReferenceWithContacts) {
  Rng rng(2601);
  const Model m = loadUrdf(modelFile("mini_cheetah.urdf"));
  int ran = 0;
  for (const MethodInfo* info : forwardDynamicsEntries()) {
    std::unique_ptr<Solver> solver = makeIfApplicable([&] {
      return info->solvesRows ? std::make_unique<Solver>(m, *info, feetContacts(m, info->needsCompliance))
                              : std::make_unique<Solver>(m, *info);
    });
    if (!solver) {
      EXPECT_TRUE(info->id == MethodId::Cfa || info->id == MethodId::CfaParallel) << info->name << " refused the model";
      continue;
    }
    ++ran;
    for (int trial = 0; trial < 3; ++trial) {
      const MethodState s = randomState(rng, m);
      const VecX qdd = solver->compute(s.q, s.v, s.tau);
      if (info->solvesRows) {
        const Kkt ref = denseContactKkt(m, s, info->needsCompliance ? kCompliance : 0.0);
        EXPECT_LT(relErr(qdd, ref.qdd), tolerance(*info)) << info->name;
        ASSERT_EQ(solver->lambda().size(), ref.lambda.size()) << info->name;
        EXPECT_LT(relErr(solver->lambda(), ref.lambda), 1e2 * tolerance(*info)) << info->name;
      } else if (info->approximate) {
        EXPECT_LT(relErr(qdd, denseApproximate(m, info->id, s)), tolerance(*info)) << info->name;
        EXPECT_EQ(solver->lambda().size(), 0) << info->name;
      } else {
        EXPECT_LT(relErr(qdd, denseForwardDynamics(m, s)), tolerance(*info)) << info->name;
      }
      EXPECT_EQ(&solver->qdd(), &solver->compute(s.q, s.v, s.tau)) << info->name << ": the answer moved";
    }
  }
  EXPECT_GE(ran, 13);
}

TEST(MethodSolver, EveryEntryMatchesTheEmbeddedLoopDynamics) {
  // Row-solving methods keep the four-bar's loop as rows (LoopTreatment::Constrain); the others
  // run on the embedded cluster. Both must give the embedded model's H⁻¹ (τ − C) in its
  // coordinates (the soft ones in the limit of a tiny compliance).
  Rng rng(2602);
  const Model embedded = loadWith("four_bar.urdf", LoopTreatment::Embed);
  const Model kept = loadWith("four_bar.urdf", LoopTreatment::Constrain);
  ASSERT_TRUE(embedded.hasConstraints());
  ASSERT_FALSE(kept.keptLoopGroups().empty());
  int ran = 0;
  for (const MethodInfo* info : forwardDynamicsEntries()) {
    const bool rows = info->solvesRows;
    std::unique_ptr<Solver> solver = makeIfApplicable([&] {
      if (!rows) return std::make_unique<Solver>(embedded, *info);
      ConstraintModel loops(kept);
      if (info->needsCompliance) loops.setCompliance(1e-10);
      return std::make_unique<Solver>(kept, *info, loops);
    });
    if (!solver) {
      EXPECT_TRUE(info->approximate || info->id == MethodId::CfaParallel) << info->name << " refused the model";
      continue;
    }
    ++ran;
    if (rows) EXPECT_EQ(solver->constraints()->numRows(), solver->lambda().size());
    for (int trial = 0; trial < 3; ++trial) {
      const MethodState s = randomState(rng, embedded);
      const VecX ref = info->approximate ? denseApproximate(embedded, info->id, s) : denseForwardDynamics(embedded, s);
      VecX qdd;
      if (rows) {
        const VecX q = expandPositions(kept, s.q);
        qdd = reduceVelocities(kept, solver->compute(q, expandVelocities(kept, q, s.v), expandForces(kept, s.tau)));
      } else {
        qdd = solver->compute(s.q, s.v, s.tau);
      }
      const double tol = info->needsCompliance ? 1e-5 : rows ? 1e2 * tolerance(*info) : tolerance(*info);
      EXPECT_LT(relErr(qdd, ref), tol) << info->name;
    }
  }
  EXPECT_GE(ran, 12);
}

/// Bundled models with loops, some of which the cluster CFA takes (a chain of clusters whose
/// bodies have invertible inertias); the first such one.
Model clusterCfaModel() {
  for (const char* file : {"four_bar.urdf", "mit_humanoid_leg.urdf", "generated/revolute_belt_pair_chain_12.urdf",
                           "six_bar.urdf", "planar_leg_linkage.urdf", "generated/parallel_chain_explicit_d5_l4.urdf"}) {
    Model m = loadUrdf(modelFile(file));
    if (clusterCfaUnsupportedReason(m).empty()) return m;
  }
  ADD_FAILURE() << "no bundled model the cluster CFA takes";
  return loadUrdf(modelFile("arm_6dof.urdf"));
}

TEST(MethodSolver, CfaEntriesMatchOnChains) {
  // cfa and cfa-parallel need a chain: a chain of loop clusters (the cluster CFA) and the plain arm.
  Rng rng(2603);
  const Model models[] = {clusterCfaModel(), loadUrdf(modelFile("arm_6dof.urdf"))};
  for (const Model& m : models) {
    ASSERT_TRUE(&m == &models[1] || m.hasConstraints());
    for (MethodId id : {MethodId::Cfa, MethodId::CfaParallel}) {
      SolverSettings settings;
      settings.threads = 2;
      std::unique_ptr<Solver> solver =
          makeIfApplicable([&] { return std::make_unique<Solver>(m, methodInfo(id), settings); });
      if (!solver) {
        EXPECT_TRUE(id == MethodId::CfaParallel && m.hasConstraints()) << methodInfo(id).name << " refused " << m.name();
        continue;
      }
      const MethodState s = randomState(rng, m);
      EXPECT_LT(relErr(solver->compute(s.q, s.v, s.tau), denseForwardDynamics(m, s)), 1e-8)
          << methodInfo(id).name << " on " << m.name();
    }
  }
}

TEST(MethodSolver, ComputeAllocatesNothing) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no allocation counter linked in (see tests/support/allocation_counter.hpp)";
  Rng rng(2604);
  const Model cheetah = loadUrdf(modelFile("mini_cheetah.urdf"));
  const Model chain = clusterCfaModel();
  const Model arm = loadUrdf(modelFile("arm_6dof.urdf"));
  int checked = 0;
  for (const MethodInfo* info : forwardDynamicsEntries()) {
    if (info->allocates) continue;  // the dense baselines return by value
    const Model& m = info->id == MethodId::Cfa ? chain : info->id == MethodId::CfaParallel ? arm : cheetah;
    std::unique_ptr<Solver> solver =
        info->solvesRows ? std::make_unique<Solver>(m, *info, feetContacts(m, info->needsCompliance))
                         : std::make_unique<Solver>(m, *info);
    const MethodState s = randomState(rng, m), s2 = randomState(rng, m);
    solver->compute(s.q, s.v, s.tau);  // a first call, then the measured one at another state
    long count = 0;
    {
      AllocationScope scope;
      solver->compute(s2.q, s2.v, s2.tau);
      count = scope.count();
    }
    EXPECT_EQ(count, 0) << info->name << " allocated " << count << " times";
    ++checked;
  }
  EXPECT_GE(checked, 12);
}
