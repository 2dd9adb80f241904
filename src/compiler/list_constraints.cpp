// Pass: the constraints as written, for listing (Model::constraints(), `grbda info`): what each
// is, over which joints, and which cluster it formed.
#include "compiler.hpp"

namespace grbda::detail {

void listConstraints(CompilerState& s) {
  for (const ResolvedConstraint& c : s.constraints) {
    if (c.bodies.empty()) continue;
    auto jointsOf = [&](const std::vector<int>& oldBodies, const char* separator) {
      std::string text;
      for (int b : oldBodies)
        text += (text.empty() ? "" : separator) + s.model.body(s.newIndex[static_cast<size_t>(b)]).jointName;
      return text;
    };
    ConstraintListing info;
    info.name = c.name;
    info.cluster = s.clusterOfBody[static_cast<size_t>(c.bodies.front())];
    if (c.kind == ResolvedConstraint::Coupling) {
      info.kind = "coupling";
      info.description = jointsOf(c.succChain, " + ") + " = " + fmtNumber(s.builder.couplings()[c.spec].ratio) +
                         " * (" + jointsOf(c.predChain, " + ") + ")";
    } else if (c.kind == ResolvedConstraint::Loop) {
      const LoopSpec& ls = s.builder.loops()[c.spec];
      info.kind = "loop";
      const char* type = ls.type == LoopKind::Fixed       ? "fixed"
                         : ls.type == LoopKind::Prismatic ? "prismatic"
                         : ls.type == LoopKind::Planar    ? "planar"
                         : ls.type == LoopKind::Spherical ? "spherical"
                         : ls.type == LoopKind::Universal ? "universal"
                                                          : "revolute";  // continuous too, as before
      info.description = std::string(type) + " loop " + ls.predecessor +
                         " -- " + ls.successor + " (joints " + jointsOf(c.bodies, ", ") + ")";
    } else {
      info.kind = "constraint";
      const std::string& given = s.builder.constraints()[c.spec].description;  // e.g. a <mimic>'s equation
      info.description = (given.empty() ? std::string() : given + " (") + "implicit constraint over joints " +
                         jointsOf(c.bodies, ", ") + (given.empty() ? "" : ")");
    }
    s.m.constraints.push_back(std::move(info));
  }
}

}  // namespace grbda::detail
