// The inward sweep carries the force towards the root through each supporting cluster k:
//   t_k = S_kᵀ p,  ÿ_k ← D_k⁻¹ t_k,  p ← Xout_jᵀ p − XU_k D_k⁻¹ t_k   (the force passed on),
// and the outward sweep over every cluster gives the accelerations of the free system:
//   ÿ_k = D_k⁻¹ t_k − D_k⁻¹ XU_kᵀ a_o,  a_i = Xout_i a_o + S_i ÿ_k.
#include "response.hpp"

#include "grbda/errors.hpp"

namespace grbda::detail {
namespace {

void requirePropagators(const Data& data) {
  if (!data.articulated.plain || data.articulated.kinematics != data.kinematicsVersion)
    throw InputError("simulator: the force propagators do not match the configuration (internal ordering error)");
}

void inward(const Model& model, Data& data, int body, Vec6 p, Eigen::Ref<VecX> dydd) {
  for (int j = body; j >= 0; j = model.body(j).output) {
    const int k = model.body(j).cluster;
    const Cluster& cl = model.cluster(k);
    ClusterData& cd = data.clusters[static_cast<size_t>(k)];
    cd.u.noalias() = cd.S.middleRows<6>(6 * (j - cl.firstBody)).transpose() * p;  // t_k
    dydd.segment(cl.vIndex, cl.nv).noalias() += cd.Dinv * cd.u;
    if (cl.output < 0) return;
    p = data.Xout[j].applyTranspose(p);
    p.noalias() -= cd.DinvXUt.transpose() * cd.u;
  }
}

void outward(const Model& model, Data& data, Eigen::Ref<VecX> dydd) {
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    const ClusterData& cd = data.clusters[static_cast<size_t>(k)];
    auto ydd = dydd.segment(cl.vIndex, cl.nv);
    const Vec6 ao = cl.output < 0 ? Vec6::Zero() : Vec6(data.a[cl.output]);
    if (cl.output >= 0) ydd.noalias() -= cd.DinvXUt * ao;
    for (int r = 0; r < cl.numBodies; ++r) {
      const int i = cl.firstBody + r;
      data.a[i] = data.Xout[i].apply(ao);
      data.a[i].noalias() += cd.S.middleRows<6>(6 * r) * ydd;
    }
  }
}

}  // namespace

void responseToBodyForce(const Model& model, Data& data, int body, const Vec6& p, Eigen::Ref<VecX> dydd) {
  requirePropagators(data);
  dydd.setZero();
  if (body >= 0) inward(model, data, body, p, dydd);
  outward(model, data, dydd);
}

void responseToClusterForce(const Model& model, Data& data, int k, const Eigen::Ref<const VecX>& t,
                            Eigen::Ref<VecX> dydd) {
  requirePropagators(data);
  dydd.setZero();
  const Cluster& cl = model.cluster(k);
  ClusterData& cd = data.clusters[static_cast<size_t>(k)];
  dydd.segment(cl.vIndex, cl.nv).noalias() = cd.Dinv * t;
  if (cl.output >= 0) {
    Vec6 passed;
    passed.noalias() = -(cd.DinvXUt.transpose() * t);  // the force it passes to its output body
    inward(model, data, cl.output, passed, dydd);
  }
  outward(model, data, dydd);
}

}  // namespace grbda::detail
