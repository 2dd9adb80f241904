// Time stepping in independent coordinates (algorithms/integration.hpp): what a simulation loop
// in Python needs besides the dynamics.
#include "bindings.hpp"
#include "convert.hpp"
#include "grbda/algorithms/integration.hpp"
#include "grbda/algorithms/loop_coordinates.hpp"

namespace grbda::python {

namespace {
/// Coordinates of a model that keeps loops as constraint rows (loop_coordinates.hpp).
void bindLoopCoordinates(py::module_& m) {
  m.def("reduced_nq", &reducedNq, py::arg("model"), "Positions without the kept loops' dependent joints.");
  m.def("reduced_nv", &reducedNv, py::arg("model"), "Velocities without the kept loops' dependent joints.");
  m.def("reduced_velocity_names", &reducedVelocityNames, py::arg("model"),
        "Names of the reduced velocities: the embedded model's velocity_names.");
  // Positions are q, velocities v (reduced ones q_reduced, v_reduced); the keywords y and yd are
  // the old spellings, kept by a second overload for existing scripts.
  const auto positions = [](const Model& model, ArrayLike q) {
    return expandPositions(model, toVector(q, "q_reduced"));
  };
  const auto velocities = [](const Model& model, ArrayLike q, ArrayLike v) {
    return expandVelocities(model, toVector(q, "q"), toVector(v, "v_reduced"));
  };
  m.def("expand_positions", positions, py::arg("model"), py::arg("q_reduced"),
        "The model's positions from reduced ones, every kept loop closed (NumericalError when one cannot close).");
  m.def("expand_positions", positions, py::arg("model"), py::arg("y"), "The same with the old keyword y.");
  m.def("expand_velocities", velocities, py::arg("model"), py::arg("q"), py::arg("v_reduced"),
        "The model's velocities q_dot = G(q) v_reduced in each kept group.");
  m.def("expand_velocities", velocities, py::arg("model"), py::arg("q"), py::arg("yd"),
        "The same with the old keyword yd.");
  m.def(
      "expand_forces", [](const Model& model, ArrayLike tau) { return expandForces(model, toVector(tau, "tau")); },
      py::arg("model"), py::arg("tau"), "Generalised forces on the model's joints: zero on the dependent ones.");
  m.def(
      "reduce_velocities", [](const Model& model, ArrayLike x) { return reduceVelocities(model, toVector(x, "x")); },
      py::arg("model"), py::arg("x"), "A velocity-sized vector (v, qdd) with the dependent joints left out.");
}
}  // namespace

void bindIntegration(py::module_& m) {
  bindLoopCoordinates(m);
  m.def(
      "integrate",
      [](const Model& model, ArrayLike q, ArrayLike v, double dt) {
        return integrate(model, toVector(q, "q"), toVector(v, "v"), dt);
      },
      py::arg("model"), py::arg("q"), py::arg("v"), py::arg("dt"),
      "integrate(model, q, v, dt) -> q_next\n\nIndependent positions after moving with the constant independent "
      "velocity v for dt seconds: q + v dt for every cluster but a free one, whose position moves by R v_linear dt "
      "(R: body -> world at q) and whose quaternion turns by the body-frame angular velocity (exact exponential), "
      "and a spherical one, whose quaternion turns likewise. InputError for wrong sizes or NaN.");
  m.def(
      "difference",
      [](const Model& model, ArrayLike q0, ArrayLike q1) {
        return difference(model, toVector(q0, "q0"), toVector(q1, "q1"));
      },
      py::arg("model"), py::arg("q0"), py::arg("q1"),
      "difference(model, q0, q1) -> v (nv)\n\nThe constant velocity with integrate(model, q0, v, 1) = q1: q1 - q0, "
      "except a free cluster (body-frame log of the turn, the shorter one; R0^T (p1 - p0)) and a spherical one (the "
      "same log).");
  m.def(
      "position_rate",
      [](const Model& model, ArrayLike q, ArrayLike v) { return positionRate(model, toVector(q, "q"), toVector(v, "v")); },
      py::arg("model"), py::arg("q"), py::arg("v"),
      "position_rate(model, q, v) -> dq/dt (nq)\n\nThe rate of the independent positions: v, except a free cluster "
      "(position at R v_linear, quaternion at 1/2 q * (0, w)). For Runge-Kutta schemes on q; renormalise after with "
      "normalize_configuration.");
  m.def(
      "normalize_configuration",
      [](const Model& model, ArrayLike q) {
        VecX out = toVector(q, "q");
        normalizeConfiguration(model, out);
        return out;
      },
      py::arg("model"), py::arg("q"),
      "normalize_configuration(model, q) -> q\n\nA copy of q with every free or spherical cluster's quaternion of unit length.");
  m.def(
      "kinetic_energy",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v) {
        return kineticEnergy(model, d.of(model, "kinetic_energy"), toVector(q, "q"), toVector(v, "v"));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"),
      "kinetic_energy(model, data, q, v) -> float\n\n1/2 v^T H(q) v (J), summed over the bodies.");
  m.def(
      "potential_energy",
      [](const Model& model, BoundData& d, ArrayLike q) {
        return potentialEnergy(model, d.of(model, "potential_energy"), toVector(q, "q"));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      "potential_energy(model, data, q) -> float\n\nGravitational potential energy -sum m_i g . c_i (J), zero at the "
      "world origin (data.gravity: the Data's own, else model.gravity).");
}

}  // namespace grbda::python
