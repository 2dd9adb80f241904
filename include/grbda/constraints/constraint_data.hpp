#pragma once
// ConstraintData: the preallocated workspace of one ConstraintModel on one Model (Pinocchio's
// RigidConstraintData, RBDL's ConstraintSet buffers). Sized once; after that no solve allocates.
// The results of the last solve are the public fields at the top.
#include <cstdint>
#include <memory>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "grbda/constraints/constraint_model.hpp"
#include "grbda/data.hpp"

namespace grbda {

class ConstraintTypeData;

/// One constraint row's action on one body: K (body coordinates, on that body's spatial
/// acceleration). A kind writes K through ConstraintRowsOut (constraint_type.hpp).
struct ConstraintRowPart {
  /// the constraint row and the body it acts on
  ///@{
  int row = 0, body = -1;
  ///@}
  Vec6 K = Vec6::Zero();  ///< the row on the body's spatial acceleration (body coordinates)
};

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
  /// max(rowResidual, dynamicsResidual): what the solution is off by, rows and (when measured)
  /// equation of motion
  double residual = 0.0;
  double rowResidual = 0.0;  ///< max_r |K_r a − k_r| at the returned q̈ (k with Baumgarte terms)
  /// ‖H q̈ + C − τ − Jᵀ λ − J_extᵀ f_ext‖∞ [N, N m], by one RNEA-like sweep; −1: not measured
  /// (ConstraintSolverSettings::checkDynamics: by default only for pv-early and proximal-delassus)
  double dynamicsResidual = 0.0;
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
  void clearReference();  ///< forget the Baumgarte reference pose (the next solve captures a new one)

  // ---- the workspace (the library's; its fields are declared in src/constraints/constraint_workspace.hpp) ----
  struct Workspace;
  Workspace& work() { return *work_; }              ///< the solvers' workspace (internal)
  const Workspace& work() const { return *work_; }  ///< the solvers' workspace (internal)
  bool movedFrom() const { return !work_; }  ///< no workspace left: every call refuses it

 private:
  std::unique_ptr<Workspace> work_;
};

}  // namespace grbda
