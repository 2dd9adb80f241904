// The MJCF reader of libgrbda_backends.so (the public calls of grbda/mjcf/mjcf.hpp are in
// loaders/mjcf_loader.cpp and reach it through the backend table).
#include "grbda/mjcf/mjcf.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "grbda/errors.hpp"
#include "log.hpp"
#include "mjcf/attributes.hpp"
#include "mjcf/reader.hpp"
#include "backends/backend_table.hpp"
#include "urdf/urdf_file.hpp"

// Design: one tinyxml2 pass (as for URDF: it gives every element's line for error messages and
// is already a dependency). The settings that change what numbers mean (`<compiler>`, `<default>`)
// are read first wherever they appear, then the bodies, then the equalities and actuators that
// refer to them by name. Everything goes into the same ModelBuilder the URDF reader fills, so
// validation, clustering and every algorithm are shared.

namespace grbda {
namespace mjcf_detail {

int Reader::jointIndex(const std::string& name) const {
  for (size_t k = 0; k < joints.size(); ++k)
    if (joints[k].name == name) return static_cast<int>(k);
  return -1;
}

namespace {

using tinyxml2::XMLElement;

void warnIgnored(const Reader& r, const XMLElement& e, const char* attr, const char* why) {
  if (e.Attribute(attr))
    detail::log().warn("{}:{}: <compiler {}> is ignored ({})", r.file, e.GetLineNum(), attr, why);
}

void readCompiler(Reader& r, const XMLElement& e) {
  const auto at = r.at("compiler");
  const Attributes a{at, e, nullptr};
  Compiler& c = r.compiler;
  c.degrees = a.keyword("angle", c.degrees ? "degree" : "radian", {"degree", "radian"}) == "degree";
  if (e.Attribute("eulerseq")) {
    c.eulerseq = e.Attribute("eulerseq");
    if (c.eulerseq.size() != 3 || c.eulerseq.find_first_not_of("xyzXYZ") != std::string::npos)
      fail(at, e, "eulerseq=\"" + c.eulerseq + "\": expected three of x, y, z, X, Y, Z");
  }
  const std::string fromGeom = a.keyword("inertiafromgeom", "auto", {"true", "false", "auto"});
  c.inertiaFromGeom = fromGeom == "true"    ? Compiler::FromGeom::True
                      : fromGeom == "false" ? Compiler::FromGeom::False
                                            : Compiler::FromGeom::Auto;
  c.autolimits = a.flag("autolimits", c.autolimits);
  if (e.Attribute("inertiagrouprange")) {
    const auto g = urdf_detail::numbersAttribute(at, e, "inertiagrouprange", 2, 2);
    c.inertiaGroupLow = static_cast<int>(g[0]);
    c.inertiaGroupHigh = static_cast<int>(g[1]);
  }
  c.totalMass = a.number("settotalmass", c.totalMass);
  if (a.keyword("coordinate", "local", {"local", "global"}) == "global")
    fail(at, e, "coordinate=\"global\" is not supported (MuJoCo itself removed it); write local coordinates");
  warnIgnored(r, e, "boundmass", "masses are used as written");
  warnIgnored(r, e, "boundinertia", "inertias are used as written");
  warnIgnored(r, e, "balanceinertia", "inertias are used as written");
}

void readOption(Reader& r, const XMLElement& e) {
  r.gravity = urdf_detail::vectorAttribute(r.at("option"), e, "gravity", r.gravity);
}

// settotalmass: every link's mass and inertia scaled by one factor (MuJoCo's rule).
void scaleTotalMass(Reader& r) {
  if (r.compiler.totalMass <= 0.0) return;
  double total = 0.0;
  for (const LinkSpec& l : r.links) total += l.mass;
  if (total <= 0.0) return;
  const double s = r.compiler.totalMass / total;
  for (LinkSpec& l : r.links) {
    l.mass *= s;
    l.inertia *= s;
  }
}

ModelBuilder toBuilder(const Reader& r) {
  ModelBuilder b(r.robotName, r.file);
  b.setGravity(r.gravity);
  for (const LinkSpec& l : r.links) b.addLink(l);
  for (const JointSpec& j : r.joints) b.addJoint(j);
  for (const LoopSpec& l : r.loops) b.addLoop(l);
  for (const CouplingSpec& c : r.couplings) b.addCoupling(c);
  for (const ConstraintSpec& c : r.constraints) b.addConstraint(c);
  for (const FrameSpec& f : r.frames) {
    if (r.linkNames.count(f.name) || r.jointInfo.count(f.name)) {  // MuJoCo's names are per kind, grbda's are not
      detail::log().warn("{}:{}: site '{}': a body or joint has the same name; the site is not added as a grbda frame",
                         f.where.file, f.where.line, f.name);
      continue;
    }
    b.addFrame(f);
  }
  for (const CollisionSpec& c : r.collisions) b.addCollision(c);
  return b;
}

MjcfDescription parse(const std::string& text, const std::string& source) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS)
    throw ModelError(std::string("malformed XML: ") + doc.ErrorStr(), source, doc.ErrorLineNum());
  const XMLElement* root = doc.RootElement();
  if (!root) throw ModelError("no XML element found", source);
  if (!is(*root, "mujoco"))
    throw ModelError(std::string("the root element is <") + root->Name() + ">, expected <mujoco>", source,
                     root->GetLineNum());
  Reader r;
  r.file = source;
  if (root->Attribute("model")) r.robotName = root->Attribute("model");
  for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (is(*e, "compiler")) readCompiler(r, *e);
    else if (is(*e, "option")) readOption(r, *e);
    else if (is(*e, "default")) r.defaults.read(r.at("default"), *e);
    else if (is(*e, "include"))
      fail(r.at("include"), *e, std::string("<include file=\"") + (e->Attribute("file") ? e->Attribute("file") : "") +
                                    "\"> is not supported yet: load the included robot file directly (a Menagerie "
                                    "scene.xml includes its robot) or merge the files into one");
  }
  r.links.push_back(LinkSpec{"world", 0.0, Vec3::Zero(), Mat3::Zero(), SourceLocation{source, root->GetLineNum()}});
  r.linkNames.insert("world");
  r.bodies["world"] = BodyInfo{"world", Pose(), Pose(), root->GetLineNum()};
  r.linkWorld["world"] = Pose();
  for (const XMLElement* e = root->FirstChildElement("worldbody"); e; e = e->NextSiblingElement("worldbody"))
    readWorldbody(r, *e);
  for (const XMLElement* e = root->FirstChildElement("equality"); e; e = e->NextSiblingElement("equality"))
    readEquality(r, *e);
  for (const XMLElement* e = root->FirstChildElement("actuator"); e; e = e->NextSiblingElement("actuator"))
    readActuators(r, *e);
  for (const XMLElement* e = root->FirstChildElement("tendon"); e; e = e->NextSiblingElement("tendon"))
    if (e->FirstChildElement())
      detail::log().warn("{}:{}: <tendon> is ignored (grbda has no tendons)", source, e->GetLineNum());
  if (!r.armatureJoints.empty()) {
    std::string names;
    for (const std::string& j : r.armatureJoints) names += (names.empty() ? "" : ", ") + j;
    detail::log().warn("{}: joint armature is ignored (grbda has no reflected-inertia term; write the rotor as a body "
                       "tied by an <equality joint> for the exact rotor): {}",
                       source, names);
  }
  for (const auto& [kind, s] : r.skipped)
    detail::log().warn("{}:{}: {} {} skipped (the first here)", source, s.second, s.first, kind);
  scaleTotalMass(r);
  return MjcfDescription{toBuilder(r), r.motors};
}

}  // namespace
}  // namespace mjcf_detail

MjcfDescription detail::parseMjcfText(const std::string& text, const std::string& source) {
  return mjcf_detail::parse(text, source);
}

}  // namespace grbda
