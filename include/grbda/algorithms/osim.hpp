#pragma once
// Operational-space quantities (spec §6.5-6.6): the inverse operational-space inertia Λ⁻¹ of a
// set of end-effectors by the cluster extended-force-propagator algorithm (C-EFPA), and the
// apply-test-force helper for single contact points. Configuration only: velocities, torques
// and gravity play no part.
#include <vector>

#include "grbda/data.hpp"

namespace grbda {

/// A point rigidly attached to a frame (model.frameIndex(linkName)), in that frame's coordinates.
struct EndEffector {
  int frame = -1;  ///< the frame index (Model::frameIndex)
  Vec3 point = Vec3::Zero();  ///< the point in the frame's coordinates
};

namespace detail {
struct Efpa;
}

/// End-effectors of one Λ⁻¹ query with everything that depends only on the model (spec §6.5
/// "pre-computation at model build"): for each end-effector the clusters supporting it, and for
/// each pair its deepest common supporting cluster. Build it once; the hot call allocates nothing.
class OsimSet {
 public:
  /// Throws InputError for an unknown frame index or a non-finite point.
  OsimSet(const Model& model, std::vector<EndEffector> endEffectors);

  int size() const { return static_cast<int>(endEffectors_.size()); }  ///< number of end-effectors
  const std::vector<EndEffector>& endEffectors() const { return endEffectors_; }  ///< the end-effectors, in the order given

 private:
  friend struct detail::Efpa;
  /// One step of an end-effector's support path: the body through which the end-effector's
  /// force enters cluster `cluster` (its own body first, then the output bodies towards the root).
  struct PathStep {
    int body = -1, cluster = -1;
    int yRow = 0;  ///< first row of this step's block in OsimData::Y
  };
  /// A pair e1 < e2 with a common supporting cluster k*: the path steps of both in k*.
  struct Pair {
    int e1 = 0, e2 = 0, step1 = 0, step2 = 0;
  };
  std::vector<EndEffector> endEffectors_;
  std::vector<Mat6> seed_;            ///< ^P X_b: body b(e) -> point P (frame axes), Φ's seed
  std::vector<int> pathStart_, pathLength_;
  std::vector<PathStep> steps_;
  std::vector<Pair> pairs_;
  int yRows_ = 0;
  ///@{
  int numBodies_ = 0, numClusters_ = 0;  ///< guards against using the set with another model
  ///@}
};

/// Λ⁻¹ at configuration q (independent or spanning positions, as in dynamics.hpp): a 6n_e x 6n_e
/// matrix of blocks J_e1 H⁻¹ J_e2ᵀ, where J_e = frameJacobian(frame, point, Local): angular rows
/// first, axes of the end-effector's frame, reference point at the end-effector. With
/// `linearOnly`, the 3n_e x 3n_e matrix of the linear rows only. End-effectors on frames fixed to
/// the world give zero rows. The result lives in Data's workspace until the next call; after the first call with a given set
/// (which sizes the buffers) the call allocates nothing. NumericalError if some D_k is not
/// positive definite.
/// \note this overwrites the workspace's C-EFPA buffers, the cluster kinematics and the articulated-cluster pass (no
/// bias terms), which applyTestForce can then read.
const MatX& inverseOperationalSpaceInertia(const Model& model, Data& data, const OsimSet& set, const VecRef& q,
                                           bool linearOnly = false);

/// Articulated inertias and force propagators at q (the configuration pass of C-ABA, spec §6.3
/// pass A). applyTestForce reads them; inverseOperationalSpaceInertia also leaves them ready.
/// \note this overwrites the cluster kinematics and the articulated-cluster pass (no bias terms).
void updateForcePropagators(const Model& model, Data& data, const VecRef& q);

/// Apply-test-force (spec §6.6) at the configuration of the last updateForcePropagators /
/// inverseOperationalSpaceInertia call: for the force F (world axes) at `point` (frame
/// coordinates) of `frame`, returns λ⁻¹ = Fᵀ J_lin H⁻¹ J_linᵀ F and sets qdd = H⁻¹ J_linᵀ F
/// (J_lin: linear rows of the world-aligned point Jacobian). O(depth) for λ⁻¹, O(n) for qdd;
/// allocates nothing when qdd already has nv entries. InputError if the kinematics in `data`
/// changed since the propagators were computed.
/// \note this overwrites qdd, data.a (the unit response) and each supporting cluster's u (unused by a
/// pass without bias terms), so further applyTestForce calls still see a valid pass.
double applyTestForce(const Model& model, Data& data, int frame, const Vec3& point, const Vec3& forceWorld,
                      VecX& qdd);

}  // namespace grbda
