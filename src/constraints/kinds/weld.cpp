// Weld (6 rows): ω̇ = 0 (world axes, first) and p̈ = 0 at a point of a link (point_rows.cpp).
#include "kinds.hpp"
#include "point_rows.hpp"

namespace grbda::detail {

namespace {

class Weld final : public PointRowsType {
 public:
  Weld() : PointRowsType(false, true) {}
  const char* name() const override { return "weld"; }
  ConstraintKind kind() const override { return ConstraintKind::Weld; }
};

}  // namespace

std::shared_ptr<const ConstraintType> weldType() {
  static const auto type = std::make_shared<const Weld>();
  return type;
}

}  // namespace grbda::detail
