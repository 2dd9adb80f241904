#pragma once
// Internal: the Delassus matrix G = J ℳ⁻¹ Jᵀ of a step's rows and the velocity change ℳ⁻¹ Jᵀ λ,
// from the articulated-cluster pass C-ABA left, without forming J, ℳ or ℳ⁻¹.
//
// A unit row force f_i entering cluster k gives the innovation t_k^i = S_kᵀ p_k^i, where p_k^i is
// the force after the inward sweep (apply-test-force, spec §6.6): p ← Xoutᵀ p − XU_k D_k⁻¹ t_k at
// each output body. Jain's innovations factorisation ℳ⁻¹ = (I − ψK)ᵀ D⁻¹ (I − ψK) makes
//   G_ij = Σ_k t_k^iᵀ D_k⁻¹ t_k^j   over the clusters supporting both rows,
// so each row costs one inward sweep (O(depth)) and G costs the common depths (a foot and
// another leg's foot share only the torso). ℳ⁻¹ Jᵀ λ is then one outward sweep over
// Σ_i λ_i D_k⁻¹ t_k^i (O(n) for all rows together).
#include <vector>

#include "grbda/data.hpp"

namespace grbda::detail {

class RowInnovations {
 public:
  /// Buffers for up to maxRows rows on `model`.
  void reserve(const Model& model, int maxRows);
  void clear();
  int size() const { return rows_; }

  /// A row whose unit force is the spatial force p (body coordinates) on `body`.
  void addBodyForceRow(const Model& model, Data& data, int body, const Vec6& p);
  /// A row whose unit force is the generalised force t (d_k entries) on cluster k's coordinates.
  void addClusterForceRow(const Model& model, Data& data, int k, const Eigen::Ref<const VecX>& t);

  /// G (top-left size() x size()) = J ℳ⁻¹ Jᵀ, both triangles.
  void delassus(const Model& model, MatX& G) const;
  /// dv = ℳ⁻¹ Jᵀ λ (nv); data.a is scratch.
  void velocityChange(const Model& model, Data& data, const Eigen::Ref<const VecX>& lambda, VecX& dv);

 private:
  void inward(const Model& model, Data& data, int body, Vec6 p);
  void store(int k, const Cluster& cl, const ClusterData& cd, const Eigen::Ref<const VecX>& t);
  int rows_ = 0, entries_ = 0, used_ = 0;
  std::vector<int> rowStart_;  ///< entries of row i: [rowStart_[i], rowStart_[i + 1])
  std::vector<int> cluster_;   ///< per entry: its cluster (decreasing along a row: leaf to root)
  std::vector<int> offset_;    ///< per entry: where its t and D⁻¹ t start in the pools
  VecX t_, z_;                 ///< pools of t_k^i and D_k⁻¹ t_k^i
  VecX u_;                     ///< scratch t (one cluster)
};

/// Body velocities for independent velocities v at the kinematics in data: V_i = Xout_i V_o + S_i v_k
/// (outward; S_k already holds the in-cluster motion).
void bodyVelocities(const Model& model, const Data& data, const VecX& v, std::vector<Vec6>& V);

}  // namespace grbda::detail
