#pragma once
// Featherstone's LTL factorisation of the mass matrix, H = LᵀL with L lower triangular (RBDA
// §6.5; Featherstone 2005; seed 003 P6, spec §2.10): the baseline Pinocchio and MuJoCo use. On
// the cluster tree, H (independent coordinates, cluster CRBA) has the sparsity of the DoF parent
// array λ: λ(j) = j − 1 inside a cluster (a cluster's block is dense) and, for a cluster's first
// DoF, the last DoF of its nearest ancestor cluster with DoFs (−1 at a root). Factoring from the
// last DoF to the first keeps L on that pattern: no fill-in, O(n d²) for depth d. Solves walk
// the ancestor chains: O(n d).
//
// LTL-OSIM (seed 003 §VII-C): Λ⁻¹ = J H⁻¹ Jᵀ = Y Yᵀ with Y = J L⁻¹ (Yᵀ = L⁻ᵀ Jᵀ, one
// back-substitution per row that stays on the row's ancestor chains).
// LTL and LTL-soft constrained dynamics are ConstraintSolver::LTL / LTLSoft
// (algorithms/constrained_dynamics.hpp).
#include <string>
#include <vector>

#include "grbda/algorithms/osim.hpp"
#include "grbda/data.hpp"

namespace grbda {

class ConstraintModel;
class ConstraintData;

/// λ of every independent velocity of `model` (size nv; −1 for a DoF without a parent).
std::vector<int> dofParents(const Model& model);

/// H = LᵀL on the DoF parent array of one model. Sized once; factorize and the solves allocate
/// nothing.
class LtlFactor {
 public:
  LtlFactor() = default;
  explicit LtlFactor(const Model& model);  ///< sized for the model's DoF parent array

  /// Factorises the lower triangle of H on the ancestor pattern (nothing else is read).
  /// InputError for a wrong size or a non-finite entry; NumericalError naming the DoF whose pivot
  /// is not positive (H not positive definite).
  void factorize(const MatX& H);

  int size() const { return static_cast<int>(parent_.size()); }  ///< n, the model's nv
  const std::vector<int>& parents() const { return parent_; }  ///< the DoF parent array (dofParents)
  /// The factor (n x n, exactly 0 off the ancestor pattern).
  const MatX& L() const { return L_; }

  /// x ← L⁻¹ x (forward substitution, root first).
  void solveL(Eigen::Ref<VecX> x) const;
  /// x ← L⁻ᵀ x (back substitution, leaves first; zero entries are skipped, so a right-hand side
  /// on one chain costs O(d²)).
  void solveLt(Eigen::Ref<VecX> x) const;
  /// x ← H⁻¹ x = L⁻¹ L⁻ᵀ x.
  void solveH(Eigen::Ref<VecX> x) const;

 private:
  void checkSize(Eigen::Index rows, const char* what) const;
  std::vector<int> parent_;
  std::vector<std::string> names_;  ///< velocity names, for messages
  MatX L_;
};

/// Yt ← Yᵀ = L⁻ᵀ Jᵀ and out ← Y Yᵀ = J H⁻¹ Jᵀ (LTL-OSIM) for the m x n rows J. Yt and out are
/// resized only when their sizes differ.
void ltlDelassus(const LtlFactor& factor, const MatX& J, MatX& Yt, MatX& out);

/// Workspace of ltlInverseOperationalSpaceInertia for one model.
struct LtlOsimData {
  LtlOsimData() = default;
  explicit LtlOsimData(const Model& model) : factor(model) {}  ///< sized for the model
  LtlFactor factor;  ///< H = LᵀL
  Mat6X Je;                 ///< one end-effector's Jacobian
  ///@{
  MatX J, Yt, LambdaInv;    ///< stacked rows, Yᵀ, the result
  ///@}
};

/// Λ⁻¹ of end-effectors by LTL-OSIM, the layout of inverseOperationalSpaceInertia (algorithms/
/// osim.hpp: 6-D blocks, angular rows first, frame axes, reference point at the point; the
/// linear rows only with `linearOnly`): H by the cluster CRBA, J by frameJacobian (Local).
/// Allocates only when the number of end-effectors changes.
const MatX& ltlInverseOperationalSpaceInertia(const Model& model, Data& data, LtlOsimData& ws,
                                              const std::vector<EndEffector>& endEffectors, const VecRef& q,
                                              bool linearOnly = false);

/// Λ⁻¹ = J H⁻¹ Jᵀ of the rows of a constraint set at configuration q by LTL-OSIM (J: the
/// rows' Jacobian as the KKT baseline builds it, world axes, the user's row order). The result
/// lives in cdata.A (m x m); cdata.ltl holds the factor and cdata.Yt = Yᵀ. Velocities play no
/// part; a Baumgarte reference is not captured. InputError for a ConstraintData of another
/// model or constraint set.
const MatX& ltlConstraintDelassus(const Model& model, Data& data, const ConstraintModel& constraints,
                                  ConstraintData& cdata, const VecRef& q);

}  // namespace grbda
