#pragma once
// ConstraintData's workspace (ConstraintData::Workspace): the symbolic analysis of a constraint
// set on the cluster tree (constraint_data.cpp, once), the rows gathered at each state
// (constraint_rows.cpp) and the solvers' buffers, out of the installed headers.
#include <cstdint>
#include <memory>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "grbda/baselines/ltl.hpp"
#include "grbda/constraints/constraint_data.hpp"

namespace grbda {

/// ConstraintData's workspace, sized once by ConstraintData(model, constraints).
struct ConstraintData::Workspace {
  Workspace(const Model& model, const ConstraintModel& constraints);  ///< the tables and buffers (constraint_data.cpp)

  using RowPart = ConstraintRowPart;  ///< one row's action on one body
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
  std::vector<char> softLeafBody;    ///< PV-soft: its leaf terms (point masses or row terms) change the body's IA
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

using ConstraintWorkspace = ConstraintData::Workspace;

}  // namespace grbda
