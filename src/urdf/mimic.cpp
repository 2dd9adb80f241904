#include "urdf/mimic.hpp"

#include <cmath>
#include <sstream>

#include <memory>

namespace grbda::urdf_detail {
namespace {

/// φ = q_follower − m q_leader − offset over (q_leader, q_follower): constant K, zero bias.
class MimicConstraint final : public ImplicitConstraint {
 public:
  MimicConstraint(double multiplier, double offset) : multiplier_(multiplier), offset_(offset) {}
  int numRows() const override { return 1; }
  int numCoordinates() const override { return 2; }
  void residual(const Eigen::Ref<const VecX>& q, Eigen::Ref<VecX> phi) const override {
    phi[0] = q[1] - multiplier_ * q[0] - offset_;
  }
  void jacobian(const Eigen::Ref<const VecX>&, Eigen::Ref<MatX> K) const override {
    K(0, 0) = -multiplier_;
    K(0, 1) = 1.0;
  }
  void bias(const Eigen::Ref<const VecX>&, const Eigen::Ref<const VecX>&, Eigen::Ref<VecX> k) const override {
    k[0] = 0.0;
  }

 private:
  double multiplier_, offset_;
};

}  // namespace

std::shared_ptr<const ImplicitConstraint> linearJointConstraint(double multiplier, double offset) {
  return std::make_shared<MimicConstraint>(multiplier, offset);
}

ConstraintSpec readMimic(const ElementContext& at, const tinyxml2::XMLElement& mimic, const std::string& follower) {
  ConstraintSpec c;
  const std::string leader = requiredAttribute(at, mimic, "joint");
  if (leader == follower) fail(at, mimic, "<mimic> names the joint itself");
  const double multiplier = numberAttribute(at, mimic, "multiplier", 1.0);
  const double offset = numberAttribute(at, mimic, "offset", 0.0);
  c.name = "mimic:" + follower;
  c.joints = {leader, follower};
  c.constraint = linearJointConstraint(multiplier, offset);
  c.where = SourceLocation{at.file, mimic.GetLineNum()};
  c.typeHint = "Mimic";
  std::ostringstream d;
  d.precision(12);
  d << "mimic " << follower << " = " << multiplier << " * " << leader;
  if (offset != 0.0) d << (offset < 0.0 ? " - " : " + ") << std::abs(offset);
  c.description = d.str();
  return c;
}

}  // namespace grbda::urdf_detail
