#include "compiler/joint_chain.hpp"

#include "grbda/errors.hpp"

namespace grbda::detail {

namespace {

/// Claims `name` for the chain of `j`, refused when the robot already uses it.
void claim(std::set<std::string>& taken, const std::string& name, const char* kind, const JointSpec& j) {
  if (!taken.insert(name).second)
    throw ModelError(std::string("expanding this joint into 1-DoF joints needs the ") + kind + " name '" + name +
                         "', which the robot already uses; rename one of them",
                     j.where.file, j.where.line, "joint '" + j.name + "'");
}

}  // namespace

JointChain jointChain(const JointSpec& j, const std::vector<ChainCoordinate>& coordinates,
                      std::set<std::string>& linkNames, std::set<std::string>& jointNames) {
  JointChain chain;
  std::string previous = j.parent;
  for (size_t k = 0; k < coordinates.size(); ++k) {
    const bool last = k + 1 == coordinates.size();
    JointSpec part = j;
    part.name = j.name + kChainSeparator + std::to_string(k + 1);
    part.kind = coordinates[k].kind;
    part.axis = coordinates[k].axis;
    part.parent = previous;
    part.child = last ? j.child : part.name;
    if (k > 0) part.origin = Transform();
    claim(jointNames, part.name, "joint", j);
    if (!last) {  // massless and inertia-free: the child link carries the mass
      claim(linkNames, part.child, "link", j);
      LinkSpec link;
      link.name = part.child;
      link.where = j.where;
      chain.links.push_back(link);
    }
    previous = part.child;
    chain.joints.push_back(std::move(part));
  }
  return chain;
}

}  // namespace grbda::detail
