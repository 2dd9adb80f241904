// Seed 004 (spec §3.7): the change-of-basis identities, the Constraint Force Algorithm against
// ABA and CRBA + Cholesky, the corrected T_1' against the old P^T H, invariance, joint wrenches
// against RNEA's transmitted forces, side branches, cyclic-reduction depth, parallel = serial.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <filesystem>
#include <iostream>

#include "algorithms/cfa_chain.hpp"
#include "cluster_support/constrained_models.hpp"
#include "grbda/grbda.hpp"
#include "support/allocation_counter.hpp"
#include "support/compare.hpp"
#include "support/random_model.hpp"

using namespace grbda;
using namespace grbda::testsupport;

namespace {

MatX randomSpd(Rng& rng, int n) {
  const MatX A = MatX::NullaryExpr(n, n, [&] { return uniform(rng, -1.0, 1.0); });
  return A * A.transpose() + 0.5 * MatX::Identity(n, n);
}

// ---------------------------------------------------------------------------------------------
// change of basis (Eq. 1-10)

TEST(ChangeOfBasis, IdentitiesHoldOnRandomSpdMatrices) {
  Rng rng(4);
  double worst = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 9, r = 4;
    const MatX M = randomSpd(rng, n);
    const MatX S1 = MatX::NullaryExpr(n, r, [&] { return uniform(rng, -1.0, 1.0); });
    const MatX Minv = M.inverse();
    const cob::Bases B = cob::changeOfBasis(M, S1);
    ASSERT_EQ(B.T2.cols(), n - r);
    MatX S(n, n), T(n, n);
    S << B.S1, B.S2;
    T << B.T1, B.T2;
    const double pair = (S.transpose() * T - MatX::Identity(n, n)).norm();           // Eq. 1
    const double dual = (B.S1.transpose() * B.T2).norm() + (B.S2.transpose() * B.T1).norm();
    const MatX special = S.transpose() * M * S;                                        // M in the special basis
    const double blockDiagonal = special.topRightCorner(r, n - r).norm();
    const double lowerBlock =
        (special.bottomRightCorner(n - r, n - r) - (B.T2.transpose() * Minv * B.T2).inverse()).norm();
    const MatX explicitOp = cob::constrainedOperatorExplicit(M, S1);
    const MatX immobilised = cob::immobilisedOperator(M, B.T2);
    const double eq3 = (Minv - explicitOp - immobilised).norm();                      // Eq. 3
    const double eq8 = (explicitOp - cob::constrainedOperatorImplicit(M, B.T2)).norm(); // Eq. 8
    // Eq. 10 for a random T_1' normalised so that S_1ᵀ T_1' = 1
    const MatX R = MatX::NullaryExpr(n, r, [&] { return uniform(rng, -1.0, 1.0); });
    const MatX T1p = R * (S1.transpose() * R).inverse();
    const double eq10 = (cob::reducedInverse(M, B.T2, T1p, S1) - (S1.transpose() * M * S1).inverse()).norm();
    for (double e : {pair, dual, blockDiagonal, lowerBlock, eq3, eq8, eq10}) {
      EXPECT_LT(e, 1e-11);
      worst = std::max(worst, e);
    }
  }
  std::cout << "[ measured ] change-of-basis identities: worst residual " << worst << "\n";
}

TEST(ChangeOfBasis, BadInputsAreTypedErrors) {
  Rng rng(5);
  const MatX M = randomSpd(rng, 5);
  const MatX S = MatX::Identity(5, 2);
  EXPECT_THROW(cob::constrainedOperatorExplicit(MatX::Ones(5, 4), S), InputError);  // not square
  EXPECT_THROW(cob::constrainedOperatorExplicit(M, MatX::Ones(4, 2)), InputError);  // wrong rows
  MatX notSpd = -M;
  EXPECT_THROW(cob::immobilisedOperator(notSpd, S), NumericalError);
  MatX dependent(5, 2);
  dependent << S.col(0), 2.0 * S.col(0);
  EXPECT_THROW(cob::constrainedOperatorExplicit(M, dependent), NumericalError);
  MatX nan = M;
  nan(1, 1) = std::nan("");
  EXPECT_THROW(cob::immobilisedOperator(nan, S), InputError);
  EXPECT_THROW(cob::reducedInverse(M, cob::reciprocalComplement(S), 2.0 * S, S), InputError);  // S1ᵀT1' ≠ 1
  MatX asym = M;
  asym(0, 1) += 1.0;
  EXPECT_THROW(cob::changeOfBasis(asym, S), InputError);
}

/// Projection = Lagrange (Eq. 8 with S_1 = G, T_2 = Kᵀ) on every loop model of models/, and the
/// operator gives C-ABA's accelerations.
TEST(ChangeOfBasis, ExplicitEqualsImplicitOnEveryLoopModel) {
  setLogLevel(LogLevel::Error);
  Rng rng(7);
  int checked = 0;
  double worst = 0.0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(GRBDA_SOURCE_DIR) + "/models")) {
    if (e.path().extension() != ".urdf") continue;
    const Model model = loadUrdf(e.path().string());
    if (!model.hasConstraints()) continue;
    SCOPED_TRACE(e.path().filename().string());
    Data data(model);
    const VecX q = randomIndependentConfiguration(rng, model);
    const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
    ProjectionMatrices cm;
    try {
      projectionMatrices(model, data, q, v, cm);
    } catch (const NumericalError&) {
      continue;
    }
    const VecX qs = data.qSpan, vs = data.vSpan;
    const MatX H = tree::crba(model, data, qs);
    const VecX C = tree::nonLinearEffects(model, data, qs, vs);
    EXPECT_LT((cm.K * cm.G).norm(), 1e-9 * (1.0 + cm.K.norm() * cm.G.norm()));  // Range G = null K
    const MatX explicitOp = cob::constrainedOperatorExplicit(H, cm.G);
    const MatX implicitOp = cob::constrainedOperatorImplicit(H, cm.K.transpose());
    const double opErr = (explicitOp - implicitOp).norm() / explicitOp.norm();
    EXPECT_LT(opErr, 1e-8);
    // q̈_span = G ÿ + g with ÿ from C-ABA, against the implicit operator on a spanning τ with Gᵀ τ_s = τ
    const VecX tauSpan = cm.G * (cm.G.transpose() * cm.G).ldlt().solve(tau);
    const VecX qddSpan = implicitOp * (tauSpan - C - H * cm.g) + cm.g;
    const VecX ydd = forwardDynamics(model, data, q, v, tau);
    const double fdErr = relErr(qddSpan, VecX(cm.G * ydd + cm.g));
    EXPECT_LT(fdErr, 1e-8);
    worst = std::max({worst, opErr, fdErr});
    ++checked;
  }
  EXPECT_GE(checked, 5);
  std::cout << "[ measured ] explicit = implicit on " << checked << " loop models, worst " << worst << "\n";
}

// ---------------------------------------------------------------------------------------------
// the CFA kernel on world-frame chains with random 1-3-DoF joints (spec §3.7 test 2, 3)

struct WorldChain {
  std::vector<Mat6> I;
  std::vector<MatX> h, hp;
  VecX tau;
  int nv = 0;
  bool floating = false;
};

Mat6 randomBodyInertia(Rng& rng) {
  const double m = uniform(rng, 0.5, 2.0);
  return spatialInertia(m, randomVec3(rng, -0.5, 0.5), randomRotationalInertia(rng, m));
}

WorldChain randomWorldChain(Rng& rng, int N, bool floating) {
  WorldChain c;
  c.floating = floating;
  for (int i = 0; i < N; ++i) {
    c.I.push_back(randomBodyInertia(rng));
    const int n = floating && i == 0 ? 6 : uniformInt(rng, 1, 3);
    MatX h = MatX::NullaryExpr(6, n, [&] { return uniform(rng, -1.0, 1.0); });
    h.bottomRows(3) *= 3.0;  // general axes: hᵀh ≠ 1
    c.h.push_back(h);
    c.hp.push_back(cob::reciprocalComplement(h));  // hᵀ h^⊥ = 0
    c.nv += n;
  }
  c.tau = randomVector(rng, c.nv);
  return c;
}

/// The dense reference: q̈ = (Hᵀ P⁻ᵀ I P⁻¹ H)⁻¹ τ  (Eq. 15); `condition` gets cond₂(M).
VecX denseReference(const WorldChain& c, double* condition = nullptr) {
  const int N = static_cast<int>(c.I.size());
  MatX P = MatX::Identity(6 * N, 6 * N), I = MatX::Zero(6 * N, 6 * N), H = MatX::Zero(6 * N, c.nv);
  for (int i = 0, col = 0; i < N; ++i) {
    if (i > 0) P.block<6, 6>(6 * i, 6 * (i - 1)) = -Mat6::Identity();
    I.block<6, 6>(6 * i, 6 * i) = c.I[i];
    H.block(6 * i, col, 6, c.h[i].cols()) = c.h[i];
    col += static_cast<int>(c.h[i].cols());
  }
  const MatX PinvH = P.lu().solve(H);
  const MatX M = PinvH.transpose() * I * PinvH;
  if (condition) {
    const Eigen::SelfAdjointEigenSolver<MatX> eig(M);
    *condition = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
  }
  return M.llt().solve(c.tau);
}

enum class T1Choice { Identity, Inertia, OldPH };

/// Runs the kernel (Thomas or cyclic reduction) and returns q̈.
VecX kernel(const WorldChain& c, T1Choice choice, bool cyclic, detail::CfaChain* keep = nullptr) {
  detail::CfaChain s;
  const int N = static_cast<int>(c.I.size());
  s.resize(N);
  for (int i = 0, col = 0; i < N; ++i) {
    const int n = static_cast<int>(c.h[i].cols());
    s.n[i] = n;
    s.Iinv[i] = c.I[i].inverse();
    s.h[i].setZero();
    s.h[i].leftCols(n) = c.h[i];
    s.hp[i].setZero();
    s.hp[i].leftCols(6 - n) = c.hp[i];
    const MatX& h = c.h[i];
    MatX ht;
    if (choice == T1Choice::OldPH) ht = h;                                   // the 1995 form: P H
    else if (choice == T1Choice::Identity) ht = h * (h.transpose() * h).inverse();
    else ht = c.I[i] * h * (h.transpose() * c.I[i] * h).inverse();
    s.ht[i].setZero();
    s.ht[i].leftCols(n) = ht;
    s.tau[i].setZero();
    s.tau[i].head(n) = c.tau.segment(col, n);
    col += n;
  }
  s.assemble(0, N);
  if (!cyclic) {
    EXPECT_TRUE(s.solveThomas());
  } else {
    s.levels = detail::CyclicReduction::levelCount(N);
    for (int l = 0; l < s.levels; ++l) {
      EXPECT_TRUE(detail::CyclicReduction::invertEliminated(s, l, 0, 1));
      detail::CyclicReduction::reduceKept(s, l, 0, 1);
    }
    EXPECT_TRUE(detail::CyclicReduction::solveRoot(s, 0));
    for (int l = s.levels - 1; l >= 0; --l) detail::CyclicReduction::backSubstitute(s, l, 0, 1);
  }
  s.accelerations(0, N);
  s.jointAccelerations(0, N);
  VecX qdd(c.nv);
  for (int i = 0, col = 0; i < N; ++i) {
    qdd.segment(col, s.n[i]) = s.qdd[i].head(s.n[i]);
    col += s.n[i];
  }
  if (keep) *keep = s;
  return qdd;
}

TEST(CfaKernel, EqualsTheInverseMassMatrixOnRandomChainsWithMultiDofJoints) {
  Rng rng(16);
  double worst = 0.0;
  for (bool floating : {false, true})
    for (int trial = 0; trial < 10; ++trial) {
      const WorldChain c = randomWorldChain(rng, 7, floating);
      double condition = 0.0;
      const VecX ref = denseReference(c, &condition);
      // backward-stable solves: error ≲ cond(M) · ε; the random floating chains reach cond ~ 1e5
      const double tol = std::max(1e-12, 100.0 * condition * 2.2e-16);
      for (T1Choice choice : {T1Choice::Identity, T1Choice::Inertia})
        for (bool cyclic : {false, true}) {
          const double e = relErr(kernel(c, choice, cyclic), ref);
          EXPECT_LT(e, tol) << "floating " << floating << " cyclic " << cyclic << " cond " << condition;
          worst = std::max(worst, e / std::max(1.0, condition));
        }
    }
  std::cout << "[ measured ] CFA kernel vs dense M^-1 (7-body chains, 1-3-DoF joints): worst error / cond(M) "
            << worst << "\n";
}

TEST(CfaKernel, TheOldFormulaWithPTransposeHFailsWhereTheCorrectedOnePasses) {
  // T_1' = Pᵀ H (Fijany et al. 1995) is only right when hᵀh = 1: O(1) wrong for general axes
  Rng rng(17);
  for (int trial = 0; trial < 5; ++trial) {
    const WorldChain c = randomWorldChain(rng, 7, false);
    const VecX ref = denseReference(c);
    EXPECT_LT(relErr(kernel(c, T1Choice::Identity, false), ref), 1e-11);
    EXPECT_GT(relErr(kernel(c, T1Choice::OldPH, false), ref), 1e-2);
  }
  // ...and agrees when every hᵀh = 1 (unit revolute axes through the origin)
  WorldChain unit = randomWorldChain(rng, 7, false);
  for (auto& h : unit.h) {
    h = MatX::Zero(6, 1);
    h.topRows(3) = randomAxis(rng);
  }
  for (size_t i = 0; i < unit.h.size(); ++i) unit.hp[i] = cob::reciprocalComplement(unit.h[i]);
  unit.nv = 7;
  unit.tau = randomVector(rng, 7);
  EXPECT_LT(relErr(kernel(unit, T1Choice::OldPH, false), denseReference(unit)), 1e-11);
}

TEST(CfaKernel, TheImmobilisedSystemIsTheBlockTridiagonalT2TransposeIinvT2) {
  Rng rng(18);
  const WorldChain c = randomWorldChain(rng, 6, false);
  detail::CfaChain s;
  kernel(c, T1Choice::Identity, false, &s);
  // dense T_2 = Pᵀ H^⊥ and A = T_2ᵀ I⁻¹ T_2 against the assembled blocks
  const int N = 6;
  MatX T2 = MatX::Zero(6 * N, 6 * N), Iinv = MatX::Zero(6 * N, 6 * N);
  for (int i = 0; i < N; ++i) {
    const Mat6 hp = s.hp[i];
    T2.block<6, 6>(6 * i, 6 * i) = hp;
    if (i > 0) T2.block<6, 6>(6 * (i - 1), 6 * i) = -hp;
    Iinv.block<6, 6>(6 * i, 6 * i) = c.I[i].inverse();
  }
  const MatX A = T2.transpose() * Iinv * T2;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      const Mat6 block = A.block<6, 6>(6 * i, 6 * j);
      const int m = 6 - s.n[i];
      if (std::abs(i - j) > 1) EXPECT_LT(block.norm(), 1e-12) << i << "," << j;
      else if (i == j) {
        Mat6 D = s.D[i];
        for (int k = m; k < 6; ++k) D(k, k) -= 1.0;  // padding
        EXPECT_LT((block - D).norm(), 1e-12);
      } else if (i == j + 1) {
        EXPECT_LT((block - s.L[i]).norm(), 1e-12);
      }
    }
}

TEST(CfaKernel, CyclicReductionOnTwoToTheKBlocksTakesKLevels) {
  for (int k = 0; k <= 12; ++k) EXPECT_EQ(detail::CyclicReduction::levelCount(1 << k), k);
  EXPECT_EQ(detail::CyclicReduction::levelCount(3), 1);
  EXPECT_EQ(detail::CyclicReduction::levelCount(1000), 9);  // ⌊log2 N⌋ ≤ ⌈log2 N⌉
  Rng rng(19);
  for (int N : {1, 2, 3, 5, 8, 13, 16, 33}) {  // and the solve is right for every N
    const WorldChain c = randomWorldChain(rng, N, N % 2 == 1);
    double condition = 0.0;
    const VecX ref = denseReference(c, &condition);
    EXPECT_LT(relErr(kernel(c, T1Choice::Identity, true), ref), std::max(1e-12, 100.0 * condition * 2.2e-16)) << N;
  }
}

// ---------------------------------------------------------------------------------------------
// the CFA on models

VecX crbaCholesky(const Model& model, Data& data, const VecX& q, const VecX& v, const VecX& tau) {
  const MatX H = tree::crba(model, data, q);
  const VecX C = tree::nonLinearEffects(model, data, q, v);
  return H.llt().solve(tau - C);
}

TEST(Cfa, SerialAndParallelEqualAbaAndCrbaOnRandomChains) {
  Rng rng(41);
  double worstAba = 0.0, worstCrba = 0.0, worstParallel = 0.0;
  for (bool floating : {false, true})
    for (int trial = 0; trial < 6; ++trial) {
      const int N = uniformInt(rng, 2, 24);
      const Model model = randomChain(rng, N, floating);
      Data data(model);
      CfaData serial(model), inertiaBasis(model, CfaOptions{1, CfaBasis::Inertia, -1}), two(model, CfaOptions{2}),
          three(model, CfaOptions{3});
      for (int s = 0; s < 3; ++s) {
        const VecX q = randomConfiguration(rng, model);
        const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
        const VecX aba = tree::aba(model, data, q, v, tau);
        const VecX crba = crbaCholesky(model, data, q, v, tau);
        const VecX cfa = cfaForwardDynamics(model, serial, q, v, tau);
        worstAba = std::max(worstAba, relErr(cfa, aba));
        worstCrba = std::max(worstCrba, relErr(cfa, crba));
        EXPECT_LT(relErr(cfa, aba), 1e-10);
        EXPECT_LT(relErr(cfa, crba), 1e-9);
        EXPECT_LT(relErr(cfaForwardDynamics(model, inertiaBasis, q, v, tau), aba), 1e-10);
        for (CfaData* p : {&serial, &two, &three}) {  // cyclic reduction on 1, 2, 3 threads
          const double e = relErr(cfaParallelForwardDynamics(model, *p, q, v, tau), cfa);
          EXPECT_LT(e, 1e-10) << p->threads() << " threads";  // Thomas vs cyclic reduction: round-off
          worstParallel = std::max(worstParallel, e);
        }
      }
    }
  std::cout << "[ measured ] CFA vs ABA " << worstAba << ", vs CRBA+Cholesky " << worstCrba
            << ", parallel vs serial " << worstParallel << "\n";
}

TEST(Cfa, LongChainsAndExternalForcesAgreeWithAba) {
  Rng rng(42);
  for (int N : {64, 256}) {
    const Model model = randomChain(rng, N, N == 256, 0, 1, 0.0);
    Data data(model);
    CfaData cfa(model, {2});
    const VecX q = randomConfiguration(rng, model);
    const VecX v = randomVector(rng, model.nv(), -0.2, 0.2), tau = randomVector(rng, model.nv());
    ExternalForces fext(model.numBodies());
    for (auto& f : fext) f = Vec6(randomVector(rng, 6));
    const VecX aba = tree::aba(model, data, q, v, tau, &fext);
    EXPECT_LT(relErr(cfaForwardDynamics(model, cfa, q, v, tau, &fext), aba), 1e-8) << N;
    EXPECT_LT(relErr(cfaParallelForwardDynamics(model, cfa, q, v, tau, &fext), aba), 1e-8) << N;
    EXPECT_EQ(cfa.reductionLevels(), N == 64 ? 6 : 8);
  }
}

TEST(Cfa, SideBranchesEqualAbaOnTheWholeTree) {
  Rng rng(43);
  for (bool floating : {false, true})
    for (int depth : {1, 2, 3}) {
      const Model model = randomChain(rng, 12, floating, 2, depth);
      Data data(model);
      CfaData cfa(model), two(model, {2});
      // the deepest path: the links, then the twigs of the last link (12 is even); other twigs are branches
      EXPECT_EQ(static_cast<int>(cfa.chainBodies().size()), 12 + depth);
      const VecX q = randomConfiguration(rng, model);
      const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
      const VecX aba = tree::aba(model, data, q, v, tau);
      EXPECT_LT(relErr(cfaForwardDynamics(model, cfa, q, v, tau), aba), 1e-10) << depth;
      EXPECT_LT(relErr(cfaParallelForwardDynamics(model, two, q, v, tau), aba), 1e-10) << depth;
    }
}

TEST(Cfa, EveryModelFileIsSolvedLikeCabaOrRefusedWithAReason) {
  setLogLevel(LogLevel::Error);
  Rng rng(52);
  int accepted = 0, refused = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(GRBDA_SOURCE_DIR) + "/models")) {
    if (e.path().extension() != ".urdf") continue;
    SCOPED_TRACE(e.path().filename().string());
    const Model model = loadUrdf(e.path().string());
    const std::string reason = cfaUnsupportedReason(model);
    if (!reason.empty()) {
      EXPECT_THROW(CfaData cfa(model), InputError);
      ++refused;
      continue;
    }
    ++accepted;
    Data data(model);
    CfaData cfa(model), two(model, CfaOptions{2});
    const VecX q = randomConfiguration(rng, model);
    const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
    const VecX ref = forwardDynamics(model, data, q, v, tau);
    EXPECT_LT(relErr(cfaForwardDynamics(model, cfa, q, v, tau), ref), 1e-10);
    EXPECT_LT(relErr(cfaParallelForwardDynamics(model, two, q, v, tau), ref), 1e-10);
  }
  EXPECT_GE(accepted, 4);  // the arms, the double pendulum, the approximate Mini Cheetah (legs as branches)
  EXPECT_GE(refused, 10);
}

TEST(Cfa, InvariantUnderLengthUnitAndWorldOrigin) {
  // revolute joints only: q̈ is then unit-free. Build the same chain in metres, in millimetres,
  // and with the world origin moved; the identity basis h̃ = h (hᵀh)⁻¹ changes with both.
  auto build = [](double unit, const Vec3& shift) {
    Rng rng(44);
    ModelBuilder b("scaled");
    b.setGravity(Vec3(0.0, 0.0, -9.81 * unit));
    LinkSpec world;
    world.name = "world";
    b.addLink(world);
    std::string parent = "world";
    for (int k = 1; k <= 9; ++k) {
      LinkSpec l = randomLink(rng, "l" + std::to_string(k));
      l.com *= unit;
      l.inertia *= unit * unit;
      b.addLink(l);
      JointSpec j;
      j.name = "j" + std::to_string(k);
      j.parent = parent;
      j.child = l.name;
      j.origin = randomOrigin(rng);
      j.origin.r *= unit;
      if (k == 1) j.origin.r += shift;
      j.axis = randomAxis(rng);
      b.addJoint(j);
      parent = l.name;
    }
    return b.build();
  };
  const Model metres = build(1.0, Vec3::Zero()), millimetres = build(1000.0, Vec3::Zero()),
              moved = build(1.0, Vec3(30.0, -20.0, 5.0));
  Rng rng(45);
  const VecX q = randomVector(rng, 9, -3.0, 3.0), v = randomVector(rng, 9), tau = randomVector(rng, 9);
  CfaData a(metres), b(millimetres), c(moved);
  const VecX ref = cfaForwardDynamics(metres, a, q, v, tau);
  // torques scale with length² in millimetres (N·mm·mm per kg…): τ_mm = 1e6 τ_m
  EXPECT_LT(relErr(cfaForwardDynamics(millimetres, b, q, v, VecX(1e6 * tau)), ref), 1e-9);
  EXPECT_LT(relErr(cfaParallelForwardDynamics(millimetres, b, q, v, VecX(1e6 * tau)), ref), 1e-9);
  EXPECT_LT(relErr(cfaForwardDynamics(moved, c, q, v, tau), ref), 1e-10);
}

/// Σ_{j in subtree(i)} of the body forces RNEA computes, i.e. RNEA's transmitted force, world
/// axes about the world origin, from jointReaction (about the joint origin) shifted back.
Vec6 rneaTransmitted(const Model& model, const Data& data, int i) {
  Vec6 f = jointReaction(model, data, i);
  const Body& b = model.body(i);
  const Vec3 origin = b.parent < 0 ? b.Xtree.r : data.Xa[b.parent].inverseTransformPoint(b.Xtree.r);
  f.head<3>() += origin.cross(f.tail<3>());
  return f;
}

TEST(Cfa, JointWrenchesEqualRneaTransmittedForces) {
  Rng rng(46);
  double worst = 0.0;
  for (bool floating : {false, true}) {
    const Model model = randomChain(rng, 10, floating, 3, 2);
    Data data(model);
    CfaData cfa(model), inertia(model, CfaOptions{1, CfaBasis::Inertia, -1});
    const VecX q = randomConfiguration(rng, model);
    const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
    const VecX qdd = cfaForwardDynamics(model, cfa, q, v, tau);
    cfaForwardDynamics(model, inertia, q, v, tau);
    inverseDynamics(model, data, q, v, qdd);
    const double scale = 1.0 + tau.norm();
    for (int i = 0; i < model.numBodies(); ++i) {
      const Vec6 rnea = rneaTransmitted(model, data, i);
      const double e = (cfa.jointWrench[i] - rnea).norm() / scale;
      EXPECT_LT(e, 1e-9) << model.body(i).name;
      worst = std::max(worst, e);
      // the constraint wrench is workless (h^⊥ space) and actuation + constraint = reaction
      const Body& b = model.body(i);
      if (b.joint.type == JointType::Free) continue;
      const Vec6 h = data.Xa[i].applyInverse(b.joint.subspace());
      EXPECT_LT(std::abs(h.dot(cfa.constraintWrench[i])), 1e-9 * scale);
      EXPECT_LT(std::abs(h.dot(inertia.constraintWrench[i])), 1e-9 * scale);
      EXPECT_NEAR(h.dot(rnea), tau[b.vIndex], 1e-9 * scale);
      // reaction = h̃ τ + constraint wrench, for both choices of h̃
      EXPECT_LT((h / h.squaredNorm() * tau[b.vIndex] + cfa.constraintWrench[i] - rnea).norm(), 1e-9 * scale);
    }
  }
  std::cout << "[ measured ] CFA joint wrenches vs RNEA transmitted forces: worst " << worst << "\n";
}

TEST(Cfa, ModelsThatAreNotChainsWithShortBranchesAreRejectedByName) {
  Rng rng(47);
  // a long side branch
  const Model longBranch = randomChain(rng, 8, false, 4, 5);
  try {
    CfaData cfa(longBranch);
    ADD_FAILURE() << "accepted a side branch of 5 bodies on an 8-body chain";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("twig_4_1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("side branch"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(CfaData cfa(longBranch, CfaOptions{1, CfaBasis::Identity, 5}));  // accepted when allowed
  // a loop cluster
  const Model rotors = rotorChain(rng, 3, false);
  try {
    CfaData cfa(rotors);
    ADD_FAILURE() << "accepted a model with loop clusters";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cluster '"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(cfaUnsupportedReason(rotors).empty());
  EXPECT_TRUE(cfaUnsupportedReason(longBranch, 5).empty());
  // two bodies on the ground
  TreeOptions opt;
  opt.numLinks = 3;
  for (int seed = 0;; ++seed) {
    Rng r(seed);
    const Model m = randomTree(r, opt);
    int roots = 0;
    for (const Body& b : m.bodies()) roots += b.parent < 0;
    if (roots < 2) continue;
    EXPECT_THROW(CfaData cfa(m), InputError);
    EXPECT_NE(cfaUnsupportedReason(m).find("both attached to the ground"), std::string::npos);
    break;
  }
}

TEST(Cfa, BadArgumentsAreTypedErrors) {
  Rng rng(48);
  const Model model = randomChain(rng, 5, false), other = randomChain(rng, 6, false);
  CfaData cfa(model);
  const VecX q = VecX::Zero(model.nq()), v = VecX::Zero(model.nv()), tau = VecX::Zero(model.nv());
  EXPECT_THROW(CfaData cfa0(model, CfaOptions{0}), InputError);
  EXPECT_THROW(cfaForwardDynamics(other, cfa, VecX::Zero(6), VecX::Zero(6), VecX::Zero(6)), InputError);
  EXPECT_THROW(cfaForwardDynamics(model, cfa, VecX::Zero(4), v, tau), InputError);
  VecX bad = tau;
  bad[2] = std::nan("");
  EXPECT_THROW(cfaForwardDynamics(model, cfa, q, v, bad), InputError);
  EXPECT_THROW(cfaParallelForwardDynamics(model, cfa, q, bad, tau), InputError);
  ExternalForces wrongCount(2, Vec6::Zero());
  EXPECT_THROW(cfaForwardDynamics(model, cfa, q, v, tau, &wrongCount), InputError);
}

TEST(Cfa, AMasslessEndBodyIsANumericalError) {
  ModelBuilder b("massless");
  LinkSpec world, l1, l2;
  world.name = "world";
  l1 = LinkSpec{"l1", 1.0, Vec3(0.1, 0, 0), Mat3::Identity() * 0.01, {}};
  l2 = LinkSpec{"l2", 0.0, Vec3::Zero(), Mat3::Zero(), {}};
  for (const auto& l : {world, l1, l2}) b.addLink(l);
  JointSpec j1, j2;
  j1.name = "j1"; j1.parent = "world"; j1.child = "l1"; j1.axis = Vec3::UnitZ();
  j2.name = "j2"; j2.parent = "l1"; j2.child = "l2"; j2.axis = Vec3::UnitY();
  b.addJoint(j1);
  b.addJoint(j2);
  Model model;
  try {
    model = b.build();
  } catch (const ModelError&) {
    GTEST_SKIP() << "the builder rejects massless links";
  }
  CfaData cfa(model), two(model, {2});
  const VecX z = VecX::Zero(2);
  try {
    cfaForwardDynamics(model, cfa, z, z, z);
    ADD_FAILURE() << "no error for a massless end body";
  } catch (const NumericalError& e) {
    EXPECT_NE(std::string(e.what()).find("'l2'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cfaParallelForwardDynamics(model, two, z, z, z), NumericalError);
}

TEST(Cfa, HotCallsAllocateNothing) {
  if (!allocationCounterLinked()) GTEST_SKIP() << "no counting allocator in this build";
  Rng rng(49);
  const Model model = randomChain(rng, 40, true, 5, 2);
  CfaData serial(model), two(model, {2});
  const VecX q = randomConfiguration(rng, model);
  const VecX v = randomVector(rng, model.nv()), tau = randomVector(rng, model.nv());
  cfaForwardDynamics(model, serial, q, v, tau);
  cfaParallelForwardDynamics(model, two, q, v, tau);
  AllocationScope scope;
  for (int k = 0; k < 3; ++k) {
    cfaForwardDynamics(model, serial, q, v, tau);
    cfaParallelForwardDynamics(model, two, q, v, tau);
  }
  EXPECT_EQ(scope.count(), 0);
}

// ---------------------------------------------------------------------------------------------
// joint reactions from inverse dynamics

TEST(JointReactions, PendulumMatchesTheHandDerivation) {
  // a body on a revolute joint about world x at the origin, COM at (0, l, 0) in the body,
  // principal inertia diag(ix, iy, iz): the pivot holds m (p̈ − g) and the moment
  // (ix + m l²) α x̂ − p × m g about the pivot.
  const double m = 2.0, l = 0.7, ix = 0.05, q = 0.6, w = -1.3, alpha = 2.1;
  ModelBuilder b("pendulum");
  LinkSpec world, link;
  world.name = "world";
  link.name = "bob";
  link.mass = m;
  link.com = Vec3(0.0, l, 0.0);
  link.inertia = Vec3(ix, 0.02, 0.03).asDiagonal();
  b.addLink(world);
  b.addLink(link);
  JointSpec j;
  j.name = "pivot";
  j.parent = "world";
  j.child = "bob";
  j.axis = Vec3::UnitX();
  b.addJoint(j);
  const Model model = b.build();
  Data data(model);
  const VecX tau = inverseDynamics(model, data, VecX::Constant(1, q), VecX::Constant(1, w), VecX::Constant(1, alpha));
  const Vec3 g = model.gravity();
  const Vec3 p(0.0, l * std::cos(q), l * std::sin(q));
  const Vec3 pdd = alpha * Vec3(0.0, -l * std::sin(q), l * std::cos(q)) - w * w * p;
  const Vec3 force = m * (pdd - g);
  const Vec3 moment = (ix + m * l * l) * alpha * Vec3::UnitX() - p.cross(m * g);
  const auto reactions = jointReactions(model, data);
  ASSERT_EQ(reactions.size(), 1u);
  EXPECT_EQ(reactions[0].joint, "pivot");
  EXPECT_FALSE(reactions[0].wholeCluster);
  EXPECT_LT((reactions[0].force - force).norm(), 1e-12);
  EXPECT_LT((reactions[0].moment - moment).norm(), 1e-12);
  EXPECT_NEAR(reactions[0].moment.x(), tau[0], 1e-12);  // the actuation is the moment along the axis
  EXPECT_LT(reactions[0].origin.norm(), 1e-15);
}

TEST(JointReactions, GroundReactionIsTheRateOfMomentumMinusGravity) {
  Rng rng(50);
  TreeOptions opt;
  opt.numLinks = 7;
  opt.prismaticChance = 0.2;
  const Model model = randomTree(rng, opt);
  Data data(model), fk(model);
  const VecX q = randomConfiguration(rng, model), v = randomVector(rng, model.nv()),
             qdd = randomVector(rng, model.nv());
  inverseDynamics(model, data, q, v, qdd);
  // the ground pushes on every body attached to it: sum, world axes about the world origin
  Vec6 ground = Vec6::Zero();
  for (const JointReaction& r : jointReactions(model, data)) {
    if (model.body(r.body).parent >= 0) continue;
    ground.head<3>() += r.moment + r.origin.cross(r.force);
    ground.tail<3>() += r.force;
  }
  // d/dt of the total momentum along q(t) = q + t v + t²/2 q̈, central differences
  const double h = 1e-5;
  auto momentum = [&](double t) {
    tree::forwardKinematics(model, fk, VecX(q + t * v + 0.5 * t * t * qdd), VecX(v + t * qdd));
    return worldMomentum(model, fk);
  };
  const Vec6 hdot = (momentum(h) - momentum(-h)) / (2 * h);
  tree::forwardKinematics(model, fk, q);
  Vec6 gravity = Vec6::Zero();  // Σ [c × m g; m g] about the world origin
  for (int i = 0; i < model.numBodies(); ++i) {
    const Mat6& I = model.body(i).inertia;
    const Vec3 c = fk.Xa[i].inverseTransformPoint(inertiaCom(I));
    gravity.head<3>() += c.cross(inertiaMass(I) * model.gravity());
    gravity.tail<3>() += inertiaMass(I) * model.gravity();
  }
  EXPECT_LT((ground - (hdot - gravity)).norm() / (1.0 + ground.norm()), 1e-7)
      << "ground " << ground.transpose() << "\nexpected " << (hdot - gravity).transpose();
}

TEST(JointReactions, LoopClustersReportOneWholeClusterEntry) {
  Rng rng(51);
  const Model model = rotorChain(rng, 2, false);
  Data data(model);
  const VecX q = randomIndependentConfiguration(rng, model);
  inverseDynamics(model, data, q, randomVector(rng, model.nv()), randomVector(rng, model.nv()));
  const auto reactions = jointReactions(model, data);
  EXPECT_EQ(static_cast<int>(reactions.size()), model.numClusters());
  bool sawCluster = false;
  for (const auto& r : reactions) sawCluster = sawCluster || r.wholeCluster;
  EXPECT_TRUE(sawCluster);
  for (const auto& r : reactions)
    if (r.wholeCluster) {
      EXPECT_THROW(jointReaction(model, data, r.body), InputError);
    }
  EXPECT_THROW(jointReaction(model, data, -1), InputError);
  // a Data of another model is refused by name, as every algorithm refuses it (issue #26)
  const Model other = rotorChain(rng, 3, false);
  Data otherData(other);
  EXPECT_THROW(jointReactions(model, otherData), InputError);
  EXPECT_THROW(jointReaction(model, otherData, 0), InputError);
}

}  // namespace
