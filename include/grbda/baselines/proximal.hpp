#pragma once
// "Proximal and sparse" constrained forward dynamics (Carpentier, Budhiraja, Mansard, RSS 2021;
// spec §7): the spanning tree with the loop constraints kept implicit, K q̈ = k. Gauss' principle
//   min ½ (q̈ − q̈_free)ᵀ H (q̈ − q̈_free)   s.t.   K q̈ = k
// is solved by the proximal method of multipliers: every iteration solves the regularised,
// quasi-definite KKT system
//   [ H   Kᵀ ] [ q̈ ]   [ τ_tree − C  ]
//   [ K  −μ1 ] [ −λ ] = [ k − μ λ_prev ]      (H q̈ + C = τ_tree + Kᵀ λ)
// which has an LDLᵀ factorisation for any μ > 0 even when K is rank-deficient (redundant
// loop rows); at the fixed point λ = λ_prev the constraints hold exactly. The KKT matrix is
// factored once per call, exploiting the kinematic tree (see ProximalData), then each iteration
// is two sparse triangular solves.
//
// Torques: τ (independent, model.nv()) is lifted to τ_tree by placing τ on the independent
// spanning coordinates and 0 on the dependent ones. Any lift with Gᵀ τ_tree = τ gives the same
// q̈ (null(Gᵀ) = range(Kᵀ) is absorbed by λ), so q̈ equals lagrangeForwardDynamics (which
// uses pinv(Gᵀ) τ) and C-ABA; the multipliers differ from the Lagrange baseline's by that choice.
//
// With a ConstraintModel (contacts, welds, relative constraints, loops kept as rows) its rows are
// added to K in spanning coordinates, K = J_s (the rows' Jacobian over every coordinate that
// supports their bodies), with its convention: λ is what the environment exerts, H q̈ + C = τ +
// Jᵀ λ. They are ordered before every coordinate, so they are eliminated last, after their whole
// support path (Pinocchio's contact Cholesky): their block of the factor is dense (m_c x m_c), the
// rest keeps the tree's pattern.
//
// Failure policy: invalid settings or inputs → InputError; a KKT pivot of the wrong sign or zero
// (H_tree not positive definite, or μ = 0 with redundant constraints) or a non-finite result →
// NumericalError. Running out of iterations is not an error: the result says converged = false
// and reports the residuals it reached.
#include <memory>
#include <vector>

#include "grbda/constraints/constraint_data.hpp"
#include "grbda/data.hpp"

namespace grbda {

/// Which constraint rows K, k the solver uses.
enum class ProximalConstraintRows {
  Cluster,      ///< the model's own rows (couplings, loop rows with redundant ones removed, user rows)
  LoopPoint3D,  ///< each `<loop>` as an unreduced 3-D point constraint (Pinocchio CONTACT_3D; a planar
                ///< loop gives one identically-zero row); couplings and user rows as in Cluster
  LoopFull,     ///< each `<loop>` as 3 point rows + its orientation rows (2 for revolute, 3 for fixed,
                ///< 1 for universal, 0 for spherical), unreduced (a planar revolute loop gives 5 rows
                ///< of rank 2); prismatic and planar loops are refused (ModelError)
};

/// Settings of the proximal solver (proximalForwardDynamics).
struct ProximalSettings {
  double mu = 1e-8;          ///< proximal regularisation μ ≥ 0 (0: plain KKT, needs independent rows)
  int maxIterations = 20;    ///< cap on proximal iterations (≥ 1)
  double tolerance = 1e-10;  ///< stop when ‖K q̈ − k‖∞ ≤ tolerance
  ProximalConstraintRows rows = ProximalConstraintRows::Cluster;  ///< how loops are stated as rows (rebuilds the workspace if it differs)
};

/// What the last proximal solve returned.
struct ProximalResult {
  VecX qddSpanning;            ///< q̈ of every spanning coordinate (model.nvSpanning())
  VecX qdd;                    ///< ÿ, the independent accelerations (model.nv())
  VecX lambda;                 ///< multipliers (constraint forces), one per row of K
  int iterations = 0;          ///< proximal iterations run
  double primalResidual = 0;   ///< ‖K q̈ − k‖∞ at the returned q̈
  double dualResidual = 0;     ///< ‖H q̈ + C − τ_tree − Kᵀ λ‖∞ (stationarity; roundoff only)
  double lambdaChange = 0;     ///< ‖λ_j − λ_{j−1}‖∞ of the last iteration
  bool converged = false;      ///< primalResidual ≤ tolerance
};

/// Preallocated workspace of the proximal solver for one model and one choice of constraint
/// rows: the symbolic analysis of the KKT matrix and every buffer, so a call allocates nothing.
///
/// Sparsity (why no dense factorisation): the KKT unknowns are ordered cluster by cluster
/// (parents first), each cluster's constraint rows before its spanning coordinates. A row of K
/// touches only its own cluster's coordinates, and H couples a coordinate only with its tree
/// ancestors, so eliminating from the last unknown to the first (Featherstone's LTDL, RBDA §6.5,
/// with the parent array extended to constraint rows) creates fill only inside "supp(e)": the
/// unknowns of e's own cluster that precede it plus the spanning coordinates of the bodies
/// supporting the cluster (output body up to the root; a free joint counts as a chain of 6).
/// Multipliers of one cluster never couple with another cluster's, so the cost is
/// Σ_e |supp(e)|² — that of the LTDL of H_tree — instead of a dense (n+m)³ KKT or m³ Schur
/// complement; loops local to a branch add only their own small block.
struct ProximalData {
  /// The workspace for the model's own constraint rows, stated as `rows` says.
  explicit ProximalData(const Model& model, ProximalConstraintRows rows = ProximalConstraintRows::Cluster);
  /// With the rows of `constraints` as well (kept by reference: it must outlive the workspace).
  ProximalData(const Model& model, const ConstraintModel& constraints,
               ProximalConstraintRows rows = ProximalConstraintRows::Cluster);

  ProximalConstraintRows rows;  ///< how the loops are stated as rows
  ///@{
  int nvSpan = 0, numBodies = 0;  ///< of the model it was built for
  ///@}
  int numRows = 0;                ///< m, rows of K
  int numNodes = 0;               ///< n + m KKT unknowns

  /// Structural entries: Σ_e |supp(e)| (off-diagonal lower entries of the factor) and the
  /// multiply-adds of one factorisation Σ_e |supp(e)|(|supp(e)|+1)/2.
  long patternEntries() const;
  long factorizationUpdates() const;  ///< see patternEntries

  // --- symbolic analysis (constant) ---
  std::vector<int> nodeCoordinate;  ///< spanning velocity of a node, or -1 for a constraint row
  std::vector<int> nodeRow;         ///< row of K of a node, or -1 for a coordinate
  ///@{
  std::vector<int> suppStart, supp; ///< supp(e) = supp[suppStart[e] .. suppStart[e+1]), nearest first
  ///@}
  std::vector<int> independentCoordinate;  ///< spanning velocity of each independent velocity
  /// Where row r of K comes from.
  struct RowSource {                ///< where row r of K comes from
    int cluster = -1;  ///< the cluster whose constraint it is
    int clusterRow = -1;            ///< row of that cluster's constraint rows K, or -1 for a loop row
    ///@{
    int loop = -1, loopRow = 0;     ///< model.loops()[loop], its loopRow-th unreduced row
    ///@}
  };
  std::vector<RowSource> rowSource;  ///< per row of K
  ///@{
  std::vector<int> loopFirstRow, loopNumRows;  ///< per model loop (LoopPoint3D / LoopFull)
  ///@}
  std::vector<int> clusterRowStart;  ///< rows of cluster c: [clusterRowStart[c], clusterRowStart[c+1])
  /// The ConstraintModel's rows: K rows [firstConstraintRow, numRows), KKT nodes 0 .. m_c − 1.
  const ConstraintModel* constraints = nullptr;
  int firstConstraintRow = 0;  ///< first row of K from the ConstraintModel
  /// The rows as the constraint layer states them (parts K on bodies, k); after a call its
  /// lambda and residual hold the ConstraintModel's forces and max |J q̈ − k|.
  std::unique_ptr<ConstraintData> constraintData;

  // --- numeric buffers ---
  MatX K;            ///< m x nvSpan (only cluster blocks non-zero)
  VecX k;  ///< right-hand side of K q̈ = k (m)
  VecX rowNormSq;    ///< ‖K_r‖², to judge row pivots when μ = 0
  MatX A;            ///< KKT matrix, overwritten by its factor (lower pattern only)
  VecX D;            ///< pivots
  ///@{
  VecX rhs, z;       ///< right-hand side / solution of one KKT solve
  ///@}
  /// scratch: spanning τ, the previous iteration's λ, the stationarity residual
  ///@{
  VecX tauTree, lambdaPrev, stationarity;
  ///@}
  std::vector<Vec6> biasAcceleration;  ///< per body, q̈ = 0, no gravity (body coordinates)
  ProximalResult result;  ///< the last call's result

 private:
  void analyse(const Model& model);  ///< the symbolic analysis and the buffers (constructors)
};

/// Constrained forward dynamics by the proximal method on the spanning tree's sparse KKT system
/// ("proximal-sparse"; not the Delassus-matrix solver ConstraintSolver::ProximalDelassus), on a
/// prepared workspace: no heap allocation (unless `settings.rows` differs from the workspace's,
/// which rebuilds it once). q independent or spanning, v and tau independent (as in dynamics.hpp).
/// \note this overwrites workspace.result (returned), workspace's factor and, through the tree
/// algorithms, data's spanning-tree kinematics, data.HTree and data.CTree.
const ProximalResult& proximalSparseForwardDynamics(const Model& model, Data& data, ProximalData& workspace,
                                                    const VecRef& q, const VecRef& v, const VecRef& tau,
                                                    const ProximalSettings& settings = {});
/// Convenience: builds a temporary workspace (allocates).
ProximalResult proximalSparseForwardDynamics(const Model& model, Data& data, const VecRef& q, const VecRef& v,
                                             const VecRef& tau, const ProximalSettings& settings = {});

/// Old name of proximalSparseForwardDynamics, kept for existing code.
inline const ProximalResult& forwardDynamicsProximal(const Model& model, Data& data, ProximalData& workspace,
                                                     const VecRef& q, const VecRef& v, const VecRef& tau,
                                                     const ProximalSettings& settings = {}) {
  return proximalSparseForwardDynamics(model, data, workspace, q, v, tau, settings);
}
/// Old name of proximalSparseForwardDynamics, kept for existing code.
inline ProximalResult forwardDynamicsProximal(const Model& model, Data& data, const VecRef& q, const VecRef& v,
                                              const VecRef& tau, const ProximalSettings& settings = {}) {
  return proximalSparseForwardDynamics(model, data, q, v, tau, settings);
}

}  // namespace grbda
