// The defaults of ConstraintType and the helpers a kind's resolve uses.
#include "grbda/constraints/constraint_type.hpp"

#include <string>

#include "grbda/errors.hpp"

namespace grbda {

namespace {

/// The frame of link `link` (any URDF link, fixed ones included) with its point in body coordinates.
void resolveFrame(const Model& model, const Constraint& c, const std::string& link, const Vec3& point, int& frame,
                  int& body, Vec3& bodyPoint) {
  if (!point.allFinite())
    throw InputError(describeConstraint(c) + ": the point on link '" + link + "' is not finite");
  frame = -1;
  for (size_t i = 0; i < model.frames().size(); ++i)
    if (model.frames()[i].name == link) frame = static_cast<int>(i);
  if (frame < 0)
    throw InputError(describeConstraint(c) + ": unknown link '" + link + "' in model '" + model.name() + "'");
  const Frame& f = model.frame(frame);
  body = f.body;
  bodyPoint = f.placement.inverseTransformPoint(point);
}

[[noreturn]] void noDerivatives(const Constraint& c) {
  throw InputError(describeConstraint(c) + ": the derivatives of this kind's rows are not implemented");
}

}  // namespace

std::string describeConstraint(const Constraint& c) { return std::string(c.kindName()) + " constraint '" + c.name + "'"; }

void resolveConstraintLink(const Model& model, Constraint& c, bool worldAllowed) {
  resolveFrame(model, c, c.link, c.point, c.frame, c.body, c.bodyPoint);
  if (!worldAllowed && c.body < 0)
    throw InputError(describeConstraint(c) + ": link '" + c.link +
                     "' is fixed to the world; the constraint would do nothing");
}

void resolveConstraintLink2(const Model& model, Constraint& c) {
  resolveFrame(model, c, c.link2, c.point2, c.frame2, c.body2, c.bodyPoint2);
}

void ConstraintType::rowBodies(const Model&, const Constraint& c, int, std::vector<int>& bodies) const {
  bodies.push_back(c.body);
}

std::unique_ptr<ConstraintTypeData> ConstraintType::createData(const Model&, const Constraint&) const { return nullptr; }

void ConstraintType::setReference(const Model&, const Data&, const Constraint&, ConstraintTypeData*) const {}

bool ConstraintType::softPointMass(const Constraint&, Vec3&, bool&) const { return false; }

void ConstraintType::addForcesAsExternal(const Model&, const Data&, const Constraint& c, const ConstraintTypeData*,
                                         const ConstraintData&, ConstraintDerivativesData&) const {
  noDerivatives(c);
}

void ConstraintType::addAccelerationDerivatives(const Model&, const Data&, const Constraint& c,
                                                const ConstraintTypeData*, const ConstraintData&, double,
                                                ConstraintDerivativesData&) const {
  noDerivatives(c);
}

}  // namespace grbda
