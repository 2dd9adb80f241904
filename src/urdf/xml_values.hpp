#pragma once
// Internal: reading typed values from tinyxml2 elements, with errors that name the file, the
// line of the offending XML element and the URDF element (link or joint) it belongs to.
#include <tinyxml2.h>

#include <string>
#include <vector>

#include "grbda/spatial/transform.hpp"

namespace grbda::urdf_detail {

/// The URDF element being read, e.g. file "arm.urdf", element "joint 'elbow'".
struct ElementContext {
  std::string file;
  std::string element;
};

[[noreturn]] void fail(const ElementContext& at, const tinyxml2::XMLElement& where, const std::string& message);

/// A non-empty attribute; ModelError if absent or empty.
std::string requiredAttribute(const ElementContext& at, const tinyxml2::XMLElement& e, const char* name);

/// A finite number. Parsed in the "C" locale whatever the process locale is, as URDF requires.
double numberAttribute(const ElementContext& at, const tinyxml2::XMLElement& e, const char* name);
double numberAttribute(const ElementContext& at, const tinyxml2::XMLElement& e, const char* name,
                       double fallback);

/// Any count of finite numbers separated by whitespace (MJCF's `size`, `quat`, `polycoef`, ...);
/// ModelError naming the attribute when the count is outside [minCount, maxCount] or a component
/// is not a finite number.
std::vector<double> numbersAttribute(const ElementContext& at, const tinyxml2::XMLElement& e, const char* name,
                                     size_t minCount, size_t maxCount);

/// The element's text as one finite number (`<mechanicalReduction>50</mechanicalReduction>`).
double numberText(const ElementContext& at, const tinyxml2::XMLElement& e);

/// Three finite numbers separated by whitespace; `fallback` when the attribute is absent.
Vec3 vectorAttribute(const ElementContext& at, const tinyxml2::XMLElement& e, const char* name,
                     const Vec3& fallback);

/// An <origin xyz rpy> element (null = identity): the position of the child frame in the
/// parent frame, and its fixed-axis roll-pitch-yaw.
struct Origin {
  Vec3 xyz = Vec3::Zero();
  Vec3 rpy = Vec3::Zero();
  /// Active rotation R = Rz(yaw) Ry(pitch) Rx(roll): child axes in parent coordinates.
  Mat3 rotation() const { return rpyToRotation(rpy); }
};
Origin readOrigin(const ElementContext& at, const tinyxml2::XMLElement* origin);

/// An optional child element that must appear at most once (a repeated <origin> or <mass> is almost
/// certainly a mistake, and urdfdom would silently use the first).
const tinyxml2::XMLElement* uniqueChild(const ElementContext& at, const tinyxml2::XMLElement& parent,
                                        const char* name);
/// Like uniqueChild, but ModelError when absent.
const tinyxml2::XMLElement& requiredChild(const ElementContext& at, const tinyxml2::XMLElement& parent,
                                          const char* name);

}  // namespace grbda::urdf_detail
