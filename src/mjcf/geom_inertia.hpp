#pragma once
// Internal: mass properties of MJCF's primitive geoms as solids of uniform density (MuJoCo's
// inertiafromgeom), in the geom's own frame, about its centre.
#include "grbda/spatial/types.hpp"

namespace grbda::mjcf_detail {

enum class GeomType { Sphere, Capsule, Cylinder, Box, Ellipsoid, Plane, Mesh, Other };

/// A primitive with MuJoCo's size meaning: sphere (r), capsule and cylinder (r, half-length of the
/// cylinder part along z), box (half-sizes), ellipsoid (radii).
struct GeomShape {
  GeomType type = GeomType::Sphere;
  Vec3 size = Vec3::Zero();
};

/// True for the shapes with a volume (sphere, capsule, cylinder, box, ellipsoid).
bool hasVolume(GeomType type);
/// Volume of the solid (m³).
double geomVolume(const GeomShape& g);
/// Rotational inertia about the centre divided by the mass (diagonal in the geom frame).
Vec3 geomInertiaPerMass(const GeomShape& g);

}  // namespace grbda::mjcf_detail
