#pragma once
// Data's workspace (Data::Workspace): what the algorithms keep between the steps of one call or
// hand from one call to the next, out of the installed headers (Data keeps only results). The
// fields are grouped by the pass that writes them; each has one writer, named at the field.
// Validity across calls: kinematicsVersion is bumped by every writer of the per-body kinematics
// (cluster and tree:: alike); a reader of an earlier call's work (applyTestForce,
// jointReaction(s), clusterJointForce) compares the stamp it needs with it.
#include <cstdint>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "grbda/data.hpp"

namespace grbda {

/// Per-cluster workspace (sizes fixed by the model: n bodies, d = nv, nc constraint rows).
struct ClusterData {
  // constraint (spec §2): q̇_span = G ẏ, q̈_span = G ÿ + g, K q̈_span = k
  /// q̇_span = G ẏ (nvSpan x d) and the loop rows K q̈_span = k (nc x nvSpan)
  ///@{
  MatX G, K;
  ///@}
  /// the bias terms g (nvSpan) and k (nc) of the constraint above
  ///@{
  VecX g, k;
  ///@}
  Eigen::PartialPivLU<MatX> luKd;  ///< factorisation of the dependent columns of K
  ///@{
  MatX Kd, Ki, KdInvKi;            ///< scratch: dependent / independent columns of K, K_d^{-1} K_i
  ///@}
  ///@{
  VecX phi, dq;                    ///< scratch: residual and Newton step
  ///@}
  // cluster motion subspace S_k (6n x d), stacked per body
  MatX S;  ///< cluster motion subspace S_k (6n x d), stacked per body
  // The articulated-cluster pass (src/kernels/articulated_pass.hpp; spec §6.3 pass A/B). Each
  // field has one meaning, whichever algorithm ran the pass (C-ABA, C-EFPA, PV, PV-soft):
  MatX U;                          ///< U_k = IA_k S_k (6n x d)
  MatX D;                          ///< D_k = S_kᵀ IA_k S_k (d x d)
  MatX Dinv;                       ///< D_k⁻¹ (d x d)
  double detD = 1.0;               ///< det D_k (Σ_k log detD = log det H, seed 001)
  Eigen::LLT<MatX> llt;            ///< Cholesky factor of D_k (only for d_k ∉ {1, 2, 3, 6})
  MatX XU;                         ///< Σ_i Xout_iᵀ U_i: U_k folded onto the output body (6 x d)
  MatX DinvXUt;                    ///< D_k⁻¹ XU_kᵀ (d x 6); root clusters: unused
  VecX u;                          ///< τ_k − S_kᵀ pA_k (passes with bias terms only)
  VecX w;                          ///< scratch: u_k − U_kᵀ c_k on the way in, then ÿ_k
  MatX scratchD6;                  ///< scratch (d x 6)
  MatX F;                          ///< CRBA: Ic_i S_k per body (6n x d)
  MatX Fout;                       ///< CRBA: F folded onto the output body, then carried inward (6 x d)
};

/// Workspace of C-EFPA and apply-test-force (algorithms/osim.hpp). The per-end-effector buffers
/// are sized by the first inverseOperationalSpaceInertia call with a given OsimSet.
struct OsimData {
  std::vector<Mat6> P;  ///< force propagator rows Φ_{e,k} at e's body in each supporting cluster k
  std::vector<Mat6> A;  ///< acceleration Ψ_{k,e} of that body per unit force at e (columns)
  MatX Y;               ///< ÿ_k per unit force at e, stacked over (e, k): (Σ d_k) x 6
  MatX LambdaInv;       ///< the result Λ⁻¹ (6-D blocks)
  MatX LambdaInvLinear; ///< the result Λ⁻¹ (linear rows only)
};

/// Cluster-local terms of a cluster whose G(y), g(y, ẏ) change with the state (four-bar, `<loop>`,
/// differentials), for the dynamics derivatives (algorithms/derivatives.hpp).
struct ClusterDerivativesData {
  ClusterData work;  ///< scratch: K and k evaluated at displaced positions and velocities
  MatX dG;           ///< ∂G/∂y_j for each j, side by side (nvSpan x nv·nv)
  MatX dGyd;         ///< ∂(G ẏ)/∂y (nvSpan x nv)
  MatX dAcc;         ///< ∂(G ÿ + g)/∂y (nvSpan x nv)
  MatX dgdv;         ///< ∂g/∂ẏ (nvSpan x nv)
  ///@{
  MatX K0, dK;       ///< K at the state, and its derivative along one direction
  ///@}
  ///@{
  VecX dk, dkv, rhs;  ///< ∂k along one direction (positions, velocities), a right-hand side
  ///@}
  ///@{
  VecX q, qd;         ///< displaced spanning positions and velocities of the cluster
  ///@}
};

/// What the last articulated-cluster pass in Data was run on (applyTestForce reads it).
struct ArticulatedPassStamp {
  std::uint64_t kinematics = 0;  ///< Data::kinematicsVersion of the pass
  bool plain = false;            ///< no soft-constraint inertia was added (PV-soft) to IA and D
  int failedCluster = -1;        ///< the cluster whose D_k was not positive definite (-1: none)
};

/// Centre of mass and centroidal calls' scratch (algorithms/com.cpp, centroidal.cpp).
struct CentroidalScratch {
  std::vector<Vec6> aBias;                  ///< body accelerations at q̈ = 0, no gravity (body axes)
  std::vector<Eigen::Vector4d> massMoment;  ///< composite [mass; first moment m c] (cluster tree, body axes; centerOfMassJacobian)
  // Rotors with their centre of mass on their axis (leaves on revolute joints): their own turning
  // moves no mass, so centerOfMassJacobian folds them into their parents (data.cpp).
  std::vector<char> comOnAxis;                    ///< per body: folded into its parent for the CoM
  std::vector<Eigen::Vector4d> foldedMassMoment;  ///< per body: [m; h] plus its folded rotors' (body axes)
  /// composite inertias as ten parameters [m; h; Ī_xx Ī_yy Ī_zz Ī_xy Ī_xz Ī_yz] over the cluster
  /// tree: body axes in ccrbaPass, world axes about the origin in the world-axes pass below
  std::vector<Eigen::Matrix<double, 10, 1>> compositeParams;
  std::vector<Eigen::Matrix<double, 10, 1>> bodyParams;  ///< each body's inertia as ten parameters (body axes)
  Vec6 h0 = Vec6::Zero();  ///< momentum about the world origin
  Vec6 f0 = Vec6::Zero();  ///< its rate
  // centroidalDynamics in world axes (algorithms/centroidal.cpp), for models whose every cluster
  // has a constant S and hangs from its output body: world quantities add along the tree.
  bool worldAxes = false;  ///< that pass applies to this model
  std::vector<Vec6> worldVelocity;  ///< body velocities, world axes
  std::vector<Vec6> worldBias;      ///< velocity products c_i, world axes
  Mat6X worldS;                     ///< each body's columns of its cluster's S, world axes
  std::vector<int> worldSColumn;    ///< body i's first column in worldS
  // Symmetric rotors (a leaf on a revolute joint whose inertia its own rotation leaves unchanged):
  // such a body's inertia is constant in its parent's axes, so the pass folds it into the parent
  // and keeps of the rotor only its spin momentum (data.cpp, foldSymmetricRotors).
  std::vector<char> symmetricRotor;  ///< per body: folded into its parent
  /// per body, ten parameters in body axes: its inertia plus its folded rotors' (world-axes pass)
  std::vector<Eigen::Matrix<double, 10, 1>> foldedParams;
  /// per symmetric rotor, at its worldS columns: I_r S_r in its parent's axes (constant)
  Mat6X rotorMomentum;
  std::vector<Vec6> worldMomentum;  ///< per body: ^0I_i ^0v_i plus its folded rotors' spin momenta
};

/// The Coriolis-matrix pass (algorithms/coriolis.cpp, cluster_gdot.cpp, jacobian_time_variation.cpp).
struct CoriolisScratch {
  // spanning-tree pass (world frame), per spanning velocity column / per body
  Mat6X S;                      ///< world columns of every spanning joint
  Mat6X dS;                     ///< their time derivatives
  std::vector<Mat6> IC;         ///< composite inertia per body
  std::vector<Mat6> BC;         ///< composite Coriolis-matrix factor per body
  MatX Cs;                      ///< spanning-tree C_s (nvSpanning²)
  MatX Hs;                      ///< spanning-tree H_s (nvSpanning²)
  MatX W;                       ///< C_s Ĝ + H_s Ĝ̇ (nvSpanning x nv)
  std::vector<MatX> Gdot;       ///< per cluster: Ġ (nvSpan_k x nv_k; zero for constant G)
  std::vector<ClusterData> work;  ///< per cluster: scratch for K, K̇ (only clusters with a varying G)
};

/// Data's workspace, sized once by Data(model).
struct Data::Workspace {
  // Kinematics (per body, regular order): written by the cluster kinematics update and by the
  // tree:: kinematics, each bumping kinematicsVersion
  std::vector<Transform> Xup;  ///< ^i X_λ(i) = X_J(q_i) X_T(i)
  std::vector<Transform> Xout; ///< ^i X_Λ(i): from the cluster's output body to body i
  std::vector<Vec6> c;         ///< velocity-product acceleration v × vJ
  /// Incremented by every kinematics update (cluster or tree::): what was computed at an older
  /// value no longer matches Xup, Xa, Xout, S, v, c.
  std::uint64_t kinematicsVersion = 0;

  // Articulated-body quantities (the articulated-cluster pass; tree::aba on the spanning tree)
  std::vector<Mat6> IA;        ///< articulated inertia, body coordinates
  std::vector<Vec6> pA;        ///< articulated bias force, body coordinates
  /// Per body: a leaf of revolution hanging from its cluster's output body (a symmetric rotor):
  /// its own rotation leaves its inertia unchanged, so folded onto the output body it is the
  /// constant inertiaInParent whatever its angle (sizeWorkspace; 0 for every other body).
  std::vector<char> turnsWithoutChange;
  std::vector<Mat6> inertiaInParent;  ///< Xtreeᵀ I Xtree of those bodies (zero for the others)
  /// tree::aba's per-body terms (the spanning tree's, one joint a body; names as in the paper,
  /// kept apart from the cluster pass's U, D⁻¹, u in ClusterData)
  struct TreeAba {
    std::vector<Mat6> U;     ///< IA S (first nv_i columns used)
    std::vector<Mat6> Dinv;  ///< (Sᵀ IA S)⁻¹ (top-left nv_i block used)
    std::vector<Vec6> u;     ///< τ_i − Sᵀ pA (first nv_i entries used)
  } treeAba;                 ///< written by tree::aba only
  ArticulatedPassStamp articulated;  ///< what the last articulated-cluster pass was run on

  /// kinematicsVersion at which the last C-RNEA inward pass left its transmitted forces in
  /// Data::f (0: none yet); clusterJointForce and jointReaction(s) read f only when it equals
  /// kinematicsVersion.
  std::uint64_t rneaForcesVersion = 0;

  std::vector<Mat6> Ic;  ///< composite inertia per body (CRBA)

  std::vector<ClusterData> clusters;  ///< per-cluster workspace
  VecX zeroV;        ///< zero independent velocities, reused (never written after sizing)
  VecX zeroVTree;    ///< zero spanning velocities, reused (never written after sizing)
  VecX spanScratch;  ///< spanning-sized scratch

  ///@{
  std::vector<Mat6X> minvP, minvA;  ///< inverseMassMatrix's per-body force and acceleration operators (6 x nv)
  ///@}
  OsimData osim;  ///< C-EFPA / apply-test-force workspace
  std::vector<ClusterDerivativesData> derivativeClusters;  ///< dynamics derivatives: per cluster, empty for constant G
  CentroidalScratch centroidal;  ///< centre of mass and centroidal calls
  CoriolisScratch coriolis;      ///< Coriolis matrix, J̇, Ġ
};

using DataWorkspace = Data::Workspace;

}  // namespace grbda
