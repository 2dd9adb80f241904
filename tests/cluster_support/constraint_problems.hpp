#pragma once
// Constraint problems on the bundled robots, shared by the constrained-dynamics tests
// (test_constraints.cpp, test_ltl.cpp): a model, a list of contacts and welds, a label.
#include <string>
#include <utility>
#include <vector>

#include "grbda/grbda.hpp"
#include "support/model_files.hpp"

namespace grbda::testsupport {

/// One problem: a model, its constraints, a state.
struct Problem {
  std::string label;
  Model model;
  std::vector<std::pair<ConstraintKind, std::string>> constraints;  // kind + link (points at the frame origin)
};

inline ConstraintModel makeConstraints(const Model& m, const std::vector<std::pair<ConstraintKind, std::string>>& list,
                                       const Vec3& offset = Vec3::Zero()) {
  ConstraintModel cm(m);
  for (const auto& [kind, link] : list) {
    if (kind == ConstraintKind::Weld) cm.addWeld(link, offset);
    else cm.addPointContact(link, offset);
  }
  return cm;
}

inline std::vector<Problem> bundledProblems() {
  using K = ConstraintKind;
  std::vector<Problem> p;
  p.push_back({"mini cheetah 4 feet", loadUrdf(modelFile("mini_cheetah.urdf")),
               {{K::PointContact, "FR_foot"}, {K::PointContact, "FL_foot"}, {K::PointContact, "HR_foot"},
                {K::PointContact, "HL_foot"}}});
  p.push_back({"mini cheetah 2 feet + weld on a rotor", loadUrdf(modelFile("mini_cheetah.urdf")),
               {{K::PointContact, "FR_foot"}, {K::PointContact, "HL_foot"}, {K::Weld, "FL_knee_rotor"}}});
  p.push_back({"mit humanoid feet welded, hands points", loadUrdf(modelFile("mit_humanoid.urdf")),
               {{K::Weld, "right_foot"}, {K::Weld, "left_foot"}, {K::PointContact, "right_hand"},
                {K::PointContact, "left_hand"}}});
  p.push_back({"jvrc1 2F+2H welds", loadUrdf(modelFile("jvrc1_humanoid.urdf")),
               {{K::Weld, "right-foot"}, {K::Weld, "left-foot"}, {K::Weld, "right-hand"}, {K::Weld, "left-hand"}}});
  return p;
}

}  // namespace grbda::testsupport
