// Making models: the ModelBuilder and its spec structs, URDF / URDF+ loading, the robots built in
// code (grbda.robots), and the log level.
#include "bindings.hpp"
#include "convert.hpp"
#include "grbda/builder.hpp"
#include "grbda/errors.hpp"
#include "grbda/logging.hpp"
#include "grbda/robots/builtin.hpp"
#include "grbda/robots/tello.hpp"
#include "grbda/urdf/urdf.hpp"

namespace grbda::python {

namespace {

/// A Vec3 member read as numpy and written through toVec3 (InputError on a bad value).
template <typename Spec>
void vec3Member(py::class_<Spec>& cls, const char* name, Vec3 Spec::*member, const char* doc) {
  cls.def_property(
      name, [member](const Spec& s) { return s.*member; },
      [member, name](Spec& s, ArrayLike v) { s.*member = toVec3(v, name); }, doc);
}

/// Specs are plain structs: constructed empty, then fields set by keyword (LinkSpec(name="a", mass=1)).
template <typename Spec>
py::class_<Spec> specClass(py::module_& m, const char* name, const char* doc) {
  py::class_<Spec> cls(m, name, doc);
  cls.def(py::init([](py::kwargs fields) {
            Spec spec;
            py::object self = py::cast(spec);
            for (auto item : fields) self.attr(item.first) = item.second;
            return self.cast<Spec>();
          }),
          "Fields may be given as keywords.");
  return cls;
}

void bindSpecs(py::module_& m) {
  py::class_<SourceLocation>(m, "SourceLocation", "Where a spec came from (empty file: built in code).")
      .def(py::init<>())
      .def_readwrite("file", &SourceLocation::file, "source file (empty: built in code)")
      .def_readwrite("line", &SourceLocation::line, "line in the source file (0: unknown)");

  auto link = specClass<LinkSpec>(m, "LinkSpec", "A link: mass (kg), centre of mass (m, link frame), inertia about the COM (kg m^2).");
  link.def_readwrite("name", &LinkSpec::name, "unique name")
      .def_readwrite("mass", &LinkSpec::mass, "mass (kg)")
      .def_readwrite("where", &LinkSpec::where, "SourceLocation for error messages");
  vec3Member(link, "com", &LinkSpec::com, "centre of mass in the link frame (m)");
  link.def_property(
      "inertia", [](const LinkSpec& s) { return s.inertia; },
      [](LinkSpec& s, ArrayLike I) { s.inertia = toMatrix(I, "inertia", 3, 3); },
      "3x3 rotational inertia about the COM, link axes (kg m^2)");

  py::enum_<JointKind>(m, "JointKind", "URDF joint types.")
      .value("REVOLUTE", JointKind::Revolute)
      .value("CONTINUOUS", JointKind::Continuous)
      .value("PRISMATIC", JointKind::Prismatic)
      .value("FIXED", JointKind::Fixed)
      .value("FLOATING", JointKind::Floating)
      .value("SCREW", JointKind::Screw)
      .value("SPHERICAL", JointKind::Spherical);
  auto joint = specClass<JointSpec>(m, "JointSpec", "A joint between two links (URDF-shaped).");
  joint.def_readwrite("name", &JointSpec::name, "unique name")
      .def_readwrite("kind", &JointSpec::kind, "JointKind")
      .def_readwrite("parent", &JointSpec::parent, "parent link name")
      .def_readwrite("child", &JointSpec::child, "child link name")
      .def_readwrite("origin", &JointSpec::origin, "Transform X_T: parent link frame -> joint frame")
      .def_readwrite("independent", &JointSpec::independent, "URDF+ `independent` flag")
      .def_readwrite("pitch", &JointSpec::pitch,
                     "SCREW only: metres along the axis per radian about it (positive: right-handed thread)")
      .def_readwrite("where", &JointSpec::where, "SourceLocation for error messages");
  vec3Member(joint, "axis", &JointSpec::axis, "joint axis in the joint frame (normalised by build())");

  specClass<FrameSpec>(m, "FrameSpec", "A named frame rigidly attached to a link (a contact point, a tool frame).")
      .def_readwrite("name", &FrameSpec::name, "unique name (links and frames share one namespace)")
      .def_readwrite("link", &FrameSpec::link, "the link it is attached to")
      .def_readwrite("origin", &FrameSpec::origin, "Transform: link frame -> this frame")
      .def_readwrite("where", &FrameSpec::where, "SourceLocation for error messages");

  py::enum_<LoopKind>(m, "LoopKind", "URDF+ <loop> types.")
      .value("REVOLUTE", LoopKind::Revolute)
      .value("CONTINUOUS", LoopKind::Continuous)
      .value("PRISMATIC", LoopKind::Prismatic)
      .value("PLANAR", LoopKind::Planar)
      .value("FIXED", LoopKind::Fixed)
      .value("SPHERICAL", LoopKind::Spherical)
      .value("UNIVERSAL", LoopKind::Universal);
  auto loop = specClass<LoopSpec>(m, "LoopSpec",
                                  "URDF+ <loop>: the predecessor and successor loop frames (link frame composed "
                                  "with origin) coincide in position and, per the type, orientation.");
  loop.def_readwrite("name", &LoopSpec::name, "unique name")
      .def_readwrite("type", &LoopSpec::type, "LoopKind")
      .def_readwrite("predecessor", &LoopSpec::predecessor, "link name")
      .def_readwrite("successor", &LoopSpec::successor, "link name")
      .def_readwrite("predecessor_origin", &LoopSpec::predecessorOrigin, "Transform: predecessor link frame -> loop frame")
      .def_readwrite("successor_origin", &LoopSpec::successorOrigin, "Transform: successor link frame -> loop frame")
      .def_readwrite("where", &LoopSpec::where, "SourceLocation for error messages");
  vec3Member(loop, "axis", &LoopSpec::axis, "axis in the loop frames");
  vec3Member(loop, "axis2", &LoopSpec::axis2,
             "universal loops: the successor's axis (SDFormat's <axis2>), perpendicular to axis in the file's pose");

  specClass<CouplingSpec>(m, "CouplingSpec",
                          "URDF+ <coupling>: sum of qdot along the successor chain = ratio * sum along the "
                          "predecessor chain (chains from the nearest common ancestor down to the named links).")
      .def_readwrite("name", &CouplingSpec::name, "unique name")
      .def_readwrite("predecessor", &CouplingSpec::predecessor, "link name")
      .def_readwrite("successor", &CouplingSpec::successor, "link name")
      .def_readwrite("ratio", &CouplingSpec::ratio, "gear ratio (successor chain / predecessor chain)")
      .def_readwrite("where", &CouplingSpec::where, "SourceLocation for error messages");
}

void bindModelBuilder(py::module_& m) {
  py::class_<ModelBuilder>(m, "ModelBuilder",
                           "The model compiler: collect links, joints, loops and couplings, then build() "
                           "validates everything once and returns an immutable Model.")
      .def(py::init<std::string, std::string>(), py::arg("robot_name") = "robot", py::arg("source_file") = "")
      .def("add_link", &ModelBuilder::addLink, py::arg("link"))
      .def("add_joint", &ModelBuilder::addJoint, py::arg("joint"))
      .def("add_loop", &ModelBuilder::addLoop, py::arg("loop"))
      .def("add_coupling", &ModelBuilder::addCoupling, py::arg("coupling"))
      .def("add_frame", &ModelBuilder::addFrame, py::arg("frame"),
           "A named frame on a link, usable wherever a link name is (constraints, frame kinematics).")
      .def(
          "set_gravity", [](ModelBuilder& b, ArrayLike g) { b.setGravity(toVec3(g, "gravity")); }, py::arg("gravity"),
          "Gravity of the built model, world coordinates (m/s^2).")
      .def_property("specialised_joints", &ModelBuilder::specialisedJoints, &ModelBuilder::setSpecialisedJoints,
                    "recognise the specialised cluster joints (RevoluteWithRotor, ..., FourBar; default True); "
                    "False keeps every constrained cluster Generic")
      .def_property_readonly("name", &ModelBuilder::name, "robot name of the model it builds")
      .def_property_readonly("source_file", &ModelBuilder::sourceFile, "source file name used in error messages")
      .def_property_readonly("links", &ModelBuilder::links, "list of LinkSpec (a copy)")
      .def_property_readonly("joints", &ModelBuilder::joints, "list of JointSpec (a copy)")
      .def_property_readonly("loops", &ModelBuilder::loops, "list of LoopSpec (a copy)")
      .def_property_readonly("couplings", &ModelBuilder::couplings, "list of CouplingSpec (a copy)")
      .def_property_readonly("frames", &ModelBuilder::frames, "list of FrameSpec (a copy)")
      .def_property_readonly("num_constraints", [](const ModelBuilder& b) { return b.constraints().size(); },
                             "number of implicit constraints added in C++ (e.g. the Tello differentials); Python has no add_constraint on "
                             "purpose, see docs/urdf-plus.md, 'Constraints written in code'")
      .def(
          "merge",
          [](ModelBuilder& self, const ModelBuilder& other) {
            if (&self != &other) return self.merge(other);
            const ModelBuilder copy = other;  // merge appends while it reads: never from itself
            self.merge(copy);
          },
          py::arg("other"),
           "Append everything of another builder (multi-file models); names must stay unique.")
      .def_property(
          "loop_treatment", [](const ModelBuilder& b) { return std::string(loopTreatmentName(b.loopTreatment())); },
          [](ModelBuilder& b, const std::string& name) { b.setLoopTreatment(loopTreatmentFromName(name)); },
          "'embed' (default), 'constrain' or 'auto': how build() treats loops and couplings (see load_urdf)")
      .def("add_floating_base", &ModelBuilder::addFloatingBase, py::arg("joint_name") = "root_joint",
           "A free joint from a new root link 'world' to the current root link, so a fixed-base robot floats.")
      .def("build", &ModelBuilder::build, "Validate and compile. Raises ModelError naming file, line and element.");
}

/// "exact" (the default) or "ignore": LoadOptions::transmissions.
TransmissionTreatment transmissionsFromName(const std::string& name) {
  if (name == "exact") return TransmissionTreatment::ExactRotor;
  if (name == "ignore") return TransmissionTreatment::Ignore;
  throw InputError("unknown transmissions option '" + name + "' (valid: exact, ignore)");
}

void bindLoading(py::module_& m) {
  m.def(
      "load_urdf",
      [](PathLike paths, const std::string& loops, bool floatingBase, const std::string& transmissions) {
        LoadOptions options{loopTreatmentFromName(loops)};
        options.floatingBase = floatingBase;
        options.transmissions = transmissionsFromName(transmissions);
        if (py::isinstance<py::list>(paths) || py::isinstance<py::tuple>(paths)) {
          std::vector<std::string> files;
          for (py::handle p : py::handle(paths)) files.push_back(toPath(p));
          return loadUrdf(files, options);
        }
        return loadUrdf(toPath(paths), options);
      },
      py::arg("path"), py::arg("loops") = "embed", py::arg("floating_base") = false,
      py::arg("transmissions") = "exact",
      "load_urdf(path, loops='embed', floating_base=False, transmissions='exact') -> Model\n\nLoad, validate and compile a URDF / URDF+ file, or a list of files "
      "describing one robot (a name defined twice is an error naming both files). Raises ModelError naming file and "
      "line. loops: 'embed' (loops and couplings form clusters), 'constrain' (kept as constraint rows on the spanning "
      "tree: Model.kept_loop_groups, solved by constrained_forward_dynamics) or 'auto' (per cluster, by cost). "
      "floating_base=True puts a free joint between the world and the file's root link (Pinocchio's FreeFlyer root "
      "joint), so a robot written fixed-base floats. transmissions='exact' turns a <transmission> carrying "
      "drake:rotor_inertia into an exact rotor cluster (a thin disc on the joint's parent, coupled by the gear ratio); "
      "'ignore' reads no transmission (see docs/urdf-plus.md).");
  m.def(
      "load_urdf_string",
      [](const std::string& xml, const std::string& sourceName, const std::string& loops, bool floatingBase,
         const std::string& transmissions) {
        LoadOptions options{loopTreatmentFromName(loops)};
        options.floatingBase = floatingBase;
        options.transmissions = transmissionsFromName(transmissions);
        return loadUrdfString(xml, sourceName, options);
      },
      py::arg("xml"), py::arg("source_name") = "<string>", py::arg("loops") = "embed", py::arg("floating_base") = false,
      py::arg("transmissions") = "exact",
      "Load a model from URDF text; `source_name` stands for the file name in error messages; `loops`, "
      "`floating_base` and `transmissions` as load_urdf.");
  m.def(
      "parse_urdf_file", [](PathLike path) { return parseUrdfFile(toPath(path)); }, py::arg("path"),
      "Parse a URDF file into a ModelBuilder (syntax checked; graph and physics are validated by build()).");
  m.def("parse_urdf_string", &parseUrdfString, py::arg("xml"), py::arg("source_name") = "<string>",
        "Parse URDF text into a ModelBuilder.");

  py::module_ robots = m.def_submodule("robots", "Robots built in code (their constraints cannot be written in URDF+).");
  robots.def("tello", &robots::tello, py::arg("with_arms") = true,
             "The Tello humanoid: with arms 37 bodies, 42 spanning / 24 independent DoF; without 21 bodies, 26 / 16.");
  robots.def("tello_builder", &robots::telloBuilder, py::arg("with_arms") = true,
             "The Tello builder (tree + rotor gears + differentials), to modify before build().");
  robots.def("add_tello_constraints", &robots::addTelloConstraints, py::arg("builder"), py::arg("with_arms") = true,
             "Add the rotor gears and differentials to a builder holding the Tello tree (e.g. "
             "parse_urdf_file('models/tello_humanoid.urdf')).");
  robots.attr("TELLO_LEG_GEAR") = robots::kTelloLegGear;
  robots.def("builtin_names", &robots::builtinNames,
             "The robots built in code, by the name the grbda command knows them as builtin:NAME.");
  robots.def("builtin_builder", &robots::builtinBuilder, py::arg("name"),
             "The builder of built-in robot `name` ('builtin:' prefix optional); InputError listing them otherwise.");
  robots.def("builtin", &robots::builtin, py::arg("name"), "Built-in robot `name`, built (see builtin_builder).");
}

void bindLogging(py::module_& m) {
  m.def(
      "set_log_level", [](const std::string& level) { setLogLevel(parseLogLevel(level)); }, py::arg("level"),
      "Log level of model building (to stderr): 'trace', 'debug', 'info', 'warn' (default), 'error', 'off'. "
      "InputError otherwise.");
  m.def(
      "log_level",
      []() {
        static const char* names[] = {"trace", "debug", "info", "warn", "error", "off"};
        return std::string(names[static_cast<int>(logLevel())]);
      },
      "The current log level name.");
}

}  // namespace

void bindBuilder(py::module_& m) {
  bindSpecs(m);
  bindModelBuilder(m);
  bindLoading(m);
  bindLogging(m);
}

}  // namespace grbda::python
