// Building the approximate models of spec §6.9.3: the independent tree (a new Model compiled by
// ModelBuilder from the kept bodies) and the reflected inertia of each cluster.
#include <set>

#include "cluster/cluster_joint.hpp"
#include "grbda/baselines/approximate.hpp"
#include "grbda/builder.hpp"
#include "grbda/errors.hpp"
#include "log.hpp"

namespace grbda {

namespace {

/// URDF-shaped link of a body: mass, COM and COM inertia recovered from the spatial inertia
/// (which already holds the links merged into the body).
LinkSpec linkOfBody(const Body& body) {
  LinkSpec l;
  l.name = body.name;
  l.mass = inertiaMass(body.inertia);
  if (l.mass > 0.0) {
    l.com = inertiaCom(body.inertia);
    l.inertia = inertiaAboutCom(body.inertia);
  } else {
    l.inertia = body.inertia.topLeftCorner<3, 3>();
  }
  l.inertia = 0.5 * (l.inertia + l.inertia.transpose());  // exact symmetry for the builder's check
  return l;
}

JointKind kindOf(const Joint& joint) {
  switch (joint.type) {
    case JointType::Revolute: return JointKind::Revolute;
    case JointType::Prismatic: return JointKind::Prismatic;
    case JointType::Free: return JointKind::Floating;
    case JointType::Screw: return JointKind::Screw;
    case JointType::Spherical: return JointKind::Spherical;
  }
  return JointKind::Revolute;
}

/// A massless link welded to `parent`, so the builder recreates frame `name` with its placement.
void addFrameLink(ModelBuilder& b, std::set<std::string>& jointNames, const std::string& name,
                  const std::string& parent, const Transform& placement) {
  b.addLink(LinkSpec{name, 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  std::string jointName = name + "_fixed";
  while (!jointNames.insert(jointName).second) jointName += "_";
  JointSpec j;
  j.name = jointName;
  j.kind = JointKind::Fixed;
  j.parent = parent;
  j.child = name;
  j.origin = placement;
  b.addJoint(j);
}

}  // namespace

Model independentTreeModel(const Model& model) {
  const int nb = model.numBodies();
  const std::string& root = model.frame(0).name;  // the builder records the root link first
  ModelBuilder b(model.name() + "_independent_tree", model.sourceFile());
  b.setGravity(model.gravity());
  b.addLink(LinkSpec{root, 0.0, Vec3::Zero(), Mat3::Zero(), {}});
  std::set<std::string> jointNames;
  for (const auto& body : model.bodies()) jointNames.insert(body.jointName);

  // Kept bodies in the model's order (parents first), so the builder numbers them the same way.
  for (int i = 0; i < nb; ++i) {
    const Body& body = model.body(i);
    if (!body.independent) continue;
    JointSpec j;
    j.name = body.jointName;
    j.kind = kindOf(body.joint);
    j.child = body.name;
    j.axis = body.joint.axis;
    j.pitch = body.joint.pitch;
    // Skip removed ancestors: X_J(0) = 1 for 1-DoF joints, so only tree transforms compose.
    j.origin = body.Xtree;
    int p = body.parent;
    for (; p >= 0 && !model.body(p).independent; p = model.body(p).parent) j.origin = j.origin * model.body(p).Xtree;
    j.parent = p < 0 ? root : model.body(p).name;
    b.addLink(linkOfBody(body));
    b.addJoint(j);
  }
  for (size_t f = 1; f < model.frames().size(); ++f) {
    const Frame& fr = model.frames()[f];
    if (fr.body < 0) {
      addFrameLink(b, jointNames, fr.name, root, fr.placement);
    } else {
      const Body& body = model.body(fr.body);
      if (!body.independent || fr.name == body.name) continue;  // dropped with the body / made by the builder
      addFrameLink(b, jointNames, fr.name, body.name, fr.placement);
    }
  }
  Model tree = b.build();

  if (tree.positionNames() != model.positionNames() || tree.velocityNames() != model.velocityNames())
    throw ModelError(
        "the independent tree numbers its coordinates differently from the model's independent coordinates "
        "(a cluster with several independent bodies carries other clusters); approximate models of this "
        "structure are not supported",
        model.sourceFile(), 0, "robot '" + model.name() + "'");
  return tree;
}

MatX reflectedInertia(const Model& model, std::vector<std::string>* unsupportedClusters) {
  MatX R = MatX::Zero(model.nv(), model.nv());
  for (const Cluster& cl : model.clusters()) {
    bool hasDependent = false;
    for (int r = 0; r < cl.numBodies; ++r) hasDependent |= !model.body(cl.firstBody + r).independent;
    if (!hasDependent) continue;
    const detail::ConstraintSet& constraints = cl.joint->constraints();
    if (!constraints.isStatic()) {
      if (unsupportedClusters) unsupportedClusters->push_back(cl.name);
      continue;
    }
    const MatX& G = constraints.staticG();  // nvSpan x d, cluster-local
    auto block = R.block(cl.vIndex, cl.vIndex, cl.nv, cl.nv);
    for (int r = 0; r < cl.numBodies; ++r) {
      const Body& body = model.body(cl.firstBody + r);
      if (body.independent) continue;
      // S_r = s_r G_row (1-DoF body):  S_rᵀ I_r S_r = (s_rᵀ I_r s_r) G_rowᵀ G_row.
      const Vec6 s = body.joint.subspace();
      const double spinInertia = s.dot(body.inertia * s);
      const auto row = G.row(body.vIndex - cl.vSpanIndex);
      block.noalias() += spinInertia * row.transpose() * row;
    }
  }
  return R;
}

ApproximateModel makeApproximateModel(const Model& model, RotorApproximation approximation) {
  ApproximateModel am{independentTreeModel(model), approximation, MatX(), VecX(), MatX(), {}};
  am.reflectedInertia = reflectedInertia(model, &am.unsupportedClusters);
  const int nv = model.nv();
  switch (approximation) {
    case RotorApproximation::None: am.massOffset = MatX::Zero(nv, nv); break;
    case RotorApproximation::Diagonal: am.massOffset = am.reflectedInertia.diagonal().asDiagonal(); break;
    case RotorApproximation::BlockDiagonal: am.massOffset = am.reflectedInertia; break;
  }
  am.armature = am.massOffset.diagonal();
  if (approximation != RotorApproximation::None)
    for (const auto& name : am.unsupportedClusters)
      detail::log().warn("cluster '{}' has implicit loop constraints: no reflected inertia, it stays unconstrained",
                         name);
  return am;
}

}  // namespace grbda
