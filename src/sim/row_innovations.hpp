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
//
// Rows come in groups that share their path: a contact's three rows (one sweep carries the 6 x 3
// force block) or one joint row. Per group and supporting cluster, T = [t^i] (d_k x g) and
// Z = D_k⁻¹ T are stored column-major side by side in two pools.
#include <vector>

#include "grbda/data.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

/// A contact's three unit forces (normal, tangents) as columns, body coordinates.
using Mat63 = Eigen::Matrix<double, 6, 3>;

class RowInnovations {
 public:
  /// Buffers for up to maxRows rows on `model`.
  void reserve(const Model& model, int maxRows);
  void clear();
  int size() const { return rows_; }  ///< rows so far

  /// A group of three rows whose unit forces are the columns of P on `body`.
  void addBodyForceRows(const Model& model, Data& data, int body, const Mat63& P);
  /// A group of three rows acting on two bodies (a contact between two of the robot's shapes):
  /// unit forces P1 on body1 and P2 on body2 (body coordinates; P2 carries the reaction's sign).
  /// The two inward sweeps are merged: a cluster both paths reach holds one entry with both
  /// forces' innovations summed, so G and ℳ⁻¹Jᵀλ see the relative row.
  void addBodyPairForceRows(const Model& model, Data& data, int body1, const Mat63& P1, int body2, const Mat63& P2);
  /// One row whose unit force is the generalised force t (d_k entries) on cluster k's coordinates.
  void addClusterForceRow(const Model& model, Data& data, int k, const Eigen::Ref<const VecX>& t);

  /// G (top-left size() x size()) = J ℳ⁻¹ Jᵀ, both triangles.
  void delassus(const Model& model, MatX& G) const;
  /// dv = ℳ⁻¹ Jᵀ λ (nv); data.a is scratch.
  void velocityChange(const Model& model, Data& data, const Eigen::Ref<const VecX>& lambda, VecX& dv) const;

 private:
  struct Group {
    int firstRow = 0, rows = 0;
    int firstEntry = 0, entries = 0;  ///< its supporting clusters, leaf to root
  };
  template <int Gc>
  void inward(const Model& model, Data& data, int body, Eigen::Matrix<double, 6, Gc> P);
  /// One cluster reached by both paths of a pair (bodies j1 ≠ j2 in it): the summed innovation,
  /// and both forces passed on to the cluster's output body (into P1; false at the root).
  template <int D>
  bool stepThroughBoth(const Model& model, Data& data, int j1, Mat63& P1, int j2, const Mat63& P2);
  template <int D, int Gc>
  bool stepThrough(const Model& model, Data& data, int j, Eigen::Matrix<double, 6, Gc>& P);
  /// Stores T (d_k x g) and D_k⁻¹ T for cluster k as the group's next entry.
  void store(int k, const ClusterData& cd, const Eigen::Ref<const MatX>& T);
  void beginEntry(int k);
  /// G's block of two groups (Ga x Gb rows) and its mirror.
  template <int Ga, int Gb>
  void pairBlock(const Model& model, const Group& A, const Group& B, MatX& G) const;  ///< the next entry of the current group is cluster k, at used_
  int rows_ = 0, entries_ = 0, used_ = 0;
  std::vector<Group> groups_;
  std::vector<int> cluster_;   ///< per entry: its cluster
  std::vector<int> offset_;    ///< per entry: where its T and Z start in the pools
  VecX t_, z_;                 ///< pools of T and Z blocks
};

/// Body velocities for independent velocities v at the kinematics in data: V_i = Xout_i V_o + S_i v_k
/// (outward; S_k already holds the in-cluster motion).
void bodyVelocities(const Model& model, const Data& data, const VecRef& v, std::vector<Vec6>& V);

}  // namespace grbda::detail
