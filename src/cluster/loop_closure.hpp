#pragma once
// Internal: the implicit constraint of a URDF+ <loop> (spec §2.7, improved per §10.7): the two
// loop frames (predecessor and successor link frames composed with their <origin>) must coincide
// in position and, depending on the loop type, in orientation. Candidate rows per type (position
// rows first, then orientation rows):
//   revolute/continuous  3 position + 2 (axis stays aligned)      fixed      3 + 3
//   spherical            3 position                               universal  3 + 1 (axis·axis2 = 0)
//   prismatic            2 position ⊥ axis + 3                    planar     1 position along the
//                                                                 normal + 2 (normals stay parallel) All quantities are computed in the
// frame of the nearest common ancestor (NCA) by walking the two chains below it; K and k are
// exact (spatial Jacobians and velocity-product accelerations), no finite differences.
#include <vector>

#include "grbda/cluster/implicit_constraint.hpp"
#include "grbda/joint.hpp"

namespace grbda::detail {

enum class LoopType { Revolute, Continuous, Prismatic, Planar, Fixed, Spherical, Universal };

/// One tree joint on the path from the NCA down to a loop body.
struct ChainJoint {
  Transform Xtree;
  Joint joint;
};

class LoopClosureConstraint final : public ImplicitConstraint {
 public:
  /// Longest chain below the NCA on either side (fixed-capacity buffers keep evaluation
  /// allocation-free).
  static constexpr int kMaxChain = 64;
  using RowsBuffer = Eigen::Matrix<double, 6, 1>;
  using JacobianBuffer = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 2 * kMaxChain>;

  /// Coordinates: the predecessor chain's joints (NCA downwards), then the successor chain's.
  LoopClosureConstraint(std::vector<ChainJoint> predecessorChain, const Transform& predecessorOrigin,
                        std::vector<ChainJoint> successorChain, const Transform& successorOrigin, LoopType type,
                        const Vec3& axis, const Vec3& axis2 = Vec3::Zero());

  int numRows() const override { return static_cast<int>(rows_.size()); }
  int numCoordinates() const override { return static_cast<int>(pred_.size() + succ_.size()); }
  void residual(const Eigen::Ref<const VecX>& q, Eigen::Ref<VecX> phi) const override;
  void jacobian(const Eigen::Ref<const VecX>& q, Eigen::Ref<MatX> K) const override;
  void bias(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd, Eigen::Ref<VecX> k) const override;
  /// The orientation rows vanish for flipped frames too (a fixed loop turned 180° about a frame
  /// axis, a revolute loop with opposite axes): accept only frames within 90° of the relative
  /// orientation the file's pose has (aligned, or flipped as written).
  bool isIntendedRoot(const Eigen::Ref<const VecX>& q) const override;

  /// Number of candidate rows before redundant ones were removed (position + orientation).
  int numCandidateRows() const { return numPositionRows() + static_cast<int>(orientationPairs_.size()); }
  /// Universal loop: |cos| of the angle between `<axis>` and `<axis2>` accepted in the file's pose.
  static constexpr double kPerpendicularTolerance = 1e-4;

  /// Axes within this angle (rad) of parallel count as parallel: CAD and ROS exporters round
  /// rpy to ~1e-4 (rpy="-1.5708 0 0" is 3.7e-6 rad off), which must not turn a planar loop into a
  /// spatial one with two extra rows and a negative number of degrees of freedom.
  static constexpr double kParallelTolerance = 1e-4;
  /// The largest relative size (≈ the angle, rad) of the rows dropped as redundant: 0 for an exact
  /// planar loop, up to kParallelTolerance for a nearly planar one (build() warns then).
  double nearRedundancy() const { return nearRedundancy_; }
  /// The largest angle (rad) between two of the loop's revolute joint axes (and the loop axis of
  /// a revolute loop) at q = 0, as lines: what a near-planar warning reports (e.g. 3.7e-6 for
  /// rpy="-1.5708 0 0"), where nearRedundancy() is a ratio of QR pivots.
  double axisMisalignment() const { return axisMisalignment_; }
  /// The loop's length scale: position rows are divided by it, so φ, K and k are dimensionless
  /// and every tolerance is the same in metres and in millimetres.
  double lengthScale() const { return length_; }

 private:
  struct OrientationPair {  // row φ = (R_P u)·(R_S w): zero when the loop frames are aligned
    Vec3 u, w;
  };
  /// 3 rows p_P − p_S (NCA axes), or one row (R_P m)·(p_P − p_S) per direction m of
  /// positionDirections_ (prismatic: the two normals of the axis; planar: the plane normal).
  int numPositionRows() const { return positionDirections_.empty() ? 3 : static_cast<int>(positionDirections_.size()); }
  /// One walk down both chains fills whichever of φ, K, k is asked for; `aligned` (optional):
  /// the loop frames are within 90° of their intended alignment (see isIntendedRoot).
  void evaluate(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>* qd, RowsBuffer* phi,
                JacobianBuffer* K, RowsBuffer* k, bool* aligned = nullptr) const;
  void selectIndependentRows();

  std::vector<ChainJoint> pred_, succ_;
  Transform predOrigin_, succOrigin_;
  std::vector<OrientationPair> orientationPairs_;
  std::vector<Vec3> positionDirections_;  ///< fixed in the predecessor loop frame; empty: all 3
  bool hasAlignment_ = true;  ///< spherical and universal loops have no intended orientation to check
  bool fixedOrientation_ = false;  ///< fixed loop: all three frame axes must agree
  Vec3 axis_ = Vec3::UnitZ();      ///< revolute loop axis (unit), in both loop frames
  std::vector<int> rows_;  ///< selected candidate rows
  double length_ = 1.0;
  double nearRedundancy_ = 0.0;
  double axisMisalignment_ = 0.0;
  /// The loop frames' relative orientation at the file's pose (q = 0), which isIntendedRoot
  /// accepts: revolute, −1 when the axis points the other way in the successor's frame; fixed,
  /// the signs of a half turn about a frame axis (diag(−1, −1, 1) etc.), else ones.
  double axisSign_ = 1.0;
  Vec3 flip_ = Vec3::Ones();
};

}  // namespace grbda::detail
