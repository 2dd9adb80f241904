#include "urdf/urdf_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "grbda/collision/mesh.hpp"
#include "grbda/errors.hpp"
#include "log.hpp"
#include "urdf/compound_joints.hpp"
#include "urdf/xml_values.hpp"

namespace grbda::urdf_detail {
namespace {

using tinyxml2::XMLElement;

// Name attribute of a <link>/<joint>; the element is named by its tag until the name is known.
std::string elementName(const std::string& file, const XMLElement& e) {
  return requiredAttribute(ElementContext{file, e.Name()}, e, "name");
}

void checkUnique(std::map<std::string, int>& seen, const ElementContext& at, const XMLElement& e,
                 const std::string& name, const char* kind) {
  const auto [it, inserted] = seen.emplace(name, e.GetLineNum());
  if (!inserted)
    fail(at, e, std::string(kind) + " name defined twice in this file (first at " + at.file + ":" +
                    std::to_string(it->second) + ")");
}

// <inertial>: mass, COM and inertia. The inertia is given about the COM in the axes of the
// inertial <origin> frame (rotated by its rpy); the builder wants link axes: I_link = R I R^T.
void readInertial(const ElementContext& at, const XMLElement& inertial, LinkSpec& link) {
  const Origin origin = readOrigin(at, uniqueChild(at, inertial, "origin"));
  link.mass = numberAttribute(at, requiredChild(at, inertial, "mass"), "value");
  const XMLElement& inertia = requiredChild(at, inertial, "inertia");
  const double ixx = numberAttribute(at, inertia, "ixx"), ixy = numberAttribute(at, inertia, "ixy"),
               ixz = numberAttribute(at, inertia, "ixz"), iyy = numberAttribute(at, inertia, "iyy"),
               iyz = numberAttribute(at, inertia, "iyz"), izz = numberAttribute(at, inertia, "izz");
  Mat3 I;  // URDF gives the tensor entries (ixy = -∫xy dm), not the products of inertia
  I << ixx, ixy, ixz,  //
      ixy, iyy, iyz,   //
      ixz, iyz, izz;
  link.com = origin.xyz;
  const Mat3 R = origin.rotation();
  link.inertia = R * I * R.transpose();
}

// Where a `<mesh filename>` is: package://PKG/REST as PKG/REST in the URDF's folder or any folder
// above it (or REST below a folder named PKG), file://PATH as PATH, anything else relative to the
// URDF's folder. Empty when no candidate is a file.
std::string findMesh(const std::string& filename, const std::string& urdfPath) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = fs::absolute(fs::path(urdfPath), ec).parent_path();
  std::vector<fs::path> candidates;
  const std::string package = "package://", fileUrl = "file://";
  if (filename.rfind(package, 0) == 0) {
    const fs::path rest(filename.substr(package.size()));
    const fs::path pkg = *rest.begin();
    for (fs::path up = dir;; up = up.parent_path()) {
      candidates.push_back(up / rest);
      if (up.filename() == pkg) candidates.push_back(up / rest.lexically_relative(pkg));
      if (up == up.parent_path()) break;
    }
  } else if (filename.rfind(fileUrl, 0) == 0) {
    candidates.emplace_back(filename.substr(fileUrl.size()));
  } else {
    candidates.push_back(dir / filename);
  }
  for (const fs::path& c : candidates)
    if (fs::is_regular_file(c, ec)) return c.string();
  return {};
}

// A `<mesh>` collision as the convex hull of its vertices (STL or OBJ), or nothing with one
// warning naming the link when the file is not found or cannot be read as a closed volume.
bool readMeshCollision(const ElementContext& at, const XMLElement& mesh, CollisionShape& shape) {
  const char* filename = mesh.Attribute("filename");
  if (!filename) fail(at, mesh, "<mesh> needs a filename");
  const Vec3 scale = vectorAttribute(at, mesh, "scale", Vec3::Ones());
  // A negative component mirrors the part (how URDFs make a right part from a left one); only a
  // zero, NaN or infinite one describes no solid.
  if (!(scale.allFinite() && (scale.array() != 0.0).all())) fail(at, mesh, "<mesh> scale must be finite and non-zero");
  const std::string path = findMesh(filename, at.file);
  try {
    if (path.empty()) throw InputError(std::string("file '") + filename + "' not found");
    shape = CollisionShape::mesh(loadMeshHull(path, scale));
    return true;
  } catch (const InputError& e) {
    detail::log().warn("{}:{}: {}: the <mesh> collision is skipped: {}", at.file, mesh.GetLineNum(), at.element, e.what());
    return false;
  }
}

// One <collision>: <origin> and a <geometry> primitive. URDF's box gives full sizes; cylinders
// and capsules (as ROS tools write them) lie along z. A <mesh> becomes its convex hull, or is
// skipped with a warning naming the link when its file is not found or not readable.
void readCollision(const ElementContext& at, const XMLElement& collision, UrdfLink& link) {
  const Origin origin = readOrigin(at, uniqueChild(at, collision, "origin"));
  const XMLElement& geometry = requiredChild(at, collision, "geometry");
  const XMLElement* shape = geometry.FirstChildElement();
  if (!shape) fail(at, geometry, "<geometry> has no shape (expected sphere, box, cylinder, capsule or mesh)");
  CollisionSpec c;
  c.link = link.spec.name;
  c.origin = urdfOriginToTransform(origin.xyz, origin.rpy);
  c.sourceFile = at.file;
  c.sourceLine = shape->GetLineNum();
  const std::string type = shape->Name();
  if (type == "sphere") c.shape = CollisionShape::sphere(numberAttribute(at, *shape, "radius"));
  else if (type == "box") c.shape = CollisionShape::box(vectorAttribute(at, *shape, "size", Vec3::Zero()));
  else if (type == "cylinder")
    c.shape = CollisionShape::cylinder(numberAttribute(at, *shape, "radius"), numberAttribute(at, *shape, "length"));
  else if (type == "capsule")
    c.shape = CollisionShape::capsule(numberAttribute(at, *shape, "radius"), numberAttribute(at, *shape, "length"));
  else if (type == "mesh") {
    if (!readMeshCollision(at, *shape, c.shape)) return;
  } else
    fail(at, *shape, "unknown collision shape <" + type + "> (expected sphere, box, cylinder, capsule or mesh)");
  link.collisions.push_back(c);
}

UrdfLink readLink(const std::string& file, const XMLElement& e) {
  UrdfLink out;
  out.element = &e;
  out.spec.name = elementName(file, e);
  out.spec.where = SourceLocation{file, e.GetLineNum()};
  const ElementContext at{file, "link '" + out.spec.name + "'"};
  if (const XMLElement* inertial = uniqueChild(at, e, "inertial")) {
    readInertial(at, *inertial, out.spec);
    out.hasInertial = true;
  }
  for (const XMLElement* c = e.FirstChildElement("collision"); c; c = c->NextSiblingElement("collision"))
    readCollision(at, *c, out);
  return out;
}

JointKind jointKind(const ElementContext& at, const XMLElement& e) {
  const std::string type = requiredAttribute(at, e, "type");
  if (type == "revolute") return JointKind::Revolute;
  if (type == "continuous") return JointKind::Continuous;
  if (type == "prismatic") return JointKind::Prismatic;
  if (type == "fixed") return JointKind::Fixed;
  if (type == "floating") return JointKind::Floating;
  if (type == "screw") return JointKind::Screw;
  if (type == "spherical") return JointKind::Spherical;
  if (type == "universal" || type == "planar") return JointKind::Continuous;  // expanded (compound_joints.hpp)
  fail(at, e, "unknown joint type '" + type +
                  "' (expected revolute, continuous, prismatic, screw, spherical, universal, planar, fixed or "
                  "floating)");
}

// A spherical joint (URDF+, docs/urdf-plus.md) has a quaternion, not one angle: a `<limit>` with
// lower/upper or a `<mimic>` (leader or follower) cannot apply to it, and is refused where it stands.
void checkSpherical(const ElementContext& at, const XMLElement& joint) {
  if (const XMLElement* limit = joint.FirstChildElement("limit"))
    if (limit->Attribute("lower") || limit->Attribute("upper"))
      fail(at, *limit, "a spherical joint has no single angle to bound: <limit lower/upper> is not supported on it "
                       "(effort and velocity alone are accepted and unused)");
  if (const XMLElement* mimic = joint.FirstChildElement("mimic"))
    fail(at, *mimic, "a spherical joint cannot follow another joint (<mimic> couples 1-DoF joints only)");
}

// A screw joint's pitch in SDFormat's spellings (docs/urdf-plus.md), as grbda's metres per radian,
// positive for a right-handed thread:
//   <screw_thread_pitch> (SDFormat 1.10): metres per revolution, positive right-handed: p = s / 2π;
//   <thread_pitch> (SDFormat before 1.10, Gazebo classic): radians per metre, positive
//   LEFT-handed: p = −1 / t. When both are given they must agree (SDFormat prefers the first).
constexpr double kTwoPi = 6.283185307179586476925286766559;

void readScrewPitch(const ElementContext& at, const XMLElement& joint, JointSpec& j) {
  const XMLElement* perRev = uniqueChild(at, joint, "screw_thread_pitch");
  const XMLElement* radPerM = uniqueChild(at, joint, "thread_pitch");
  if (!perRev && !radPerM)
    fail(at, joint, "a screw joint needs its pitch: <thread_pitch> (radians per metre, positive for a left-handed "
                    "thread, as SDFormat) or <screw_thread_pitch> (metres per revolution, positive right-handed)");
  double fromRadPerM = 0.0;
  if (radPerM) {
    const double t = numberText(at, *radPerM);  // finite, or a located error
    if (t == 0.0) fail(at, *radPerM, "thread_pitch 0 (radians per metre) is an infinite pitch; use a prismatic joint");
    fromRadPerM = -1.0 / t;
  }
  if (!perRev) {
    j.pitch = fromRadPerM;
    return;
  }
  j.pitch = numberText(at, *perRev) / kTwoPi;
  if (radPerM && std::abs(j.pitch - fromRadPerM) > 1e-9 * std::max(1.0, std::abs(j.pitch)))
    fail(at, *radPerM, "thread_pitch (" + std::to_string(-1.0 / fromRadPerM) + " rad/m, left-handed positive) and "
                       "screw_thread_pitch (" + std::to_string(j.pitch * kTwoPi) +
                       " m/rev, right-handed positive) disagree; give one of them");
}

// urdfdom insists on <limit effort velocity> for revolute and prismatic joints and parses it
// whenever it is present; checking it here gives the user a located message instead.
// The values are kept for the simulator: position bounds for revolute and prismatic joints that
// state lower or upper (URDF's default of 0 for a missing one, as urdfdom reads it), effort and
// velocity for every joint that has the element.
void readLimit(const ElementContext& at, const XMLElement& joint, JointSpec& j, bool universal) {
  const XMLElement* limit = uniqueChild(at, joint, "limit");
  if (!limit) {
    if (j.kind == JointKind::Revolute || j.kind == JointKind::Prismatic)
      fail(at, joint, std::string("a ") + joint.Attribute("type") +
                          " joint needs a <limit effort=\"...\" velocity=\"...\"/> element");
    return;
  }
  j.limits.effort = numberAttribute(at, *limit, "effort");
  j.limits.velocity = numberAttribute(at, *limit, "velocity");
  const double lower = numberAttribute(at, *limit, "lower", 0.0);
  const double upper = numberAttribute(at, *limit, "upper", 0.0);
  const bool stated = limit->Attribute("lower") || limit->Attribute("upper");
  const bool bounded = j.kind == JointKind::Revolute || j.kind == JointKind::Prismatic || j.kind == JointKind::Screw;
  if ((bounded || universal) && stated) {  // a universal joint's bounds apply to both of its angles
    if (lower > upper)
      fail(at, *limit, "limit lower (" + std::to_string(lower) + ") is greater than upper (" + std::to_string(upper) + ")");
    j.limits.hasPositionLimits = true;
    j.limits.lower = lower;
    j.limits.upper = upper;
  }
}

// <dynamics damping friction>: both default to 0; negative values are refused with the line.
void readDynamics(const ElementContext& at, const XMLElement& joint, JointSpec& j) {
  const XMLElement* dynamics = uniqueChild(at, joint, "dynamics");
  if (!dynamics) return;
  j.dynamics.damping = numberAttribute(at, *dynamics, "damping", 0.0);
  j.dynamics.friction = numberAttribute(at, *dynamics, "friction", 0.0);
  if (j.dynamics.damping < 0.0) fail(at, *dynamics, "damping must be >= 0");
  if (j.dynamics.friction < 0.0) fail(at, *dynamics, "friction must be >= 0");
}

// URDF+ `independent`: absent means independent. The usual boolean spellings are accepted
// (true/false, 1/0, yes/no, any case, surrounding blanks ignored: xacro writes Python's True);
// anything else is an error, because a typo such as "flase" used to mean "dependent" silently.
void readIndependent(const ElementContext& at, const XMLElement& e, JointSpec& j) {
  const char* raw = e.Attribute("independent");
  if (!raw) return;
  std::string value = raw;
  const size_t b = value.find_first_not_of(" \t\r\n");
  const size_t last = value.find_last_not_of(" \t\r\n");
  value = b == std::string::npos ? std::string() : value.substr(b, last - b + 1);
  for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (value == "true" || value == "1" || value == "yes") j.independent = true;
  else if (value == "false" || value == "0" || value == "no") j.independent = false;
  else
    fail(at, e, std::string("independent=\"") + raw +
                    "\" is not a boolean (expected true or false; 1/0 and yes/no are accepted too)");
  j.independentGiven = true;
}

UrdfJoint readJoint(const std::string& file, const XMLElement& e) {
  UrdfJoint out;
  out.element = &e;
  JointSpec& j = out.spec;
  j.name = elementName(file, e);
  j.where = SourceLocation{file, e.GetLineNum()};
  const ElementContext at{file, "joint '" + j.name + "'"};
  j.kind = jointKind(at, e);
  const std::string type = e.Attribute("type");
  if (type == "universal") out.compound = UrdfJoint::Compound::Universal;
  if (type == "planar") out.compound = UrdfJoint::Compound::Planar;
  j.parent = requiredAttribute(at, requiredChild(at, e, "parent"), "link");
  j.child = requiredAttribute(at, requiredChild(at, e, "child"), "link");
  const Origin origin = readOrigin(at, uniqueChild(at, e, "origin"));
  j.origin = urdfOriginToTransform(origin.xyz, origin.rpy);
  if (const XMLElement* axis = uniqueChild(at, e, "axis")) j.axis = vectorAttribute(at, *axis, "xyz", Vec3::UnitX());
  if (j.kind == JointKind::Screw) readScrewPitch(at, e, j);
  if (j.kind == JointKind::Spherical) checkSpherical(at, e);
  if (out.compound != UrdfJoint::Compound::None) readCompoundJoint(at, e, out);
  readLimit(at, e, j, out.compound == UrdfJoint::Compound::Universal);
  readDynamics(at, e, j);
  readIndependent(at, e, j);
  if (e.FirstChildElement("mimic")) {  // the follower of a <mimic> is driven (urdf_plus reads the element)
    if (j.independentGiven && j.independent)
      fail(at, e, "the joint has a <mimic> element, so another joint drives it, but it is marked independent=\"true\"");
    j.independent = false;
  }
  return out;
}

}  // namespace

UrdfFile readUrdf(std::string text, std::string source) {
  UrdfFile f;
  f.source = std::move(source);
  f.text = std::move(text);
  f.document = std::make_unique<tinyxml2::XMLDocument>();
  if (f.document->Parse(f.text.data(), f.text.size()) != tinyxml2::XML_SUCCESS)
    throw ModelError(std::string("malformed XML: ") + f.document->ErrorStr(), f.source, f.document->ErrorLineNum());
  f.robot = f.document->RootElement();
  if (!f.robot) throw ModelError("no XML element found", f.source);
  if (std::strcmp(f.robot->Name(), "robot") != 0)
    throw ModelError(std::string("the root element is <") + f.robot->Name() + ">, expected <robot>", f.source,
                     f.robot->GetLineNum());
  f.robotName = requiredAttribute(ElementContext{f.source, "robot"}, *f.robot, "name");

  std::map<std::string, int> linkLines, jointLines;
  // Top-level elements other than <link> and <joint> (<material>, <gazebo>, <transmission>,
  // URDF+ <loop> and <coupling>) are not read by this pass.
  forEachTopLevelElement(f, [&](const XMLElement& e) {
    if (std::strcmp(e.Name(), "link") == 0) {
      f.links.push_back(readLink(f.source, e));
      const LinkSpec& l = f.links.back().spec;
      checkUnique(linkLines, ElementContext{f.source, "link '" + l.name + "'"}, e, l.name, "link");
    } else if (std::strcmp(e.Name(), "joint") == 0) {
      f.joints.push_back(readJoint(f.source, e));
      const JointSpec& j = f.joints.back().spec;
      checkUnique(jointLines, ElementContext{f.source, "joint '" + j.name + "'"}, e, j.name, "joint");
    }
  });
  return f;
}

}  // namespace grbda::urdf_detail
