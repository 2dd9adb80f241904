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

namespace grbda {

/// Where a spec came from, for error messages (empty file = built in code).
struct SourceLocation {
  std::string file;
  int line = 0;
};

struct LinkSpec {
  std::string name;
  double mass = 0.0;
  Vec3 com = Vec3::Zero();                 ///< centre of mass in the link frame
  Mat3 inertia = Mat3::Zero();             ///< rotational inertia about the COM, link axes
  SourceLocation where;
};

enum class JointKind { Revolute, Continuous, Prismatic, Fixed, Floating };

struct JointSpec {
  std::string name;
  JointKind kind = JointKind::Revolute;
  std::string parent, child;               ///< link names
  Transform origin;                        ///< X_T: parent link frame -> joint frame
  Vec3 axis = Vec3::UnitX();               ///< in the joint frame; normalised by build()
  bool independent = true;                 ///< URDF+ `independent` flag
  /// The author stated the flag (URDF+ independent="..."): build() then refuses to override it
  /// (a coupling's legacy default) and reports the conflict instead.
  bool independentGiven = false;
  SourceLocation where;
};

enum class LoopKind { Revolute, Continuous, Prismatic, Planar, Fixed };

/// URDF+ <loop>: the predecessor and successor loop frames (link frame composed with origin)
/// coincide in position and, per the type, orientation (revolute: the axis stays aligned).
struct LoopSpec {
  std::string name;
  LoopKind type = LoopKind::Revolute;
  std::string predecessor, successor;     ///< link names
  Transform predecessorOrigin, successorOrigin;
  Vec3 axis = Vec3::UnitX();              ///< in the loop frames
  SourceLocation where;
};

/// URDF+ <coupling>: Σ q̇ (successor chain) = ratio · Σ q̇ (predecessor chain), each chain running
/// from the nearest common ancestor down to the named link (spec §2.8).
struct CouplingSpec {
  std::string name;
  std::string predecessor, successor;     ///< link names
  double ratio = 1.0;
  SourceLocation where;
};

/// A user-supplied implicit constraint φ(q) = 0 over the coordinates of the named joints (in that
/// order), e.g. the Tello differentials.
struct ConstraintSpec {
  std::string name;
  std::vector<std::string> joints;
  std::shared_ptr<const ImplicitConstraint> constraint;
  SourceLocation where;
  /// Cluster-joint type name of the resulting cluster (Cluster::typeName()); empty: "Generic".
  std::string typeHint;
  /// What Model::constraints() (grbda info) shows, e.g. "knee = 2 * hip + 0.1" for a <mimic>;
  /// empty: "implicit constraint over joints …".
  std::string description;
};

/// A named frame on a link — a contact point, a foot sole, a tool centre — without a massless
/// dummy link and fixed joint: usable wherever a link name is (constraints, frame kinematics,
/// `--contact`), and listed in Model::frames().
struct FrameSpec {
  std::string name;
  std::string link;    ///< the link it is rigidly attached to
  Transform origin;    ///< link frame -> this frame (as a fixed joint's origin)
  SourceLocation where;
};

class ModelBuilder {
 public:
  explicit ModelBuilder(std::string robotName = "robot", std::string sourceFile = {});

  void addLink(LinkSpec link);
  void addJoint(JointSpec joint);
  void addLoop(LoopSpec loop);
  void addCoupling(CouplingSpec coupling);
  void addConstraint(ConstraintSpec constraint);
  void addFrame(FrameSpec frame);
  void setGravity(const Vec3& g) { gravity_ = g; }
  /// Recognise the specialised cluster joints (RevoluteWithRotor, ..., FourBar; the default).
  /// false keeps every constrained cluster Generic — for comparing the two on the same model.
  void setSpecialisedJoints(bool enabled) { specialisedJoints_ = enabled; }
  bool specialisedJoints() const { return specialisedJoints_; }
  /// Embed loops and couplings in clusters (the default), keep them as constraint rows on the
  /// spanning tree (Model::loopConstraints), or choose per cluster (Auto).
  void setLoopTreatment(LoopTreatment treatment) { loopTreatment_ = treatment; }
  LoopTreatment loopTreatment() const { return loopTreatment_; }
  /// Reject rotational inertias that violate the triangle inequality (no real body has them) with
  /// a ModelError naming the link. Off by default: published models have them (rounded CAD
  /// estimates, planar models that give only izz), and the dynamics stay well defined; build()
  /// then warns once, naming the first such link.
  void setStrictInertias(bool enabled) { strictInertias_ = enabled; }

  const std::vector<LinkSpec>& links() const { return links_; }
  const std::vector<JointSpec>& joints() const { return joints_; }
  const std::vector<LoopSpec>& loops() const { return loops_; }
  const std::vector<CouplingSpec>& couplings() const { return couplings_; }
  const std::vector<ConstraintSpec>& constraints() const { return constraints_; }
  const std::vector<FrameSpec>& frames() const { return frames_; }
  const std::string& name() const { return name_; }
  const std::string& sourceFile() const { return sourceFile_; }
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
  Vec3 gravity_ = Vec3(0.0, 0.0, -9.81);
  bool specialisedJoints_ = true;
  bool strictInertias_ = false;
  LoopTreatment loopTreatment_ = LoopTreatment::Embed;
};

}  // namespace grbda
