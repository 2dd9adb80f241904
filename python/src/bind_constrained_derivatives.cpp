// Derivatives of constrained forward dynamics (algorithms/constrained_derivatives.hpp): returns new
// arrays (copies of cdata.derivatives); position derivatives in the tangent space.
#include "bindings.hpp"
#include "constraints.hpp"
#include "grbda/algorithms/constrained_derivatives.hpp"

namespace grbda::python {

void bindConstrainedDerivatives(py::module_& m) {
  m.def(
      "compute_constrained_dynamics_derivatives",
      [](const Model& model, BoundData& d, const ConstraintModel& constraints, BoundConstraintData& cd, ArrayLike q,
         ArrayLike v, ArrayLike tau, py::object solver) {
        const char* name = "compute_constrained_dynamics_derivatives";
        const ConstraintSolverSettings settings = toSettings(solver);
        computeConstrainedDynamicsDerivatives(model, d.of(model, name), constraints, cd.of(constraints, name, &model),
                                              toVector(q, "q"), toVector(v, "v"), toVector(tau, "tau"), settings);
        const ConstraintDerivativesData& r = cd.data.derivatives;
        return py::make_tuple(MatX(r.ddq_dq), MatX(r.ddq_dv), MatX(r.ddq_dtau), MatX(r.dlambda_dq),
                              MatX(r.dlambda_dv), MatX(r.dlambda_dtau));
      },
      py::arg("model"), py::arg("data"), py::arg("constraints"), py::arg("cdata"), py::arg("q"), py::arg("v"),
      py::arg("tau"), py::arg("solver") = "pv",
      "compute_constrained_dynamics_derivatives(model, data, constraints, cdata, q, v, tau, solver='pv')\n"
      "    -> (dqdd_dq, dqdd_dv, dqdd_dtau, dlambda_dq, dlambda_dv, dlambda_dtau)\n\n"
      "Partial derivatives of the constrained forward dynamics (hard constraints, KKT formula) and of the "
      "constraint forces: the qdd matrices are nv x nv, the lambda ones num_rows x nv; position derivatives in "
      "the tangent space (as integrate()). The solve itself leaves qdd in data.qdd and lambda in cdata.lambda_. "
      "Baumgarte stabilisation is differentiated with its reference pose fixed. InputError for a soft solver, "
      "NumericalError for redundant rows.");
}

}  // namespace grbda::python
