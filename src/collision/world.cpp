#include "grbda/collision/world.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "grbda/errors.hpp"

namespace grbda {
namespace {

std::string str(double x) { return std::to_string(x); }

void requireContactProperties(double mu, double e, const std::string& what) {
  if (!(std::isfinite(mu) && mu >= 0.0)) throw InputError("World: " + what + " friction must be >= 0 and finite (got " + str(mu) + ")");
  if (!(e >= 0.0 && e <= 1.0)) throw InputError("World: " + what + " restitution must be in [0, 1] (got " + str(e) + ")");
}

}  // namespace

void World::validate() const {
  requireContactProperties(friction, restitution, "the world's");
  if (!(std::isfinite(margin) && margin >= 0.0)) throw InputError("World: margin must be >= 0 and finite (got " + str(margin) + ")");
  if (!std::isfinite(groundHeight)) throw InputError("World: ground height is not finite");
  if (hasGround && (!groundNormal.allFinite() || std::abs(groundNormal.norm() - 1.0) > 1e-9))
    throw InputError("World: the ground normal must be a unit vector (its norm is " + str(groundNormal.norm()) + ")");
  for (size_t k = 0; k < boxes.size(); ++k) {
    const StaticBox& b = boxes[k];
    const std::string name = "box " + std::to_string(k);
    if (!b.center.allFinite() || !b.rotation.allFinite()) throw InputError("World: " + name + " has a non-finite pose");
    if ((b.rotation.transpose() * b.rotation - Mat3::Identity()).cwiseAbs().maxCoeff() > 1e-9 || b.rotation.determinant() < 0)
      throw InputError("World: " + name + "'s rotation is not a rotation matrix");
    if (!(b.halfExtents.allFinite() && b.halfExtents.minCoeff() > 0.0))
      throw InputError("World: " + name + "'s half extents must be positive and finite");
    for (const auto& [value, what] : {std::pair{b.friction, "friction"}, std::pair{b.restitution, "restitution"}})
      if (value < 0.0 && value != StaticBox::kWorlds)
        throw InputError("World: " + name + "'s " + what + " must be >= 0, or -1 (StaticBox::kWorlds) for the world's (got " +
                         str(value) + ")");
    const bool ownFriction = b.friction != StaticBox::kWorlds, ownRestitution = b.restitution != StaticBox::kWorlds;
    if (ownFriction || ownRestitution)
      requireContactProperties(ownFriction ? b.friction : friction, ownRestitution ? b.restitution : restitution, name + "'s");
  }
}

}  // namespace grbda
