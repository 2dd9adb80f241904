#pragma once
// Internal: the library's constraint kinds, one class per file in this folder. Each factory
// returns one shared, stateless instance (the kinds' parameters live in their Constraint).
#include <memory>

#include "grbda/constraints/constraint_type.hpp"

namespace grbda::detail {

std::shared_ptr<const ConstraintType> pointContactType();   ///< point_contact.cpp
std::shared_ptr<const ConstraintType> weldType();           ///< weld.cpp
std::shared_ptr<const ConstraintType> relativePointType();  ///< relative_point.cpp
std::shared_ptr<const ConstraintType> relativeWeldType();   ///< relative_weld.cpp
std::shared_ptr<const ConstraintType> customRowsType();     ///< custom_rows.cpp
std::shared_ptr<const ConstraintType> keptLoopType();       ///< kept_loop.cpp

}  // namespace grbda::detail
