#pragma once
// Internal: argument validation shared by the public algorithm entry points. O(n), no allocation.
#include <cmath>
#include <string>

#include "grbda/errors.hpp"
#include "grbda/data.hpp"

namespace grbda::detail {

/// The Data must have been sized for this model (a mismatch would read out of bounds).
inline void checkData(const Model& m, const Data& data, const char* algorithm) {
  if (data.modelId() != m.id())
    throw InputError(std::string(algorithm) + (data.modelId() == 0
                                                   ? ": the Data was moved from (it has no workspace left)"
                                                   : ": the Data was made for another model than '" + m.name() +
                                                         "' (make one with Data(model) for each model)"));
}

/// Every entry finite: x·0 is 0 for a finite entry and NaN for inf or NaN, so the sum is finite
/// exactly when every entry is. One vectorised reduction instead of Eigen's element-wise
/// allFinite (a third of the instructions on an 18-vector; these run on every call).
inline bool allFinite(const VecRef& x) { return std::isfinite((x.array() * 0.0).sum()); }

inline void checkVector(const VecRef& x, Eigen::Index expected, const char* what, const char* algorithm) {
  if (x.size() != expected)
    throw InputError(std::string(algorithm) + ": " + what + " has " + std::to_string(x.size()) +
                     " entries, expected " + std::to_string(expected));
  if (!allFinite(x)) {
    Eigen::Index i = 0;
    while (i < x.size() && std::isfinite(x[i])) ++i;
    throw InputError(std::string(algorithm) + ": " + what + "[" + std::to_string(i) + "] is not finite");
  }
}

inline void checkConfiguration(const Model& m, const VecRef& q, const char* algorithm) {
  checkVector(q, m.nq(), "q", algorithm);
  for (const auto& b : m.bodies())
    if (b.joint.hasQuaternion() && q.segment<4>(b.qIndex + b.joint.quaternionOffset()).squaredNorm() < 1e-12)
      throw InputError(std::string(algorithm) + ": quaternion of joint '" + b.jointName + "' is zero");
}

inline void checkExternalForces(const Model& m, const ExternalForces* fext, const char* algorithm) {
  if (!fext || fext->empty()) return;
  if (static_cast<int>(fext->size()) != m.numBodies())
    throw InputError(std::string(algorithm) + ": external forces given for " + std::to_string(fext->size()) +
                     " bodies, the model has " + std::to_string(m.numBodies()));
  for (size_t i = 0; i < fext->size(); ++i)
    if (!(*fext)[i].allFinite())
      throw InputError(std::string(algorithm) + ": external force on body '" + m.body(static_cast<int>(i)).name +
                       "' is not finite");
}

/// A centre of mass needs a positive total mass (bodies welded to the world do not count).
inline void checkTotalMass(const Model& m, double mass, const char* algorithm) {
  if (!(mass > 0.0))
    throw NumericalError(std::string(algorithm) + ": model '" + m.name() + "' has no mass (total mass " +
                         std::to_string(mass) + "), its centre of mass is undefined");
}

/// Every entry of a result must be finite; otherwise the state was singular for this model.
inline void checkResult(const VecRef& x, const char* what, const char* algorithm) {
  if (!allFinite(x))
    throw NumericalError(std::string(algorithm) + ": " + what + " is not finite (singular configuration or inertia)");
}

}  // namespace grbda::detail
