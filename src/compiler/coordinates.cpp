// Pass: the independent coordinates, cluster by cluster (the clusters' own coordinates are
// contiguous, in body order), and their names.
#include "compiler.hpp"

namespace grbda::detail {

void appendCoordinateNames(const Body& b, std::vector<std::string>& positions, std::vector<std::string>& velocities) {
  if (b.joint.type == JointType::Free) {
    for (const char* s : {"x", "y", "z", "qw", "qx", "qy", "qz"}) positions.push_back(b.jointName + ":" + s);
    for (const char* s : {"wx", "wy", "wz", "vx", "vy", "vz"}) velocities.push_back(b.jointName + ":" + s);
  } else if (b.joint.type == JointType::Spherical) {
    for (const char* s : {"qw", "qx", "qy", "qz"}) positions.push_back(b.jointName + ":" + s);
    for (const char* s : {"wx", "wy", "wz"}) velocities.push_back(b.jointName + ":" + s);
  } else {
    positions.push_back(b.jointName);
    velocities.push_back(b.jointName);
  }
}

void numberCoordinates(CompilerState& s) {
  s.m.nq = s.m.nv = 0;
  for (Cluster& cl : s.m.clusters) {
    cl.qIndex = s.m.nq;
    cl.vIndex = s.m.nv;
    s.m.nq += cl.nq;
    s.m.nv += cl.nv;
    for (int r = 0; r < cl.numBodies; ++r) {
      const Body& b = s.m.bodies[static_cast<size_t>(cl.firstBody + r)];
      if (b.independent) appendCoordinateNames(b, s.m.positionNames, s.m.velocityNames);
    }
  }
}

}  // namespace grbda::detail
