// The extension module grbda._grbda; python/grbda/__init__.py re-exports it as `grbda`.
#include "bindings.hpp"

PYBIND11_MODULE(_grbda, m) {
  m.doc() = "grbda: recursive rigid-body dynamics for robots with kinematic loops (cluster algorithms)";
  m.attr("__version__") = GRBDA_VERSION;  // CMake's project version, as `grbda --version` says
  grbda::python::bindErrors(m);
  grbda::python::bindModel(m);
  grbda::python::bindBuilder(m);
  grbda::python::bindDynamics(m);
  grbda::python::bindBatch(m);
  grbda::python::bindOsim(m);
  grbda::python::bindBaselines(m);
  grbda::python::bindTree(m);
  grbda::python::bindConstraints(m);
  grbda::python::bindIntegration(m);
  grbda::python::bindDerivatives(m);
  grbda::python::bindConstrainedDerivatives(m);
  grbda::python::bindCfa(m);
  grbda::python::bindSimulator(m);
  grbda::python::bindWbc(m);
  grbda::python::bindContactDynamics(m);
  grbda::python::bindRollout(m);
  grbda::python::bindMjcf(m);
  grbda::python::bindMethods(m);
}
