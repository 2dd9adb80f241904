#include "urdf/transmission.hpp"

#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "grbda/errors.hpp"
#include "log.hpp"
#include "urdf/xml_values.hpp"

namespace grbda::urdf_detail {
namespace {

using tinyxml2::XMLElement;

int countChildren(const XMLElement& e, const char* name) {
  int n = 0;
  for (const XMLElement* c = e.FirstChildElement(name); c; c = c->NextSiblingElement(name)) ++n;
  return n;
}

/// `tag` under the actuator (Drake, ros_control) or, failing that, directly under the
/// transmission (the old pr2 format); at most one of each.
const XMLElement* valueElement(const ElementContext& at, const XMLElement& transmission, const XMLElement* actuator,
                               const char* tag) {
  if (actuator)
    if (const XMLElement* e = uniqueChild(at, *actuator, tag)) return e;
  return uniqueChild(at, transmission, tag);
}

/// True if the transmission or one of its actuators has a `drake:rotor_inertia`.
bool hasRotorInertia(const XMLElement& t) {
  if (t.FirstChildElement("drake:rotor_inertia")) return true;
  for (const XMLElement* a = t.FirstChildElement("actuator"); a; a = a->NextSiblingElement("actuator"))
    if (a->FirstChildElement("drake:rotor_inertia")) return true;
  return false;
}

/// The gear ratio: drake:gear_ratio, else mechanicalReduction, else 1 (Drake's default).
double readRatio(const ElementContext& at, const XMLElement& t, const XMLElement* actuator) {
  double ratio = 1.0;
  const XMLElement* e = valueElement(at, t, actuator, "drake:gear_ratio");
  if (e) ratio = numberAttribute(at, *e, "value");
  else if ((e = valueElement(at, t, actuator, "mechanicalReduction"))) ratio = numberText(at, *e);
  if (e && ratio == 0.0) fail(at, *e, std::string("<") + e->Name() + "> is 0: the gear ratio must be non-zero");
  return ratio;
}

/// Non-negative `value` attribute of `e` (rotor inertia, rotor mass).
double nonNegativeValue(const ElementContext& at, const XMLElement& e) {
  const double x = numberAttribute(at, e, "value");
  if (x < 0.0) fail(at, e, std::string("<") + e.Name() + " value=\"" + e.Attribute("value") + "\"> must be >= 0");
  return x;
}

bool readRotor(const std::string& file, const XMLElement& t, RotorTransmission& out) {
  if (!hasRotorInertia(t)) return false;
  out.name = requiredAttribute(ElementContext{file, "transmission"}, t, "name");
  out.where = SourceLocation{file, t.GetLineNum()};
  const ElementContext at{file, "transmission '" + out.name + "'"};
  const int joints = countChildren(t, "joint"), actuators = countChildren(t, "actuator");
  if (joints != 1)
    fail(at, t, "a transmission with a rotor inertia drives exactly one <joint> (found " + std::to_string(joints) + ")");
  if (actuators > 1)
    fail(at, t, "a transmission with a rotor inertia has one <actuator> (found " + std::to_string(actuators) + ")");
  const XMLElement& joint = *t.FirstChildElement("joint");
  out.joint = requiredAttribute(at, joint, "name");
  out.jointWhere = SourceLocation{file, joint.GetLineNum()};
  const XMLElement* actuator = t.FirstChildElement("actuator");
  out.rotorInertia = nonNegativeValue(at, *valueElement(at, t, actuator, "drake:rotor_inertia"));
  if (const XMLElement* mass = valueElement(at, t, actuator, "rotor_mass")) out.rotorMass = nonNegativeValue(at, *mass);
  out.ratio = readRatio(at, t, actuator);
  return out.rotorInertia > 0.0;  // a zero rotor inertia adds nothing
}

/// `base`, or `base` with underscores appended until no name in `taken` matches; then taken.
std::string uniqueName(std::string base, std::set<std::string>& taken) {
  while (taken.count(base)) base += "_";
  taken.insert(base);
  return base;
}

/// Thin disc about unit axis a: J on the axis, J/2 on the two transverse axes.
Mat3 discInertia(double J, const Vec3& a) {
  const Mat3 axial = a * a.transpose();
  return J * axial + 0.5 * J * (Mat3::Identity() - axial);
}

}  // namespace

std::vector<RotorTransmission> readRotorTransmissions(const UrdfFile& file) {
  std::vector<RotorTransmission> out;
  forEachTopLevelElement(file, [&](const XMLElement& e) {
    RotorTransmission r;
    if (std::strcmp(e.Name(), "transmission") == 0 && readRotor(file.source, e, r)) out.push_back(std::move(r));
  });
  return out;
}

void addRotors(ModelBuilder& builder, const MergedUrdf& merged, const std::vector<RotorTransmission>& rotors) {
  std::set<std::string> links, joints;
  for (const UrdfLink& l : merged.links) links.insert(l.spec.name);
  for (const UrdfJoint& j : merged.joints) joints.insert(j.spec.name);
  std::map<std::string, SourceLocation> rotorOf;  // joint -> the transmission that gave it a rotor
  for (const RotorTransmission& r : rotors) {
    const std::string el = "transmission '" + r.name + "'";
    const JointSpec* driven = nullptr;
    for (const UrdfJoint& j : merged.joints)
      if (j.spec.name == r.joint) driven = &j.spec;
    if (!driven) throw ModelError("unknown joint '" + r.joint + "'", r.jointWhere.file, r.jointWhere.line, el);
    if (driven->kind == JointKind::Fixed || driven->kind == JointKind::Floating || driven->kind == JointKind::Spherical) {
      detail::log().warn("{}:{}: {}: joint '{}' is {}: its rotor is ignored", r.where.file, r.where.line, el, r.joint,
                         driven->kind == JointKind::Fixed      ? "fixed"
                         : driven->kind == JointKind::Floating ? "floating"
                                                               : "spherical");
      continue;
    }
    const auto [first, fresh] = rotorOf.emplace(r.joint, r.where);
    if (!fresh)
      throw ModelError("joint '" + r.joint + "' already has a rotor (transmission at " + first->second.file + ":" +
                           std::to_string(first->second.line) + ")",
                       r.where.file, r.where.line, el);
    if (!driven->axis.allFinite() || driven->axis.norm() < 1e-9) continue;  // build() reports the joint's axis
    const Vec3 axis = driven->axis.normalized();

    LinkSpec rotor;
    rotor.name = uniqueName(r.joint + "_rotor", links);
    rotor.mass = r.rotorMass;
    rotor.inertia = discInertia(r.rotorInertia, axis);
    rotor.where = r.where;
    JointSpec spin;  // on the driven joint's parent, at its origin, about its axis
    spin.name = uniqueName(rotor.name + "_joint", joints);
    spin.kind = JointKind::Continuous;
    spin.parent = driven->parent;
    spin.child = rotor.name;
    spin.origin = driven->origin;
    spin.axis = axis;
    spin.independent = false;
    spin.independentGiven = true;
    spin.where = r.where;
    CouplingSpec gear;  // q_rotor = ratio · q_joint
    gear.name = "transmission:" + r.name;
    gear.predecessor = driven->child;
    gear.successor = rotor.name;
    gear.ratio = r.ratio;
    gear.where = r.where;
    builder.addLink(std::move(rotor));
    builder.addJoint(std::move(spin));
    builder.addCoupling(std::move(gear));
  }
}

}  // namespace grbda::urdf_detail
