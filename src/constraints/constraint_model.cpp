// Constraints as they are added: each kind's class (kinds/) validates its constraint against the
// model (every error names the constraint and the value) and gives its number of rows.
#include "grbda/constraints/constraint_model.hpp"

#include <cmath>
#include <string>

#include "grbda/constraints/constraint_type.hpp"
#include "grbda/errors.hpp"
#include "kinds/kinds.hpp"

namespace grbda {

namespace {

/// A constraint as the user states it (its type validates it and derives the rest).
Constraint stated(const std::string& link, const Vec3& point, const std::string& name,
                  const std::string& link2 = {}, const Vec3& point2 = Vec3::Zero()) {
  Constraint c;
  c.name = name;
  c.link = link;
  c.point = point;
  c.link2 = link2;
  c.point2 = point2;
  return c;
}

}  // namespace

const char* constraintKindName(ConstraintKind kind) {
  switch (kind) {
    case ConstraintKind::PointContact: return "contact";
    case ConstraintKind::Weld: return "weld";
    case ConstraintKind::RelativePoint: return "relative";
    case ConstraintKind::RelativeWeld: return "relative-weld";
    case ConstraintKind::Custom: return "custom";
    case ConstraintKind::Loop: return "loop";
    case ConstraintKind::Other: return "other";
  }
  return "?";
}

const char* Constraint::kindName() const { return type ? type->name() : constraintKindName(kind); }

ConstraintModel::ConstraintModel(const Model& model)
    : model_(std::make_shared<const Model>(model)), modelId_(model.id()) {
  for (size_t l = 0; l < model.keptLoopGroups().size(); ++l) {
    Constraint c;
    c.loop = static_cast<int>(l);
    add(detail::keptLoopType(), std::move(c));
  }
  numLoops_ = size();
}

void ConstraintModel::append(Constraint c) {
  c.row = numRows_;
  numRows_ += c.numRows;
  VecX compliance = VecX::Zero(numRows_);
  compliance.head(compliance_.size()) = compliance_;
  compliance_ = compliance;
  constraints_.push_back(std::move(c));
  ++version_;
}

int ConstraintModel::add(std::shared_ptr<const ConstraintType> type, Constraint c) {
  if (!type) throw InputError("ConstraintModel::add: no constraint type given for constraint '" + c.name + "'");
  c.kind = type->kind();
  c.type = std::move(type);
  if (c.name.empty()) c.name = c.link2.empty() ? c.link : c.link + "-" + c.link2;
  const int rows = c.type->resolve(*model_, c);  // validates; InputError names the constraint
  if (rows < 1) throw InputError(describeConstraint(c) + ": its type gives " + std::to_string(rows) + " rows");
  c.numRows = rows;
  append(std::move(c));
  return size() - 1;
}

int ConstraintModel::addPointContact(const std::string& link, const Vec3& point, const std::string& name) {
  return add(detail::pointContactType(), stated(link, point, name));
}

int ConstraintModel::addWeld(const std::string& link, const Vec3& point, const std::string& name) {
  return add(detail::weldType(), stated(link, point, name));
}

int ConstraintModel::addRelativePoint(const std::string& linkA, const Vec3& pointA, const std::string& linkB,
                                      const Vec3& pointB, const std::string& name) {
  return add(detail::relativePointType(), stated(linkA, pointA, name, linkB, pointB));
}

int ConstraintModel::addRelativeWeld(const std::string& linkA, const Vec3& pointA, const std::string& linkB,
                                     const Vec3& pointB, const std::string& name) {
  return add(detail::relativeWeldType(), stated(linkA, pointA, name, linkB, pointB));
}

int ConstraintModel::addCustomRows(const std::string& link, const MatX& K, const VecRef& k, const std::string& name) {
  Constraint c = stated(link, Vec3::Zero(), name);
  c.K = K;
  c.k = k;
  return add(detail::customRowsType(), std::move(c));
}

void ConstraintModel::setCompliance(double R) {
  if (!(R > 0.0) || !std::isfinite(R))
    throw InputError("ConstraintModel::setCompliance: the compliance must be positive and finite, got " +
                     std::to_string(R));
  bool patternChanges = false;  // a constraint whose rows had different compliances
  for (const Constraint& c : constraints_) patternChanges = patternChanges || !uniformCompliance(c);
  compliance_.setConstant(R);
  if (patternChanges) ++version_;
}

void ConstraintModel::setRowCompliance(int row, double R) {
  if (row < 0 || row >= numRows_)
    throw InputError("ConstraintModel::setRowCompliance: row " + std::to_string(row) + " is out of range [0, " +
                     std::to_string(numRows_) + ")");
  if (!(R > 0.0) || !std::isfinite(R))
    throw InputError("ConstraintModel::setRowCompliance: the compliance of row " + std::to_string(row) +
                     " must be positive and finite, got " + std::to_string(R));
  const Constraint* owner = nullptr;
  for (const Constraint& c : constraints_)
    if (row >= c.row && row < c.row + c.numRows) owner = &c;
  const bool wasUniform = uniformCompliance(*owner);
  compliance_[row] = R;
  if (uniformCompliance(*owner) != wasUniform) ++version_;
}

void ConstraintModel::setBaumgarte(double timeConstant) {
  if (!(timeConstant >= 0.0) || !std::isfinite(timeConstant))
    throw InputError("ConstraintModel::setBaumgarte: the time constant must be >= 0 and finite, got " +
                     std::to_string(timeConstant));
  baumgarte_ = timeConstant;  // read at every solve: a ConstraintData stays valid
}

bool ConstraintModel::uniformCompliance(const Constraint& c) const {
  return (compliance_.segment(c.row, c.numRows).array() == compliance_[c.row]).all();
}

}  // namespace grbda
