// The registry of robots built in code (include/grbda/robots/builtin.hpp). A new built-in robot
// is one row here plus its file in src/robots/.
#include "grbda/robots/builtin.hpp"

#include "grbda/errors.hpp"
#include "grbda/robots/tello.hpp"

namespace grbda::robots {

namespace {
ModelBuilder telloWithArms() { return telloBuilder(true); }
ModelBuilder telloNoArms() { return telloBuilder(false); }
}  // namespace

const std::vector<BuiltinRobot>& builtinRobots() {
  static const std::vector<BuiltinRobot> robots = {
      {"tello", "the Tello humanoid with arms (37 bodies, 24 independent DoF)", &telloWithArms},
      {"tello_no_arms", "the Tello humanoid's legs and torso (21 bodies, 16 independent DoF)", &telloNoArms},
  };
  return robots;
}

std::vector<std::string> builtinNames() {
  std::vector<std::string> names;
  for (const BuiltinRobot& r : builtinRobots()) names.emplace_back(r.name);
  return names;
}

ModelBuilder builtinBuilder(const std::string& name) {
  const std::string prefix = "builtin:";
  const std::string bare = name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : name;
  for (const BuiltinRobot& r : builtinRobots())
    if (bare == r.name) return r.builder();
  std::string known;
  for (const BuiltinRobot& r : builtinRobots()) known += (known.empty() ? "" : ", ") + prefix + r.name;
  throw InputError("unknown built-in robot '" + name + "' (built-in robots: " + known + ")");
}

Model builtin(const std::string& name) { return builtinBuilder(name).build(); }

}  // namespace grbda::robots
