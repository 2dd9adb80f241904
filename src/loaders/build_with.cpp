#include "loaders/build_with.hpp"

namespace grbda::detail {

Model buildWith(ModelBuilder builder, const LoadOptions& options) {
  builder.setLoopTreatment(options.loops);
  if (options.floatingBase) builder.addFloatingBase();
  return builder.build();
}

}  // namespace grbda::detail
