// MJCF `<actuator>`: `<motor joint gear ctrlrange ctrllimited>` is recorded as an MjcfMotor (grbda's
// algorithms take joint torques, τ = gear · ctrl); other actuator kinds and transmissions
// (tendon, site, body) are skipped with a warning.
#include <cstring>

#include "log.hpp"
#include "mjcf/attributes.hpp"
#include "mjcf/reader.hpp"

namespace grbda::mjcf_detail {

void readActuators(Reader& r, const tinyxml2::XMLElement& actuator) {
  for (const tinyxml2::XMLElement* c = actuator.FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string tag = c->Name();
    const std::string given = c->Attribute("name") ? c->Attribute("name") : "";
    const auto at = r.at("actuator " + tag + (given.empty() ? std::string() : " '" + given + "'"));
    if (tag != "motor") {
      r.skip("<" + tag + "> actuators (only <motor> is recorded)", c->GetLineNum());
      continue;
    }
    const Attributes a{at, *c, r.defaults.classOf(at, *c, nullptr)};
    if (!c->Attribute("joint")) {
      detail::log().warn("{}:{}: {}: a motor without a joint transmission is skipped", r.file, c->GetLineNum(), at.element);
      continue;
    }
    MjcfMotor m;
    m.joint = c->Attribute("joint");
    if (!r.jointInfo.count(m.joint)) fail(at, *c, "joint '" + m.joint + "' is not a joint of this file");
    m.name = given.empty() ? m.joint : given;
    if (a.has("gear")) m.gear = a.numbers("gear", 1, 6)[0];
    const std::string limited = a.keyword("ctrllimited", "auto", {"true", "false", "auto"});
    if (limited == "true" || (limited == "auto" && r.compiler.autolimits && a.has("ctrlrange"))) {
      const auto range = a.numbers("ctrlrange", 2, 2);
      if (!(range[0] < range[1])) fail(at, *a.source("ctrlrange"), "ctrlrange needs lower < upper");
      m.ctrlLower = range[0];
      m.ctrlUpper = range[1];
    }
    r.motors.push_back(m);
  }
}

}  // namespace grbda::mjcf_detail
