#pragma once
// Internal: attaches a source to a freshly compiled Model (the builder and the URDF loaders).
#include <memory>
#include <utility>
#include <vector>

#include "grbda/model_source.hpp"

namespace grbda::detail {

struct ModelSourceAccess {
  static void set(Model& model, std::shared_ptr<const ModelSource> source) { model.source_ = std::move(source); }
};

/// A model loaded from URDF texts as loadUrdf would load those files (deserializeModel).
Model loadUrdfTexts(const std::vector<UrdfText>& texts, const LoadOptions& options);

}  // namespace grbda::detail
