#pragma once
// Internal: all loop constraints of one cluster, stacked (spec §2.2-2.4, §2.8), and their
// conversion to the explicit form G, g over the independent coordinates chosen by the URDF+
// `independent` flags (spec §2.3). Couplings contribute constant rows; implicit constraints
// (URDF <loop>, user-supplied) rows that depend on the configuration.
#include <memory>
#include <vector>

#include "grbda/cluster/implicit_constraint.hpp"
#include "grbda/data.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

struct ImplicitEntry {
  std::shared_ptr<const ImplicitConstraint> constraint;
  std::vector<int> columns;  ///< cluster-local spanning coordinate of each constraint coordinate
  int row = 0;               ///< first row in the stacked K
  /// The constraint's rows that are used, ascending (when rowsSelected). Rows the cluster's rank test
  /// found redundant with others (a pantograph's third crank, a loop written twice) are left
  /// out of K and only checked once a completion has converged.
  std::vector<int> keptRows;
  bool rowsSelected = false;  ///< keptRows applies (false: every row is used)
  int numRows() const { return rowsSelected ? static_cast<int>(keptRows.size()) : constraint->numRows(); }
};

class ConstraintSet {
 public:
  static constexpr int kMaxRows = 16;          ///< rows of one implicit constraint
  static constexpr int kMaxCoordinates = 128;  ///< coordinates of one implicit constraint
  /// |φ| allowed on rows dropped as redundant at a converged completion (rows are dimensionless).
  static constexpr double kRedundantRowTolerance = 1e-8;
  ConstraintSet() = default;
  /// `independent[c]`: spanning coordinate c of the cluster is independent.
  ConstraintSet(int numSpanning, std::vector<bool> independent, MatX couplingRows, std::vector<ImplicitEntry> implicit);

  int numSpanning() const { return nspan_; }
  int numRows() const { return nrows_; }
  int numIndependent() const { return static_cast<int>(independent_.size()); }
  const std::vector<int>& independentCoordinates() const { return independent_; }
  const std::vector<int>& dependentCoordinates() const { return dependent_; }
  bool isStatic() const { return implicit_.empty(); }
  /// Constant G of a static constraint set.
  const MatX& staticG() const { return Gstatic_; }
  const MatX& couplingRows() const { return Kcoupling_; }
  const std::vector<ImplicitEntry>& implicitEntries() const { return implicit_; }

  /// K(q) into cd.K.
  void jacobian(const double* q, ClusterData& cd) const;
  /// k(q, q̇) into cd.k (requires nothing else).
  void bias(const double* q, const double* qd, ClusterData& cd) const;
  /// ∂K/∂q · u into cd.K and ∂k/∂q · u (q̇ held) into cd.k, u a direction of the cluster's
  /// spanning coordinates (the dynamics derivatives' ∂G/∂y, ∂g/∂y).
  void jacobianDerivative(const double* q, const double* u, ClusterData& cd) const;
  void biasDerivative(const double* q, const double* qd, const double* u, ClusterData& cd) const;
  /// φ(q) into cd.phi; couplings give ρ Σ q_P − Σ q_S.
  void residual(const double* q, ClusterData& cd) const;
  /// G and g from cd.K and cd.k (spec §2.3); false when K_d is singular.
  bool explicitFormG(ClusterData& cd) const;
  void explicitFormg(ClusterData& cd) const;  ///< after explicitFormG at the same q
  /// Newton on the dependent coordinates of q (independent ones held): ‖φ‖ < tol, true on success.
  bool complete(double* q, ClusterData& cd, double tol = 1e-12, int maxIterations = 50) const;
  /// Every implicit constraint accepts the root at q (see ImplicitConstraint::isIntendedRoot)
  /// and its rows dropped as redundant hold there too.
  bool isIntendedRoot(const double* q) const;

 private:
  bool factorKd(ClusterData& cd) const;
  /// The pivots of the current K_d factorisation exceed `relative` × max(1, max|K|).
  bool kdPivotsAbove(const ClusterData& cd, double relative) const;
  int nspan_ = 0, nrows_ = 0;
  std::vector<int> independent_, dependent_;
  MatX Kcoupling_;
  std::vector<ImplicitEntry> implicit_;
  MatX Gstatic_;
};

}  // namespace grbda::detail
