#include "mjcf/geoms.hpp"

#include <cstring>

#include "log.hpp"
#include "mjcf/attributes.hpp"
#include "mjcf/geom_inertia.hpp"

namespace grbda::mjcf_detail {
namespace {

using tinyxml2::XMLElement;

GeomType geomType(const Attributes& a) {
  const std::string t = a.keyword("type", "sphere",
                                   {"plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh", "sdf"});
  if (t == "sphere") return GeomType::Sphere;
  if (t == "capsule") return GeomType::Capsule;
  if (t == "cylinder") return GeomType::Cylinder;
  if (t == "box") return GeomType::Box;
  if (t == "ellipsoid") return GeomType::Ellipsoid;
  if (t == "plane") return GeomType::Plane;
  if (t == "mesh") return GeomType::Mesh;
  return GeomType::Other;
}

// size: sphere r; capsule, cylinder r and half-length; box half-sizes; ellipsoid radii. With
// fromto, the half-length (or the z half-size) is half the segment's length.
size_t sizesNeeded(GeomType type, bool fromto) {
  switch (type) {
    case GeomType::Sphere: return 1;
    case GeomType::Capsule:
    case GeomType::Cylinder: return fromto ? 1 : 2;
    case GeomType::Box:
    case GeomType::Ellipsoid: return fromto ? 2 : 3;
    default: return 0;
  }
}

}  // namespace

Pose readPoseWithDefaults(const Attributes& a, const Compiler& c) {
  const XMLElement* orientation = nullptr;  // the element (own or default) giving the orientation
  for (const char* k : {"quat", "axisangle", "euler", "xyaxes", "zaxis"})
    if (a.e.Attribute(k)) orientation = &a.e;
  if (!orientation)
    for (const char* k : {"quat", "axisangle", "euler", "xyaxes", "zaxis"})
      if (const XMLElement* s = a.source(k)) orientation = s;
  return Pose{orientation ? readOrientation(a.at, *orientation, c) : Mat3::Identity(), a.vec3("pos", Vec3::Zero())};
}

namespace {

// Shape and pose (in the body frame) of a primitive geom.
void readShape(const Reader& r, const Attributes& a, GeomType type, GeomShape& shape, Pose& pose) {
  shape.type = type;
  const XMLElement* fromtoSource = a.source("fromto");
  const bool fromto = fromtoSource && type != GeomType::Sphere;
  const size_t n = sizesNeeded(type, fromto);
  const std::vector<double> size = a.numbers("size", 1, 3);
  const XMLElement& sizeSource = *a.source("size");
  if (size.size() < n)
    urdf_detail::fail(a.at, sizeSource, "a " + a.text("type", "sphere") + " geom needs " + std::to_string(n) +
                                            " size numbers, found " + std::to_string(size.size()));
  for (size_t k = 0; k < n; ++k)
    if (size[k] <= 0.0) urdf_detail::fail(a.at, sizeSource, "geom size " + std::to_string(size[k]) + " must be > 0");
  for (size_t k = 0; k < n; ++k) shape.size[static_cast<Eigen::Index>(k)] = size[k];
  if (type == GeomType::Sphere) shape.size = Vec3::Constant(size[0]);
  pose = readPoseWithDefaults(a, r.compiler);
  if (!fromto) return;
  const std::vector<double> ft = urdf_detail::numbersAttribute(a.at, *fromtoSource, "fromto", 6, 6);
  const Vec3 from(ft[0], ft[1], ft[2]), to(ft[3], ft[4], ft[5]);
  const double length = (to - from).norm();
  if (length < 1e-12) urdf_detail::fail(a.at, *fromtoSource, "geom fromto has zero length");
  pose = Pose{rotationFromZ((to - from) / length), 0.5 * (from + to)};
  shape.size[type == GeomType::Capsule || type == GeomType::Cylinder ? 1 : 2] = 0.5 * length;
}

CollisionShape collisionShape(const GeomShape& g) {
  switch (g.type) {
    case GeomType::Sphere: return CollisionShape::sphere(g.size[0]);
    case GeomType::Box: return CollisionShape::box(2.0 * g.size);
    case GeomType::Cylinder: return CollisionShape::cylinder(g.size[0], 2.0 * g.size[1]);
    default: return CollisionShape::capsule(g.size[0], 2.0 * g.size[1]);
  }
}

}  // namespace

void MassSum::add(double m, const Pose& pose, const Mat3& inertiaAboutCentre) {
  parts.push_back(Part{m, pose.p, pose.R * inertiaAboutCentre * pose.R.transpose()});
}

void MassSum::result(double& mass, Vec3& com, Mat3& inertia) const {
  mass = 0.0;
  Vec3 first = Vec3::Zero();
  for (const Part& p : parts) {
    mass += p.m;
    first += p.m * p.c;
  }
  com = mass > 0.0 ? Vec3(first / mass) : Vec3::Zero();
  inertia.setZero();
  for (const Part& p : parts) {  // parallel axis theorem to the common centre
    const Vec3 d = p.c - com;
    inertia += p.I + p.m * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
}

void readGeom(Reader& r, const XMLElement& e, const Defaults::Class* cls, const std::string& link,
              const Pose& bodyInLink, MassSum* mass) {
  const std::string name = e.Attribute("name") ? e.Attribute("name") : "";
  const auto at = r.at("geom" + (name.empty() ? std::string() : " '" + name + "'") + " of " + link);
  const Attributes a{at, e, r.defaults.classOf(at, e, cls)};
  const GeomType type = geomType(a);
  if (type == GeomType::Plane) {
    if (link != "world")
      detail::log().warn("{}:{}: {}: a plane geom on a moving body is skipped", r.file, e.GetLineNum(), at.element);
    return;  // a ground plane: the simulator's World has its own ground
  }
  if (!hasVolume(type)) {
    r.skip(a.text("type", "sphere") + " geoms (grbda reads primitive shapes; their mass is not counted)", e.GetLineNum());
    return;
  }
  GeomShape shape;
  Pose pose;
  readShape(r, a, type, shape, pose);
  const Pose inLink = bodyInLink * pose;

  const bool collides = a.number("contype", 1.0) != 0.0 || a.number("conaffinity", 1.0) != 0.0;
  if (collides && type == GeomType::Ellipsoid)
    detail::log().warn("{}:{}: {}: an ellipsoid is not a collision shape of grbda's simulator; skipped for collisions",
                       r.file, e.GetLineNum(), at.element);
  else if (collides) {
    CollisionSpec c;
    c.link = link;
    c.shape = collisionShape(shape);
    c.origin = inLink.toTransform();
    c.sourceFile = r.file;
    c.sourceLine = e.GetLineNum();
    r.collisions.push_back(c);
  }

  const double group = a.number("group", 0.0);
  if (!mass || group < r.compiler.inertiaGroupLow || group > r.compiler.inertiaGroupHigh) return;
  double m = 0.0;
  if (const XMLElement* s = a.source("mass")) {
    m = urdf_detail::numberAttribute(at, *s, "mass");
    if (m < 0.0) urdf_detail::fail(at, *s, "geom mass must be >= 0");
  } else {
    const double density = a.number("density", 1000.0);
    if (density < 0.0) urdf_detail::fail(at, *a.source("density"), "geom density must be >= 0");
    m = density * geomVolume(shape);
  }
  mass->add(m, inLink, m * Mat3(geomInertiaPerMass(shape).asDiagonal()));
}

}  // namespace grbda::mjcf_detail
