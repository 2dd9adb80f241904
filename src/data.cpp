#include "grbda/data.hpp"

#include "cluster/cluster_joint.hpp"
#include "grbda/errors.hpp"

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

void Data::setGravity(const Vec3& g) {
  if (!g.allFinite()) throw InputError("Data::setGravity: gravity is not finite");
  gravity_ = g;
  overridesGravity_ = true;
}

Data::Data(const Model& model) : modelId_(model.id()) {
  const auto n = static_cast<size_t>(model.numBodies());
  Xup.resize(n);
  Xa.resize(n);
  Xout.resize(n);
  v.assign(n, Vec6::Zero());
  a.assign(n, Vec6::Zero());
  c.assign(n, Vec6::Zero());
  f.assign(n, Vec6::Zero());
  IA.assign(n, Mat6::Zero());
  pA.assign(n, Vec6::Zero());
  U.assign(n, Mat6::Zero());
  Dinv.assign(n, Mat6::Zero());
  u.assign(n, Vec6::Zero());
  Ic.assign(n, Mat6::Zero());

  clusters.resize(static_cast<size_t>(model.numClusters()));
  for (int k = 0; k < model.numClusters(); ++k)
    detail::sizeClusterData(model, model.cluster(k), clusters[static_cast<size_t>(k)]);
  qSpan = model.neutralSpanningConfiguration();
  vSpan = VecX::Zero(model.nvSpanning());
  zeroV = VecX::Zero(model.nv());
  spanScratch = VecX::Zero(model.nvSpanning());

  tau = VecX::Zero(model.nv());
  qdd = VecX::Zero(model.nv());
  C = VecX::Zero(model.nv());
  H = MatX::Zero(model.nv(), model.nv());
  tauTree = VecX::Zero(model.nvSpanning());
  qddTree = VecX::Zero(model.nvSpanning());
  CTree = VecX::Zero(model.nvSpanning());
  HTree = MatX::Zero(model.nvSpanning(), model.nvSpanning());
  zeroVTree = VecX::Zero(model.nvSpanning());
  sizeWholeBodyData(model);
}

void Data::sizeWholeBodyData(const Model& model) {
  const auto n = static_cast<size_t>(model.numBodies());
  const int nv = model.nv(), ns = model.nvSpanning();
  CentroidalData& cd = centroidal;
  cd.subtreeMass.assign(n, 0.0);
  cd.subtreeCom.assign(n, Vec3::Zero());
  cd.Jcom = Mat3X::Zero(3, nv);
  cd.aBias.assign(n, Vec6::Zero());
  cd.massMoment.assign(n, Eigen::Vector4d::Zero());
  cd.compositeParams.assign(n, Eigen::Matrix<double, 10, 1>::Zero());
  cd.Ag = Mat6X::Zero(6, nv);
  CoriolisData& co = coriolis;
  co.C = MatX::Zero(nv, nv);
  co.g = VecX::Zero(nv);
  co.staticTau = VecX::Zero(nv);
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
