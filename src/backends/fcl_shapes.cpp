// FCL's shapes and its distance / penetration query, in ShapeDistance's convention
// (grbda/collision/self_collision.hpp); the only file that includes FCL.
#include <fcl/fcl.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "backends/backend_table.hpp"
#include "grbda/errors.hpp"

namespace grbda::detail {

struct FclObject {
  explicit FclObject(std::shared_ptr<fcl::CollisionGeometryd> geometry) : object(std::move(geometry)) {}
  fcl::CollisionObjectd object;
};

namespace {

std::shared_ptr<fcl::CollisionGeometryd> fclShape(const CollisionShape& s) {
  switch (s.type) {
    case ShapeType::Sphere: return std::make_shared<fcl::Sphered>(s.radius);
    case ShapeType::Box: return std::make_shared<fcl::Boxd>(2.0 * s.halfExtents);
    case ShapeType::Cylinder: return std::make_shared<fcl::Cylinderd>(s.radius, s.length);
    case ShapeType::Capsule: return std::make_shared<fcl::Capsuled>(s.radius, s.length);
    case ShapeType::Mesh: {
      if (!s.hull) throw InputError("a mesh collision shape has no convex hull");
      auto vertices = std::make_shared<std::vector<fcl::Vector3d>>(s.hull->vertices.begin(), s.hull->vertices.end());
      auto faces = std::make_shared<std::vector<int>>();  // FCL's layout: count, then the indices
      for (const auto& f : s.hull->faces) faces->insert(faces->end(), {3, f[0], f[1], f[2]});
      return std::make_shared<fcl::Convexd>(vertices, static_cast<int>(s.hull->faces.size()), faces);
    }
  }
  throw InputError("unknown collision shape");
}

fcl::Transform3d fclPose(const ShapePose& p) {
  fcl::Transform3d X = fcl::Transform3d::Identity();
  X.linear() = p.rotation;
  X.translation() = p.center;
  return X;
}

}  // namespace

FclObject* newFclObject(const CollisionShape& shape) { return new FclObject(fclShape(shape)); }

void deleteFclObject(FclObject* object) { delete object; }

void placeFclObject(FclObject* object, const ShapePose& pose) { object->object.setTransform(fclPose(pose)); }

ShapeDistance fclQuery(const FclObject& objectA, const FclObject& objectB) {
  const fcl::CollisionObjectd &a = objectA.object, &b = objectB.object;
  ShapeDistance out;
  fcl::DistanceRequestd request(true, false);  // nearest points; penetration from collide below
  fcl::DistanceResultd result;
  fcl::distance(&a, &b, request, result);
  const Vec3 gap = result.nearest_points[0] - result.nearest_points[1];
  if (result.min_distance > 0.0 && gap.norm() > 1e-12) {
    out.distance = result.min_distance;
    out.point1 = result.nearest_points[0];
    out.point2 = result.nearest_points[1];
    out.normal = gap / gap.norm();
    return out;
  }
  fcl::CollisionRequestd cRequest(1, true);
  fcl::CollisionResultd cResult;
  fcl::collide(&a, &b, cRequest, cResult);
  if (cResult.numContacts() == 0) {  // touching within FCL's tolerance: no depth, no direction of its own
    out.distance = std::max(result.min_distance, 0.0);
    out.point1 = result.nearest_points[0];
    out.point2 = result.nearest_points[1];
    const Vec3 centres = a.getTranslation() - b.getTranslation();
    out.normal = centres.norm() > 0.0 ? Vec3(centres.normalized()) : Vec3(Vec3::UnitZ());
    return out;
  }
  const fcl::Contactd& c = cResult.getContact(0);
  out.distance = -c.penetration_depth;
  out.point1 = out.point2 = c.pos;
  out.normal = -c.normal;  // FCL's points from object 1 to object 2
  return out;
}

}  // namespace grbda::detail
