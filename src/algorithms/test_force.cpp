// Apply-test-force (spec §6.6): the response of the free system to a 3-D force at a contact point,
// from the force propagators of the last articulated pass (any algorithm's, at this configuration).
// A force p on the body through which it enters cluster k gives t_k = S_kᵀ p; the articulated-body recursion (zero velocity, torque
// and gravity) then yields
//   λ⁻¹ = Σ_k t_kᵀ D_k⁻¹ t_k          over the supporting clusters (O(depth)),
//   p ← Xout_jᵀ p − XU_k D_k⁻¹ t_k    (= χ_kᵀ p, the force passed to the output body),
//   ÿ_k = D_k⁻¹ t_k − D_k⁻¹ XU_kᵀ a_o (outward over all clusters, O(n); t_k = 0 off the path).
// The spec's per-cluster Q_k tables (nv x d_k, O(depth) per supporting cluster but O(n·depth)
// to precompute and store) are replaced by this one outward pass; data.a is its scratch.
#include <string>

#include "../kernels/checks.hpp"
#include "../kernels/force_propagators.hpp"
#include "grbda/algorithms/osim.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda {

double applyTestForce(const Model& model, Data& data, int frame, const Vec3& point, const Vec3& forceWorld,
                      VecX& qdd) {
  DataWorkspace& ws = data.work();
  constexpr const char* alg = "applyTestForce";
  detail::checkData(model, data, alg);
  if (frame < 0 || frame >= static_cast<int>(model.frames().size()))
    throw InputError(std::string(alg) + ": frame index " + std::to_string(frame) + " is out of range (the model has " +
                     std::to_string(model.frames().size()) + " frames)");
  if (!point.allFinite()) throw InputError(std::string(alg) + ": the point is not finite");
  if (!forceWorld.allFinite()) throw InputError(std::string(alg) + ": the force is not finite");
  if (!ws.articulated.plain || ws.articulated.kinematics != ws.kinematicsVersion)
    throw InputError(std::string(alg) +
                     ": the force propagators do not match the configuration in data; call "
                     "updateForcePropagators(model, data, q) (or inverseOperationalSpaceInertia) first");
  if (qdd.size() != model.nv()) qdd.resize(model.nv());
  qdd.setZero();
  const Frame& f = model.frame(frame);
  if (f.body < 0) return 0.0;  // a point fixed to the world does not move

  // the force as a spatial force on body b(e), body coordinates
  const Vec3 pointInBody = f.placement.inverseTransformPoint(point);
  const Vec3 forceInBody = data.Xa[f.body].E * forceWorld;
  Vec6 p;
  p << pointInBody.cross(forceInBody), forceInBody;

  double lambdaInv = 0.0;
  for (int j = f.body; j >= 0; j = model.body(j).output) {  // inward along the support path
    const int k = model.body(j).cluster;
    const Cluster& cl = model.cluster(k);
    ClusterData& cd = ws.clusters[static_cast<size_t>(k)];
    auto z = qdd.segment(cl.vIndex, cl.nv);
    cd.u.noalias() = cd.S.middleRows<6>(6 * (j - cl.firstBody)).transpose() * p;  // t_k
    z.noalias() = cd.Dinv * cd.u;  // D_k⁻¹ t_k
    lambdaInv += cd.u.dot(z);
    if (cl.output < 0) break;
    p = ws.Xout[j].applyTranspose(p);
    p.noalias() -= cd.DinvXUt.transpose() * cd.u;
  }

  detail::outwardResponse(model, data, qdd);  // outward: accelerations of the free system
  return lambdaInv;
}

}  // namespace grbda
