// MJCF (MuJoCo XML) loading: load_mjcf, load_mjcf_string, parse_mjcf_file / parse_mjcf_string
// (the builder and the recorded motors), MjcfMotor. grbda.load picks load_mjcf for .xml files.
#include "bindings.hpp"
#include "convert.hpp"
#include "grbda/mjcf/mjcf.hpp"

namespace grbda::python {

namespace {
LoadOptions loadOptions(const std::string& loops, bool floatingBase) {
  LoadOptions options{loopTreatmentFromName(loops)};
  options.floatingBase = floatingBase;
  return options;
}
py::tuple described(const MjcfDescription& d) { return py::make_tuple(d.builder, d.motors); }
}  // namespace

void bindMjcf(py::module_& m) {
  py::class_<MjcfMotor>(m, "MjcfMotor", "An MJCF <actuator> <motor>: joint torque = gear * ctrl.")
      .def_readonly("name", &MjcfMotor::name, "the motor's name (the joint's when the file gives none)")
      .def_readonly("joint", &MjcfMotor::joint, "the joint it drives")
      .def_readonly("gear", &MjcfMotor::gear, "the first component of MuJoCo's gear")
      .def_readonly("ctrl_lower", &MjcfMotor::ctrlLower, "ctrlrange lower bound (-inf: unlimited)")
      .def_readonly("ctrl_upper", &MjcfMotor::ctrlUpper, "ctrlrange upper bound (+inf: unlimited)")
      .def("__repr__", [](const MjcfMotor& mo) {
        return "MjcfMotor(name='" + mo.name + "', joint='" + mo.joint + "', gear=" + std::to_string(mo.gear) + ")";
      });
  m.def(
      "load_mjcf",
      [](PathLike path, const std::string& loops, bool floatingBase) {
        return loadMjcf(toPath(path), loadOptions(loops, floatingBase));
      },
      py::arg("path"), py::arg("loops") = "embed", py::arg("floating_base") = false,
      "load_mjcf(path, loops='embed', floating_base=False) -> Model\n\nLoad, validate and compile a MuJoCo MJCF "
      "file (docs/mjcf.md: what is read, what is ignored). <equality joint> with a linear polycoef becomes an exact "
      "coupling (rotors written as bodies become rotor clusters), <equality connect> a loop. Raises ModelError naming "
      "file, line and element. loops and floating_base as load_urdf.");
  m.def(
      "load_mjcf_string",
      [](const std::string& xml, const std::string& sourceName, const std::string& loops, bool floatingBase) {
        return loadMjcfString(xml, sourceName, loadOptions(loops, floatingBase));
      },
      py::arg("xml"), py::arg("source_name") = "<string>", py::arg("loops") = "embed", py::arg("floating_base") = false,
      "Load a model from MJCF text; `source_name` stands for the file name in error messages.");
  m.def(
      "parse_mjcf_file", [](PathLike path) { return described(parseMjcfFile(toPath(path))); }, py::arg("path"),
      "Parse an MJCF file: (ModelBuilder, list of MjcfMotor). The builder is validated by build().");
  m.def(
      "parse_mjcf_string",
      [](const std::string& xml, const std::string& sourceName) { return described(parseMjcfString(xml, sourceName)); },
      py::arg("xml"), py::arg("source_name") = "<string>", "Parse MJCF text: (ModelBuilder, list of MjcfMotor).");
  m.def("is_mjcf_path", &isMjcfPath, py::arg("path"),
        "True for a .xml or .mjcf file name (any case): grbda.load and the grbda command read it as MJCF.");
}

}  // namespace grbda::python
