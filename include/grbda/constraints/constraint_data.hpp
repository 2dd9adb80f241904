#pragma once
// ConstraintData: the preallocated workspace of one ConstraintModel on one Model (Pinocchio's
// RigidConstraintData, RBDL's ConstraintSet buffers). Sized once; after that no solve allocates.
// The results of the last solve are the public fields at the top.
#include <cstdint>
#include <memory>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "grbda/baselines/ltl.hpp"
#include "grbda/constraints/constraint_model.hpp"
#include "grbda/data.hpp"

namespace grbda {

class ConstraintTypeData;

/// Results and workspace of computeConstrainedDynamicsDerivatives
/// (algorithms/constrained_derivatives.hpp), sized by its first call. nv = model.nv(), m = rows;
/// position derivatives in the tangent space; rows of λ in the ConstraintModel's order.
struct ConstraintDerivativesData {
  ///@{
  VecX ddq, lambda;                               ///< ÿ (nv) and λ (m) at the state
  ///@}
  ///@{
  MatX ddq_dq, ddq_dv, ddq_dtau;                  ///< ∂ÿ/∂y, ∂ÿ/∂ẏ, ∂ÿ/∂τ (nv x nv)
  ///@}
  ///@{
  MatX dlambda_dq, dlambda_dv, dlambda_dtau;      ///< ∂λ/∂y, ∂λ/∂ẏ, ∂λ/∂τ (m x nv)
  ///@}
  MatX J;                                         ///< the rows' Jacobian (m x nv): J ẏ = row velocities
  ///@{
  MatX da_dq, da_dv;                              ///< ∂(J ÿ + J̇ ẏ)/∂y, ∂/∂ẏ at fixed ÿ (m x nv)
  ///@}
  // workspace
  ///@{
  MatX Js, das_dq, das_dv;                        ///< the same in spanning coordinates (m x nvSpanning)
  ///@}
  MatX MinvJt;                                    ///< ℳ⁻¹ Jᵀ (nv x m)
  MatX delassus;                                  ///< J ℳ⁻¹ Jᵀ (m x m)
  Eigen::LLT<MatX> lltDelassus;  ///< Cholesky factor of the Delassus matrix
  std::vector<Vec6> Fext;                         ///< λ as world forces per body (about the world origin)
  std::vector<Mat6> Eext;                         ///< their pose derivative terms (derivatives_internal.hpp)
};

/// Workspace and results of the constrained solvers for one ConstraintModel on one Model.
class ConstraintData {
 public:
  /// Sized for these constraints on this model (InputError if they were made for another model).
  ConstraintData(const Model& model, const ConstraintModel& constraints);
  ~ConstraintData();
  ///@{
  /// Move-only: each constraint kind's data is owned here.
  ConstraintData(ConstraintData&&) noexcept;
  ConstraintData& operator=(ConstraintData&&) noexcept;
  ConstraintData(const ConstraintData&) = delete;
  ConstraintData& operator=(const ConstraintData&) = delete;
  ///@}

  // ---- results of the last constrainedForwardDynamics call ----
  VecX lambda;              ///< constraint forces, rows in the order of the ConstraintModel
  /// max(rowResidual, dynamicsResidual): what the solution is off by, rows and equation of motion
  double residual = 0.0;
  double rowResidual = 0.0;       ///< max_r |K_r a − k_r| at the returned q̈ (k with Baumgarte terms)
  double dynamicsResidual = 0.0;  ///< ‖H q̈ + C − τ − Jᵀ λ − J_extᵀ f_ext‖∞ [N, N m], by one RNEA-like sweep
  int iterations = 0;       ///< proximal iterations (0 for the direct solvers)
  int rank = 0;             ///< numerical rank of J H⁻¹ Jᵀ (pv, kkt; -1: not measured, proximal converged)
  bool redundant = false;   ///< rank < rows: λ is the minimum-norm force of the consistent rows
  /// proximal only: the rows are inconsistent (the hard solvers raise NumericalError instead); λ
  /// is then the minimum-norm least-squares force and `inconsistency` what it leaves unmet.
  bool inconsistent = false;
  double inconsistency = 0.0;  ///< ‖J H⁻¹ Jᵀ λ − b‖∞ of a redundant set (0 when L was full rank)

  // ---- results of the last operational-space call (algorithms/pv_osim.hpp, osim_baselines.hpp) ----
  MatX LambdaInv;           ///< Λ⁻¹ = J H⁻¹ Jᵀ of the rows (m x m, the ConstraintModel's order)
  MatX Lambda;              ///< Λ = (J H⁻¹ Jᵀ)⁻¹ (pvOperationalSpaceInertia only)

  // ---- results of the last computeConstrainedDynamicsDerivatives call ----
  ConstraintDerivativesData derivatives;  ///< results of computeConstrainedDynamicsDerivatives

  /// The reference pose of Baumgarte stabilisation: the constraint points' positions and the
  /// links' orientations at the kinematics in `data` (call after forwardKinematics at the
  /// reference q). Without it, the first solve with Baumgarte on captures the pose it starts at.
  void setReference(const Model& model, const Data& data, const ConstraintModel& constraints);
  void clearReference() { hasReference = false; }  ///< forget the Baumgarte reference pose (the next solve captures a new one)

  // ---- internals (read-only outside the library) ----
  /// One row's action on one body: K (body coordinates, on that body's spatial acceleration).
  struct RowPart {
    /// the constraint row and the body it acts on
    ///@{
    int row = 0, body = -1;
    ///@}
    Vec6 K = Vec6::Zero();  ///< the row on the body's spatial acceleration (body coordinates)
  };
  /// The rows that cluster k's articulated step propagates (PV): per active row, its parts at
  /// bodies of the cluster (one or two slots into `parts`; two where a relative row's paths meet).
  struct ClusterRows {
    std::vector<int> rows;                 ///< active rows (indices into the RowSystem)
    ///@{
    std::vector<int> slotStart, slots;     ///< parts of rows[j]: slots[slotStart[j] .. slotStart[j+1])
    ///@}
    std::vector<int> slotBody;             ///< the body each slot is attached to in this cluster
    ///@{
    MatX SF, DinvSF;                       ///< S_kᵀ F (d x m_k) and D_k⁻¹ S_kᵀ F
    ///@}
  };
  /// A set of rows solved through the Delassus matrix: all rows (pv, proximal) or, for pv-soft,
  /// the rows that act on two bodies.
  struct RowSystem {
    std::vector<int> rowOf;                ///< system index -> constraint row
    std::vector<ClusterRows> clusters;     ///< per cluster
    ///@{
    VecX e, b, lambda, lambdaPrev;         ///< free-motion terms, right-hand side, solution
    ///@}
    MatX L;                                ///< J H⁻¹ Jᵀ of these rows (+ R for pv-soft)
    MatX factor;                           ///< its Cholesky factor (lower) from the direct solve
    Eigen::LLT<MatX> llt;  ///< Cholesky factorisation of L (direct solve)
    Eigen::LDLT<MatX> ldlt;  ///< LDLᵀ factorisation of L (rank-deficient fallback)
    MatX eigA;        ///< redundant rows: L's cyclic-Jacobi workspace (minimum-norm λ)
    MatX eigV;        ///< its eigenvectors
    VecX eigW;        ///< their eigenvalues
    int size() const { return static_cast<int>(rowOf.size()); }  ///< number of rows in the system
  };
  /// PV-early (seed 003 §VIII) at cluster k: the rows entering it — first the combinations its
  /// child clusters passed on (child order), then the rows on its own bodies — and what its
  /// rank-revealing elimination left. Buffers are sized for every row of the subtree; the counts
  /// m, rank and passed are those of the last solve.
  struct EarlyCluster {
    std::vector<int> children;          ///< child clusters whose subtree carries rows
    ///@{
    std::vector<int> ownRows, ownBody;  ///< rows on this cluster's bodies, and that body
    ///@}
    ///@{
    int m = 0, rank = 0, passed = 0;    ///< rows entering; eliminated here; passed to the parent
    ///@}
    MatX F;                             ///< 6 x cap: entering rows as forces on their bodies (K^Aᵀ)
    std::vector<int> bodyOf;            ///< the body each entering row acts on
    VecX b;                             ///< κ − e of the entering rows (seed 003 l with its sign flipped)
    MatX T;                             ///< d x cap: S_kᵀ F (t of each row)
    ///@{
    MatX QR, V;                         ///< cap x d: pivoted Householder QR of Tᵀ, its reflectors
    ///@}
    VecX beta;                          ///< reflector scales (d)
    std::vector<int> perm;              ///< column pivots (d)
    ///@{
    MatX M, DinvMt;                     ///< U1ᵀ Tᵀ (d x d, r rows used) and D⁻¹ M ᵀ
    ///@}
    ///@{
    MatX C, G;                          ///< Cholesky factor of Σ = M D⁻¹ Mᵀ (d x d), C⁻¹ (F U1)ᵀ (d x 6)
    ///@}
    VecX g;                             ///< C⁻¹ U1ᵀ b (d)
    MatX Fout;                          ///< 6 x cap: the passed combinations F U2 at the output body
    ///@{
    VecX bout, lambda, lambdaOut;       ///< U2ᵀ b; λ of the entering rows; λ̂ of the passed ones
    ///@}
    /// Rows of a deferred cluster's carried factor at most (a cluster deferring more eliminates).
    static constexpr int kMaxCarried = 6;
    ///@{
    MatX W, Wqr;                        ///< m x p: the rows' inverse-inertia factor [carried | Tᵀ C] (L = W Wᵀ), its QR
    ///@}
    MatX Bout;                          ///< kMaxCarried x cap: a deferred cluster's factor, L = Boutᵀ Bout
    ///@{
    int qin = 0, qout = 0;              ///< carried factor rows entering (columns of W before Tᵀ C), and in Bout
    ///@}
  };
  std::vector<EarlyCluster> early;  ///< PV-early workspace per cluster
  bool earlySupported = true;       ///< false with relative rows: pv-early runs PV then
  std::uint64_t modelId = 0;  ///< Model::id() this workspace was sized for
  int constraintsVersion = 0;  ///< ConstraintModel version it was sized for
  int numRows = 0;  ///< constraint rows
  std::vector<RowPart> parts;        ///< gathered at the current state, row order: 1 part a row, 2 for relative rows,
                                     ///< a loop row one per joint of its group and one on the group's support
  /// per constraint: its kind's data (ConstraintType::createData; null if it needs none)
  std::vector<std::unique_ptr<ConstraintTypeData>> typeData;
  std::vector<int> rowFirstPart;     ///< parts of row r: [rowFirstPart[r], rowFirstPart[r+1])
  std::vector<Vec6> F;               ///< parts propagated towards the root (PV)
  std::vector<Vec6> residualForce;   ///< per body: the force of the dynamics residual's sweep
  VecX k;                            ///< right-hand sides for true accelerations
  VecX kBiased;                      ///< the same for the gravity-biased accelerations of the solvers
  /// rows solved through the Delassus matrix: hard (pv, proximal), soft (pv-soft)
  ///@{
  RowSystem hard, soft;
  ///@}
  std::vector<char> softBody;        ///< PV-soft: body carries rows of softRowTerms (its IA is not rigid)
  std::vector<int> leafRows;         ///< PV-soft: rows added as leaf terms (one body each)
  /// PV-soft: rows of one constraint on one body, one R, world axes, that sum to a point mass
  /// (plus a unit rotational inertia) at a point: K R⁻¹ Kᵀ in closed form (ConstraintType::softPointMass)
  struct SoftPointMass {
    /// its body, first row and number of rows
    ///@{
    int body = -1, row = 0, numRows = 0;
    ///@}
    Vec3 point = Vec3::Zero();  ///< body coordinates
    bool angular = false;       ///< three angular rows first (a weld)
  };
  std::vector<SoftPointMass> softPointMasses;  ///< PV-soft: the point-mass row groups
  std::vector<int> softRowTerms;     ///< PV-soft: the other leaf rows, added one by one
  // KKT baseline
  /// KKT baseline: J, H⁻¹ Jᵀ, and J H⁻¹ Jᵀ (Λ⁻¹ for the LTL baselines)
  ///@{
  MatX J, HinvJt, A;
  ///@}
  /// KKT baseline: τ − C and H⁻¹ (τ − C)
  ///@{
  VecX rhs, Hinvrhs;
  ///@}
  Eigen::LLT<MatX> lltH;  ///< KKT baseline: Cholesky factor of H
  // LTL baselines (ltl, ltl-soft, ltlConstraintDelassus): H = LᵀL, Yᵀ = L⁻ᵀ Jᵀ; A holds Λ⁻¹
  LtlFactor ltl;  ///< LTL baselines: H = LᵀL
  MatX Yt;  ///< LTL baselines: Yᵀ = L⁻ᵀ Jᵀ
  // Baumgarte reference: each kind keeps its own (typeData), set by setReference
  bool hasReference = false;  ///< the reference above is set
  bool warnedRedundant = false;  ///< the redundant-rows warning was logged once
};

}  // namespace grbda
