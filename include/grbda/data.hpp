#pragma once
// Data: the preallocated workspace of the algorithms (Pinocchio's Data). One per thread; sized
// once from a Model, after which no algorithm allocates.
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "grbda/model.hpp"

namespace grbda {

/// External spatial forces, one per body, in world coordinates (moment about the world origin
/// first, then force) — spec §6.2. An empty vector means "no external forces".
using ExternalForces = std::vector<Vec6>;

/// Per-cluster workspace (sizes fixed by the model: n bodies, d = nv, nc constraint rows).
struct ClusterData {
  // constraint (spec §2): q̇_span = G ẏ, q̈_span = G ÿ + g, K q̈_span = k
  MatX G, K;
  VecX g, k;
  Eigen::PartialPivLU<MatX> luKd;  ///< factorisation of the dependent columns of K
  MatX Kd, Ki, KdInvKi;            ///< scratch: dependent / independent columns of K, K_d^{-1} K_i
  VecX phi, dq;                    ///< scratch: residual and Newton step
  // cluster motion subspace S_k (6n x d), stacked per body
  MatX S;
  // C-ABA
  MatX U;                          ///< IA S (6n x d)
  MatX D;                          ///< S^T IA S (d x d)
  Eigen::LLT<MatX> llt;            ///< Cholesky factor of D
  MatX XU;                         ///< Xup^T U folded onto the output body (6 x d)
  MatX DinvXUt;                    ///< D^{-1} XU^T (d x 6)
  VecX u, w, ydd;                  ///< τ − S^T pA,  D^{-1}(u − U^T c),  ÿ
  MatX F;                          ///< CRBA scratch (6n x d)
  // C-EFPA / apply-test-force (algorithms/osim.hpp): their own copies, so that other algorithms
  // run in between (C-ABA at another q, CRBA) cannot change what applyTestForce reads
  Eigen::LLT<MatX> propagatorLlt;  ///< Cholesky factor of D_k = S_k^T IA_k S_k (no bias terms)
  MatX propagatorDinvXUt;          ///< D_k^{-1} XU_k^T (d x 6); unused for root clusters
  bool positionsKnown = false;     ///< qSpan holds a closed configuration to warm-start from
};

/// Workspace of C-EFPA and apply-test-force (algorithms/osim.hpp). The per-end-effector buffers
/// are sized by the first inverseOperationalSpaceInertia call with a given OsimSet.
struct OsimData {
  std::vector<Mat6> P;  ///< force propagator rows Φ_{e,k} at e's body in each supporting cluster k
  std::vector<Mat6> A;  ///< acceleration Ψ_{k,e} of that body per unit force at e (columns)
  MatX Y;               ///< ÿ_k per unit force at e, stacked over (e, k): (Σ d_k) x 6
  MatX LambdaInv;       ///< the result Λ⁻¹ (6-D blocks)
  MatX LambdaInvLinear; ///< the result Λ⁻¹ (linear rows only)
  VecX qSpan;           ///< configuration of the last articulated-inertia pass
  bool propagatorsReady = false;  ///< propagatorLlt / propagatorDinvXUt hold the pass at qSpan
};

class Data {
 public:
  explicit Data(const Model& model);

  // Kinematics (per body, regular order)
  std::vector<Transform> Xup;  ///< ^i X_λ(i) = X_J(q_i) X_T(i)
  std::vector<Transform> Xa;   ///< ^i X_0: world -> body i
  std::vector<Transform> Xout; ///< ^i X_Λ(i): from the cluster's output body to body i
  std::vector<Vec6> v;         ///< body spatial velocity, body coordinates
  std::vector<Vec6> a;         ///< body spatial acceleration (gravity-biased inside RNEA/ABA)
  std::vector<Vec6> c;         ///< velocity-product acceleration v × vJ
  std::vector<Vec6> f;         ///< body forces (RNEA), articulated bias forces pA (ABA)

  // Articulated-body quantities (ABA)
  std::vector<Mat6> IA;        ///< articulated inertia
  std::vector<Mat6> U;         ///< IA S (first nv_i columns used)
  std::vector<Mat6> Dinv;      ///< (S^T IA S)^{-1} (top-left nv_i block used)
  std::vector<Vec6> u;         ///< tau_i - S^T pA (first nv_i entries used)

  // Composite-rigid-body quantities (CRBA)
  std::vector<Mat6> Ic;

  // Clusters
  std::vector<ClusterData> clusters;
  VecX qSpan;   ///< spanning positions (completed from independent ones)
  VecX vSpan;   ///< spanning velocities G v
  VecX vZero;   ///< zero independent velocities, reused
  VecX spanScratch;  ///< spanning-sized scratch

  // Results in independent coordinates (cluster algorithms)
  VecX tau;   ///< generalized forces (C-RNEA)
  VecX qdd;   ///< accelerations ÿ (C-ABA)
  VecX C;     ///< bias forces C(q, v)
  MatX H;     ///< mass matrix H(q)

  // Results in spanning-tree coordinates (tree:: algorithms, loops ignored)
  VecX tauTree, qddTree, CTree;
  MatX HTree;
  VecX zeroVTree;

  OsimData osim;  ///< C-EFPA / apply-test-force workspace
};

}  // namespace grbda
