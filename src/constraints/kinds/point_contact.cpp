// Point contact (3 rows): the classical (world) acceleration of a point fixed in a link is zero, p̈ = 0, rows x, y, z in world axes (point_rows.cpp).
#include "kinds.hpp"
#include "point_rows.hpp"

namespace grbda::detail {

namespace {

class PointContact final : public PointRowsType {
 public:
  PointContact() : PointRowsType(false, false) {}
  const char* name() const override { return "contact"; }
  ConstraintKind kind() const override { return ConstraintKind::PointContact; }
};

}  // namespace

std::shared_ptr<const ConstraintType> pointContactType() {
  static const auto type = std::make_shared<const PointContact>();
  return type;
}

}  // namespace grbda::detail
