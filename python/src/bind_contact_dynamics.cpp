// Whole-body-control calls of issue 24 part B: contact-consistent inverse dynamics
// (algorithms/contact_inverse_dynamics.hpp), impulse dynamics (impulse_dynamics.hpp) and the
// inertial-parameter regressor (regressor.hpp).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "constraints.hpp"
#include "convert.hpp"
#include "grbda/algorithms/contact_inverse_dynamics.hpp"
#include "grbda/algorithms/impulse_dynamics.hpp"
#include "grbda/algorithms/regressor.hpp"

namespace grbda::python {

namespace {

void bindContactInverseDynamics(py::module_& m) {
  py::class_<ContactInverseDynamicsReport>(
      m, "ContactInverseDynamicsReport",
      "What contact_inverse_dynamics found besides tau and lambda: whether qdd satisfies the rows and whether the "
      "contacts can hold the floating base.")
      .def_readonly("acceleration_residual", &ContactInverseDynamicsReport::accelerationResidual,
                    "max over rows of |J qdd + Jdot v - k| at the given qdd")
      .def_readonly("base_residual", &ContactInverseDynamicsReport::baseResidual,
                    "max |(H qdd + C - J^T lambda)_base|: the base wrench the forces leave unbalanced")
      .def_readonly("base_dof", &ContactInverseDynamicsReport::baseDof,
                    "unactuated coordinates: 6 (floating base) or 0 (fixed base)")
      .def_readonly("base_rank", &ContactInverseDynamicsReport::baseRank, "rank of J_b, the rows' base columns")
      .def_readonly("consistent", &ContactInverseDynamicsReport::consistent,
                    "qdd satisfies the rows (acceleration_residual within tolerance)")
      .def_readonly("supported", &ContactInverseDynamicsReport::supported,
                    "rank J_b = base_dof: the contacts can hold any base wrench")
      .def_readonly("balanced", &ContactInverseDynamicsReport::balanced,
                    "base_residual within tolerance: tau is zero on the base exactly")
      .def_property_readonly("ok", &ContactInverseDynamicsReport::ok, "consistent and balanced")
      .def("__repr__", [](const ContactInverseDynamicsReport& r) {
        return "<grbda.ContactInverseDynamicsReport consistent=" + std::string(r.consistent ? "True" : "False") +
               " supported=" + (r.supported ? "True" : "False") + " balanced=" + (r.balanced ? "True" : "False") +
               " base_rank=" + std::to_string(r.baseRank) + ">";
      });
  m.def(
      "contact_inverse_dynamics",
      [](const Model& model, BoundData& d, const ConstraintModel& constraints, BoundConstraintData& cd, ArrayLike q,
         ArrayLike v, ArrayLike qdd, py::object weights, double tolerance, bool throwOnError) {
        const char* name = "contact_inverse_dynamics";
        ContactInverseDynamicsSettings s;
        if (!weights.is_none()) s.weights = toVector(weights, "weights");
        s.tolerance = tolerance;
        s.throwOnError = throwOnError;
        ContactInverseDynamicsReport report;
        ConstraintData& c = cd.of(constraints, name);
        const VecX tau = contactInverseDynamics(model, d.of(model, name), constraints, c, toVector(q, "q"),
                                                toVector(v, "v"), toVector(qdd, "qdd"), s, &report);
        return py::make_tuple(tau, VecX(c.lambda), report);
      },
      py::arg("model"), py::arg("data"), py::arg("constraints"), py::arg("cdata"), py::arg("q"), py::arg("v"),
      py::arg("qdd"), py::arg("weights") = py::none(), py::arg("tolerance") = 1e-8, py::arg("throw_on_error") = false,
      "contact_inverse_dynamics(model, data, constraints, cdata, q, v, qdd, weights=None, tolerance=1e-8, "
      "throw_on_error=False) -> (tau, lambda_, report)\n\n"
      "Contact-consistent inverse dynamics (RBDL's InverseDynamicsConstraints, Pinocchio's contact inverse dynamics), "
      "rotors and loops exact: H qdd + C = tau + J^T lambda with tau = 0 on the floating base's six coordinates. "
      "lambda solves the base rows J_b^T lambda = (H qdd + C)_b with the minimum norm sum(w * lambda**2) (weights "
      "None: the plain Euclidean norm); tau is C-RNEA with the contact forces as external forces. A fixed base: "
      "lambda = 0 and tau = inverse_dynamics. lambda_ in the layout of constrained_forward_dynamics's cdata.lambda_ "
      "(world axes, what the environment exerts on the robot; also left in cdata.lambda_). report: "
      "ContactInverseDynamicsReport (qdd inconsistent with the rows, a contact set of rank below 6 that cannot hold "
      "the base); throw_on_error raises NumericalError instead. InputError for bad sizes, NaN, non-positive weights, "
      "workspaces of another model or constraint set.");
}

void bindImpulseDynamics(py::module_& m) {
  py::class_<ImpulseData>(m, "ImpulseData",
                          "Results of impulse_dynamics for one Model and ConstraintModel (make it after the last "
                          "constraint is added).")
      .def(py::init<const Model&, const ConstraintModel&>(), py::arg("model"), py::arg("constraints"))
      .def_readonly("v_plus", &ImpulseData::vPlus, "post-impact velocities v+ (nv)")
      .def_readonly("impulses", &ImpulseData::impulses,
                    "contact impulses per row (N s; a weld's moment rows N m s), world axes, on the robot")
      .def_readonly("row_velocity_before", &ImpulseData::rowVelocityBefore, "J v- (the rows' velocities before)")
      .def_readonly("row_velocity_after", &ImpulseData::rowVelocityAfter, "J v+ (= -e J v-)")
      .def_readonly("residual", &ImpulseData::residual, "max over rows of |J v+ + e J v-|")
      .def_readonly("energy_change", &ImpulseData::energyChange,
                    "kinetic energy T+ - T- = 1/2 impulses . J (v+ + v-) (never positive)")
      .def_readonly("rank", &ImpulseData::rank, "numerical rank of J M^-1 J^T")
      .def_readonly("redundant", &ImpulseData::redundant, "rank < rows: the least-norm impulses");
  m.def(
      "impulse_dynamics",
      [](const Model& model, BoundData& d, const ConstraintModel& constraints, BoundConstraintData& cd, ArrayLike q,
         ArrayLike v, double restitution, py::object idata, py::object solver) -> py::object {
        const char* name = "impulse_dynamics";
        py::object holder = idata.is_none() ? py::cast(ImpulseData(model, constraints)) : idata;
        ImpulseData& id = holder.cast<ImpulseData&>();
        impulseDynamics(model, d.of(model, name), constraints, cd.of(constraints, name), id, toVector(q, "q"),
                        toVector(v, "v"), restitution, toSettings(solver));
        return holder;
      },
      py::arg("model"), py::arg("data"), py::arg("constraints"), py::arg("cdata"), py::arg("q"), py::arg("v"),
      py::arg("restitution") = 0.0, py::arg("idata") = py::none(), py::arg("solver") = "pv",
      "impulse_dynamics(model, data, constraints, cdata, q, v, restitution=0.0, idata=None, solver='pv') -> "
      "ImpulseData\n\n"
      "Impact dynamics (Pinocchio's impulseDynamics), rotors and loops exact: M (v+ - v-) = J^T impulses with "
      "J v+ = -e J v- on every row of `constraints`, e = restitution in [0, 1]. J M^-1 J^T comes from PV-OSIM's "
      "articulated pass and M^-1 J^T impulses from one outward sweep (no mass matrix or its inverse is formed). "
      "Returns the ImpulseData (idata, or a new one): v_plus, impulses (also in cdata.lambda_), residual, "
      "energy_change <= 0. InputError for restitution outside [0, 1], bad sizes, NaN, workspaces of another model "
      "or constraint set; redundant rows get the least-norm impulses (idata.redundant).");
}

void bindRegressor(py::module_& m) {
  m.def(
      "inertia_parameters", [](ArrayLike I) { return Vec10(inertiaParameters(Mat6(toMatrix(I, "inertia", 6, 6)))); },
      py::arg("inertia"),
      "inertia_parameters(inertia) -> (10,)\n\nThe 10 inertial parameters of a 6x6 spatial inertia (body "
      "coordinates), Pinocchio's order: m, m*cx, m*cy, m*cz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz (rotational inertia about "
      "the body origin, body axes).");
  m.def(
      "inertia_from_parameters",
      [](ArrayLike pi) {
        const VecX p = toVector(pi, "parameters");
        if (p.size() != 10)
          throw InputError("inertia_from_parameters: parameters has " + std::to_string(p.size()) + " entries, expected 10");
        return Mat6(inertiaFromParameters(Vec10(p)));
      },
      py::arg("parameters"),
      "inertia_from_parameters(parameters) -> (6, 6)\n\nThe spatial inertia of 10 parameters (inverse of "
      "inertia_parameters; no physical check).");
  m.def("model_parameters", &modelParameters, py::arg("model"),
        "model_parameters(model) -> (10 * num_bodies,)\n\nThe inertial parameters of every body of the model "
        "(model.bodies: fixed-joint links merged, rotors included), 10 per body in inertia_parameters' order.");
  m.def("parameter_names", &parameterNames, py::arg("model"),
        "parameter_names(model) -> list[str]\n\n'BODY.m', 'BODY.mcx', ... 'BODY.Izz' for every entry of "
        "model_parameters.");
  m.def(
      "body_inertias_from_parameters",
      [](const Model& model, ArrayLike pi) { return bodyInertiasFromParameters(model, toVector(pi, "parameters")); },
      py::arg("model"), py::arg("parameters"),
      "body_inertias_from_parameters(model, parameters) -> list of (6, 6)\n\nThe bodies' spatial inertias for "
      "parameters (10 * num_bodies).");
  m.def(
      "model_with_parameters",
      [](const Model& model, ArrayLike pi) { return modelWithParameters(model, toVector(pi, "parameters")); },
      py::arg("model"), py::arg("parameters"),
      "model_with_parameters(model, parameters) -> Model\n\nA copy of the model whose bodies carry the inertias of "
      "`parameters` (the map back from model_parameters). Physical validity is not checked.");
  auto regressor = [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike a) {
    MatX Y;
    computeRegressor(model, d.of(model, "compute_regressor"), toVector(q, "q"), toVector(v, "v"), toVector(a, "a"), Y);
    return Y;
  };
  const char* doc =
      "compute_regressor(model, data, q, v, a) -> (nv, 10 * num_bodies)\n\n"
      "The inverse-dynamics regressor Y with tau = Y @ model_parameters(model) (gravity included), Y linear in the "
      "10 inertial parameters of every body - rotors included, so rotor inertias can be identified from joint data. "
      "Y is the regressor of the cluster dynamics: loops and couplings embedded in clusters stay exact. q "
      "independent (nq) or spanning, v and a independent (nv).";
  m.def("compute_regressor", regressor, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"), doc);
  m.def("regressor", regressor, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"),
        "regressor(model, data, q, v, a): the same as compute_regressor.");
  m.def(
      "body_regressor",
      [](ArrayLike v, ArrayLike a) {
        const VecX vv = toVector(v, "v"), aa = toVector(a, "a");
        if (vv.size() != 6 || aa.size() != 6) throw InputError("body_regressor: v and a need 6 entries each");
        return Eigen::Matrix<double, 6, 10>(bodyRegressor(Vec6(vv), Vec6(aa)));
      },
      py::arg("v"), py::arg("a"),
      "body_regressor(v, a) -> (6, 10)\n\nY_b with Y_b @ inertia_parameters(I) = I a + v x* I v (spatial velocity "
      "and acceleration in body coordinates, angular first).");
}

}  // namespace

void bindContactDynamics(py::module_& m) {
  bindContactInverseDynamics(m);
  bindImpulseDynamics(m);
  bindRegressor(m);
}

}  // namespace grbda::python
