#pragma once
// Internal: the model compiler, ModelBuilder's specs → Model, as a list of named passes over one
// CompilerState (MuJoCo's compiler is the model: each step does one job, in the order
// compile.cpp names). A pass reads what earlier passes wrote and writes its own fields; none
// calls an engine routine on the unfinished Model, and only the compiler holds its cluster
// joints mutably (fixing the assembly mode needs that; the Model gets them const).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster_joint.hpp"
#include "grbda/builder.hpp"
#include "grbda/errors.hpp"
#include "grbda/model.hpp"

namespace grbda::detail {

/// The private fields of a Model, by reference: what the passes write (only ModelCompiler,
/// Model's friend, can make one).
struct ModelFields {
  std::string &name, &sourceFile;
  std::vector<Body>& bodies;
  std::vector<Frame>& frames;
  std::vector<CollisionGeometry>& collisionGeometries;
  std::vector<Cluster>& clusters;
  std::vector<LoopFrames>& loops;
  std::vector<KeptLoopGroup>& keptLoopGroups;
  std::vector<ConstraintListing>& constraints;
  std::vector<std::string>&positionNames, &velocityNames, &spanningPositionNames, &spanningVelocityNames;
  int &nq, &nv, &nqSpan, &nvSpan;
  bool& floatingBase;
  Vec3& gravity;
  VecX& neutral;
  std::shared_ptr<const ModelSource>& source;
};

struct ModelCompiler {
  static ModelFields fieldsOf(Model& model);
  /// The whole pipeline (compile.cpp): ModelBuilder::build().
  static Model compile(const ModelBuilder& builder);
};

/// One constraint after its links were resolved to bodies (tree numbering).
struct ResolvedConstraint {
  enum Kind { Coupling, Loop, User } kind;
  size_t spec;                   ///< index into the builder's list of that kind
  std::string name;
  SourceLocation where;
  std::vector<int> predChain, succChain;  ///< bodies below the NCA, top-down (Coupling, Loop)
  Transform predOrigin, succOrigin;       ///< loop frames relative to the end bodies (Loop)
  std::vector<int> bodies;                ///< all bodies involved
  int predBody = -1, succBody = -1;       ///< end bodies of a loop (-1: ground)
};

/// One group of bodies that loops, couplings or constraints tie together (new numbering), as the
/// passes describe it before the model's clusters are written: embedded, it becomes one of the
/// model's clusters; kept as rows, its bodies become 1-DoF clusters and `cluster` the
/// KeptLoopGroup's closure map (KeptLoopGroup::embedded). Nothing is built and then dissolved.
struct ClusterDraft {
  Cluster cluster;         ///< bodies, output, spanning and independent coordinates, name, joint
  ConstraintSet set;       ///< its constraint set (constrained clusters; buildConstraintSets)
  std::string typeHint;    ///< the type name its user constraints agree on (empty: none)
  std::shared_ptr<ClusterJoint> joint;  ///< the joint selectJoints made (the Model holds it const)
  bool closedForm = false;  ///< a recogniser's fixed-size joint (or a single body): not the general recursion
  bool keepAsRows = false;  ///< its loops stay constraint rows (chooseLoopTreatment)
};

struct CompilerState {
  explicit CompilerState(const ModelBuilder& b) : builder(b), m(ModelCompiler::fieldsOf(model)) {}
  CompilerState(const CompilerState&) = delete;
  CompilerState& operator=(const CompilerState&) = delete;

  const ModelBuilder& builder;
  Model model;    ///< the output, unfinished until the last pass
  ModelFields m;  ///< its fields

  // the spanning tree (checkLinks ... buildSpanningTree)
  std::map<std::string, size_t> linkIndex;
  std::vector<size_t> indefinite;  ///< links whose inertia is not positive semi-definite
  std::vector<JointSpec> joints;   ///< the builder's joints, checked (axes normalised)
  std::map<std::string, size_t> jointIndex;
  std::vector<int> parentJointOf;  ///< per link: the joint whose child it is (-1: root)
  size_t root = 0;
  std::vector<int> linkBody;              ///< body carrying link l (-1: ground)
  std::vector<Transform> linkPlacement;   ///< ^link X_body
  std::vector<const JointSpec*> bodyJoint;  ///< per body: its JointSpec (tree numbering, then renumbered)

  // clusters (resolveConstraints ... renumberBodies)
  std::vector<ResolvedConstraint> constraints;
  std::vector<std::vector<int>> groups;           ///< each cluster's bodies (tree numbering, ascending)
  std::vector<int> clusterOfBody;                 ///< tree numbering
  std::vector<std::vector<size_t>> constraintsOfCluster;
  std::vector<int> outputOld;                     ///< each group's output body (tree numbering)
  std::vector<int> newIndex;                      ///< tree numbering -> new numbering
  std::vector<ClusterDraft> drafts;               ///< per group (new numbering); the model's clusters come last (writeClusters)
  VecX closedSpanning;  ///< a closed spanning pose found by fixAssembly (zeros where nothing to close)

  std::vector<int> toNew(std::vector<int> v) const {
    for (int& b : v) b = newIndex[static_cast<size_t>(b)];
    return v;
  }
};

[[noreturn]] inline void fail(const std::string& msg, const SourceLocation& at, const std::string& element) {
  throw ModelError(msg, at.file, at.line, element);
}
std::string fmtNumber(double x);
std::string joinNames(const std::vector<std::string>& names);
/// The names of body b's joint coordinates (a free joint's seven positions and six velocities,
/// suffixed; otherwise the joint's name), appended to the two lists.
void appendCoordinateNames(const Body& b, std::vector<std::string>& positions, std::vector<std::string>& velocities);

// ---- the passes, in the order compile.cpp runs them -------------------------------------------
// before the tree (expand_balls.cpp): the builder with every spherical joint on a loop's chain
// written as three revolutes; nothing to expand: nullopt (the builder as given)
std::optional<ModelBuilder> expandBallsOnConstraintChains(const ModelBuilder& b);
// spanning tree (spanning_tree.cpp, check_specs.cpp)
void checkLinks(CompilerState& s);            ///< finite, symmetric inertias; unique names
void checkJoints(CompilerState& s);           ///< known links, rotations, limits; one parent per link
void findRoot(CompilerState& s);              ///< exactly one link without a parent joint
void buildSpanningTree(CompilerState& s);     ///< depth first, fixed joints merged, regular numbering
void checkMovingInertias(CompilerState& s);   ///< indefinite inertias refused on moving links
void placeFrames(CompilerState& s);           ///< named frames on their bodies
void checkLoopOrigins(CompilerState& s);      ///< loop origins are rotations
// clusters (spec §3)
void resolveConstraints(CompilerState& s);    ///< links → bodies, chains below the NCA (resolve_constraints.cpp)
void groupBodies(CompilerState& s);           ///< union of constrained bodies (group_bodies.cpp)
void findOutputBodies(CompilerState& s);      ///< one output body per cluster, no floating joint inside
void renumberBodies(CompilerState& s);        ///< clusters contiguous, parents first (renumber.cpp)
void numberSpanningCoordinates(CompilerState& s);
void describeGroups(CompilerState& s);        ///< each group's Cluster record (drafts): bodies, output, parent (group numbering)
void buildConstraintSets(CompilerState& s);   ///< rows, independent marks, rank (constraint_sets.cpp)
void selectJoints(CompilerState& s);          ///< the recognisers, else Generic (select_joint.cpp)
void chooseLoopTreatment(CompilerState& s);   ///< embed, or keep as rows (LoopTreatment; loop_treatment.cpp)
void numberCoordinates(CompilerState& s);     ///< the model's coordinates and names (coordinates.cpp)
void listConstraints(CompilerState& s);       ///< Model::constraints() (list_constraints.cpp)
void fixAssembly(CompilerState& s);           ///< close every loop once; neutral pose; branch (assembly.cpp)
void writeClusters(CompilerState& s);         ///< the model's clusters and KeptLoopGroups, once (loop_treatment.cpp)
void placeCollisions(CompilerState& s);       ///< collision shapes on their bodies (spanning_tree.cpp)

}  // namespace grbda::detail
