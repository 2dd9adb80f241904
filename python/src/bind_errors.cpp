// The C++ error hierarchy as Python exceptions, messages unchanged:
//   grbda.Error (RuntimeError) <- ModelError, InputError, NumericalError.
// ModelError also carries the parts of its message: file, line, element, message.
#include "bindings.hpp"
#include "grbda/errors.hpp"

namespace grbda::python {

namespace py = pybind11;

namespace {
PyObject* modelErrorType = nullptr;  // grbda.ModelError; lives as long as the module (never unloaded)
}

void bindErrors(py::module_& m) {
  // Translators run newest first, so the derived types are registered after the base.
  auto& error = py::register_exception<Error>(m, "Error", PyExc_RuntimeError);
  error.doc() = "Base of every error grbda raises.";
  auto& modelError = py::register_exception<ModelError>(m, "ModelError", error.ptr());
  modelError.doc() =
      "The model description is invalid (URDF syntax or semantics, builder misuse). str(e) reads "
      "'FILE:LINE: <element 'name'>: message'; e.file, e.line, e.element and e.message hold the parts.";
  py::register_exception<InputError>(m, "InputError", error.ptr()).doc() =
      "An argument is invalid (wrong size or shape, NaN, unknown name, data of another model).";
  py::register_exception<NumericalError>(m, "NumericalError", error.ptr()).doc() =
      "The computation cannot proceed (singular matrix, loops that cannot be closed, non-finite result).";

  modelErrorType = modelError.ptr();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ModelError& e) {
      py::object instance = py::handle(modelErrorType)(e.what());
      instance.attr("file") = e.file();
      instance.attr("line") = e.line();
      instance.attr("element") = e.element();
      instance.attr("message") = e.message();
      PyErr_SetObject(modelErrorType, instance.ptr());
    }
  });
}

}  // namespace grbda::python
