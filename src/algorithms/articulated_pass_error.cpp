// The error of a failed articulated-cluster pass: it names the cluster whose D_k was not positive
// definite, with its bodies and joints, because "some D_k" tells a user nothing about which part
// of a 2000-body model is massless.
#include <string>

#include "../kernels/articulated_pass.hpp"
#include "grbda/errors.hpp"
#include "data_workspace.hpp"

namespace grbda::detail {

namespace {
/// "a, b, c" of the cluster's body or joint names, cut after a few (an error stays one line).
template <class NameOf>
std::string listOfCluster(const Cluster& cl, NameOf&& nameOf) {
  constexpr int kShown = 6;
  std::string s;
  for (int r = 0; r < cl.numBodies && r < kShown; ++r) s += (r ? ", " : "") + nameOf(cl.firstBody + r);
  if (cl.numBodies > kShown) s += ", ... (" + std::to_string(cl.numBodies) + " in all)";
  return s;
}
}  // namespace

[[noreturn]] void throwArticulatedInertiaNotPositive(const Model& model, const Data& data, const char* algorithm) {
  const int k = data.work().articulated.failedCluster;
  if (k < 0 || k >= model.numClusters())
    throw NumericalError(std::string(algorithm) + ": an articulated joint-space inertia D_k is not positive definite");
  const Cluster& cl = model.cluster(k);
  const std::string bodies = listOfCluster(cl, [&](int i) { return "'" + model.body(i).name + "'"; });
  const std::string joints = listOfCluster(cl, [&](int i) { return "'" + model.body(i).jointName + "'"; });
  throw NumericalError(std::string(algorithm) + ": the articulated inertia D_k of cluster '" + cl.name + "' (" +
                       cl.typeName() + "; bodies " + bodies + "; joints " + joints +
                       ") is not positive definite: the bodies it moves are massless, the inertias are not finite, "
                       "or the configuration is singular");
}

}  // namespace grbda::detail
