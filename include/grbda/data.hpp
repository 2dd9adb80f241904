#pragma once
// Data: the preallocated workspace of the algorithms (Pinocchio's Data). One per thread; sized
// once from a Model, after which no algorithm allocates. Everything a thread may want to vary per
// call without touching the shared Model (gravity) lives here too.
#include <cstdint>
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

/// Results and workspace of computeRNEADerivatives / computeABADerivatives, sized by the first
/// call. Position derivatives are taken in the tangent space (a floating base: a body-frame
/// twist, as integrate()), so every matrix is nv x nv.
struct DerivativesData {
  ///@{
  MatX dtau_dq, dtau_dv, M;  ///< ∂τ/∂y, ∂τ/∂ẏ and ∂τ/∂ÿ = ℳ
  ///@}
  VecX tau;                  ///< τ at the state (as inverseDynamics)
  VecX ddq;                  ///< ÿ (computeABADerivatives; ∂ÿ/∂τ = ℳ⁻¹ is Data::Minv)
  ///@{
  MatX ddq_dq, ddq_dv;       ///< ∂ÿ/∂y, ∂ÿ/∂ẏ
  ///@}
  // The spanning-tree pass, world frame: per spanning velocity column
  ///@{
  Mat6X J, dJ, dVdq, dAdq;   ///< S, Ṡ = v × S, v_λ × S, a_λ × S + v_λ × (v_λ × S)
  ///@}
  ///@{
  std::vector<Mat6> IC, BC;  ///< composite inertia and composite Coriolis matrix per body
  ///@}
  ///@{
  std::vector<Vec6> vw, aw, F;  ///< body velocity, gravity-biased acceleration, subtree force
  ///@}
  /// q̈ and τ in spanning coordinates
  ///@{
  VecX qddSpan, tauSpan;
  ///@}
  /// ∂τ/∂q, ∂τ/∂q̇ and H in spanning coordinates
  ///@{
  MatX dtauSpan_dq, dtauSpan_dv, HSpan;
  ///@}
  MatX scratch;  ///< scratch
  std::vector<ClusterDerivativesData> clusters;  ///< empty entries for clusters with constant G
};

/// Centre of mass and centroidal momentum (algorithms/com.hpp, algorithms/centroidal.hpp), world
/// frame unless noted. Sized by Data(model); each field names the calls that write it.
struct CentroidalData {
  double mass = 0.0;             ///< total mass M, rotors included (every com / centroidal call)
  Vec3 com = Vec3::Zero();       ///< centre of mass p_G (every com / centroidal call)
  Vec3 vcom = Vec3::Zero();      ///< ṗ_G (centerOfMass with v)
  Vec3 acomBias = Vec3::Zero();  ///< J̇_c v: p̈_G at q̈ = 0, gravity not included (centerOfMass with v)
  std::vector<double> subtreeMass;  ///< per body: mass of its spanning subtree (centerOfMass)
  std::vector<Vec3> subtreeCom;     ///< per body: CoM of its spanning subtree (centerOfMass)
  Mat3X Jcom;                       ///< 3 x nv CoM Jacobian, ṗ_G = Jcom v (centerOfMassJacobian)
  std::vector<Vec6> aBias;          ///< scratch: body accelerations at q̈ = 0, no gravity (body axes)
  std::vector<Eigen::Vector4d> massMoment;  ///< scratch: composite [mass; first moment m c] (cluster tree, body axes; centerOfMassJacobian)
  std::vector<Eigen::Matrix<double, 10, 1>> compositeParams;  ///< scratch: composite inertias as ten parameters [m; h; Ī_xx Ī_yy Ī_zz Ī_xy Ī_xz Ī_yz] (cluster tree, body axes; centroidal calls)
  Mat6X Ag;     ///< A_G (6 x nv): rows [linear; angular about p_G], h_G = A_G v (centroidal calls)
  Vec6 hg = Vec6::Zero();   ///< h_G = [m ṗ_G; angular momentum about p_G] (centroidalMomentum, centroidalDynamics)
  Vec6 dhg = Vec6::Zero();  ///< Ȧ_G v = dh_G/dt at q̈ = 0, no gravity (centroidalMomentumBias, centroidalDynamics)
  Mat6 Ig = Mat6::Zero();   ///< centroidal composite inertia diag(Ī_G, M 1), angular first (centroidalMomentumMatrix)
  Vec6 h0 = Vec6::Zero();   ///< scratch: momentum about the world origin
  Vec6 f0 = Vec6::Zero();   ///< scratch: its rate
};

/// Coriolis matrix, gravity vector and static torques (algorithms/coriolis.hpp). Sized by Data(model).
struct CoriolisData {
  MatX C;          ///< C(q, v) (nv x nv), Ḣ − 2C skew-symmetric (coriolisMatrix)
  VecX g;          ///< gravity vector g(q) (gravityVector)
  VecX staticTau;  ///< g(q) − Jᵀ f_ext (staticTorque)
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

/// What the last articulated-cluster pass in Data was run on (applyTestForce reads it).
struct ArticulatedPassStamp {
  std::uint64_t kinematics = 0;  ///< Data::kinematicsVersion of the pass
  bool plain = false;            ///< no soft-constraint inertia was added (PV-soft) to IA and D
  int failedCluster = -1;        ///< the cluster whose D_k was not positive definite (-1: none)
};

/// The preallocated workspace of the algorithms for one Model (one per thread).
class Data {
 public:
  explicit Data(const Model& model);  ///< sized once for `model`

  /// The model this Data was sized for (Model::id()); every algorithm checks it (O(1)).
  std::uint64_t modelId() const { return modelId_; }

  /// Gravity a_g (world coordinates) for the calls made with this Data only, overriding
  /// model.gravity(): the thread-safe way to vary gravity while one Model is shared by threads
  /// (Model::setGravity writes the shared Model, a data race once threads read it).
  void setGravity(const Vec3& g);
  /// Drop the override: calls with this Data follow model.gravity() again (the default).
  void useModelGravity() { overridesGravity_ = false; }
  bool overridesGravity() const { return overridesGravity_; }  ///< setGravity is in force
  /// The gravity every algorithm called with this Data uses: the override, else the model's.
  const Vec3& gravity(const Model& model) const { return overridesGravity_ ? gravity_ : model.gravity(); }

  // Kinematics (per body, regular order)
  std::vector<Transform> Xup;  ///< ^i X_λ(i) = X_J(q_i) X_T(i)
  std::vector<Transform> Xa;   ///< ^i X_0: world -> body i
  std::vector<Transform> Xout; ///< ^i X_Λ(i): from the cluster's output body to body i
  std::vector<Vec6> v;         ///< body spatial velocity, body coordinates
  std::vector<Vec6> a;         ///< body spatial acceleration (gravity-biased inside RNEA/ABA)
  std::vector<Vec6> c;         ///< velocity-product acceleration v × vJ
  std::vector<Vec6> f;         ///< body forces of the last inverse dynamics (RNEA / C-RNEA)

  // Articulated-body quantities (C-ABA and every pass built on it; tree::aba on the spanning tree)
  std::vector<Mat6> IA;        ///< articulated inertia, body coordinates
  std::vector<Vec6> pA;        ///< articulated bias force, body coordinates
  std::vector<Mat6> U;         ///< tree::aba only: IA S (first nv_i columns used)
  std::vector<Mat6> Dinv;      ///< tree::aba only: (S^T IA S)^{-1} (top-left nv_i block used)
  std::vector<Vec6> u;         ///< tree::aba only: tau_i - S^T pA (first nv_i entries used)
  ArticulatedPassStamp articulated;  ///< what the last articulated-cluster pass was run on

  // Composite-rigid-body quantities (CRBA)
  std::vector<Mat6> Ic;  ///< composite inertia per body (CRBA)

  // Clusters
  std::vector<ClusterData> clusters;  ///< per-cluster workspace
  VecX qSpan;   ///< spanning positions (completed from independent ones)
  VecX vSpan;   ///< spanning velocities G v
  VecX zeroV;   ///< zero independent velocities, reused
  VecX spanScratch;  ///< spanning-sized scratch
  /// Incremented by every cluster kinematics update (any algorithm's call): what was computed at
  /// an older value no longer matches Xup, Xout, S, v, c.
  std::uint64_t kinematicsVersion = 0;
  /// kinematicsVersion at which the last C-RNEA inward pass left its transmitted forces in f
  /// (0: none yet); clusterJointForce and jointReaction(s) read f only when it equals
  /// kinematicsVersion.
  std::uint64_t rneaForcesVersion = 0;

  // Results in independent coordinates (cluster algorithms)
  VecX tau;   ///< generalized forces (C-RNEA)
  VecX qdd;   ///< accelerations ÿ (C-ABA)
  VecX C;     ///< bias forces C(q, v)
  MatX H;     ///< mass matrix H(q)
  MatX Minv;  ///< inverse mass matrix H(q)⁻¹ (inverseMassMatrix; sized by its first call)
  ///@{
  std::vector<Mat6X> minvP, minvA;  ///< its per-body force and acceleration operators (6 x nv)
  ///@}

  // Results in spanning-tree coordinates (tree:: algorithms, loops ignored)
  /// spanning-tree τ, q̈ and C of the tree:: algorithms
  ///@{
  VecX tauTree, qddTree, CTree;
  ///@}
  MatX HTree;  ///< spanning-tree mass matrix (tree::crba)
  VecX zeroVTree;  ///< zero spanning velocities, reused

  OsimData osim;  ///< C-EFPA / apply-test-force workspace
  DerivativesData derivatives;  ///< dynamics derivatives (algorithms/derivatives.hpp)
  CentroidalData centroidal;    ///< centre of mass and centroidal momentum (com.hpp, centroidal.hpp)
  CoriolisData coriolis;        ///< Coriolis matrix, gravity vector, static torque (coriolis.hpp)

 private:
  void sizeWholeBodyData(const Model& model);  ///< centroidal and coriolis (data.cpp)
  std::uint64_t modelId_ = 0;
  bool overridesGravity_ = false;
  Vec3 gravity_ = Vec3::Zero();
};

}  // namespace grbda
