#pragma once
// URDF / URDF+ loading: urdfdom reads the kinematic tree, tinyxml2 reads what urdfdom does not
// (line numbers for error messages, the URDF+ `independent` attribute, <loop> and <coupling>).
// Every problem raises ModelError naming the file, the line and the element.
#include <string>
#include <vector>

#include "grbda/builder.hpp"
#include "grbda/model.hpp"

namespace grbda {

/// Parse a URDF file into a builder. Syntax is checked and urdfdom must accept the file; the
/// graph and the physics (masses, inertias, axes) are validated by build().
/// Transmissions with a rotor inertia become rotor links, joints and couplings
/// (TransmissionTreatment::ExactRotor).
ModelBuilder parseUrdfFile(const std::string& path);
/// Parse several URDF files describing one robot into one builder (see loadUrdf below).
ModelBuilder parseUrdfFiles(const std::vector<std::string>& paths);
/// Parse URDF text; `sourceName` is used in error messages in place of a file name.
ModelBuilder parseUrdfString(const std::string& xml, const std::string& sourceName = "<string>");

/// What the loaders do with a `<transmission>` (ROS, ros_control, Drake; docs/urdf-plus.md).
enum class TransmissionTreatment {
  Ignore,      ///< read nothing from transmissions (grbda before issue #25)
  /// A transmission that carries a rotor inertia (`drake:rotor_inertia`) becomes an exact rotor: a
  /// thin-disc body spinning about the joint axis on the joint's parent link, coupled by the gear
  /// ratio (the same cluster as a URDF+ rotor with `<coupling>`). Transmissions without a rotor
  /// inertia change nothing. The reflected-inertia approximation of the same rotors is
  /// makeApproximateModel(model, RotorApproximation::Diagonal) (baselines/approximate.hpp).
  ExactRotor
};

/// Options of the loaders below.
struct LoadOptions {
  LoopTreatment loops = LoopTreatment::Embed;  ///< ModelBuilder::setLoopTreatment
  /// Put a free joint between the world and the file's root link (Pinocchio's root_joint =
  /// FreeFlyer): a legged robot written fixed-base floats. ModelBuilder::addFloatingBase.
  bool floatingBase = false;
  /// How `<transmission>` elements are read. The default builds exact rotors: only files whose
  /// transmissions carry `drake:rotor_inertia` change (their rotors used to be discarded).
  TransmissionTreatment transmissions = TransmissionTreatment::ExactRotor;
};

/// Load, validate and compile a model from one URDF file.
Model loadUrdf(const std::string& path, const LoadOptions& options = {});
/// Load several URDF files describing one robot (union of links, joints and constraints; a name
/// defined twice is an error naming both files). A file may declare a link defined in another
/// file as a bare `<link name="x"/>` placeholder (URDF needs every link a joint names declared in
/// the same file); only one file may give a link an <inertial>. The robot takes the first file's name.
Model loadUrdf(const std::vector<std::string>& paths, const LoadOptions& options = {});
/// Load from URDF text.
Model loadUrdfString(const std::string& xml, const std::string& sourceName = "<string>",
                     const LoadOptions& options = {});

}  // namespace grbda
