// libFuzzer target: bytes -> the URDF+ loader (loadUrdfString), then one forward and inverse
// dynamics call at the model's neutral configuration. A typed grbda::Error is the expected
// answer to a bad input; anything else escaping (another exception type, a crash, a sanitizer
// report, a NaN result returned without an error) is a finding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "grbda/grbda.hpp"

namespace {
bool quiet() {
  grbda::setLogLevel(grbda::LogLevel::Off);
  return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  static const bool silenced = quiet();
  (void)silenced;
  if (size > 256 * 1024) return -1;  // not interesting: larger inputs only slow the search down
  const std::string xml(reinterpret_cast<const char*>(bytes), size);
  try {
    const grbda::Model model = grbda::loadUrdfString(xml, "fuzz.urdf");
    if (model.nv() > 64) return 0;  // keep each run fast
    grbda::Data data(model);
    const grbda::VecX q = model.neutralConfiguration();
    const grbda::VecX zero = grbda::VecX::Zero(model.nv());
    const grbda::VecX qdd = grbda::forwardDynamics(model, data, q, zero, zero);
    if (!qdd.allFinite()) std::abort();  // a NaN must be a NumericalError, never a result
    const grbda::VecX tau = grbda::inverseDynamics(model, data, q, zero, qdd);
    if (!tau.allFinite()) std::abort();
  } catch (const grbda::Error&) {
  }
  return 0;
}
