#pragma once
// Internal: the planar four-bar cluster joint (spec §2.6, §5.7). Three bodies with parallel
// revolute axes hang from the output body: A ("crank"), C on A ("coupler") and B ("rocker"); one
// revolute <loop> joins a point of C to a point of B. Everything lives in the plane normal to the
// common axis, so the loop has two rows and closed forms: positions by circle–circle intersection
// (no Newton), K = ∂φ/∂q (2×3) and k = −K̇ q̇ analytically, G and g through a 2×2 inverse. The
// per-body part (S, transforms, velocities, bias) is the shared fixed-size cluster recursion.
#include <memory>

#include "static_joints.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

/// The planar loop φ(q) = L_C(q) − L_B(q) ∈ R² over the cluster's three coordinates (local
/// order), with the geometry taken at q = 0 and projected onto the mechanism plane.
class PlanarFourBarConstraint final : public ImplicitConstraint {
 public:
  using Vec2 = Eigen::Vector2d;
  using Mat23 = Eigen::Matrix<double, 2, 3>;

  /// Which local coordinate belongs to which link, the sign of each joint axis along the common
  /// axis, and the planar vectors at q = 0: crank u = (C pivot − A pivot), coupler w = (C loop
  /// point − C pivot), rocker r = (B loop point − B pivot), ground d = (B pivot − A pivot).
  struct Geometry {
    int crank = 0, coupler = 1, rocker = 2;
    double sign[3] = {1.0, 1.0, 1.0};
    Vec2 u, w, r, d;
  };

  /// What the position analysis reads on every call, fixed by the geometry: the link lengths and
  /// the angles of the zero-pose vectors (two atan2 and three square roots saved per call).
  struct Derived {
    double uNorm = 0.0, wNorm = 0.0, rNorm = 0.0;
    double uAngle = 0.0, wAngle = 0.0, rAngle = 0.0;
  };
  /// The three link vectors at local positions q: crank U, coupler W, rocker R (plane axes).
  struct Links {
    Vec2 U, W, R;
  };

  explicit PlanarFourBarConstraint(const Geometry& g);
  const Geometry& geometry() const { return geo_; }
  const Derived& derived() const { return derived_; }

  int numRows() const override { return 2; }
  int numCoordinates() const override { return 3; }
  void residual(const Eigen::Ref<const VecX>& q, Eigen::Ref<VecX> phi) const override;
  void jacobian(const Eigen::Ref<const VecX>& q, Eigen::Ref<MatX> K) const override;
  void bias(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& qd, Eigen::Ref<VecX> k) const override;

  /// φ, K and (with qd) k at local positions q; any output may be null.
  void evaluate(const double* q, const double* qd, Vec2* phi, Mat23* K, Vec2* k) const;
  /// The link vectors at q (three sines and cosines), and K and k from them: the joint's update
  /// needs both K and k at one q, i.e. one set of rotations instead of two.
  Links links(const double* q) const;
  void jacobian(const Links& l, Mat23& K) const;
  Vec2 bias(const Links& l, const double* qd) const;

 private:
  Geometry geo_;
  Derived derived_;
};

class FourBarJoint final : public ClusterJoint {
 public:
  FourBarJoint(std::shared_ptr<const PlanarFourBarConstraint> loop, int independent, const Model& model,
               int firstBody);
  const char* typeName() const override { return "FourBar"; }
  /// Closed-form position analysis on the as-built branch (fixed by setReference), a function of
  /// y only: the assembly side of the reference pose, flipped where the smooth branch passes a
  /// change point (a parallelogram's toggle at crank 0 and π); dependent angles in [−π, π].
  /// False at a toggle (singular) or unreachable driver positions. Before setReference (build
  /// time): the branch nearest qSpan.
  bool completePositions(const Cluster& cluster, const double* y, double* qSpan, ClusterData& cd) const override;
  bool update(const Model& model, const Cluster& cluster, Data& data, const double* v) const override;
  void setReference(VecX closedPose, std::vector<bool> revolute) override;

  /// The as-built branch. The distance of the two circle centres (or the varying radius, when
  /// the coupler drives) is √(A − B cos β) with β = sign·y + phase; the two crossings are the
  /// sides ±h of the centre line. h can vanish at an interior β only as a fold (the driver
  /// cannot pass), but at β ∈ {0, π} it can vanish to second order: there the two branches cross
  /// transversally (a change point: parallelogram, kite) and each smooth branch changes side.
  struct Branch {
    bool set = false;
    double A = 0.0, B = 0.0, phase = 0.0;
    double betaReference = 0.0;
    int sideReference = 0;  ///< crossing index (0: +h, 1: −h) of the reference pose
    bool flipAtZero = false, flipAtPi = false;
  };
  const Branch& branch() const { return branch_; }

 private:
  /// Both assembly modes at driver position y: the dependent coordinates of each (local order)
  /// and the circle crossing of each; false when the circles do not cross.
  bool candidates(const double* y, double candidate[2][3], PlanarFourBarConstraint::Vec2 hits[2],
                  PlanarFourBarConstraint::Vec2& known) const;
  double branchAngle(double y) const;
  double crossingHeight2(double beta, double* centreDistance2) const;
  Branch branch_;
  std::shared_ptr<const PlanarFourBarConstraint> loop_;
  int independent_;     ///< local index of the independent coordinate
  int dependent_[2];    ///< local indices of the dependent ones (ascending)
  FixedClusterBodies<3, 1> bodies_;
};

/// The FourBar joint for a cluster that is exactly a planar four-bar (3 revolute bodies with
/// parallel axes: A and B on the output body, C on A; one revolute loop joining C and B in the
/// plane of the axes; one independent coordinate); nullptr otherwise (the caller falls back to
/// Generic). `set` is the cluster's general constraint set, used for its independent flags.
std::shared_ptr<ClusterJoint> recogniseFourBar(const Model& model, const Cluster& cluster,
                                                     const ConstraintSet& set);

}  // namespace grbda::detail
