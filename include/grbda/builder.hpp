#pragma once
// ModelBuilder: the model compiler. Collects links and joints (URDF-shaped, from the URDF parser
// or from code), then build() validates everything once and produces an immutable Model:
// finds the root, checks the tree (unknown links, two roots, cycles), merges fixed joints into
// their parent bodies, numbers bodies regularly and names the coordinates.
#include <memory>
#include <string>
#include <vector>

#include "grbda/cluster/implicit_constraint.hpp"
#include "grbda/model.hpp"
#include "grbda/physics.hpp"

namespace grbda {

/// Where a spec came from, for error messages (empty file = built in code).
struct SourceLocation {
  std::string file;  ///< source file (empty: built in code)
  int line = 0;  ///< line in that file (0: unknown)
};

/// A rigid link as URDF describes it: mass, centre of mass and inertia.
struct LinkSpec {
  std::string name;  ///< unique name
  double mass = 0.0;  ///< mass (kg)
  Vec3 com = Vec3::Zero();                 ///< centre of mass in the link frame
  Mat3 inertia = Mat3::Zero();             ///< rotational inertia about the COM, link axes
  SourceLocation where;  ///< where it was declared, for error messages
};

/// URDF joint types (Screw: SDFormat's helical joint, URDF+ `type="screw"`; Spherical: a ball
/// joint, `type="spherical"` as MuJoCo's URDF reader; docs/urdf-plus.md).
enum class JointKind { Revolute, Continuous, Prismatic, Fixed, Floating, Screw, Spherical };

/// A joint between two links as URDF describes it (plus URDF+'s `independent` flag).
struct JointSpec {
  std::string name;  ///< unique name
  JointKind kind = JointKind::Revolute;  ///< joint type
  ///@{
  std::string parent, child;               ///< link names
  ///@}
  Transform origin;                        ///< X_T: parent link frame -> joint frame
  Vec3 axis = Vec3::UnitX();               ///< in the joint frame; normalised by build()
  /// Screw only: metres along `axis` per radian about it, positive for a right-handed thread
  /// (the URDF reader converts SDFormat's `<thread_pitch>` / `<screw_thread_pitch>`).
  double pitch = 0.0;
  bool independent = true;                 ///< URDF+ `independent` flag
  /// The author stated the flag (URDF+ independent="..."): build() then refuses to override it
  /// (a coupling's legacy default) and reports the conflict instead.
  bool independentGiven = false;
  JointLimits limits;                      ///< URDF `<limit>` (position bounds only for revolute/prismatic)
  JointDynamics dynamics;                  ///< URDF `<dynamics damping friction>`
  SourceLocation where;  ///< where it was declared, for error messages
};

/// URDF+ `<loop>`: the predecessor and successor loop frames (link frame composed with origin)
/// coincide in position and, per the type, orientation (revolute: the axis stays aligned).
struct LoopSpec {
  std::string name;  ///< unique name
  LoopKind type = LoopKind::Revolute;  ///< which motions the loop joint allows
  ///@{
  std::string predecessor, successor;     ///< link names
  ///@}
  /// link frame -> loop frame on each side (as a joint origin)
  ///@{
  Transform predecessorOrigin, successorOrigin;
  ///@}
  Vec3 axis = Vec3::UnitX();              ///< in the loop frames
  /// universal: the second axis (SDFormat's `<axis2>`), fixed in the successor's loop frame and
  /// perpendicular to `axis` in the assembled pose; zero (not given) for the other types
  Vec3 axis2 = Vec3::Zero();
  SourceLocation where;  ///< where it was declared, for error messages
};

/// URDF+ `<coupling>`: Σ q̇ (successor chain) = ratio · Σ q̇ (predecessor chain), each chain running
/// from the nearest common ancestor down to the named link (spec §2.8).
struct CouplingSpec {
  std::string name;  ///< unique name
  ///@{
  std::string predecessor, successor;     ///< link names
  ///@}
  double ratio = 1.0;  ///< transmission ratio of the coupling
  SourceLocation where;  ///< where it was declared, for error messages
};

/// A user-supplied implicit constraint φ(q) = 0 over the coordinates of the named joints (in that
/// order), e.g. the Tello differentials.
struct ConstraintSpec {
  std::string name;  ///< unique name
  std::vector<std::string> joints;  ///< the joints whose coordinates φ takes, in order
  std::shared_ptr<const ImplicitConstraint> constraint;  ///< φ(q) and its Jacobian
  SourceLocation where;  ///< where it was declared, for error messages
  /// Cluster-joint type name of the resulting cluster (Cluster::typeName()); empty: "Generic".
  std::string typeHint;
  /// What Model::constraints() (grbda info) shows, e.g. "knee = 2 * hip + 0.1" for a `<mimic>`;
  /// empty: "implicit constraint over joints …".
  std::string description;
};

/// A named frame on a link — a contact point, a foot sole, a tool centre — without a massless
/// dummy link and fixed joint: usable wherever a link name is (constraints, frame kinematics,
/// `--contact`), and listed in Model::frames().
struct FrameSpec {
  std::string name;  ///< unique name
  std::string link;    ///< the link it is rigidly attached to
  Transform origin;    ///< link frame -> this frame (as a fixed joint's origin)
  SourceLocation where;  ///< where it was declared, for error messages
};

/// Collects links, joints, loops, couplings, constraints and frames, then build() compiles a Model.
class ModelBuilder {
 public:
  /// An empty robot; sourceFile names it in error messages and Model::sourceFile().
  explicit ModelBuilder(std::string robotName = "robot", std::string sourceFile = {});

  void addLink(LinkSpec link);  ///< add a link (checked by build())
  void addJoint(JointSpec joint);  ///< add a joint (checked by build())
  void addLoop(LoopSpec loop);  ///< add a URDF+ loop joint
  void addCoupling(CouplingSpec coupling);  ///< add a URDF+ coupling
  void addConstraint(ConstraintSpec constraint);  ///< add an implicit constraint φ(q) = 0
  void addFrame(FrameSpec frame);  ///< add a named frame on a link
  /// A free joint named `jointName` from a new massless root link "world" to the current root link
  /// (Pinocchio's FreeFlyer root joint), so that a robot written fixed-base floats. ModelError if
  /// the robot already floats or has no single root link.
  void addFloatingBase(const std::string& jointName = "root_joint");
  /// Collision geometry on a link (URDF `<collision>`); checked by build() (ModelError naming the link).
  void addCollision(CollisionSpec collision);
  void setGravity(const Vec3& g) { gravity_ = g; }  ///< the model's gravity (world coordinates)
  /// Recognise the specialised cluster joints (RevoluteWithRotor, ..., FourBar; the default).
  /// false keeps every constrained cluster Generic — for comparing the two on the same model.
  void setSpecialisedJoints(bool enabled) { specialisedJoints_ = enabled; }
  bool specialisedJoints() const { return specialisedJoints_; }  ///< see setSpecialisedJoints
  /// Embed loops and couplings in clusters (the default), keep them as constraint rows on the
  /// spanning tree (Model::keptLoopGroups), or choose per cluster (Auto).
  void setLoopTreatment(LoopTreatment treatment) { loopTreatment_ = treatment; }
  LoopTreatment loopTreatment() const { return loopTreatment_; }  ///< see setLoopTreatment
  /// Reject rotational inertias that violate the triangle inequality (no real body has them) with
  /// a ModelError naming the link. Off by default: published models have them (rounded CAD
  /// estimates, planar models that give only izz), and the dynamics stay well defined; build()
  /// then warns once, naming the first such link.
  void setStrictInertias(bool enabled) { strictInertias_ = enabled; }
  bool strictInertias() const { return strictInertias_; }  ///< see setStrictInertias
  const Vec3& gravity() const { return gravity_; }  ///< the gravity build() gives the model

  const std::vector<LinkSpec>& links() const { return links_; }  ///< the links added so far
  const std::vector<JointSpec>& joints() const { return joints_; }  ///< the joints added so far
  const std::vector<LoopSpec>& loops() const { return loops_; }  ///< the loops added so far
  const std::vector<CouplingSpec>& couplings() const { return couplings_; }  ///< the couplings added so far
  const std::vector<ConstraintSpec>& constraints() const { return constraints_; }  ///< the implicit constraints added so far
  const std::vector<FrameSpec>& frames() const { return frames_; }  ///< the frames added so far
  const std::vector<CollisionSpec>& collisions() const { return collisions_; }  ///< the collision shapes added so far
  const std::string& name() const { return name_; }  ///< the robot's name
  const std::string& sourceFile() const { return sourceFile_; }  ///< the file it came from (empty: code)
  /// Append everything of another builder (multi-file models); names must stay unique.
  void merge(const ModelBuilder& other);

  /// Validate and compile. Throws ModelError naming file, line and element on any problem.
  Model build() const;

 private:
  std::string name_, sourceFile_;
  std::vector<LinkSpec> links_;
  std::vector<JointSpec> joints_;
  std::vector<LoopSpec> loops_;
  std::vector<CouplingSpec> couplings_;
  std::vector<ConstraintSpec> constraints_;
  std::vector<FrameSpec> frames_;
  std::vector<CollisionSpec> collisions_;
  Vec3 gravity_ = Vec3(0.0, 0.0, -9.81);
  bool specialisedJoints_ = true;
  bool strictInertias_ = false;
  LoopTreatment loopTreatment_ = LoopTreatment::Embed;
};

}  // namespace grbda
