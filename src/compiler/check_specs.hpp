#pragma once
// Internal: the checks the spec passes share (check_specs.cpp).
#include <string>

#include "grbda/builder.hpp"

namespace grbda::detail {

inline std::string linkElement(const std::string& name) { return "link '" + name + "'"; }
inline std::string jointElement(const std::string& name) { return "joint '" + name + "'"; }
/// "file:line" (or "line n", or the file alone) for messages that cite a second place.
std::string where(const SourceLocation& at);
/// Empty when the rotational inertia is positive semi-definite (to rounding), else the complaint.
/// Judged once the tree is known: a link welded to the fixed world never enters the dynamics.
std::string indefiniteInertia(const LinkSpec& l);
/// A joint or loop origin must be a proper rotation (orthonormal, determinant +1): anything else
/// shears or mirrors the child frame and every transform built from it is wrong.
void requireRotation(const Mat3& E, const SourceLocation& at, const std::string& element, const char* what);

}  // namespace grbda::detail
