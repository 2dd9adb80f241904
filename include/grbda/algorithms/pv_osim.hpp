#pragma once
// PV-OSIM and PV-OSIM-fast (seed 003 §VII, Alg. 2, eqs. 48 and 54; spec §2.5): the inverse
// operational-space inertia Λ⁻¹ = J H⁻¹ Jᵀ (the Delassus matrix) of the rows of a
// ConstraintModel on the cluster tree, from one articulated-cluster pass without bias terms. The
// rows are propagated towards the root as PV propagates them; no Jacobian and no mass matrix is
// formed. Configuration only: velocities, torques, gravity and the right-hand sides k play no
// part. Rows keep the order of the ConstraintModel (contacts and welds in world axes, custom rows
// as given: docs/constraints.md).
//
// Λ⁻¹ is symmetric positive semi-definite; Λ exists when the rows are independent (J of full row
// rank). Errors: InputError for a Data / ConstraintData of another model or constraint set, a bad
// q; NumericalError for a singular articulated inertia or, where Λ is asked for, redundant rows.
// After the first call nothing allocates.
#include <vector>

#include <Eigen/Cholesky>

#include "grbda/constraints/constraint_data.hpp"

namespace grbda {

/// PV-OSIM: Λ⁻¹ = J H⁻¹ Jᵀ (m x m) at q (independent or spanning positions), into cdata.LambdaInv.
/// \note this overwrites cdata.LambdaInv and data's cluster kinematics and articulated-cluster pass
/// (no bias terms: data.qdd is not this call's).
const MatX& pvInverseOperationalSpaceInertia(const Model& model, Data& data, const ConstraintModel& constraints,
                                             ConstraintData& cdata, const VecRef& q);

/// PV-OSIM then a Cholesky factorisation: Λ = (J H⁻¹ Jᵀ)⁻¹ (m x m) into cdata.Lambda (cdata.LambdaInv
/// holds Λ⁻¹). NumericalError naming the rank when the rows are redundant.
/// \note this overwrites what pvInverseOperationalSpaceInertia does, and cdata.Lambda.
const MatX& pvOperationalSpaceInertia(const Model& model, Data& data, const ConstraintModel& constraints,
                                      ConstraintData& cdata, const VecRef& q);

/// Old name of pvInverseOperationalSpaceInertia, kept for existing code.
inline const MatX& pvInverseOsim(const Model& model, Data& data, const ConstraintModel& constraints,
                                 ConstraintData& cdata, const VecRef& q) {
  return pvInverseOperationalSpaceInertia(model, data, constraints, cdata, q);
}
/// Old name of pvOperationalSpaceInertia, kept for existing code.
inline const MatX& pvOsim(const Model& model, Data& data, const ConstraintModel& constraints, ConstraintData& cdata,
                          const VecRef& q) {
  return pvOperationalSpaceInertia(model, data, constraints, cdata, q);
}

/// PV-OSIM-fast (eq. 54): Λ and Λ⁻¹ of a floating-base robot as an operator, without forming
/// an m x m matrix. The pass stops below the base b: L_b^A (the Delassus matrix of the rows with
/// the base held still) is block-diagonal over the branches (sets of rows that share a joint
/// below the base), K_b^A (m x 6) are the rows seen at the base and H_b^A its articulated inertia
/// (base joint coordinates), so that (eq. 48)
///   Λ⁻¹ = L_b^A + K_b^A H_b^A⁻¹ K_b^Aᵀ,
///   Λ   = Λ_b − L_K (H_b^A + K_b^Aᵀ L_K)⁻¹ L_Kᵀ,   Λ_b = L_b^A⁻¹ (per branch),  L_K = Λ_b K_b^A
/// — a Cholesky factorisation per branch and a 6 x 6 one.
///
/// Fallback: L_b^A is singular when a row acts on the base link itself, when a branch carries
/// more independent rows than it has joints (a 6-D weld on a 5-DoF leg), or at a singular
/// configuration (a stretched knee). compute() detects it (a branch pivot below 1e-10 of the
/// branch's scale), factorises the dense L_0^A = Λ⁻¹ instead and says so in fellBack(); the
/// results stay exact. A fixed-base model (or one whose base is not a single free-floating
/// cluster) is plain PV-OSIM with the dense factorisation (floatingBase() false).
///
/// Names for a Pinocchio user: applyInverse is DelassusOperator's product (`applyOnTheRight`,
/// Delassus · x), applyLambda and its alias solve are DelassusOperator::solve (Delassus⁻¹ · x).
/// The apply calls reuse scratch vectors of the operator: one operator per thread.
class PvOsimFast {
 public:
  /// The branch structure of `constraints` on `model` (done once; allocates).
  PvOsimFast(const Model& model, const ConstraintModel& constraints);

  /// The pass and the factorisations at q. NumericalError when an articulated inertia is
  /// singular. Redundant rows (Λ⁻¹ singular even in the dense fallback) are no error here:
  /// invertible() says so, applyInverse still works and applyLambda refuses.
  void compute(const Model& model, Data& data, const ConstraintModel& constraints, ConstraintData& cdata,
               const VecRef& q);

  /// y = Λ⁻¹ x = J H⁻¹ Jᵀ x (x, y of size m; y is resized if needed).
  void applyInverse(const VecRef& x, VecX& y) const;
  /// y = Λ x = (J H⁻¹ Jᵀ)⁻¹ x: the force that produces the constraint-space acceleration x.
  /// NumericalError naming the rank when the rows are redundant (!invertible()).
  void applyLambda(const VecRef& x, VecX& y) const;
  /// The same as applyLambda (Pinocchio's name: solves Λ⁻¹ y = x).
  void solve(const VecRef& x, VecX& y) const { applyLambda(x, y); }

  int size() const { return m_; }  ///< m, the rows of Λ⁻¹
  /// eq. 54 applies: a floating base that is the only root cluster (6 DoF).
  bool floatingBase() const { return floating_; }
  /// The last compute found L_b^A singular and factorised the dense Λ⁻¹ instead.
  bool fellBack() const { return fellBack_; }
  /// The last compute used eq. 54 (floatingBase() and not fellBack()).
  bool fast() const { return computed_ && floating_ && !fellBack_; }
  int numBranches() const { return static_cast<int>(blocks_.size()); }  ///< branches of the floating base with rows (blocks of eq. 54)
  /// The last compute found Λ⁻¹ positive definite (the rows independent), so Λ exists.
  bool invertible() const { return invertible_; }

  // The pieces of eq. 48 at the last compute (floatingBase() only; for checks and reports, allocate).
  MatX branchDelassus() const;          ///< L_b^A (m x m, zero outside the branch blocks)
  MatX baseRows() const;                ///< K_b^A (m x 6): the rows at the base, base joint coordinates
  const Mat6& baseInertia() const { return D_; }  ///< H_b^A (6 x 6), base joint coordinates

 private:
  void checkInput(const VecRef& x, const char* function) const;
  void factorDense();
  void permute(const VecRef& x) const;
  void unpermute(const VecRef& z, VecX& y) const;

  std::uint64_t modelId_ = 0;
  int constraintsVersion_ = 0, m_ = 0, root_ = -1;
  bool floating_ = false, computed_ = false, fellBack_ = false, invertible_ = false;
  std::vector<int> rowAt_;     ///< branch order position -> row of the ConstraintModel
  std::vector<int> position_;  ///< row -> branch order position
  ///@{
  std::vector<int> blockOf_, localOf_;  ///< row -> its branch and its index there
  ///@}
  std::vector<int> offset_;    ///< first position of each branch
  std::vector<MatX> blocks_;   ///< L_b^A per branch (symmetric)
  std::vector<Eigen::LLT<MatX>> blockLlt_;
  ///@{
  MatX T_, LK_;                ///< K_b^A and L_K, m x 6, branch order
  ///@}
  Mat6 D_ = Mat6::Identity(), Dinv_ = Mat6::Identity();
  Eigen::LLT<Mat6> baseLlt_;   ///< H_b^A + K_b^Aᵀ L_K
  MatX dense_;                 ///< Λ⁻¹ (fallback and fixed base), the ConstraintModel's order
  Eigen::LLT<MatX> denseLlt_;
  ///@{
  mutable VecX xp_, zp_;       ///< scratch of the apply calls (branch order)
  ///@}
};

}  // namespace grbda
