// The constraint layer (constraints/*.hpp, algorithms/constrained_dynamics.hpp): contacts, welds,
// relative and custom rows on top of the cluster tree, their workspace, the solvers, and the two
// articulated-pass by-products inverse_mass_matrix and log_det_mass_matrix.
//
// Lifetimes: a ConstraintModel points at its Model, so it keeps the Python Model alive; a
// ConstraintData keeps its Model and ConstraintModel alive and remembers which ConstraintModel it
// was made for, so that a workspace of another constraint set with the same row count is refused
// (the library only compares the model and the row count).
#include "bindings.hpp"
#include "constraints.hpp"
#include "convert.hpp"
#include "grbda/algorithms/constrained_dynamics.hpp"
#include "grbda/algorithms/dynamics.hpp"
#include "grbda/algorithms/pv_osim.hpp"
#include "grbda/baselines/ltl.hpp"
#include "grbda/baselines/osim_baselines.hpp"

namespace grbda::python {

namespace {


constexpr const char* kPointDoc = "point: 3 coordinates in the link's frame (m), default its origin.";

void bindKinds(py::module_& m) {
  py::enum_<ConstraintKind>(m, "ConstraintKind",
                            "What a constraint holds: POINT_CONTACT (3 rows, p'' = 0 in world axes), WELD (6 rows, "
                            "w' = 0 then p'' = 0), RELATIVE_POINT (3 rows, p''_A = p''_B), RELATIVE_WELD (6 rows), "
                            "CUSTOM (K a = k on the link's spatial acceleration), LOOP (a kept loop's rows), OTHER (a kind defined in C++ "
                            "outside the library; its kind_name is its own).")
      .value("POINT_CONTACT", ConstraintKind::PointContact)
      .value("WELD", ConstraintKind::Weld)
      .value("RELATIVE_POINT", ConstraintKind::RelativePoint)
      .value("RELATIVE_WELD", ConstraintKind::RelativeWeld)
      .value("CUSTOM", ConstraintKind::Custom)
      .value("LOOP", ConstraintKind::Loop)
      .value("OTHER", ConstraintKind::Other);

  py::class_<Constraint>(m, "Constraint", "One constraint of a ConstraintModel as stated and validated (read-only).")
      .def_readonly("name", &Constraint::name, "its name (the link name unless given)")
      .def_readonly("kind", &Constraint::kind, "ConstraintKind")
      .def_property_readonly(
          "kind_name", [](const Constraint& c) { return c.kindName(); },
          "the kind as the grbda command spells it: 'contact', 'weld', 'relative', 'relative-weld', 'custom'")
      .def_readonly("link", &Constraint::link, "the (first) link")
      .def_readonly("link2", &Constraint::link2, "the second link of a relative constraint (else empty)")
      .def_readonly("point", &Constraint::point, "the point on `link`, link coordinates (m)")
      .def_readonly("point2", &Constraint::point2, "the point on `link2`, link coordinates (m)")
      .def_readonly("K", &Constraint::K, "custom rows: m x 6 on the link's spatial acceleration (else empty)")
      .def_readonly("k", &Constraint::k, "custom rows: right-hand side (m)")
      .def_readonly("frame", &Constraint::frame, "frame index of `link`")
      .def_readonly("frame2", &Constraint::frame2, "frame index of `link2` (-1: the world)")
      .def_readonly("body", &Constraint::body, "body carrying `link`")
      .def_readonly("body2", &Constraint::body2, "body carrying `link2` (-1: the world)")
      .def_readonly("row", &Constraint::row, "its first row in lambda_")
      .def_readonly("num_rows", &Constraint::numRows, "its number of rows (3, 6 or m)")
      .def_readonly("loop", &Constraint::loop, "LOOP: index into Model.kept_loop_groups (-1 otherwise)")
      .def("__repr__", [](const Constraint& c) {
        return "<grbda.Constraint " + std::string(c.kindName()) + " '" + c.name + "' rows " +
               std::to_string(c.row) + ".." + std::to_string(c.row + c.numRows - 1) + ">";
      });
}

/// add_point_contact and add_weld: (link, point=None, name='') with the point converted here.
auto onePoint(int (ConstraintModel::*add)(const std::string&, const Vec3&, const std::string&)) {
  return [add](ConstraintModel& c, const std::string& link, ArrayLike point, const std::string& name) {
    return (c.*add)(link, point.is_none() ? Vec3::Zero().eval() : toVec3(point, "point"), name);
  };
}

/// add_relative_point and add_relative_weld: (link_a, point_a, link_b, point_b, name='').
auto twoPoints(int (ConstraintModel::*add)(const std::string&, const Vec3&, const std::string&, const Vec3&,
                                           const std::string&)) {
  const auto pointOr0 = [](ArrayLike p, const char* what) { return p.is_none() ? Vec3::Zero().eval() : toVec3(p, what); };
  return [add, pointOr0](ConstraintModel& c, const std::string& a, ArrayLike pa, const std::string& b, ArrayLike pb,
                         const std::string& name) {
    if (b.empty()) throw InputError("link_b is required (the second link of a relative constraint)");
    return (c.*add)(a, pointOr0(pa, "point_a"), b, pointOr0(pb, "point_b"), name);
  };
}

void bindConstraintModel(py::module_& m) {
  py::class_<ConstraintModel> cls(
      m, "ConstraintModel",
      "ConstraintModel(model): the contacts, welds, relative constraints and custom rows of one problem, validated "
      "against `model` as they are added (InputError naming the constraint: unknown link, non-finite point, link "
      "fixed to the world, bad K). Rows are in world axes, in the order added; lambda is what the environment "
      "exerts on the robot. Keeps its model alive. See docs/constraints.md.");
  cls.def(py::init<const Model&>(), py::arg("model"), py::keep_alive<1, 2>());
  cls.def(
      "add_point_contact",
      onePoint(&ConstraintModel::addPointContact),
      py::arg("link"), py::arg("point") = py::none(), py::arg("name") = "",
      (std::string("add_point_contact(link, point=None, name='') -> index\n\nThe point of `link` does not "
                   "accelerate: p'' = 0, 3 rows (x, y, z in world axes). ") + kPointDoc).c_str());
  cls.def(
      "add_weld",
      onePoint(&ConstraintModel::addWeld),
      py::arg("link"), py::arg("point") = py::none(), py::arg("name") = "",
      (std::string("add_weld(link, point=None, name='') -> index\n\nThe link neither rotates nor accelerates: "
                   "w' = 0 then p'' = 0 at the point, 6 rows (lambda: moment about the point, then force). ") + kPointDoc).c_str());
  cls.def(
      "add_relative_point",
      twoPoints(&ConstraintModel::addRelativePoint),
      py::arg("link_a"), py::arg("point_a") = py::none(), py::arg("link_b") = "", py::arg("point_b") = py::none(),
      py::arg("name") = "",
      "add_relative_point(link_a, point_a=None, link_b, point_b=None, name='') -> index\n\np''_A = p''_B: a ball "
      "joint closing a non-local loop, 3 rows; lambda is the force on link_a (link_b feels its opposite). Points in "
      "their links' coordinates; None (the default, as in add_point_contact) is the link's origin, so "
      "add_relative_point('a', link_b='b') joins the two origins. link_b is required.");
  cls.def(
      "add_relative_weld",
      twoPoints(&ConstraintModel::addRelativeWeld),
      py::arg("link_a"), py::arg("point_a"), py::arg("link_b"), py::arg("point_b"), py::arg("name") = "",
      "add_relative_weld(link_a, point_a, link_b, point_b, name='') -> index\n\nw'_A = w'_B and p''_A = p''_B: a "
      "rigid connection closing a loop, 6 rows.");
  cls.def(
      "add_custom_rows",
      [](ConstraintModel& c, const std::string& link, ArrayLike K, ArrayLike k, const std::string& name) {
        return c.addCustomRows(link, toMatrix(K, "K", -1, 6), toVector(k, "k"), name);
      },
      py::arg("link"), py::arg("K"), py::arg("k"), py::arg("name") = "",
      "add_custom_rows(link, K, k, name='') -> index\n\nK a = k on the link's spatial acceleration a = [w'; a_O] in "
      "link coordinates (Featherstone's, not the classical one): K is m x 6, k has m entries; lambda gives the "
      "generalised force K^T lambda on the link.");
  cls.def("set_compliance", &ConstraintModel::setCompliance, py::arg("R"),
          "set_compliance(R)\n\nThe same compliance R > 0 on every row (pv-soft), in acceleration per force "
          "(m s^-2 N^-1 for a point row): lambda = R^-1 (k - K a). InputError if not positive and finite. Read at "
          "every solve: a ConstraintData made before stays valid (a sweep needs no new one).");
  cls.def("set_row_compliance", &ConstraintModel::setRowCompliance, py::arg("row"), py::arg("R"),
          "set_row_compliance(row, R)\n\nThe compliance of one row (0 <= row < num_rows). InputError otherwise.");
  cls.def("set_baumgarte", &ConstraintModel::setBaumgarte, py::arg("T"),
          "set_baumgarte(T)\n\nBaumgarte stabilisation with time constant T > 0 (s; e.g. 0.1), critically damped: "
          "k = -(2/T) e' - (1/T^2) e from the reference pose (ConstraintData.set_reference, default the pose of the "
          "first solve). T = 0 turns it off. Read at every solve: a ConstraintData made before stays valid.");
  cls.def_property_readonly("size", &ConstraintModel::size, "number of constraints");
  cls.def("__len__", &ConstraintModel::size, "number of constraints");
  cls.def_property_readonly("num_rows", &ConstraintModel::numRows, "number of rows (entries of lambda_)");
  cls.def_property_readonly("num_kept_loop_groups", &ConstraintModel::numKeptLoopGroups,
                            "LOOP constraints at the front: the model's loops kept as rows (Model.kept_loop_groups)");
  cls.def_property_readonly("num_loop_constraints", &ConstraintModel::numKeptLoopGroups,
                            "old name of num_kept_loop_groups, kept for scripts");
  cls.def_property_readonly("constraints", &ConstraintModel::constraints, "list of Constraint (a copy), in order added");
  cls.def_property_readonly(
      "compliance", [](const ConstraintModel& c) { return VecX(c.compliance()); }, "per-row compliance (0: none set)");
  cls.def_property_readonly("baumgarte", &ConstraintModel::baumgarte, "Baumgarte time constant T (s; 0: off)");
  cls.def("__repr__", [](const ConstraintModel& c) {
    return "<grbda.ConstraintModel: " + std::to_string(c.size()) + " constraints, " + std::to_string(c.numRows()) +
           " rows>";
  });
}

void bindConstraintData(py::module_& m) {
  py::class_<BoundConstraintData> cls(
      m, "ConstraintData",
      "ConstraintData(model, constraints): the preallocated workspace of one ConstraintModel on one Model, and the "
      "results of the last constrained_forward_dynamics. Make it after the last constraint is added (an older one "
      "is refused). Keeps both alive.");
  cls.def(py::init<const Model&, const ConstraintModel&>(), py::arg("model"), py::arg("constraints"),
          py::keep_alive<1, 2>(), py::keep_alive<1, 3>());
  cls.def_property_readonly(
      "lambda_", [](const BoundConstraintData& d) -> const VecX& { return d.data.lambda; },
      py::return_value_policy::reference_internal,
      "view: the constraint forces of the last solve (num_rows), world axes, what the environment exerts on the "
      "robot, rows in the order of the ConstraintModel. Named lambda_ because `lambda` is a Python keyword.");
  cls.def_property_readonly(
      "residual", [](const BoundConstraintData& d) { return d.data.residual; },
      "max(row_residual, dynamics_residual): what the last solution is off by");
  cls.def_property_readonly(
      "row_residual", [](const BoundConstraintData& d) { return d.data.rowResidual; },
      "max |K a - k| over the rows at the returned qdd (k with the Baumgarte terms)");
  cls.def_property_readonly(
      "dynamics_residual", [](const BoundConstraintData& d) { return d.data.dynamicsResidual; },
      "|H qdd + C - tau - J^T lambda|_inf at the returned qdd and lambda (N, N m); -1 when not measured "
      "(ConstraintSolverSettings.check_dynamics: by default only pv-early and proximal-delassus measure it)");
  cls.def_property_readonly(
      "rank", [](const BoundConstraintData& d) { return d.data.rank; },
      "numerical rank of J H^-1 J^T (pv, kkt; -1 when not measured, proximal)");
  cls.def_property_readonly(
      "redundant", [](const BoundConstraintData& d) { return d.data.redundant; },
      "rank < rows: lambda is the minimum-norm force of the redundant (consistent) rows");
  cls.def_property_readonly(
      "inconsistent", [](const BoundConstraintData& d) { return d.data.inconsistent; },
      "proximal only: the rows are inconsistent and lambda is the minimum-norm least-squares force (the hard "
      "solvers raise NumericalError instead)");
  cls.def_property_readonly(
      "inconsistency", [](const BoundConstraintData& d) { return d.data.inconsistency; },
      "|J H^-1 J^T lambda - b|_inf of a redundant row set: what the force leaves unmet (0 for full rank)");
  cls.def_property_readonly(
      "iterations", [](const BoundConstraintData& d) { return d.data.iterations; },
      "proximal iterations of the last solve (0 for the direct solvers)");
  cls.def(
      "set_reference",
      [](BoundConstraintData& d, const Model& model, BoundData& data, const ConstraintModel& constraints) {
        d.of(constraints, "set_reference", &model).setReference(model, data.of(model, "set_reference"), constraints);
      },
      py::arg("model"), py::arg("data"), py::arg("constraints"),
      "set_reference(model, data, constraints)\n\nThe Baumgarte reference pose: the constraint points and link "
      "orientations at the kinematics in `data` (call grbda.forward_kinematics at the reference q first).");
  cls.def(
      "clear_reference", [](BoundConstraintData& d) { d.data.clearReference(); },
      "clear_reference()\n\nForget the reference: the next solve with Baumgarte on captures the pose it starts at.");
}


void bindSolvers(py::module_& m) {
  py::enum_<ConstraintSolver>(m, "ConstraintSolver",
                              "PV (Popov-Vereshchagin on the cluster tree, default), PV_SOFT (soft rows with the "
                              "compliance), KKT (the dense reference), PROXIMAL_DELASSUS (proximal method of multipliers on "
                              "the Delassus matrix; PROXIMAL is its old name), LTL and "
                              "LTL_SOFT (Featherstone's H = L^T L baselines, hard and soft), PV_EARLY (PV eliminating "
                              "the rows early, O(n + m)).")
      .value("PV", ConstraintSolver::PV)
      .value("PV_SOFT", ConstraintSolver::PVSoft)
      .value("KKT", ConstraintSolver::KKT)
      .value("PROXIMAL_DELASSUS", ConstraintSolver::ProximalDelassus)
      .value("PROXIMAL", ConstraintSolver::Proximal)  // the old name of PROXIMAL_DELASSUS
      .value("LTL", ConstraintSolver::LTL)
      .value("LTL_SOFT", ConstraintSolver::LTLSoft)
      .value("PV_EARLY", ConstraintSolver::PVEarly);

  py::class_<ConstraintSolverSettings>(m, "ConstraintSolverSettings",
                                       "ConstraintSolverSettings(solver='pv', mu=1e-8, max_iterations=50, "
                                       "tolerance=1e-12, check_dynamics='auto'): which solver, the proximal "
                                       "iteration's parameters and when to measure the equation of motion.")
      .def(py::init([](py::object solver, double mu, int maxIterations, double tolerance,
                       const std::string& checkDynamics) {
             ConstraintSolverSettings s;
             if (py::isinstance<ConstraintSolverSettings>(solver))
               throw InputError("ConstraintSolverSettings: solver must be a name or a ConstraintSolver");
             s.solver = toSettings(solver).solver;
             s.mu = mu;
             s.maxIterations = maxIterations;
             s.tolerance = tolerance;
             s.checkDynamics = dynamicsCheckFromName(checkDynamics);
             return s;
           }),
           py::arg("solver") = "pv", py::arg("mu") = 1e-8, py::arg("max_iterations") = 50,
           py::arg("tolerance") = 1e-12, py::arg("check_dynamics") = "auto",
           "solver: a ConstraintSolver or its name ('pv', 'pv-soft', 'kkt', 'proximal-delassus' (old name "
           "'proximal'), 'ltl', 'ltl-soft', 'pv-early'; InputError otherwise).")
      .def_readwrite("solver", &ConstraintSolverSettings::solver, "ConstraintSolver")
      .def_readwrite("mu", &ConstraintSolverSettings::mu,
                     "proximal: regularisation, relative to the largest diagonal entry of J H^-1 J^T")
      .def_readwrite("max_iterations", &ConstraintSolverSettings::maxIterations, "proximal: iteration cap (>= 1)")
      .def_readwrite("tolerance", &ConstraintSolverSettings::tolerance,
                     "proximal: stop when |J H^-1 J^T lambda - b|_inf <= tolerance (1 + |b|_inf)")
      .def_property(
          "check_dynamics", [](const ConstraintSolverSettings& s) { return std::string(dynamicsCheckName(s.checkDynamics)); },
          [](ConstraintSolverSettings& s, const std::string& name) { s.checkDynamics = dynamicsCheckFromName(name); },
          "when to measure the equation of motion at the answer (cdata.dynamics_residual): 'auto' (pv-early and "
          "proximal-delassus), 'always' or 'never'; -1 when not measured")
      .def("__repr__", [](const ConstraintSolverSettings& s) {
        return "ConstraintSolverSettings(solver='" + std::string(constraintSolverName(s.solver)) +
               "', mu=" + py::repr(py::float_(s.mu)).cast<std::string>() +
               ", max_iterations=" + std::to_string(s.maxIterations) +
               ", tolerance=" + py::repr(py::float_(s.tolerance)).cast<std::string>() + ", check_dynamics='" +
               dynamicsCheckName(s.checkDynamics) + "')";
      });
}

void bindCalls(py::module_& m) {
  m.def(
      "constrained_forward_dynamics",
      [](const Model& model, BoundData& d, const ConstraintModel& constraints, BoundConstraintData& cd, ArrayLike q,
         ArrayLike v, ArrayLike tau, py::object solver, ArrayLike fext) {
        const char* name = "constrained_forward_dynamics";
        const ConstraintSolverSettings settings = toSettings(solver);
        const auto f = toExternalForces(fext, model);
        return VecX(constrainedForwardDynamics(model, d.of(model, name), constraints, cd.of(constraints, name, &model),
                                               toVector(q, "q"), toVector(v, "v"), toVector(tau, "tau"), settings, f));
      },
      py::arg("model"), py::arg("data"), py::arg("constraints"), py::arg("cdata"), py::arg("q"), py::arg("v"),
      py::arg("tau"), py::arg("solver") = "pv", py::arg("fext") = py::none(),
      "constrained_forward_dynamics(model, data, constraints, cdata, q, v, tau, solver='pv', fext=None) -> qdd\n\n"
      "Forward dynamics with the constraints: H qdd + C = tau + J^T lambda with the rows of `constraints` holding. "
      "Returns qdd (nv); the forces are in cdata.lambda_ (world axes, what the environment exerts on the robot), "
      "with cdata.residual, rank, redundant, iterations. q independent (nq) or spanning, v and tau independent (nv). "
      "solver: 'pv' (Popov-Vereshchagin, default), 'pv-soft' (needs a compliance on every row), 'kkt' (dense "
      "reference), 'proximal', 'ltl' / 'ltl-soft' (Featherstone's LTL baselines, hard and soft), 'pv-early' (PV "
      "with early elimination), a ConstraintSolver or ConstraintSolverSettings. fext: None or (num_bodies, 6) "
      "world spatial forces. InputError for bad sizes, NaN, workspaces of another model or constraint set; "
      "NumericalError for an inconsistent constraint set or a singular state.");
  m.def(
      "ltl_constraint_delassus",
      [](const Model& model, BoundData& d, const ConstraintModel& constraints, BoundConstraintData& cd, ArrayLike q) {
        const char* name = "ltl_constraint_delassus";
        return MatX(ltlConstraintDelassus(model, d.of(model, name), constraints, cd.of(constraints, name, &model),
                                          toVector(q, "q")));
      },
      py::arg("model"), py::arg("data"), py::arg("constraints"), py::arg("cdata"), py::arg("q"),
      "ltl_constraint_delassus(model, data, constraints, cdata, q) -> J H^-1 J^T (num_rows x num_rows)\n\n"
      "LTL-OSIM: H = L^T L (no fill-in), Y = J L^-1, Y Y^T for the rows of `constraints` at q.");
  m.def(
      "inverse_mass_matrix",
      [](const Model& model, BoundData& d, ArrayLike q) {
        return MatX(inverseMassMatrix(model, d.of(model, "inverse_mass_matrix"), toVector(q, "q")));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      "inverse_mass_matrix(model, data, q) -> Hinv (nv x nv)\n\nH(q)^-1 from the articulated-cluster pass and one "
      "outward sweep, without forming or factorising H. NumericalError if H is not positive definite.");
  m.def(
      "log_det_mass_matrix",
      [](const Model& model, BoundData& d, ArrayLike q) {
        return logDetMassMatrix(model, d.of(model, "log_det_mass_matrix"), toVector(q, "q"));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      "log_det_mass_matrix(model, data, q) -> float\n\nlog det H(q) as the sum of the log determinants of the "
      "articulated-cluster pivots D_k, without forming H. NumericalError if H is not positive definite.");
}

/// PvOsimFast plus the ConstraintModel it was made for.
struct BoundPvOsimFast {
  BoundPvOsimFast(const Model& m, const ConstraintModel& c) : constraints(&c), op(m, c) {}
  const ConstraintModel* constraints;
  PvOsimFast op;
};

/// (model, data, constraints, cdata, q) -> matrix, for the three Λ⁻¹ / Λ calls.
template <const MatX& (*F)(const Model&, Data&, const ConstraintModel&, ConstraintData&, const VecRef&)>
MatX osimCall(const char* name, const Model& model, BoundData& d, const ConstraintModel& constraints,
              BoundConstraintData& cd, ArrayLike q) {
  return MatX(F(model, d.of(model, name), constraints, cd.of(constraints, name, &model), toVector(q, "q")));
}

void bindPvOsim(py::module_& m) {
  m.def(
      "pv_inverse_operational_space_inertia",
      [](const Model& model, BoundData& d, const ConstraintModel& c, BoundConstraintData& cd, ArrayLike q) {
        return osimCall<pvInverseOperationalSpaceInertia>("pv_inverse_operational_space_inertia", model, d, c, cd,
                                                          q);
      },
      py::arg("model"), py::arg("data"), py::arg("constraints"), py::arg("cdata"), py::arg("q"),
      "pv_inverse_operational_space_inertia(model, data, constraints, cdata, q) -> Lambda_inv (m x m)\n\nPV-OSIM "
      "(seed 003 Alg. 2): the "
      "inverse operational-space inertia / Delassus matrix J H^-1 J^T of the constraint rows at q, rows in the order "
      "of the ConstraintModel, from one articulated pass (no Jacobian, no mass matrix). Configuration only.");
  m.def(
      "pv_operational_space_inertia",
      [](const Model& model, BoundData& d, const ConstraintModel& c, BoundConstraintData& cd, ArrayLike q) {
        return osimCall<pvOperationalSpaceInertia>("pv_operational_space_inertia", model, d, c, cd, q);
      },
      py::arg("model"), py::arg("data"), py::arg("constraints"), py::arg("cdata"), py::arg("q"),
      "pv_operational_space_inertia(model, data, constraints, cdata, q) -> Lambda (m x m)\n\nPV-OSIM, then Lambda = "
      "(J H^-1 J^T)^-1 by a "
      "Cholesky factorisation. NumericalError naming the rank when the rows are redundant.");
  m.def(
      "dense_inverse_operational_space_inertia",
      [](const Model& model, BoundData& d, const ConstraintModel& c, BoundConstraintData& cd, ArrayLike q) {
        return osimCall<denseInverseOperationalSpaceInertia>("dense_inverse_operational_space_inertia", model, d, c,
                                                             cd, q);
      },
      py::arg("model"), py::arg("data"), py::arg("constraints"), py::arg("cdata"), py::arg("q"),
      "dense_inverse_operational_space_inertia(model, data, constraints, cdata, q) -> Lambda_inv (m x m)\n\nThe "
      "dense baseline of "
      "pv_inverse_operational_space_inertia: J H^-1 J^T with H from the cluster CRBA and J from the body Jacobians.");
  // the old names, kept for existing scripts
  m.attr("pv_inverse_osim") = m.attr("pv_inverse_operational_space_inertia");
  m.attr("pv_osim") = m.attr("pv_operational_space_inertia");
  m.attr("dense_inverse_osim") = m.attr("dense_inverse_operational_space_inertia");

  py::class_<BoundPvOsimFast> cls(
      m, "PvOsimFast",
      "PvOsimFast(model, constraints): PV-OSIM-fast (seed 003 eq. 54), Lambda and Lambda^-1 of a floating-base "
      "robot as an operator: per-branch blocks of L_b^A and a 6x6 base solve, no m x m matrix. compute(...) at a "
      "configuration, then apply_inverse(x) = Lambda^-1 x (Pinocchio's Delassus product) and apply_lambda(x) = "
      "solve(x) = Lambda x (Pinocchio's DelassusOperator.solve). When L_b^A is singular (a row on the base link, a "
      "6-D weld on a 5-DoF leg, a stretched knee) compute falls back to the dense factorisation (fell_back). A "
      "fixed base is plain PV-OSIM (floating_base False). Keeps both alive.");
  cls.def(py::init<const Model&, const ConstraintModel&>(), py::arg("model"), py::arg("constraints"),
          py::keep_alive<1, 2>(), py::keep_alive<1, 3>());
  cls.def(
      "compute",
      [](BoundPvOsimFast& self, const Model& model, BoundData& d, const ConstraintModel& c, BoundConstraintData& cd,
         ArrayLike q) {
        const char* name = "PvOsimFast.compute";
        if (&c != self.constraints)
          throw InputError(std::string(name) + ": the operator was made for another ConstraintModel");
        self.op.compute(model, d.of(model, name), c, cd.of(c, name, &model), toVector(q, "q"));
      },
      py::arg("model"), py::arg("data"), py::arg("constraints"), py::arg("cdata"), py::arg("q"),
      "compute(model, data, constraints, cdata, q)\n\nThe pass and the factorisations at q. Redundant rows are no "
      "error: invertible is then False and apply_lambda raises NumericalError.");
  cls.def(
      "apply_inverse",
      [](const BoundPvOsimFast& self, ArrayLike x) {
        VecX y;
        self.op.applyInverse(toVector(x, "x"), y);
        return y;
      },
      py::arg("x"), "apply_inverse(x) -> Lambda^-1 x = J H^-1 J^T x");
  const auto lambda = [](const BoundPvOsimFast& self, ArrayLike x) {
    VecX y;
    self.op.applyLambda(toVector(x, "x"), y);
    return y;
  };
  cls.def("apply_lambda", lambda, py::arg("x"), "apply_lambda(x) -> Lambda x = (J H^-1 J^T)^-1 x");
  cls.def("solve", lambda, py::arg("x"), "solve(x) -> Lambda x: the same as apply_lambda (Pinocchio's name)");
  cls.def_property_readonly("size", [](const BoundPvOsimFast& s) { return s.op.size(); }, "number of rows m");
  cls.def_property_readonly("floating_base", [](const BoundPvOsimFast& s) { return s.op.floatingBase(); },
                            "eq. 54 applies: the base is the only root cluster and floats");
  cls.def_property_readonly("fell_back", [](const BoundPvOsimFast& s) { return s.op.fellBack(); },
                            "the last compute found L_b^A singular and factorised the dense Lambda^-1");
  cls.def_property_readonly("fast", [](const BoundPvOsimFast& s) { return s.op.fast(); },
                            "the last compute used eq. 54");
  cls.def_property_readonly("invertible", [](const BoundPvOsimFast& s) { return s.op.invertible(); },
                            "the rows are independent, so Lambda exists (apply_lambda raises NumericalError otherwise)");
  cls.def_property_readonly("num_branches", [](const BoundPvOsimFast& s) { return s.op.numBranches(); },
                            "number of diagonal blocks of L_b^A");
  cls.def("branch_delassus", [](const BoundPvOsimFast& s) { return s.op.branchDelassus(); },
          "branch_delassus() -> L_b^A (m x m, zero outside the branch blocks)");
  cls.def("base_rows", [](const BoundPvOsimFast& s) { return s.op.baseRows(); },
          "base_rows() -> K_b^A (m x 6), the rows seen at the base");
  cls.def("base_inertia", [](const BoundPvOsimFast& s) { return Mat6(s.op.baseInertia()); },
          "base_inertia() -> H_b^A (6 x 6), so that Lambda^-1 = L_b^A + K_b^A H_b^A^-1 K_b^A^T (eq. 48)");
}

}  // namespace

ConstraintSolverSettings toSettings(py::handle solver) {
  if (py::isinstance<py::str>(solver)) {
    ConstraintSolverSettings s;
    s.solver = constraintSolverFromName(solver.cast<std::string>());
    return s;
  }
  if (py::isinstance<ConstraintSolverSettings>(solver)) return solver.cast<ConstraintSolverSettings>();
  if (py::isinstance<ConstraintSolver>(solver)) {
    ConstraintSolverSettings s;
    s.solver = solver.cast<ConstraintSolver>();
    return s;
  }
  throw InputError("solver must be a name ('pv', 'pv-soft', 'kkt', 'proximal', 'ltl', 'ltl-soft', 'pv-early'), a "
                   "ConstraintSolver or "
                   "ConstraintSolverSettings, got " + std::string(py::str(py::type::of(solver))));
}

void bindConstraints(py::module_& m) {
  bindKinds(m);
  bindConstraintModel(m);
  bindConstraintData(m);
  bindSolvers(m);
  bindCalls(m);
  bindPvOsim(m);
}

}  // namespace grbda::python
