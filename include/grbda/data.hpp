#pragma once
// Data: the preallocated workspace of the algorithms (Pinocchio's Data). One per thread; sized
// once from a Model, after which no algorithm allocates. Everything a thread may want to vary per
// call without touching the shared Model (gravity) lives here too.
#include <cstdint>
#include <memory>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "grbda/model.hpp"

namespace grbda {

/// External spatial forces, one per body, in world coordinates (moment about the world origin
/// first, then force) — spec §6.2. An empty vector means "no external forces".
using ExternalForces = std::vector<Vec6>;

/// Results of computeRNEADerivatives / computeABADerivatives, sized by the first call, and the
/// world-frame spanning-tree pass behind them (a constraint kind's derivative hooks read it:
/// ConstraintType::addAccelerationDerivatives). Position derivatives are taken in the tangent
/// space (a floating base: a body-frame twist, as integrate()), so every matrix is nv x nv.
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
  // (the cluster-local terms of clusters with a varying G live in Data's workspace)
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
  Mat6X Ag;     ///< A_G (6 x nv): rows [linear; angular about p_G], h_G = A_G v (centroidal calls)
  Vec6 hg = Vec6::Zero();   ///< h_G = [m ṗ_G; angular momentum about p_G] (centroidalMomentum, centroidalDynamics)
  Vec6 dhg = Vec6::Zero();  ///< Ȧ_G v = dh_G/dt at q̈ = 0, no gravity (centroidalMomentumBias, centroidalDynamics)
  Mat6 Ig = Mat6::Zero();   ///< centroidal composite inertia diag(Ī_G, M 1), angular first (centroidalMomentumMatrix)
};

/// Results of the Coriolis matrix, gravity vector and static torque calls (algorithms/coriolis.hpp).
/// Sized by Data(model).
struct CoriolisData {
  MatX C;          ///< C(q, v) (nv x nv), Ḣ − 2C skew-symmetric (coriolisMatrix)
  VecX g;          ///< gravity vector g(q) (gravityVector)
  VecX staticTau;  ///< g(q) − Jᵀ f_ext (staticTorque)
};

/// The preallocated workspace of the algorithms for one Model (one per thread).
class Data {
 public:
  /// Sized once for `model`. Copies are deep (a thread may start from another's Data); a move
  /// hands the workspace over, and every call refuses the moved-from Data.
  explicit Data(const Model& model);

  /// The model this Data was sized for (Model::id()); every algorithm checks it (O(1)). 0 for a
  /// moved-from Data, which matches no model.
  std::uint64_t modelId() const { return work_.get() ? modelId_ : 0; }

  /// Gravity a_g (world coordinates) for the calls made with this Data only, overriding
  /// model.gravity(): the thread-safe way to vary gravity while one Model is shared by threads
  /// (Model::setGravity writes the shared Model, a data race once threads read it).
  void setGravity(const Vec3& g);
  /// Drop the override: calls with this Data follow model.gravity() again (the default).
  void useModelGravity() { overridesGravity_ = false; }
  bool overridesGravity() const { return overridesGravity_; }  ///< setGravity is in force
  /// The gravity every algorithm called with this Data uses: the override, else the model's.
  const Vec3& gravity(const Model& model) const { return overridesGravity_ ? gravity_ : model.gravity(); }

  // ---- results (what each call overwrites is stated at the call) ----
  // Kinematics of the last call that ran them (every dynamics call, forwardKinematics), per body
  std::vector<Transform> Xa;   ///< ^i X_0: world -> body i
  std::vector<Vec6> v;         ///< body spatial velocity, body coordinates
  std::vector<Vec6> a;         ///< body spatial acceleration (gravity-biased inside RNEA/ABA)
  std::vector<Vec6> f;         ///< body forces of the last inverse dynamics (RNEA / C-RNEA)
  VecX qSpan;   ///< spanning positions (completed from independent ones)
  VecX vSpan;   ///< spanning velocities G v

  // Results in independent coordinates (cluster algorithms)
  VecX tau;   ///< generalized forces (C-RNEA)
  VecX qdd;   ///< accelerations ÿ (C-ABA)
  VecX C;     ///< bias forces C(q, v)
  MatX H;     ///< mass matrix H(q)
  MatX Minv;  ///< inverse mass matrix H(q)⁻¹ (inverseMassMatrix; sized by its first call)

  // Results in spanning-tree coordinates (tree:: algorithms, loops ignored)
  /// spanning-tree τ, q̈ and C of the tree:: algorithms
  ///@{
  VecX tauTree, qddTree, CTree;
  ///@}
  MatX HTree;  ///< spanning-tree mass matrix (tree::crba)

  DerivativesData derivatives;  ///< dynamics derivatives (algorithms/derivatives.hpp)
  CentroidalData centroidal;    ///< centre of mass and centroidal momentum (com.hpp, centroidal.hpp)
  CoriolisData coriolis;        ///< Coriolis matrix, gravity vector, static torque (coriolis.hpp)

  // ---- the workspace (the library's; its fields are declared in src/data_workspace.hpp) ----
  struct Workspace;
  Workspace& work() { return *work_.get(); }              ///< the algorithms' workspace (internal)
  const Workspace& work() const { return *work_.get(); }  ///< the algorithms' workspace (internal)

 private:
  /// Owns the workspace and copies it deeply, so that Data's own copy and move are the implicit
  /// member-wise ones (its special members are defined in data.cpp, where Workspace is complete).
  class WorkspaceOwner {
   public:
    WorkspaceOwner();
    ~WorkspaceOwner();
    WorkspaceOwner(const WorkspaceOwner& other);
    WorkspaceOwner& operator=(const WorkspaceOwner& other);
    WorkspaceOwner(WorkspaceOwner&& other) noexcept;
    WorkspaceOwner& operator=(WorkspaceOwner&& other) noexcept;
    Workspace* get() const { return ptr_.get(); }  ///< null once moved from

   private:
    std::unique_ptr<Workspace> ptr_;
  };

  void sizeWorkspace(const Model& model);      ///< the workspace but the whole-body parts (data.cpp)
  void sizeWholeBodyData(const Model& model);  ///< centroidal and coriolis (data.cpp)
  WorkspaceOwner work_;
  std::uint64_t modelId_ = 0;
  bool overridesGravity_ = false;
  Vec3 gravity_ = Vec3::Zero();
};

}  // namespace grbda
