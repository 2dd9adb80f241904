#pragma once
// Internal: the cluster-joint interface (spec §5.0). A cluster joint answers questions about its
// own cluster only; the algorithms never switch on its type. One virtual call per cluster per
// kinematics update, none per body.
#include "constraint_set.hpp"
#include "joint_transform.hpp"
#include "grbda/data.hpp"
#include "grbda/model.hpp"
#include "grbda/spatial/cross.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

/// Sizes a cluster's workspace (what Data(model) does for every cluster; data.cpp).
void sizeClusterData(const Model& model, const Cluster& cluster, ClusterData& cd);

class ClusterJoint {
 public:
  explicit ClusterJoint(ConstraintSet constraints) : constraints_(std::move(constraints)) {}
  virtual ~ClusterJoint() = default;
  virtual const char* typeName() const = 0;
  const ConstraintSet& constraints() const { return constraints_; }

  /// Sizes the parts of the workspace that are constant (static G, constant S).
  virtual void initializeData(const Model& model, const Cluster& cluster, ClusterData& cd) const;
  /// True when S (body coordinates) is the same at every configuration, so Ṡ = 0 and each body's
  /// velocity product is c_i = v_i × S_i ẏ (passes in world axes rely on it: centroidal.cpp).
  virtual bool constantSubspace() const { return false; }

  /// Spanning positions of the cluster from its independent positions `y`: γ(y) = G y for static
  /// constraints. Implicit constraints: Euler–Newton continuation (steps of at most
  /// kContinuationStep in y) from the model's reference pose, whatever qSpan held: the result is
  /// a function of y only (bitwise) and stays on the branch of the as-built assembly mode, through
  /// points where that branch crosses another; revolute results are wrapped to (−π, π]. False when
  /// the loops cannot be closed on that branch (unreachable, or y at a singular pose).
  virtual bool completePositions(const Cluster& cluster, const double* y, double* qSpan, ClusterData& cd) const;
  /// Fixes the assembly mode (build time only): a closed pose of the cluster's spanning
  /// coordinates, and which of them are revolute (wrapped to (−π, π]).
  virtual void setReference(VecX closedPose, std::vector<bool> revolute) {
    reference_ = std::move(closedPose);
    revolute_ = std::move(revolute);
  }
  static constexpr double kContinuationStep = 0.2;
  /// The dependent coordinates are a regular function of the independent ones at qSpan (K_d
  /// invertible): not a singular pose such as a four-bar with its links on one line.
  bool isRegular(const double* qSpan, ClusterData& cd) const;
  /// Independent positions from spanning ones (the inverse selection).
  virtual void independentPositions(const Cluster& cluster, const double* qSpan, double* y) const;
  /// ‖φ(q)‖∞ of the cluster's constraints at spanning positions qSpan.
  virtual double constraintViolation(const double* qSpan, ClusterData& cd) const;

  /// Kinematics at data.qSpan: per body Xup, Xout, Xa and the cluster's S (and G, g, K, k).
  /// With v (the cluster's independent velocities): spanning velocities, body v and bias c with
  /// a_i = Xout_i a_Λ(i) + S_i ÿ + c_i. False when the explicit form is singular.
  virtual bool update(const Model& model, const Cluster& cluster, Data& data, const double* v) const = 0;

 protected:
  ConstraintSet constraints_;

 private:
  /// Continuation along yStart → yEnd from the solution in qSpan; the last step solves at y (yEnd
  /// or another turn of it).
  bool continueFrom(const double* yStart, const double* yEnd, const double* y, double* qSpan, ClusterData& cd) const;
  VecX reference_;             ///< closed spanning pose of the assembly mode (empty until build() sets it)
  std::vector<bool> revolute_;
};

/// Any cluster: the general recursion over the cluster's bodies (spec §4.3-4.5, §5.8).
class GenericJoint : public ClusterJoint {
 public:
  /// `typeName`: what typeName() reports (a ConstraintSpec::typeHint names e.g. a differential).
  explicit GenericJoint(ConstraintSet constraints, std::string typeName = "Generic")
      : ClusterJoint(std::move(constraints)), typeName_(std::move(typeName)) {}
  const char* typeName() const override { return typeName_.c_str(); }
  bool update(const Model& model, const Cluster& cluster, Data& data, const double* v) const override;

 private:
  std::string typeName_;
};

/// One body, one revolute, prismatic or screw joint (spec §5.2).
class RevoluteJoint final : public ClusterJoint {
 public:
  /// `body`: the cluster's one body (its joint is revolute, prismatic or screw).
  explicit RevoluteJoint(const Body& body);
  const char* typeName() const override { return screw_ ? "Screw" : prismatic_ ? "Prismatic" : "Revolute"; }
  void initializeData(const Model& model, const Cluster& cluster, ClusterData& cd) const override;
  bool constantSubspace() const override { return true; }
  bool update(const Model& model, const Cluster& cluster, Data& data, const double* v) const override;

 private:
  bool prismatic_;
  bool screw_;  ///< a screw's vJ has a linear part too: the full v × vJ
  BodyJointTransform transform_;
};

/// One floating body attached to the ground (spec §5.1): q = [p; quat], v = [w; v] body frame.
class FreeJoint final : public ClusterJoint {
 public:
  FreeJoint();
  const char* typeName() const override { return "Free"; }
  void initializeData(const Model& model, const Cluster& cluster, ClusterData& cd) const override;
  bool constantSubspace() const override { return true; }
  bool completePositions(const Cluster& cluster, const double* y, double* qSpan, ClusterData& cd) const override;
  void independentPositions(const Cluster& cluster, const double* qSpan, double* y) const override;
  bool update(const Model& model, const Cluster& cluster, Data& data, const double* v) const override;
};

/// One body on a spherical (ball) joint, anywhere in the tree: q = unit quaternion [w x y z] of the
/// child in the joint frame, v = ω in child coordinates, S = [1_3; 0] (the free joint's rotation).
class SphericalJoint final : public ClusterJoint {
 public:
  SphericalJoint();
  const char* typeName() const override { return "Spherical"; }
  void initializeData(const Model& model, const Cluster& cluster, ClusterData& cd) const override;
  bool constantSubspace() const override { return true; }
  bool completePositions(const Cluster& cluster, const double* y, double* qSpan, ClusterData& cd) const override;
  void independentPositions(const Cluster& cluster, const double* qSpan, double* y) const override;
  bool update(const Model& model, const Cluster& cluster, Data& data, const double* v) const override;
};

}  // namespace grbda::detail
