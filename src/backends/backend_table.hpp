#pragma once
// What libgrbda asks of the code that uses its Debian dependencies (urdfdom, tinyxml2, FCL):
// the URDF and MJCF readers and FCL's shape queries live in libgrbda_backends.so, which libgrbda
// loads privately (src/loaders/backends.cpp) so that a program linking libgrbda beside other
// copies of those libraries (Pinocchio's and crocoddyl's wheels bring urdfdom 6, tinyxml2 11 and
// octomap 1.10) binds each copy to its own users. Only grbda's own types cross this table.
#include <string>
#include <vector>

#include "grbda/builder.hpp"
#include "grbda/collision/self_collision.hpp"
#include "grbda/mjcf/mjcf.hpp"
#include "grbda/model_source.hpp"
#include "grbda/urdf/urdf.hpp"

namespace grbda::detail {

struct FclObject;  ///< an FCL collision object of one shape, owned by the backend

struct BackendTable {
  int version;  ///< kBackendTableVersion of the library that filled it
  /// Reads URDF/URDF+ texts (urdfdom and tinyxml2) and assembles one robot.
  ModelBuilder (*assembleUrdf)(const std::vector<UrdfText>& texts, TransmissionTreatment transmissions);
  /// Reads an MJCF text (tinyxml2).
  MjcfDescription (*parseMjcf)(const std::string& text, const std::string& source);
  /// FCL: a shape's collision object, its pose, and the distance or penetration of two objects.
  FclObject* (*newFclObject)(const CollisionShape& shape);
  void (*deleteFclObject)(FclObject* object);
  void (*placeFclObject)(FclObject* object, const ShapePose& pose);
  ShapeDistance (*fclQuery)(const FclObject& a, const FclObject& b);
};

constexpr int kBackendTableVersion = 1;

// The table's entries, defined in libgrbda_backends.so only (libgrbda reaches them through the table).
ModelBuilder assembleUrdfTexts(const std::vector<UrdfText>& texts, TransmissionTreatment transmissions);  // urdf/urdf.cpp
MjcfDescription parseMjcfText(const std::string& text, const std::string& source);                      // mjcf/mjcf.cpp
FclObject* newFclObject(const CollisionShape& shape);                                                   // backends/fcl_shapes.cpp
void deleteFclObject(FclObject* object);
void placeFclObject(FclObject* object, const ShapePose& pose);
ShapeDistance fclQuery(const FclObject& a, const FclObject& b);

}  // namespace grbda::detail

/// The one symbol libgrbda_backends.so exports for libgrbda.
extern "C" const grbda::detail::BackendTable* grbda_backend_table();
