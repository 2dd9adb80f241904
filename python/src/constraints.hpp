#pragma once
// The Python ConstraintData and solver= argument, shared by the constrained dynamics
// (bind_constraints.cpp) and its derivatives (bind_constrained_derivatives.cpp).
#include "convert.hpp"
#include "grbda/algorithms/constrained_dynamics.hpp"

namespace grbda::python {

/// ConstraintData plus the ConstraintModel it was made for.
struct BoundConstraintData {
  BoundConstraintData(const Model& m, const ConstraintModel& c) : constraints(&c), data(m, c) {}
  /// The workspace, after checking it belongs to `c`; InputError naming `function` otherwise.
  /// With `m`: a ConstraintModel of another model is named as such first (not blamed on cdata).
  ConstraintData& of(const ConstraintModel& c, const char* function, const Model* m = nullptr) {
    if (m && c.modelId() != m->id())
      throw InputError(std::string(function) + ": constraints was made for another model than '" + m->name() +
                       "' (make it with grbda.ConstraintModel(model), then cdata with grbda.ConstraintData(model, "
                       "constraints))");
    if (&c != constraints)
      throw InputError(std::string(function) +
                       ": cdata was made for another ConstraintModel (use grbda.ConstraintData(model, constraints))");
    return data;
  }
  const ConstraintModel* constraints;
  ConstraintData data;
};

/// solver= of the constrained calls: a name, a ConstraintSolver or ConstraintSolverSettings
/// (InputError otherwise).
ConstraintSolverSettings toSettings(py::handle solver);

}  // namespace grbda::python
