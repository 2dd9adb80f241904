// Relative point (3 rows): p̈_A − p̈_B = 0, a ball joint closing a non-local loop; λ is the force on link A (point_rows.cpp).
#include "kinds.hpp"
#include "point_rows.hpp"

namespace grbda::detail {

namespace {

class RelativePoint final : public PointRowsType {
 public:
  RelativePoint() : PointRowsType(true, false) {}
  const char* name() const override { return "relative"; }
  ConstraintKind kind() const override { return ConstraintKind::RelativePoint; }
};

}  // namespace

std::shared_ptr<const ConstraintType> relativePointType() {
  static const auto type = std::make_shared<const RelativePoint>();
  return type;
}

}  // namespace grbda::detail
