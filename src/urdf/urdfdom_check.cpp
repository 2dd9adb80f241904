#include "urdf/urdfdom_check.hpp"

#include <console_bridge/console.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include <cmath>
#include <mutex>

#include "grbda/errors.hpp"
#include "log.hpp"

namespace grbda::urdf_detail {
namespace {

// urdfdom reports problems only through console_bridge (global state). While it parses, a
// handler collects its errors for our ModelError and passes warnings on to our logger at debug
// level; the previous handler and level are restored afterwards, even on exceptions.
class CapturedConsole : public console_bridge::OutputHandler {
 public:
  CapturedConsole() : previous_(console_bridge::getOutputHandler()), previousLevel_(console_bridge::getLogLevel()) {
    console_bridge::useOutputHandler(this);
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_WARN);
  }
  ~CapturedConsole() override {
    console_bridge::setLogLevel(previousLevel_);
    console_bridge::useOutputHandler(previous_);
  }
  CapturedConsole(const CapturedConsole&) = delete;
  CapturedConsole& operator=(const CapturedConsole&) = delete;

  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR)
      errors_ += (errors_.empty() ? "" : "; ") + text;
    else
      detail::log().debug("urdfdom: {}", text);
  }
  const std::string& errors() const { return errors_; }

 private:
  console_bridge::OutputHandler* previous_;
  console_bridge::LogLevel previousLevel_;
  std::string errors_;
};

std::mutex& consoleMutex() {
  static std::mutex m;
  return m;
}

bool close(const Eigen::Ref<const MatX>& a, const Eigen::Ref<const MatX>& b) {
  return (a - b).norm() <= 1e-9 * (1.0 + a.norm());
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * (1.0 + std::abs(a)); }

Vec3 toVec3(const urdf::Vector3& v) { return Vec3(v.x, v.y, v.z); }
Mat3 toRotation(const urdf::Rotation& r) { return Eigen::Quaterniond(r.w, r.x, r.y, r.z).toRotationMatrix(); }

[[noreturn]] void disagree(const SourceLocation& where, const std::string& element, const std::string& what) {
  throw ModelError("urdfdom reads " + what + " differently from grbda's parser (please report this)", where.file,
                   where.line, element);
}

void compareLink(const urdf::ModelInterface& model, const UrdfLink& ours) {
  const LinkSpec& l = ours.spec;
  const std::string el = "link '" + l.name + "'";
  const urdf::LinkConstSharedPtr theirs = model.getLink(l.name);
  if (!theirs) disagree(l.where, el, "the link list");
  const urdf::InertialSharedPtr& in = theirs->inertial;
  if (!in) {
    if (ours.hasInertial) disagree(l.where, el, "the <inertial>");
    return;
  }
  Mat3 I;
  I << in->ixx, in->ixy, in->ixz, in->ixy, in->iyy, in->iyz, in->ixz, in->iyz, in->izz;
  const Mat3 R = toRotation(in->origin.rotation);
  if (!close(in->mass, l.mass)) disagree(l.where, el, "the mass");
  if (!close(toVec3(in->origin.position), l.com)) disagree(l.where, el, "the centre of mass");
  if (!close(R * I * R.transpose(), l.inertia)) disagree(l.where, el, "the inertia");
}

int urdfdomType(JointKind k) {
  switch (k) {
    case JointKind::Revolute: return urdf::Joint::REVOLUTE;
    case JointKind::Continuous: return urdf::Joint::CONTINUOUS;
    case JointKind::Prismatic: return urdf::Joint::PRISMATIC;
    case JointKind::Fixed: return urdf::Joint::FIXED;
    case JointKind::Floating: return urdf::Joint::FLOATING;
    case JointKind::Screw: return urdf::Joint::CONTINUOUS;  // shown to urdfdom as one (asPlainUrdf)
    case JointKind::Spherical: return urdf::Joint::FLOATING;  // likewise
  }
  return urdf::Joint::UNKNOWN;
}

void compareJoint(const urdf::ModelInterface& model, const UrdfJoint& ours) {
  const JointSpec& j = ours.spec;
  const std::string el = "joint '" + j.name + "'";
  const urdf::JointConstSharedPtr theirs = model.getJoint(j.name);
  if (!theirs) disagree(j.where, el, "the joint list");
  const bool planar = ours.compound == UrdfJoint::Compound::Planar;  // URDF's own type; spec.kind stands in
  if (theirs->type != (planar ? static_cast<int>(urdf::Joint::PLANAR) : urdfdomType(j.kind)))
    disagree(j.where, el, "the joint type");
  if (theirs->parent_link_name != j.parent || theirs->child_link_name != j.child)
    disagree(j.where, el, "the parent or child link");
  const urdf::Pose& p = theirs->parent_to_joint_origin_transform;
  const Transform X(toRotation(p.rotation).transpose(), toVec3(p.position));
  if (!close(X.E, j.origin.E) || !close(X.r, j.origin.r)) disagree(j.where, el, "the <origin>");
  const bool hasAxis = j.kind == JointKind::Revolute || j.kind == JointKind::Continuous ||
                       j.kind == JointKind::Prismatic || j.kind == JointKind::Screw;
  if (hasAxis && !close(toVec3(theirs->axis), j.axis)) disagree(j.where, el, "the <axis>");
}

// urdfdom knows URDF's joint types only: a screw joint (URDF+, SDFormat's helical joint) and a
// universal joint are shown to it as a continuous joint about the same (first) axis and a spherical
// joint as a floating one (three rotations and no axis), so that it still checks everything else.
std::string plainType(const std::string& type) {
  if (type == "screw" || type == "universal") return "continuous";
  if (type == "spherical") return "floating";
  return {};
}

std::string asPlainUrdf(const std::string& xml) {
  if (xml.find("screw") == std::string::npos && xml.find("spherical") == std::string::npos &&
      xml.find("universal") == std::string::npos)
    return xml;
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) return xml;  // urdfdom reports it
  tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  bool changed = false;
  for (tinyxml2::XMLElement* j = robot ? robot->FirstChildElement("joint") : nullptr; j;
       j = j->NextSiblingElement("joint"))
    if (const char* type = j->Attribute("type"); type && !plainType(type).empty()) {
      j->SetAttribute("type", plainType(type).c_str());
      changed = true;
    }
  if (!changed) return xml;
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  return printer.CStr();
}

}  // namespace

bool checkWithUrdfdom(const std::string& rawXml, const MergedUrdf& merged, std::string& messages) {
  const std::string xml = asPlainUrdf(rawXml);
  urdf::ModelInterfaceSharedPtr model;
  {
    const std::lock_guard<std::mutex> lock(consoleMutex());
    CapturedConsole console;
    try {
      model = urdf::parseURDF(xml);
    } catch (const std::exception& e) {
      messages = e.what();
      return false;
    }
    messages = console.errors();
  }
  if (!model) return false;
  if (!messages.empty()) detail::log().warn("{}: urdfdom accepted the model but reported: {}", merged.sourceFile, messages);
  if (model->links_.size() != merged.links.size() || model->joints_.size() != merged.joints.size())
    throw ModelError("urdfdom finds " + std::to_string(model->links_.size()) + " links and " +
                         std::to_string(model->joints_.size()) + " joints, grbda's parser " +
                         std::to_string(merged.links.size()) + " and " + std::to_string(merged.joints.size()) +
                         " (please report this)",
                     merged.sourceFile);
  for (const UrdfLink& l : merged.links) compareLink(*model, l);
  for (const UrdfJoint& j : merged.joints) compareJoint(*model, j);
  return true;
}

}  // namespace grbda::urdf_detail
