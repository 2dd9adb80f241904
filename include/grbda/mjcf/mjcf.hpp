#pragma once
// MJCF (MuJoCo XML) loading into the same ModelBuilder the URDF reader fills. tinyxml2 reads the
// file (line numbers for error messages); every problem raises ModelError naming the file, the
// line and the element. What is read, what is ignored and how MuJoCo's coordinates map onto
// grbda's: docs/mjcf.md.
#include <limits>
#include <string>
#include <vector>

#include "grbda/builder.hpp"
#include "grbda/model.hpp"
#include "grbda/urdf/urdf.hpp"

namespace grbda {

/// One `<actuator>` `<motor>`: τ_joint = gear · ctrl on the named joint. Recorded for the user
/// (grbda's algorithms take joint torques directly); other actuator kinds are skipped with a warning.
struct MjcfMotor {
  std::string name;   ///< the motor's name (generated from the joint when absent)
  std::string joint;  ///< the joint it drives
  double gear = 1.0;  ///< first component of MuJoCo's `gear`
  double ctrlLower = -std::numeric_limits<double>::infinity();  ///< `ctrlrange` lower bound (when limited)
  double ctrlUpper = std::numeric_limits<double>::infinity();   ///< `ctrlrange` upper bound (when limited)
};

/// What an MJCF file describes: the robot (as a builder, not yet compiled) and what grbda's Model
/// has no place for.
struct MjcfDescription {
  ModelBuilder builder;             ///< links, joints, loops, couplings, frames, collisions, gravity
  std::vector<MjcfMotor> motors;    ///< the `<actuator>` `<motor>` elements, in file order
};

/// Parse an MJCF file (`<mujoco>` root). Syntax and every number are checked here; the graph and
/// the physics are validated by ModelBuilder::build().
MjcfDescription parseMjcfFile(const std::string& path);
/// Parse MJCF text; `sourceName` is used in error messages in place of a file name.
MjcfDescription parseMjcfString(const std::string& xml, const std::string& sourceName = "<string>");

/// Load, validate and compile a model from an MJCF file. options.floatingBase puts a free joint
/// under the world link (ModelBuilder::addFloatingBase): the bodies fixed to `<worldbody>` float
/// together (ModelError when a body already has a free joint).
Model loadMjcf(const std::string& path, const LoadOptions& options = {});
/// Load from MJCF text.
Model loadMjcfString(const std::string& xml, const std::string& sourceName = "<string>",
                     const LoadOptions& options = {});

/// True when `path` names an MJCF file by its extension (`.xml` or `.mjcf`, any case): the
/// Python `grbda.load` and the CLI choose loadMjcf for these and loadUrdf otherwise.
bool isMjcfPath(const std::string& path);

}  // namespace grbda
