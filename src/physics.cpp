#include "grbda/physics.hpp"

namespace grbda {

const char* shapeTypeName(ShapeType type) {
  switch (type) {
    case ShapeType::Sphere: return "sphere";
    case ShapeType::Box: return "box";
    case ShapeType::Cylinder: return "cylinder";
    case ShapeType::Capsule: return "capsule";
    case ShapeType::Mesh: return "mesh";
  }
  return "?";
}

}  // namespace grbda
