// Validation of constraints as they are added: every error names the constraint and the value.
#include "grbda/constraints/constraint_model.hpp"

#include <cmath>
#include <string>

#include "grbda/errors.hpp"

namespace grbda {

namespace {

std::string describe(const Constraint& c) {
  return std::string(constraintKindName(c.kind)) + " constraint '" + c.name + "'";
}

/// The frame of link `link` (any URDF link, fixed ones included) with its point in body coordinates.
void resolveFrame(const Model& model, const Constraint& c, const std::string& link, const Vec3& point, int& frame,
                  int& body, Vec3& bodyPoint) {
  if (!point.allFinite())
    throw InputError(describe(c) + ": the point on link '" + link + "' is not finite");
  frame = -1;
  for (size_t i = 0; i < model.frames().size(); ++i)
    if (model.frames()[i].name == link) frame = static_cast<int>(i);
  if (frame < 0) throw InputError(describe(c) + ": unknown link '" + link + "' in model '" + model.name() + "'");
  const Frame& f = model.frame(frame);
  body = f.body;
  bodyPoint = f.placement.inverseTransformPoint(point);
}

/// A constraint as the user states it (validation derives the rest).
Constraint stated(ConstraintKind kind, const std::string& link, const Vec3& point, const std::string& name,
                  const std::string& link2 = {}, const Vec3& point2 = Vec3::Zero()) {
  Constraint c;
  c.kind = kind;
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
  }
  return "?";
}

ConstraintModel::ConstraintModel(const Model& model) : model_(&model), modelId_(model.id()) {
  const auto& loops = model.loopConstraints();
  for (size_t l = 0; l < loops.size(); ++l) {
    Constraint c;
    c.kind = ConstraintKind::Loop;
    c.name = loops[l].name;
    c.loop = static_cast<int>(l);
    c.body = loops[l].firstBody;
    c.link = model.body(c.body).name;
    c.numRows = loops[l].numRows;
    append(std::move(c));
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

int ConstraintModel::add(Constraint c, const Model& model) {
  if (c.name.empty()) c.name = c.isRelative() ? c.link + "-" + c.link2 : c.link;
  resolveFrame(model, c, c.link, c.point, c.frame, c.body, c.bodyPoint);
  if (c.isRelative()) {
    resolveFrame(model, c, c.link2, c.point2, c.frame2, c.body2, c.bodyPoint2);
    if (c.body == c.body2)
      throw InputError(describe(c) + ": links '" + c.link + "' and '" + c.link2 +
                       "' are parts of one rigid body; the constraint would do nothing");
    if (c.body < 0) {  // keep the moving link first: the force is reported on it
      throw InputError(describe(c) + ": link '" + c.link +
                       "' is fixed to the world; give the moving link first (or use a contact or weld)");
    }
  } else if (c.body < 0) {
    throw InputError(describe(c) + ": link '" + c.link + "' is fixed to the world; the constraint would do nothing");
  }
  switch (c.kind) {
    case ConstraintKind::PointContact:
    case ConstraintKind::RelativePoint: c.numRows = 3; break;
    case ConstraintKind::Weld:
    case ConstraintKind::RelativeWeld: c.numRows = 6; break;
    case ConstraintKind::Custom: {
      if (c.K.cols() != 6 || c.K.rows() < 1)
        throw InputError(describe(c) + ": K must be m x 6 with m >= 1, got " + std::to_string(c.K.rows()) + " x " +
                         std::to_string(c.K.cols()));
      if (c.k.size() != c.K.rows())
        throw InputError(describe(c) + ": k has " + std::to_string(c.k.size()) + " entries, K has " +
                         std::to_string(c.K.rows()) + " rows");
      if (!c.K.allFinite() || !c.k.allFinite()) throw InputError(describe(c) + ": K or k is not finite");
      for (Eigen::Index r = 0; r < c.K.rows(); ++r)
        if (c.K.row(r).norm() == 0.0) throw InputError(describe(c) + ": row " + std::to_string(r) + " of K is zero");
      c.numRows = static_cast<int>(c.K.rows());
      break;
    }
    case ConstraintKind::Loop: break;  // made by the constructor only
  }
  append(std::move(c));
  return size() - 1;
}

int ConstraintModel::addPointContact(const std::string& link, const Vec3& point, const std::string& name) {
  return add(stated(ConstraintKind::PointContact, link, point, name), *model_);
}

int ConstraintModel::addWeld(const std::string& link, const Vec3& point, const std::string& name) {
  return add(stated(ConstraintKind::Weld, link, point, name), *model_);
}

int ConstraintModel::addRelativePoint(const std::string& linkA, const Vec3& pointA, const std::string& linkB,
                                      const Vec3& pointB, const std::string& name) {
  return add(stated(ConstraintKind::RelativePoint, linkA, pointA, name, linkB, pointB), *model_);
}

int ConstraintModel::addRelativeWeld(const std::string& linkA, const Vec3& pointA, const std::string& linkB,
                                     const Vec3& pointB, const std::string& name) {
  return add(stated(ConstraintKind::RelativeWeld, linkA, pointA, name, linkB, pointB), *model_);
}

int ConstraintModel::addCustomRows(const std::string& link, const MatX& K, const VecX& k, const std::string& name) {
  Constraint c = stated(ConstraintKind::Custom, link, Vec3::Zero(), name);
  c.K = K;
  c.k = k;
  return add(std::move(c), *model_);
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
