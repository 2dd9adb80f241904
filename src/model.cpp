#include "grbda/model.hpp"

#include <atomic>

#include "grbda/errors.hpp"

namespace grbda {

Model::Model() {
  static std::atomic<std::uint64_t> next{1};
  id_ = next.fetch_add(1, std::memory_order_relaxed);
}

int Model::bodyIndex(const std::string& linkName) const {
  for (int i = 0; i < numBodies(); ++i)
    if (bodies_[static_cast<size_t>(i)].name == linkName) return i;
  throw InputError("unknown body '" + linkName + "' in model '" + name_ + "'");
}

int Model::frameIndex(const std::string& name) const {
  for (size_t i = 0; i < frames_.size(); ++i)
    if (frames_[i].name == name) return static_cast<int>(i);
  throw InputError("unknown frame (link) '" + name + "' in model '" + name_ + "'");
}

VecX Model::neutralConfiguration() const {
  if (neutral_.size() == nq_) return neutral_;
  VecX q = VecX::Zero(nq_);
  for (const auto& b : bodies_)
    if (b.joint.hasQuaternion()) q[b.qIndex + b.joint.quaternionOffset()] = 1.0;
  return q;
}

}  // namespace grbda

namespace grbda {
VecX Model::neutralSpanningConfiguration() const {
  VecX q = VecX::Zero(nqSpan_);
  for (const auto& b : bodies_)
    if (b.joint.hasQuaternion()) q[b.qIndex + b.joint.quaternionOffset()] = 1.0;
  return q;
}
}  // namespace grbda
