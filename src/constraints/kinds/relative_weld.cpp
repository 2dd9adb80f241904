// Relative weld (6 rows): ω̇_A − ω̇_B = 0 and p̈_A − p̈_B = 0, a rigid connection closing a loop (point_rows.cpp).
#include "kinds.hpp"
#include "point_rows.hpp"

namespace grbda::detail {

namespace {

class RelativeWeld final : public PointRowsType {
 public:
  RelativeWeld() : PointRowsType(true, true) {}
  const char* name() const override { return "relative-weld"; }
  ConstraintKind kind() const override { return ConstraintKind::RelativeWeld; }
};

}  // namespace

std::shared_ptr<const ConstraintType> relativeWeldType() {
  static const auto type = std::make_shared<const RelativeWeld>();
  return type;
}

}  // namespace grbda::detail
