#pragma once
// Model: the immutable, validated description of a robot (Pinocchio's Model). Built once by
// ModelBuilder (or loadUrdf), then shared read-only by any number of threads, each owning a Data.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "grbda/joint.hpp"
#include "grbda/physics.hpp"
#include "grbda/spatial/inertia.hpp"

namespace grbda {

/// One rigid body of the spanning tree (regular numbering: parent < child; ground = -1).
struct Body {
  std::string name;       ///< URDF link name
  std::string jointName;  ///< URDF joint connecting it to its parent
  int parent = -1;        ///< λ(i); -1 is the ground
  Transform Xtree;        ///< X_T(i): parent frame -> joint frame at q = 0
  Joint joint;  ///< the joint connecting it to its parent
  Mat6 inertia = Mat6::Zero();  ///< spatial inertia in body coordinates (fixed children merged)
  int qIndex = 0;         ///< first position coordinate in the spanning q
  int vIndex = 0;         ///< first velocity coordinate in the spanning v
  int cluster = -1;       ///< cluster containing the body
  int output = -1;        ///< Λ(i): nearest supporting body outside the cluster (-1: ground)
  bool independent = true;  ///< its joint coordinate is an independent coordinate of the cluster
  /// Some cluster has this body as its output body, so its articulated inertia gathers more than
  /// its own rigid-body inertia (otherwise C-ABA may use the cheaper rigid-inertia transform).
  bool supportsClusters = false;
  JointLimits limits;      ///< its joint's URDF `<limit>` (enforced by the simulator only)
  JointDynamics dynamics;  ///< its joint's URDF `<dynamics>` (applied by the simulator only)
};

namespace detail {
class ClusterJoint;
struct ModelCompiler;
struct ModelSourceAccess;
}
struct ModelSource;

/// A cluster: bodies grouped because loop constraints couple their joints (spec §3). Bodies of a
/// cluster are contiguous and parent-first; clusters are regularly numbered (parent first).
struct Cluster {
  std::string name;       ///< name of the constraint(s) that formed it, or the body's joint name
  /// its bodies: numBodies contiguous ones from firstBody
  ///@{
  int firstBody = 0, numBodies = 1;
  ///@}
  int parent = -1;        ///< λ_C(k); -1 is the ground
  int output = -1;        ///< output body in the parent cluster (-1: ground)
  ///@{
  int qIndex = 0, nq = 0;           ///< independent positions
  ///@}
  ///@{
  int vIndex = 0, nv = 0;           ///< independent velocities (d_k)
  ///@}
  ///@{
  int qSpanIndex = 0, nqSpan = 0;   ///< spanning positions
  ///@}
  ///@{
  int vSpanIndex = 0, nvSpan = 0;   ///< spanning velocities
  ///@}
  std::shared_ptr<const detail::ClusterJoint> joint;  ///< the cluster joint: G, g, K, k and position completion
  const char* typeName() const;     ///< "Revolute", "Free", "RevoluteWithRotor", ..., "Generic"
};

/// A named frame rigidly attached to a body (every URDF link is one; merged links included).
struct Frame {
  std::string name;  ///< name
  int body = -1;          ///< -1: attached to the ground (world)
  Transform placement;    ///< ^frame X_body: body coordinates -> frame coordinates
};

/// Which relative motions a URDF+ `<loop>` allows between its two loop frames (the rows it states
/// are listed in docs/urdf-plus.md). Values are stored in saved models: append, never reorder.
enum class LoopKind { Revolute, Continuous, Prismatic, Planar, Fixed, Spherical, Universal };

/// A loop (URDF+ `<loop>`) as the two frames it joins, kept for methods that state loop
/// constraints their own way (the proximal solver's unreduced point constraints).
struct LoopFrames {
  std::string name;  ///< name
  ///@{
  int predecessorBody = -1, successorBody = -1;       ///< -1: the ground
  ///@}
  ///@{
  Transform predecessorPlacement, successorPlacement; ///< ^loopframe X_body
  ///@}
  bool fixed = false;          ///< orientation locked (fixed loop); otherwise revolute about `axis`
  Vec3 axis = Vec3::UnitZ();   ///< revolute axis, loop-frame coordinates
  LoopKind type = LoopKind::Revolute;  ///< the loop's type (`fixed` is type == Fixed)
  Vec3 axis2 = Vec3::Zero();   ///< universal: the successor's axis, loop-frame coordinates (unit)
  int cluster = -1;            ///< cluster whose constraints contain the loop
  ///@{
  int row = 0, numRows = 0;    ///< its rows in the cluster's K (redundant rows already removed)
  ///@}
};

/// Loops and couplings kept as constraint rows instead of being embedded in a cluster
/// (ModelBuilder::setLoopTreatment, `--loops constrain|auto`): the group of them that would have
/// formed one cluster. Its bodies stay in the tree as ordinary 1-DoF clusters, so the model's
/// coordinates include every joint of the group; the rows K(q) q̈ = k(q, q̇) over those joints
/// (the cluster's constraint set, redundant rows left out) join every ConstraintModel made for
/// the model, first, and are solved with multipliers like contacts (constrained_dynamics.hpp).
/// Model::nq() and nv() count every joint of the group, so a state of such a model is a state of
/// the open tree that must also satisfy the rows (loop_coordinates.hpp maps it to and from the
/// embedded model's coordinates). The forward calls that would ignore the rows refuse the model
/// (forwardDynamics, computeABADerivatives, the CFA, Simulator: InputError naming
/// constrainedForwardDynamics); massMatrix, biasForces, inverseDynamics and the kinematics give
/// the open tree's quantities, which the constraint solvers build on.
struct KeptLoopGroup {
  std::string name;        ///< names of its loops and couplings, as the cluster would be named
  ///@{
  int firstBody = 0, numBodies = 0;  ///< its bodies (contiguous, parent first; 1-DoF joints)
  ///@}
  ///@{
  int qIndex = 0, vIndex = 0;        ///< their coordinates (numBodies of each, contiguous)
  ///@}
  int numRows = 0;                   ///< independent constraint rows (numBodies − numDof)
  int numDof = 0;                    ///< degrees of freedom the loops leave
  std::vector<int> dependent;        ///< group-local coordinates the embedded cluster would drop
  /// The cluster it would have been (indices into this model's bodies and coordinates; for
  /// completing positions and velocities from the independent ones).
  Cluster embedded;
};

/// How ModelBuilder::build() treats loops and couplings (seed 000 conclusion, seed 001 §7: embed
/// small local loops, keep large ones as constraints).
enum class LoopTreatment {
  Embed,      ///< every loop forms a cluster (the default): independent coordinates, no multipliers
  Constrain,  ///< every loop stays a constraint row on the spanning tree (KeptLoopGroup)
  Auto        ///< per cluster, whichever its estimated cost favours (see docs/constraints.md)
};
/// "embed", "constrain", "auto".
const char* loopTreatmentName(LoopTreatment treatment);
/// The treatment named `name`; InputError listing the valid names otherwise.
LoopTreatment loopTreatmentFromName(const std::string& name);

/// One constraint of the model as written (URDF+ `<loop>`, `<coupling>`, URDF `<mimic>`, or a
/// ModelBuilder constraint), for listing: what it is and which cluster it formed.
struct ConstraintListing {
  std::string name;  ///< name
  std::string kind;         ///< "loop", "coupling" or "constraint" (a `<mimic>` is a constraint named "mimic:JOINT")
  std::string description;  ///< e.g. "revolute loop link2 -- link3", "rotor = 6 * (knee)"
  int cluster = -1;  ///< cluster it formed (-1: kept as a constraint row)
};

/// Old name of KeptLoopGroup, kept for existing code.
using LoopConstraint = KeptLoopGroup;
/// Old name of ConstraintListing, kept for existing code.
using ConstraintInfo = ConstraintListing;

/// The immutable, validated robot: bodies, clusters, frames and coordinate names (shared by threads).
class Model {
 public:
  Model();  ///< an empty model (ModelBuilder::build() or loadUrdf make real ones)
  const std::string& name() const { return name_; }  ///< the robot's name
  /// Identity of this model, shared by its copies: a Data remembers the id of the model it was
  /// sized for, and every algorithm rejects a Data of another model (InputError) in O(1).
  std::uint64_t id() const { return id_; }
  const std::string& sourceFile() const { return sourceFile_; }  ///< the file it was loaded from (empty: built in code)

  int numBodies() const { return static_cast<int>(bodies_.size()); }  ///< bodies of the spanning tree
  const std::vector<Body>& bodies() const { return bodies_; }  ///< the bodies, regularly numbered
  const Body& body(int i) const { return bodies_[static_cast<size_t>(i)]; }  ///< body i
  /// Index of the body whose link is `linkName`; throws InputError if unknown.
  int bodyIndex(const std::string& linkName) const;

  const std::vector<Frame>& frames() const { return frames_; }  ///< the named frames (every link, every FrameSpec)
  /// Index of the frame named `name` (every URDF link); throws InputError if unknown.
  int frameIndex(const std::string& name) const;
  const Frame& frame(int i) const { return frames_[static_cast<size_t>(i)]; }  ///< frame i
  /// Collision shapes on the links (URDF `<collision>`, ModelBuilder::addCollision), in file order.
  const std::vector<CollisionGeometry>& collisionGeometries() const { return collisionGeometries_; }

  /// Number of position coordinates: each cluster's independent ones. With loops kept as rows
  /// (keptLoopGroups() not empty) every joint of a kept group counts (its bodies are 1-DoF
  /// clusters), so nq() exceeds the embedded model's by the groups' dependent joints.
  int nq() const { return nq_; }
  /// Number of velocity coordinates (as nq(): the degrees of freedom when no loop is kept as rows,
  /// the degrees of freedom plus the kept rows otherwise).
  int nv() const { return nv_; }
  int nqSpanning() const { return nqSpan_; }  ///< position coordinates of the spanning tree
  int nvSpanning() const { return nvSpan_; }  ///< velocity coordinates of the spanning tree

  int numClusters() const { return static_cast<int>(clusters_.size()); }  ///< clusters of the cluster tree
  const std::vector<Cluster>& clusters() const { return clusters_; }  ///< the clusters, regularly numbered
  const Cluster& cluster(int k) const { return clusters_[static_cast<size_t>(k)]; }  ///< cluster k
  /// The loops of the model (one per URDF+ `<loop>`) embedded in clusters, grouped by cluster.
  const std::vector<LoopFrames>& loops() const { return loops_; }
  /// Loops and couplings kept as constraint rows (empty unless build() was told to keep some).
  const std::vector<KeptLoopGroup>& keptLoopGroups() const { return keptLoopGroups_; }
  /// Old name of keptLoopGroups(), kept for existing code.
  const std::vector<KeptLoopGroup>& loopConstraints() const { return keptLoopGroups_; }
  /// Every coupling, loop and constraint (in that order, each as given), with its cluster
  /// (-1 for one kept as a constraint row).
  const std::vector<ConstraintListing>& constraints() const { return constraints_; }
  /// true when some cluster has more than one body (the model has loops or couplings)
  bool hasConstraints() const { return nvSpan_ != nv_ || nqSpan_ != nq_; }
  bool isFloatingBase() const { return floatingBase_; }  ///< the root joint is floating (q starts with x y z qw qx qy qz)
  /// Names of the independent coordinates (what q, v, tau, qdd are indexed by).
  const std::vector<std::string>& positionNames() const { return positionNames_; }
  const std::vector<std::string>& velocityNames() const { return velocityNames_; }  ///< names of the independent velocities (what v, tau, qdd are indexed by)
  /// Names of the spanning-tree coordinates (every joint).
  const std::vector<std::string>& spanningPositionNames() const { return spanningPositionNames_; }
  const std::vector<std::string>& spanningVelocityNames() const { return spanningVelocityNames_; }  ///< names of the spanning-tree velocities

  /// Gravity a_g, world coordinates (default (0, 0, -9.81)); algorithms use it for every Data
  /// without its own (Data::setGravity). A Model is immutable while threads share it: change it
  /// with setGravity only before sharing, and give each thread its gravity through its Data.
  const Vec3& gravity() const { return gravity_; }
  void setGravity(const Vec3& g) { gravity_ = g; }  ///< set gravity (before sharing the model between threads)

  /// An independent configuration at which every loop closes: zeros (unit quaternion for free
  /// joints) except in loop clusters whose zero pose cannot be closed or is singular (a four-bar
  /// with its links on one line), which take the first closed pose build() found (see
  /// docs/urdf-plus.md). Every algorithm accepts it.
  VecX neutralConfiguration() const;
  /// Spanning configuration of zeros (unit quaternion for free joints); may violate loops.
  VecX neutralSpanningConfiguration() const;

  /// What the model was compiled from — the URDF text and LoadOptions of loadUrdf, or the specs
  /// of a ModelBuilder — so that it can be rebuilt exactly elsewhere (serializeModel in
  /// model_source.hpp, Python pickle). Null for an empty Model; shared by copies.
  const std::shared_ptr<const ModelSource>& source() const { return source_; }

 private:
  friend class ModelBuilder;
  friend struct detail::ModelCompiler;
  friend struct detail::ModelSourceAccess;
  std::shared_ptr<const ModelSource> source_;
  std::uint64_t id_ = 0;
  std::string name_, sourceFile_;
  std::vector<Body> bodies_;
  std::vector<Frame> frames_;
  std::vector<CollisionGeometry> collisionGeometries_;
  std::vector<Cluster> clusters_;
  std::vector<LoopFrames> loops_;
  std::vector<KeptLoopGroup> keptLoopGroups_;
  std::vector<ConstraintListing> constraints_;
  std::vector<std::string> positionNames_, velocityNames_;
  std::vector<std::string> spanningPositionNames_, spanningVelocityNames_;
  int nq_ = 0, nv_ = 0, nqSpan_ = 0, nvSpan_ = 0;
  bool floatingBase_ = false;
  Vec3 gravity_ = Vec3(0.0, 0.0, -9.81);
  VecX neutral_;  ///< closed independent configuration found by build() (empty: all zeros)
};

}  // namespace grbda
