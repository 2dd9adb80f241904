// Operational-space quantities (osim.hpp): OsimSet, Λ⁻¹ by C-EFPA, apply-test-force.
#include "bindings.hpp"
#include "osim.hpp"

namespace grbda::python {

std::vector<EndEffector> toEndEffectors(py::handle items, const Model& model) {
  std::vector<EndEffector> out;
  for (py::handle item : items) {
    const bool pair = py::isinstance<py::tuple>(item) || py::isinstance<py::list>(item);
    if (pair && py::len(item) != 2) throw InputError("an end-effector is a frame or a (frame, point) pair");
    EndEffector e;
    e.frame = toFrame(pair ? item[py::int_(0)] : item, model);
    if (pair) e.point = toVec3(item[py::int_(1)], "end-effector point");
    out.push_back(e);
  }
  return out;
}

const OsimSet& BoundOsimSet::of(const Model& m, const char* function) const {
  if (&m != model)
    throw InputError(std::string(function) + ": the OsimSet was made for " +
                     (model->name() == m.name() ? "another Model object of the same name '" + m.name() + "'"
                                                : "model '" + model->name() + "', not for this model '" + m.name() + "'"));
  return set;
}

void bindOsim(py::module_& m) {
  py::class_<BoundOsimSet>(m, "OsimSet",
                           "OsimSet(model, end_effectors): the end-effectors of one inverse operational-space inertia "
                           "query, with everything that depends only on the model. Each end-effector is a frame "
                           "(name or index) or a (frame, point) pair, point in frame coordinates (m).")
      .def(py::init([](const Model& model, EndEffectorsLike items) {
             return std::make_unique<BoundOsimSet>(model, toEndEffectors(items, model));
           }),
           py::arg("model"), py::arg("end_effectors"), py::keep_alive<1, 2>())
      .def_property_readonly("size", [](const BoundOsimSet& s) { return s.set.size(); }, "number of end-effectors")
      .def("__len__", [](const BoundOsimSet& s) { return s.set.size(); })
      .def_property_readonly(
          "end_effectors",
          [](const BoundOsimSet& s) {
            py::list out;
            for (const EndEffector& e : s.set.endEffectors()) out.append(py::make_tuple(e.frame, e.point));
            return out;
          },
          "list of (frame index, point)");

  m.def(
      "inverse_operational_space_inertia",
      [](const Model& model, BoundData& d, const BoundOsimSet& set, ArrayLike q, bool linearOnly) {
        const char* fn = "inverse_operational_space_inertia";
        return MatX(inverseOperationalSpaceInertia(model, d.of(model, fn), set.of(model, fn), toVector(q, "q"), linearOnly));
      },
      py::arg("model"), py::arg("data"), py::arg("osim_set"), py::arg("q"), py::arg("linear_only") = false,
      "inverse_operational_space_inertia(model, data, osim_set, q, linear_only=False) -> Lambda_inv\n\n"
      "Λ⁻¹ at q (independent or spanning positions) by C-EFPA: a 6n x 6n matrix of blocks J_e1 H⁻¹ J_e2ᵀ, J_e the "
      "Jacobian of end-effector e in its frame's axes at its point (angular rows first); with linear_only the "
      "3n x 3n matrix of the linear rows. NumericalError if some D_k is not positive definite.");
  m.def(
      "update_force_propagators",
      [](const Model& model, BoundData& d, ArrayLike q) {
        updateForcePropagators(model, d.of(model, "update_force_propagators"), toVector(q, "q"));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      "update_force_propagators(model, data, q)\n\nArticulated inertias and force propagators at q, for "
      "apply_test_force.");
  m.def(
      "apply_test_force",
      [](const Model& model, BoundData& d, FrameLike frame, ArrayLike point, ArrayLike force) {
        VecX qdd(model.nv());
        const double lambdaInv = applyTestForce(model, d.of(model, "apply_test_force"), toFrame(frame, model),
                                                toVec3(point, "point"), toVec3(force, "force"), qdd);
        return py::make_tuple(lambdaInv, qdd);
      },
      py::arg("model"), py::arg("data"), py::arg("frame"), py::arg("point"), py::arg("force"),
      "apply_test_force(model, data, frame, point, force) -> (lambda_inv, qdd)\n\nAt the configuration of the last "
      "update_force_propagators / inverse_operational_space_inertia: for the force F (world axes) at `point` (frame "
      "coordinates) of `frame`, lambda_inv = Fᵀ J H⁻¹ Jᵀ F and qdd = H⁻¹ Jᵀ F (J: linear rows of the world-aligned "
      "point Jacobian). InputError if the kinematics in data changed since.");
}

}  // namespace grbda::python
