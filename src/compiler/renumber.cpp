// Passes: the bodies renumbered so that each cluster's bodies are contiguous and parents come
// first (spec §3.3), the spanning coordinates numbered, and one Cluster record per group.
#include "compiler.hpp"

namespace grbda::detail {

void renumberBodies(CompilerState& s) {
  const int nb = s.model.numBodies();
  s.newIndex.assign(static_cast<size_t>(nb), 0);
  std::vector<int> oldOfNew;
  for (const auto& members : s.groups)
    for (int b : members) {
      s.newIndex[static_cast<size_t>(b)] = static_cast<int>(oldOfNew.size());
      oldOfNew.push_back(b);
    }
  std::vector<Body> bodies;
  std::vector<const JointSpec*> joints;
  for (int old : oldOfNew) {
    Body b = s.m.bodies[static_cast<size_t>(old)];
    if (b.parent >= 0) b.parent = s.newIndex[static_cast<size_t>(b.parent)];
    bodies.push_back(std::move(b));
    joints.push_back(s.bodyJoint[static_cast<size_t>(old)]);
  }
  s.m.bodies = std::move(bodies);
  s.bodyJoint = std::move(joints);
  for (auto& f : s.m.frames)
    if (f.body >= 0) f.body = s.newIndex[static_cast<size_t>(f.body)];
}

void numberSpanningCoordinates(CompilerState& s) {
  s.m.nqSpan = s.m.nvSpan = 0;
  for (auto& b : s.m.bodies) {
    b.qIndex = s.m.nqSpan;
    b.vIndex = s.m.nvSpan;
    s.m.nqSpan += b.joint.nq();
    s.m.nvSpan += b.joint.nv();
    appendCoordinateNames(b, s.m.spanningPositionNames, s.m.spanningVelocityNames);
  }
}

void describeGroups(CompilerState& s) {
  int first = 0;
  s.drafts.resize(s.groups.size());
  for (size_t k = 0; k < s.groups.size(); ++k) {
    Cluster& cl = s.drafts[k].cluster;
    cl.firstBody = first;
    cl.numBodies = static_cast<int>(s.groups[k].size());
    first += cl.numBodies;
    cl.output = s.outputOld[k] < 0 ? -1 : s.newIndex[static_cast<size_t>(s.outputOld[k])];
    cl.parent = cl.output < 0 ? -1 : s.m.bodies[static_cast<size_t>(cl.output)].cluster;
    const Body& b0 = s.m.bodies[static_cast<size_t>(cl.firstBody)];
    cl.qSpanIndex = b0.qIndex;
    cl.vSpanIndex = b0.vIndex;
    for (int r = 0; r < cl.numBodies; ++r) {
      Body& b = s.m.bodies[static_cast<size_t>(cl.firstBody + r)];
      b.cluster = static_cast<int>(k);
      b.output = cl.output;
      cl.nqSpan += b.joint.nq();
      cl.nvSpan += b.joint.nv();
    }
  }
}

}  // namespace grbda::detail
