#pragma once
// The robots built in code (those URDF+ cannot express, spec §5.9), in one registry: the command
// line's `builtin:NAME`, Python's grbda.load("builtin:NAME") and the benchmarks read it.
#include <string>
#include <vector>

#include "grbda/builder.hpp"
#include "grbda/model.hpp"

namespace grbda::robots {

/// One built-in robot.
struct BuiltinRobot {
  const char* name;         ///< "tello", "tello_no_arms" (the command line's builtin:NAME)
  const char* description;  ///< one line
  ModelBuilder (*builder)();  ///< its complete builder (loops embedded unless the caller says otherwise)
};

/// Every built-in robot, in a fixed order.
const std::vector<BuiltinRobot>& builtinRobots();
/// Their names, in that order.
std::vector<std::string> builtinNames();
/// The builder of robot `name` (a "builtin:" prefix is accepted), to set loop treatment or a
/// floating base before building; InputError listing the built-in robots for an unknown name.
ModelBuilder builtinBuilder(const std::string& name);
/// The robot `name` built as its builder says (see builtinBuilder).
Model builtin(const std::string& name);

}  // namespace grbda::robots
