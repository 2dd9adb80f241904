#include "grbda/data.hpp"

#include <limits>

#include "cluster/cluster_joint.hpp"
#include "data_workspace.hpp"
#include "grbda/errors.hpp"
#include "grbda/spatial/cross.hpp"
#include "spatial/rigid_params.hpp"

namespace grbda::detail {

void sizeClusterData(const Model& model, const Cluster& cl, ClusterData& cd) {
  const int nb = cl.numBodies, d = cl.nv, ns = cl.nvSpan, nc = cl.nvSpan - cl.nv;
  cd.G = MatX::Zero(ns, d);
  cd.g = VecX::Zero(ns);
  cd.K = MatX::Zero(nc, ns);
  cd.k = VecX::Zero(nc);
  cd.Kd = MatX::Zero(nc, nc);
  cd.Ki = MatX::Zero(nc, d);
  cd.KdInvKi = MatX::Zero(nc, d);
  cd.luKd = Eigen::PartialPivLU<MatX>(nc);
  cd.phi = VecX::Zero(nc);
  cd.dq = VecX::Zero(nc);
  cd.S = MatX::Zero(6 * nb, d);
  cd.U = MatX::Zero(6 * nb, d);
  cd.D = MatX::Zero(d, d);
  cd.Dinv = MatX::Identity(d, d);
  cd.scratchD6 = MatX::Zero(d, 6);
  // compute(), not LLT(d): Eigen's sized constructor leaves info() uninitialised, and copying
  // it is undefined behaviour (UBSan: invalid enum load).
  cd.llt.compute(MatX::Identity(d, d));
  cd.XU = MatX::Zero(6, d);
  cd.DinvXUt = MatX::Zero(d, 6);
  cd.u = VecX::Zero(d);
  cd.w = VecX::Zero(d);
  cd.F = MatX::Zero(6 * nb, d);
  cd.Fout = MatX::Zero(6, d);
  cl.joint->initializeData(model, cl, cd);
}

}  // namespace grbda::detail

namespace grbda {

namespace {

/// Per body: 1 when some body hangs from it.
std::vector<char> bodiesWithChildren(const Model& model) {
  std::vector<char> hasChildren(static_cast<size_t>(model.numBodies()), 0);
  for (int i = 0; i < model.numBodies(); ++i)
    if (model.body(i).parent >= 0) hasChildren[static_cast<size_t>(model.body(i).parent)] = 1;
  return hasChildren;
}

/// Leaves on revolute joints hanging from a body, whose centre of mass lies on their axis
/// (h × axis = 0; massless ones too): their mass and first moment are constant in the parent's
/// axes, [m; Xtree.Eᵀ h + m Xtree.r], and their own column of J_com is zero.
void foldRotorsOnAxis(const Model& model, const std::vector<char>& hasChildren, CentroidalScratch& cs) {
  const auto n = static_cast<size_t>(model.numBodies());
  cs.comOnAxis.assign(n, 0);
  cs.foldedMassMoment.resize(n);
  for (size_t i = 0; i < n; ++i)  // [m; h]: the first four of the ten parameters
    cs.foldedMassMoment[i] = detail::rigidParams(model.body(static_cast<int>(i)).inertia).head<4>();
  for (int i = 0; i < model.numBodies(); ++i) {
    const Body& b = model.body(i);
    if (hasChildren[static_cast<size_t>(i)] || b.parent < 0 || b.joint.type != JointType::Revolute) continue;
    const Eigen::Vector4d& mh = cs.foldedMassMoment[static_cast<size_t>(i)];
    const Vec3 h = mh.tail<3>(), axis = b.joint.subspace().head<3>();
    if (h.cross(axis).cwiseAbs().maxCoeff() > 64.0 * std::numeric_limits<double>::epsilon() * h.norm()) continue;
    cs.comOnAxis[static_cast<size_t>(i)] = 1;
    Eigen::Vector4d& to = cs.foldedMassMoment[static_cast<size_t>(b.parent)];
    to(0) += mh(0);
    to.tail<3>() += b.Xtree.E.transpose() * h + mh(0) * b.Xtree.r;
  }
}

/// True when body i's own revolute rotation leaves its inertia unchanged: s ×* I − I s× = 0 for
/// its joint's s = [axis; 0] (a body of revolution about its axis, centre of mass on it), to
/// round-off of I.
bool inertiaTurnsWithoutChange(const Body& b, double epsilons = 64.0) {
  const Vec6 s = b.joint.subspace();
  const Mat6 change = crfMatrix(s) * b.inertia - b.inertia * crmMatrix(s);
  return change.cwiseAbs().maxCoeff() <=
         epsilons * std::numeric_limits<double>::epsilon() * b.inertia.cwiseAbs().maxCoeff();
}

/// Marks the symmetric rotors (of the rotors on their axis, foldRotorsOnAxis, those whose whole
/// inertia turns without change) and folds each into its parent: its inertia there is
/// Xtreeᵀ I Xtree whatever its angle, and its momentum per column I_r S_r (in the parent's axes) is
/// constant too. Exact: the pass then needs neither the rotor's pose nor its velocity.
void foldSymmetricRotors(const Model& model, const std::vector<ClusterData>& clusters, CentroidalScratch& cs) {
  const auto n = static_cast<size_t>(model.numBodies());
  cs.symmetricRotor.assign(n, 0);
  cs.foldedParams = cs.bodyParams;
  cs.rotorMomentum = Mat6X::Zero(6, cs.worldS.cols());
  for (const Cluster& cl : model.clusters()) {
    for (int r = 0; r < cl.numBodies; ++r) {
      const int i = cl.firstBody + r;
      const Body& b = model.body(i);
      if (!cs.comOnAxis[static_cast<size_t>(i)] || !inertiaTurnsWithoutChange(b)) continue;
      cs.symmetricRotor[static_cast<size_t>(i)] = 1;
      detail::addRigidTransformed(b.Xtree, cs.bodyParams[static_cast<size_t>(i)], cs.foldedParams[static_cast<size_t>(b.parent)]);
      const MatX& S = clusters[static_cast<size_t>(model.body(i).cluster)].S;
      for (int c = 0; c < cl.nv; ++c)
        cs.rotorMomentum.col(cs.worldSColumn[static_cast<size_t>(i)] + c) =
            b.Xtree.applyTranspose(b.inertia * S.block<6, 1>(6 * r, c));
    }
  }
}

/// The world-axes centroidal pass needs every cluster's S constant (c_i = v_i × S_i ẏ) and every
/// body hanging from the cluster's output body (v_i = ^iX_out v_out + S_i ẏ): then world velocities
/// and inertias add along the tree without transforms. Sized here for those models only.
void sizeCentroidalWorldPass(const Model& model, const std::vector<ClusterData>& clusters, CentroidalScratch& cs) {
  const auto n = static_cast<size_t>(model.numBodies());
  cs.bodyParams.resize(n);
  for (size_t i = 0; i < n; ++i) cs.bodyParams[i] = detail::rigidParams(model.body(static_cast<int>(i)).inertia);
  cs.worldAxes = true;
  int columns = 0;
  cs.worldSColumn.assign(n, 0);
  for (const Cluster& cl : model.clusters()) {
    if (!cl.joint->constantSubspace()) cs.worldAxes = false;
    for (int r = 0; r < cl.numBodies; ++r) {
      if (model.body(cl.firstBody + r).parent != cl.output) cs.worldAxes = false;
      cs.worldSColumn[static_cast<size_t>(cl.firstBody + r)] = columns;
      columns += cl.nv;
    }
  }
  if (!cs.worldAxes) return;
  cs.worldVelocity.assign(n, Vec6::Zero());
  cs.worldBias.assign(n, Vec6::Zero());
  cs.worldMomentum.assign(n, Vec6::Zero());
  cs.worldS = Mat6X::Zero(6, columns);
  foldSymmetricRotors(model, clusters, cs);
}

/// The articulated pass folds these bodies' inertia as a constant (DataWorkspace::inertiaInParent):
/// leaves on a revolute joint, hanging from their cluster's output body, whose inertia turns
/// without change to round-off (8 ε of its largest entry: the folded inertia then differs from
/// the transformed one by round-off only, at any angle).
void markRotorsThatTurnWithoutChange(const Model& model, Data::Workspace& w) {
  const auto n = static_cast<size_t>(model.numBodies());
  const std::vector<char> hasChildren = bodiesWithChildren(model);
  w.turnsWithoutChange.assign(n, 0);
  w.inertiaInParent.assign(n, Mat6::Zero());
  for (int i = 0; i < model.numBodies(); ++i) {
    const Body& b = model.body(i);
    if (hasChildren[static_cast<size_t>(i)] || b.parent < 0 || b.joint.type != JointType::Revolute ||
        b.parent != model.cluster(b.cluster).output || !inertiaTurnsWithoutChange(b, 8.0))
      continue;
    w.turnsWithoutChange[static_cast<size_t>(i)] = 1;
    b.Xtree.addTransformedRigidInertia(b.inertia, w.inertiaInParent[static_cast<size_t>(i)]);
  }
}

}  // namespace

void Data::setGravity(const Vec3& g) {
  if (!g.allFinite()) throw InputError("Data::setGravity: gravity is not finite");
  gravity_ = g;
  overridesGravity_ = true;
}

Data::Data(const Model& model) : modelId_(model.id()) {
  const auto n = static_cast<size_t>(model.numBodies());
  Xa.resize(n);
  v.assign(n, Vec6::Zero());
  a.assign(n, Vec6::Zero());
  f.assign(n, Vec6::Zero());
  qSpan = model.neutralSpanningConfiguration();
  vSpan = VecX::Zero(model.nvSpanning());

  tau = VecX::Zero(model.nv());
  qdd = VecX::Zero(model.nv());
  C = VecX::Zero(model.nv());
  H = MatX::Zero(model.nv(), model.nv());
  tauTree = VecX::Zero(model.nvSpanning());
  qddTree = VecX::Zero(model.nvSpanning());
  CTree = VecX::Zero(model.nvSpanning());
  HTree = MatX::Zero(model.nvSpanning(), model.nvSpanning());
  sizeWorkspace(model);
  sizeWholeBodyData(model);
}

Data::WorkspaceOwner::WorkspaceOwner() : ptr_(std::make_unique<Workspace>()) {}
Data::WorkspaceOwner::~WorkspaceOwner() = default;
Data::WorkspaceOwner::WorkspaceOwner(const WorkspaceOwner& other)
    : ptr_(other.ptr_ ? std::make_unique<Workspace>(*other.ptr_) : nullptr) {}
Data::WorkspaceOwner& Data::WorkspaceOwner::operator=(const WorkspaceOwner& other) {
  if (this != &other) ptr_ = other.ptr_ ? std::make_unique<Workspace>(*other.ptr_) : nullptr;
  return *this;
}
Data::WorkspaceOwner::WorkspaceOwner(WorkspaceOwner&& other) noexcept = default;
Data::WorkspaceOwner& Data::WorkspaceOwner::operator=(WorkspaceOwner&& other) noexcept = default;

void Data::sizeWorkspace(const Model& model) {
  const auto n = static_cast<size_t>(model.numBodies());
  Workspace& w = work();
  w.Xup.resize(n);
  w.Xout.resize(n);
  w.c.assign(n, Vec6::Zero());
  w.IA.assign(n, Mat6::Zero());
  w.pA.assign(n, Vec6::Zero());
  w.treeAba.U.assign(n, Mat6::Zero());
  w.treeAba.Dinv.assign(n, Mat6::Zero());
  w.treeAba.u.assign(n, Vec6::Zero());
  w.Ic.assign(n, Mat6::Zero());
  markRotorsThatTurnWithoutChange(model, w);
  w.clusters.resize(static_cast<size_t>(model.numClusters()));
  for (int k = 0; k < model.numClusters(); ++k)
    detail::sizeClusterData(model, model.cluster(k), w.clusters[static_cast<size_t>(k)]);
  w.zeroV = VecX::Zero(model.nv());
  w.zeroVTree = VecX::Zero(model.nvSpanning());
  w.spanScratch = VecX::Zero(model.nvSpanning());
}

void Data::sizeWholeBodyData(const Model& model) {
  const auto n = static_cast<size_t>(model.numBodies());
  const int nv = model.nv(), ns = model.nvSpanning();
  CentroidalData& cd = centroidal;
  cd.subtreeMass.assign(n, 0.0);
  cd.subtreeCom.assign(n, Vec3::Zero());
  cd.Jcom = Mat3X::Zero(3, nv);
  cd.Ag = Mat6X::Zero(6, nv);
  CentroidalScratch& cs = work().centroidal;
  cs.aBias.assign(n, Vec6::Zero());
  cs.massMoment.assign(n, Eigen::Vector4d::Zero());
  cs.compositeParams.assign(n, Eigen::Matrix<double, 10, 1>::Zero());
  foldRotorsOnAxis(model, bodiesWithChildren(model), cs);
  sizeCentroidalWorldPass(model, work().clusters, cs);
  coriolis.C = MatX::Zero(nv, nv);
  coriolis.g = VecX::Zero(nv);
  coriolis.staticTau = VecX::Zero(nv);
  CoriolisScratch& co = work().coriolis;
  co.S = Mat6X::Zero(6, ns);
  co.dS = Mat6X::Zero(6, ns);
  co.IC.assign(n, Mat6::Zero());
  co.BC.assign(n, Mat6::Zero());
  co.Cs = MatX::Zero(ns, ns);
  co.Hs = MatX::Zero(ns, ns);
  co.W = MatX::Zero(ns, nv);
  co.Gdot.resize(static_cast<size_t>(model.numClusters()));
  co.work.resize(static_cast<size_t>(model.numClusters()));
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    co.Gdot[static_cast<size_t>(k)] = MatX::Zero(cl.nvSpan, cl.nv);
    if (!cl.joint->constraints().isStatic()) detail::sizeClusterData(model, cl, co.work[static_cast<size_t>(k)]);
  }
}

}  // namespace grbda
