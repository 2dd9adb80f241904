// Pass: the model's coordinates, group by group (contiguous, in body order), and their names: an
// embedded group's independent coordinates; every joint of a group kept as rows (its bodies
// become 1-DoF clusters, so each is independent in the model).
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
  for (ClusterDraft& d : s.drafts) {
    Cluster& cl = d.cluster;
    cl.qIndex = s.m.nq;
    cl.vIndex = s.m.nv;
    s.m.nq += d.keepAsRows ? cl.nqSpan : cl.nq;
    s.m.nv += d.keepAsRows ? cl.nvSpan : cl.nv;
    for (int r = 0; r < cl.numBodies; ++r) {
      Body& b = s.m.bodies[static_cast<size_t>(cl.firstBody + r)];
      if (d.keepAsRows) b.independent = true;
      if (b.independent) appendCoordinateNames(b, s.m.positionNames, s.m.velocityNames);
    }
  }
}

}  // namespace grbda::detail
