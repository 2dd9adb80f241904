#pragma once
#include "grbda/builder.hpp"
#include "grbda/urdf/urdf.hpp"

namespace grbda::detail {

/// The step every reader's builder ends with: the options' loop treatment and floating base, then build().
Model buildWith(ModelBuilder builder, const LoadOptions& options);

}  // namespace grbda::detail
