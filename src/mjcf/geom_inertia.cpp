#include "mjcf/geom_inertia.hpp"

#include <cmath>

#include "math_constants.hpp"

namespace grbda::mjcf_detail {
using detail::kPi;

bool hasVolume(GeomType type) {
  return type == GeomType::Sphere || type == GeomType::Capsule || type == GeomType::Cylinder ||
         type == GeomType::Box || type == GeomType::Ellipsoid;
}

double geomVolume(const GeomShape& g) {
  const Vec3& s = g.size;
  switch (g.type) {
    case GeomType::Sphere: return 4.0 / 3.0 * kPi * s[0] * s[0] * s[0];
    case GeomType::Capsule: return kPi * s[0] * s[0] * (2.0 * s[1]) + 4.0 / 3.0 * kPi * s[0] * s[0] * s[0];
    case GeomType::Cylinder: return kPi * s[0] * s[0] * (2.0 * s[1]);
    case GeomType::Box: return 8.0 * s[0] * s[1] * s[2];
    case GeomType::Ellipsoid: return 4.0 / 3.0 * kPi * s[0] * s[1] * s[2];
    default: return 0.0;
  }
}

Vec3 geomInertiaPerMass(const GeomShape& g) {
  const Vec3& s = g.size;
  switch (g.type) {
    case GeomType::Sphere: return Vec3::Constant(0.4 * s[0] * s[0]);
    case GeomType::Capsule: {
      // cylinder of length h plus a sphere split into two caps, each cap's centre of mass 3r/8
      // beyond the end of the cylinder: parallel-axis terms h²/4 and 3hr/8 for the caps.
      const double r = s[0], h = 2.0 * s[1];
      const double vc = kPi * r * r * h, vs = 4.0 / 3.0 * kPi * r * r * r, v = vc + vs;
      const double axial = (vc * r * r / 2.0 + vs * 0.4 * r * r) / v;
      const double transverse = (vc * (3.0 * r * r + h * h) / 12.0 + vs * (0.4 * r * r + h * h / 4.0 + 3.0 * h * r / 8.0)) / v;
      return Vec3(transverse, transverse, axial);
    }
    case GeomType::Cylinder: {
      const double r = s[0], h = 2.0 * s[1];
      const double transverse = (3.0 * r * r + h * h) / 12.0;
      return Vec3(transverse, transverse, r * r / 2.0);
    }
    case GeomType::Box: {
      const Vec3 q = s.cwiseProduct(s);  // (2a)² / 12 = a² / 3
      return Vec3(q[1] + q[2], q[0] + q[2], q[0] + q[1]) / 3.0;
    }
    case GeomType::Ellipsoid: {
      const Vec3 q = s.cwiseProduct(s);
      return Vec3(q[1] + q[2], q[0] + q[2], q[0] + q[1]) / 5.0;
    }
    default: return Vec3::Zero();
  }
}

}  // namespace grbda::mjcf_detail
