#pragma once
// Test support: numbers written with every digit (17 significant), so that a file or command
// line built in a test reads back the exact double the test computed.
#include <sstream>
#include <string>

#include "grbda/spatial/types.hpp"

namespace grbda::testsupport {

inline std::string exactNumber(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

/// "x y z" as URDF and MJCF attributes take a vector.
inline std::string exactVec3(const Vec3& v) {
  return exactNumber(v.x()) + " " + exactNumber(v.y()) + " " + exactNumber(v.z());
}

/// "x0,x1,…" as the command line's vector options take it.
inline std::string exactList(const VecX& x) {
  std::string s;
  for (Eigen::Index i = 0; i < x.size(); ++i) s += (i ? "," : "") + exactNumber(x[i]);
  return s;
}

}  // namespace grbda::testsupport
