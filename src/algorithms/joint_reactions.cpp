// Joint reaction wrenches from the forces C-RNEA's inward pass leaves in data.f (spec §6.2:
// with single-body clusters, f_i is the force transmitted across body i's joint, body
// coordinates); re-expressed in world axes about the joint origin.
#include "grbda/algorithms/reactions.hpp"

#include <string>

#include "../kernels/checks.hpp"
#include "../kernels/rnea_forces_check.hpp"
#include "grbda/errors.hpp"

namespace grbda {

namespace {

/// World position of body i's joint frame (X_T applied to the parent's pose).
Vec3 jointOrigin(const Model& model, const Data& data, int i) {
  const Body& b = model.body(i);
  return b.parent < 0 ? b.Xtree.r : data.Xa[b.parent].inverseTransformPoint(b.Xtree.r);
}

/// [n_O; f] about the world origin -> [n_p; f] about p.
Vec6 shiftMoment(const Vec6& f, const Vec3& p) {
  Vec6 out = f;
  out.head<3>() -= p.cross(f.tail<3>());
  return out;
}

}  // namespace

Vec6 jointReaction(const Model& model, const Data& data, int body) {
  detail::checkData(model, data, "jointReaction");
  detail::checkRneaForces(data, "jointReaction");
  if (body < 0 || body >= model.numBodies())
    throw InputError("jointReaction: body index " + std::to_string(body) + " out of range [0, " +
                     std::to_string(model.numBodies()) + ")");
  const Body& b = model.body(body);
  if (model.cluster(b.cluster).numBodies > 1)
    throw InputError("jointReaction: body '" + b.name + "' is in cluster '" + model.cluster(b.cluster).name +
                     "' of several bodies: use jointReactions for the cluster's reaction");
  return shiftMoment(data.Xa[body].applyTranspose(data.f[body]), jointOrigin(model, data, body));
}

std::vector<JointReaction> jointReactions(const Model& model, const Data& data) {
  detail::checkData(model, data, "jointReactions");
  detail::checkRneaForces(data, "jointReactions");
  std::vector<JointReaction> out;
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    JointReaction r;
    r.body = cl.firstBody;
    r.cluster = k;
    r.wholeCluster = cl.numBodies > 1;
    r.joint = r.wholeCluster ? cl.name : model.body(cl.firstBody).jointName;
    r.origin = jointOrigin(model, data, cl.firstBody);
    Vec6 f = Vec6::Zero();  // every body of the cluster: what its output body (or the ground) exerts
    for (int i = cl.firstBody; i < cl.firstBody + cl.numBodies; ++i) f += data.Xa[i].applyTranspose(data.f[i]);
    f = shiftMoment(f, r.origin);
    r.moment = f.head<3>();
    r.force = f.tail<3>();
    out.push_back(r);
  }
  return out;
}

}  // namespace grbda
