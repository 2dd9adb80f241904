#include "../kernels/cluster_state.hpp"

#include <string>

#include "../cluster/cluster_joint.hpp"
#include "../kernels/checks.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

void setConfiguration(const Model& model, Data& data, const VecRef& q, const char* algorithm) {
  checkData(model, data, algorithm);
  if (q.size() != model.nq() && q.size() != model.nqSpanning())
    throw InputError(std::string(algorithm) + ": q has " + std::to_string(q.size()) + " entries, expected " +
                     std::to_string(model.nq()) + " (independent positions)" +
                     (model.nqSpanning() != model.nq()
                          ? " or " + std::to_string(model.nqSpanning()) + " (spanning positions)"
                          : std::string()));
  checkVector(q, q.size(), "q", algorithm);
  const bool spanning = q.size() == model.nqSpanning();
  std::vector<ClusterData>& clusterData = data.work().clusters;
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    ClusterData& cd = clusterData[static_cast<size_t>(k)];
    double* qs = data.qSpan.data() + cl.qSpanIndex;
    if (spanning) {
      for (int i = 0; i < cl.nqSpan; ++i) qs[i] = q[cl.qSpanIndex + i];
      const double violation = cl.joint->constraintViolation(qs, cd);
      if (violation > 1e-8)
        throw InputError(std::string(algorithm) + ": spanning positions violate the constraints of cluster '" +
                         cl.name + "' (|phi| = " + std::to_string(violation) + ")");
    } else if (!cl.joint->completePositions(cl, q.data() + cl.qIndex, qs, cd)) {
      throw NumericalError(std::string(algorithm) + ": cannot close the loops of cluster '" + cl.name +
                           "' at the given independent positions (no solution or singular constraint Jacobian)");
    }
  }
  for (const auto& b : model.bodies())
    if (b.joint.hasQuaternion() && data.qSpan.segment<4>(b.qIndex + b.joint.quaternionOffset()).squaredNorm() < 1e-12)
      throw InputError(std::string(algorithm) + ": quaternion of joint '" + b.jointName + "' is zero");
}

void clusterKinematics(const Model& model, Data& data, const VecRef* v, const char* algorithm) {
  ++data.work().kinematicsVersion;
  for (int k = 0; k < model.numClusters(); ++k) {
    const Cluster& cl = model.cluster(k);
    if (!cl.joint->update(model, cl, data, v ? v->data() + cl.vIndex : nullptr))
      throw NumericalError(std::string(algorithm) + ": the constraint Jacobian of cluster '" + cl.name +
                           "' is singular at this configuration (e.g. a four-bar at its toggle position)");
  }
}

void prepareState(const Model& model, Data& data, const VecRef& q, const VecRef* v, const char* algorithm) {
  setConfiguration(model, data, q, algorithm);
  if (v) checkVector(*v, model.nv(), "v", algorithm);
  clusterKinematics(model, data, v, algorithm);
}

}  // namespace grbda::detail
