// Analytic derivatives of the dynamics (algorithms/derivatives.hpp): each call returns new
// arrays (copies of data.derivatives), nv x nv, position derivatives in the tangent space.
#include "bindings.hpp"
#include "convert.hpp"
#include "grbda/algorithms/derivatives.hpp"

namespace grbda::python {

void bindDerivatives(py::module_& m) {
  m.def(
      "compute_rnea_derivatives",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike qdd) {
        Data& data = d.of(model, "compute_rnea_derivatives");
        computeRNEADerivatives(model, data, toVector(q, "q"), toVector(v, "v"), toVector(qdd, "qdd"));
        const DerivativesData& r = data.derivatives;
        return py::make_tuple(MatX(r.dtau_dq), MatX(r.dtau_dv), MatX(r.M));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("qdd"),
      "compute_rnea_derivatives(model, data, q, v, qdd) -> (dtau_dq, dtau_dv, M)\n\nPartial derivatives of the "
      "inverse dynamics tau(q, v, qdd) by recursive passes over the cluster tree; M = dtau/dqdd is the mass "
      "matrix. Every matrix is nv x nv: a floating base is moved by a body-frame twist, as integrate() moves it.");
  m.def(
      "compute_aba_derivatives",
      [](const Model& model, BoundData& d, ArrayLike q, ArrayLike v, ArrayLike tau) {
        Data& data = d.of(model, "compute_aba_derivatives");
        computeABADerivatives(model, data, toVector(q, "q"), toVector(v, "v"), toVector(tau, "tau"));
        const DerivativesData& r = data.derivatives;
        return py::make_tuple(MatX(r.ddq_dq), MatX(r.ddq_dv), MatX(data.Minv));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"),
      "compute_aba_derivatives(model, data, q, v, tau) -> (dqdd_dq, dqdd_dv, dqdd_dtau)\n\nPartial derivatives of "
      "the forward dynamics qdd(q, v, tau): -H^-1 dtau/dq and -H^-1 dtau/dv at the solved qdd, and H^-1. Every "
      "matrix is nv x nv (tangent space for a floating base, as integrate()).");
}

}  // namespace grbda::python
