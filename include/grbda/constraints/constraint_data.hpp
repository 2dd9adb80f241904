#pragma once
// ConstraintData: the preallocated workspace of one ConstraintModel on one Model (Pinocchio's
// RigidConstraintData, RBDL's ConstraintSet buffers). Sized once; after that no solve allocates.
// The results of the last solve are the public fields at the top.
#include <cstdint>
#include <vector>

#include <Eigen/Cholesky>

#include "grbda/constraints/constraint_model.hpp"
#include "grbda/data.hpp"

namespace grbda {

class ConstraintData {
 public:
  ConstraintData(const Model& model, const ConstraintModel& constraints);

  // ---- results of the last constrainedForwardDynamics call ----
  VecX lambda;              ///< constraint forces, rows in the order of the ConstraintModel
  double residual = 0.0;    ///< max_r |K_r a − k_r| at the returned q̈ (k with Baumgarte terms)
  int iterations = 0;       ///< proximal iterations (0 for the direct solvers)
  int rank = 0;             ///< numerical rank of J H⁻¹ Jᵀ (pv, kkt; -1: not measured, proximal)
  bool redundant = false;   ///< rank < rows: solved by the regularised (proximal) path

  // ---- results of the last operational-space call (algorithms/pv_osim.hpp, osim_baselines.hpp) ----
  MatX LambdaInv;           ///< Λ⁻¹ = J H⁻¹ Jᵀ of the rows (m x m, the ConstraintModel's order)
  MatX Lambda;              ///< Λ = (J H⁻¹ Jᵀ)⁻¹ (pvOsim only)

  /// The reference pose of Baumgarte stabilisation: the constraint points' positions and the
  /// links' orientations at the kinematics in `data` (call after forwardKinematics at the
  /// reference q). Without it, the first solve with Baumgarte on captures the pose it starts at.
  void setReference(const Model& model, const Data& data, const ConstraintModel& constraints);
  void clearReference() { hasReference = false; }

  // ---- internals (read-only outside the library) ----
  /// One row's action on one body: K (body coordinates, on that body's spatial acceleration).
  struct RowPart {
    int row = 0, body = -1;
    Vec6 K = Vec6::Zero();
  };
  /// The rows that cluster k's articulated step propagates (PV): per active row, its parts at
  /// bodies of the cluster (one or two slots into `parts`; two where a relative row's paths meet).
  struct ClusterRows {
    std::vector<int> rows;                 ///< active rows (indices into the RowSystem)
    std::vector<int> slotStart, slots;     ///< parts of rows[j]: slots[slotStart[j] .. slotStart[j+1])
    std::vector<int> slotBody;             ///< the body each slot is attached to in this cluster
    MatX SF, DinvSF;                       ///< S_kᵀ F (d x m_k) and D_k⁻¹ S_kᵀ F
  };
  /// A set of rows solved through the Delassus matrix: all rows (pv, proximal) or, for pv-soft,
  /// the rows that act on two bodies.
  struct RowSystem {
    std::vector<int> rowOf;                ///< system index -> constraint row
    std::vector<ClusterRows> clusters;     ///< per cluster
    VecX e, b, lambda, lambdaPrev;         ///< free-motion terms, right-hand side, solution
    MatX L;                                ///< J H⁻¹ Jᵀ of these rows (+ R for pv-soft)
    Eigen::LLT<MatX> llt;
    Eigen::LDLT<MatX> ldlt;
    int size() const { return static_cast<int>(rowOf.size()); }
  };
  std::uint64_t modelId = 0;
  int constraintsVersion = 0;
  int numRows = 0;
  std::vector<RowPart> parts;        ///< gathered at the current state, row order: 1 part a row, 2 for relative rows
  std::vector<int> rowFirstPart;     ///< parts of row r: [rowFirstPart[r], rowFirstPart[r+1])
  std::vector<Vec6> F;               ///< parts propagated towards the root (PV)
  VecX k;                            ///< right-hand sides for true accelerations
  VecX kBiased;                      ///< the same for the gravity-biased accelerations of the solvers
  RowSystem hard, soft;
  std::vector<char> softBody;        ///< PV-soft: body carries leaf soft rows (its IA is not rigid)
  std::vector<int> leafRows;         ///< PV-soft: rows added as leaf terms (one body each)
  // KKT baseline
  MatX J, HinvJt, A;
  VecX rhs, Hinvrhs;
  Eigen::LLT<MatX> lltH;
  // Baumgarte reference (per constraint): point and rotation of the first side, and of the second
  std::vector<Vec3> refPoint, refPoint2;
  std::vector<Mat3> refRotation, refRotation2;
  bool hasReference = false;
  bool warnedRedundant = false;
};

}  // namespace grbda
