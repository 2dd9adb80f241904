// grbda.World and grbda.Simulator (sim/simulator.hpp): stepping with frictional contact, limits,
// damping and dry friction, a joint PD or a Python controller, the GIL released while stepping.
#include <pybind11/functional.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "bound_simulator.hpp"
#include "grbda/collision/mesh.hpp"
#include "grbda/sim/simulator.hpp"

namespace grbda::python {

void PythonController::compute(const Simulator&, VecX& tau) {
  py::gil_scoped_acquire gil;
  const py::object out = f_(py::cast(owner_, py::return_value_policy::reference));
  tau = toVector(out, "the controller's tau");
}

namespace {

py::dict contactDict(const Model& model, const ContactForce& f) {
  py::dict d;
  d["link"] = model.collisionGeometries()[static_cast<size_t>(f.contact.geometry)].link;
  // self-collision: the other link of the pair (it feels the opposite force); None for the world
  d["other_link"] = f.contact.geometry2 >= 0
                        ? py::cast(model.collisionGeometries()[static_cast<size_t>(f.contact.geometry2)].link)
                        : py::none();
  d["point"] = Vec3(f.contact.point);
  d["normal"] = Vec3(f.contact.normal);
  d["distance"] = f.contact.distance;
  d["normal_force"] = f.normalForce;
  d["friction_force"] = Vec3(f.frictionForce);
  d["sliding"] = f.sliding;
  return d;
}

const char* jointRowName(JointRowKind kind) {
  switch (kind) {
    case JointRowKind::LowerLimit: return "lower_limit";
    case JointRowKind::UpperLimit: return "upper_limit";
    case JointRowKind::Friction: return "friction";
    case JointRowKind::Damping: return "damping";
  }
  return "?";
}

void bindMeshHull(py::module_& m) {
  m.def(
      "mesh_hull",
      [](const std::string& path, ArrayLike scale) {
        const auto hull = loadMeshHull(path, toVec3(scale, "scale"));
        MatX vertices(static_cast<Eigen::Index>(hull->vertices.size()), 3);
        for (size_t i = 0; i < hull->vertices.size(); ++i) vertices.row(static_cast<Eigen::Index>(i)) = hull->vertices[i].transpose();
        Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor> faces(static_cast<Eigen::Index>(hull->faces.size()), 3);
        for (size_t i = 0; i < hull->faces.size(); ++i)
          for (int k = 0; k < 3; ++k) faces(static_cast<Eigen::Index>(i), k) = hull->faces[i][static_cast<size_t>(k)];
        return py::make_tuple(vertices, faces);
      },
      py::arg("path"), py::arg("scale") = py::make_tuple(1.0, 1.0, 1.0),
      "The convex hull a URDF <mesh> collision becomes: (vertices n x 3, faces f x 3, outward) of the STL "
      "(binary or ASCII) or OBJ file at `path`, scaled per axis. InputError for an unreadable, unsupported or flat mesh.");
}

void bindWorld(py::module_& m) {
  py::class_<World>(m, "World",
                    "The world of a simulation: a ground half-space (height, normal; default z = 0, +z up), static "
                    "boxes, friction mu (default 1) and restitution e (default 0) of the contacts, and the margin "
                    "from which a contact row is active.")
      .def(py::init([](bool ground, double height, double friction, double restitution, bool selfCollision) {
             World w;
             w.hasGround = ground;
             w.groundHeight = height;
             w.friction = friction;
             w.restitution = restitution;
             w.selfCollision = selfCollision;
             w.validate();
             return w;
           }),
           py::arg("ground") = true, py::arg("ground_height") = 0.0, py::arg("friction") = 1.0,
           py::arg("restitution") = 0.0, py::arg("self_collision") = false,
           "World(ground=True, ground_height=0, friction=1, restitution=0, self_collision=False)")
      .def_readwrite("self_collision", &World::selfCollision,
                     "contacts between the robot's own links (FCL); adjacent and same-cluster links are never tested")
      .def_readwrite("has_ground", &World::hasGround, "whether the ground half-space is there")
      .def_readwrite("ground_height", &World::groundHeight, "ground height along its normal [m]")
      .def_property(
          "ground_normal", [](const World& w) { return Vec3(w.groundNormal); },
          [](World& w, ArrayLike n) { w.groundNormal = toVec3(n, "ground_normal"); }, "unit outward normal of the ground")
      .def_readwrite("friction", &World::friction, "Coulomb mu of the contacts")
      .def_readwrite("restitution", &World::restitution, "normal restitution e in [0, 1]")
      .def_readwrite("margin", &World::margin, "distance [m] below which a contact row is active")
      .def(
          "add_box",
          [](World& w, ArrayLike center, ArrayLike size, py::object rotation, py::object friction, py::object restitution) {
            StaticBox b;
            b.center = toVec3(center, "center");
            b.halfExtents = 0.5 * toVec3(size, "size");
            if (!rotation.is_none()) b.rotation = toMatrix(rotation, "rotation", 3, 3);
            if (!friction.is_none()) b.friction = friction.cast<double>();  // None: the world's
            if (!restitution.is_none()) b.restitution = restitution.cast<double>();
            w.boxes.push_back(b);
            try {
              w.validate();
            } catch (...) {
              w.boxes.pop_back();
              throw;
            }
          },
          py::arg("center"), py::arg("size"), py::arg("rotation") = py::none(), py::arg("friction") = py::none(),
          py::arg("restitution") = py::none(),
          "Adds a static box (full sizes [m]; rotation: its axes as columns, world coordinates; friction >= 0 and "
          "restitution in [0, 1] of its own, or None (or -1, the C++ StaticBox::kWorlds) for the world's; any "
          "other value raises InputError naming it).")
      .def_property_readonly("num_boxes", [](const World& w) { return w.boxes.size(); }, "number of static boxes");
}

SimulatorOptions makeOptions(double dt, const std::string& integrator, const std::string& solver, int maxIterations,
                             double tolerance, bool pyramidal, double erp, bool limits, bool friction, bool damping,
                             bool saturate) {
  SimulatorOptions o;
  o.dt = dt;
  o.integrator = integratorFromName(integrator);
  o.solver.type = contactSolverFromName(solver);
  o.solver.maxIterations = maxIterations;
  o.solver.tolerance = tolerance;
  o.solver.pyramidal = pyramidal;
  o.solver.erp = erp;
  o.jointLimits = limits;
  o.jointFriction = friction;
  o.jointDamping = damping;
  o.saturateEffort = saturate;
  return o;
}

}  // namespace

void bindSimulator(py::module_& m) {
  bindWorld(m);
  bindMeshHull(m);
  py::class_<BoundSimulator>(m, "Simulator",
                             "Time stepping with frictional contact (exact Coulomb cone), joint limits, damping and dry "
                             "friction on the cluster tree: rotors and loops exact. The model's URDF <collision>, "
                             "<limit> and <dynamics> are used. State in independent coordinates (like q, v everywhere "
                             "in grbda); forces are what the environment exerts on the robot, world axes.")
      .def(py::init([](const Model& model, py::object world, double dt, const std::string& integrator,
                       const std::string& solver, int maxIterations, double tolerance, bool pyramidal, double erp,
                       bool limits, bool friction, bool damping, bool saturate) {
             const World w = world.is_none() ? World() : world.cast<World>();
             return std::make_unique<BoundSimulator>(
                 model, w, makeOptions(dt, integrator, solver, maxIterations, tolerance, pyramidal, erp, limits, friction,
                                       damping, saturate));
           }),
           py::arg("model"), py::arg("world") = py::none(), py::arg("dt") = 1e-3,
           py::arg("integrator") = "semi-implicit-euler", py::arg("solver") = "admm", py::arg("max_iterations") = 500,
           py::arg("tolerance") = 1e-9, py::arg("pyramidal") = false, py::arg("erp") = 0.2,
           py::arg("joint_limits") = true, py::arg("joint_friction") = true, py::arg("joint_damping") = true,
           py::arg("saturate_effort") = true,
           "Simulator(model, world=None (a ground at z = 0), dt=1e-3, integrator='semi-implicit-euler' | 'rk4', "
           "solver='admm' | 'pgs' | 'compliant', ...). The state starts at the neutral configuration, at rest.")
      .def_property_readonly("nq", [](const BoundSimulator& s) { return s.sim.model().nq(); }, "positions")
      .def_property_readonly("nv", [](const BoundSimulator& s) { return s.sim.model().nv(); }, "velocities")
      .def_property_readonly("q", [](const BoundSimulator& s) { return VecX(s.sim.q()); }, "independent positions (a copy)")
      .def_property_readonly("v", [](const BoundSimulator& s) { return VecX(s.sim.v()); }, "independent velocities (a copy)")
      .def_property_readonly("time", [](const BoundSimulator& s) { return s.sim.time(); }, "simulated time [s]")
      .def("set_time", [](BoundSimulator& s, double t) { s.sim.setTime(t); }, py::arg("t"), "Sets the clock.")
      .def(
          "set_state",
          [](BoundSimulator& s, ArrayLike q, py::object v) {
            const VecX qq = toVector(q, "q");
            s.sim.setState(qq, v.is_none() ? VecX(VecX::Zero(s.sim.model().nv())) : toVector(v, "v"));
          },
          py::arg("q"), py::arg("v") = py::none(), "Sets q (nq) and v (nv, default zeros).")
      .def("energy", [](BoundSimulator& s) { return s.sim.energy(); }, "Kinetic + gravitational potential energy [J].")
      .def_property_readonly(
          "q_spanning", [](BoundSimulator& s) { return VecX(s.sim.spanningPositions()); },
          "every joint's position at the state (nq_spanning: rotors and loop joints completed from q)")
      .def("start_recording", [](BoundSimulator& s) { s.sim.startRecording(); },
           "Records (time, q, v) from the current state at every step (see trajectory).")
      .def("stop_recording", [](BoundSimulator& s) { s.sim.stopRecording(); }, "Stops recording; keeps the record.")
      .def_property_readonly(
          "trajectory",
          [](const BoundSimulator& s) {
            const Trajectory& t = s.sim.trajectory();
            const Eigen::Index n = static_cast<Eigen::Index>(t.time.size());
            MatX Q(n, s.sim.model().nq()), V(n, s.sim.model().nv());
            for (Eigen::Index i = 0; i < n; ++i) {
              Q.row(i) = t.q[static_cast<size_t>(i)].transpose();
              V.row(i) = t.v[static_cast<size_t>(i)].transpose();
            }
            py::dict d;
            d["time"] = Eigen::Map<const VecX>(t.time.data(), n).eval();
            d["q"] = Q;
            d["v"] = V;
            return d;
          },
          "The recording as a dict of numpy arrays: time (n), q (n, nq), v (n, nv).")
      .def("set_torque", [](BoundSimulator& s, ArrayLike tau) { s.sim.setTorque(toVector(tau, "tau")); },
           py::arg("tau"), "Generalised forces (nv) held from step to step.")
      .def(
          "set_pd",
          [](BoundSimulator& s, py::object kp, py::object kd) {
            // a scalar is one value for every coordinate
            s.sim.setPd(toVector(py::array::ensure(kp).attr("ravel")(), "kp"), toVector(py::array::ensure(kd).attr("ravel")(), "kd"));
          },
          py::arg("kp"), py::arg("kd"),
          "A joint PD on every actuated independent coordinate: tau = kp (q_target - q) - kd (v - v_target); kp, kd "
          "scalars or nv values. The target defaults to the state when the PD is switched on.")
      .def(
          "set_pd_target",
          [](BoundSimulator& s, ArrayLike q, py::object v) {
            s.sim.setPdTarget(toVector(q, "q_target"),
                              v.is_none() ? VecX(VecX::Zero(s.sim.model().nv())) : toVector(v, "v_target"));
          },
          py::arg("q_target"), py::arg("v_target") = py::none(), "PD targets: q (nq) and v (nv, default zeros).")
      .def("clear_pd", [](BoundSimulator& s) { s.sim.clearPd(); }, "Switches the PD off.")
      .def(
          "set_controller",
          [](BoundSimulator& s, py::object f) {
            if (f.is_none()) {
              s.sim.setController(nullptr);
              s.controller.reset();
              return;
            }
            if (!PyCallable_Check(f.ptr())) throw InputError("set_controller: the controller must be callable or None");
            s.controller = std::make_unique<PythonController>(py::reinterpret_borrow<py::function>(f), &s);
            s.sim.setController(s.controller.get());
          },
          py::arg("controller"),
          "A callable f(sim) -> tau (nv) called at every step, added to the held torque and the PD. An exception it "
          "raises reaches step()'s caller; the state stays at the last good step. None removes it.")
      .def(
          "step",
          [](BoundSimulator& s, int n) {
            if (n < 0) throw InputError("step: n must be >= 0 (got " + std::to_string(n) + ")");
            py::gil_scoped_release release;  // a Python controller takes the GIL back for its call
            s.sim.step(n);
          },
          py::arg("n") = 1, "Advances n steps of dt (the GIL released).")
      .def_property_readonly(
          "applied_torque", [](const BoundSimulator& s) { return VecX(s.sim.appliedTorque()); },
          "tau applied in the last step (held + PD + controller, saturated by URDF effort)")
      .def_property_readonly(
          "contacts",
          [](const BoundSimulator& s) {
            py::list out;
            for (const ContactForce& f : s.sim.lastStep().contacts) out.append(contactDict(s.sim.model(), f));
            return out;
          },
          "Contacts of the last step: dicts with link, point (world, midway between the surfaces), normal, distance "
          "(negative when penetrating), normal_force [N], friction_force (world 3-vector) [N], sliding.")
      .def_property_readonly(
          "normal_force_sum", [](const BoundSimulator& s) { return s.sim.lastStep().normalForceSum(); },
          "sum of the last step's normal forces [N]")
      .def_property_readonly(
          "joint_forces",
          [](const BoundSimulator& s) {
            py::list out;
            for (const JointRowForce& f : s.sim.lastStep().joints) {
              py::dict d;
              d["joint"] = s.sim.model().body(f.body).jointName;
              d["kind"] = jointRowName(f.kind);
              d["force"] = f.force;
              out.append(d);
            }
            return out;
          },
          "Limit, friction and damping forces of the last step: dicts with joint, kind, force [N m or N].")
      .def_property_readonly(
          "solver_stats",
          [](const BoundSimulator& s) {
            const ContactSolveStats& st = s.sim.lastStep().solver;
            py::dict d;
            d["rows"] = st.rows;
            d["iterations"] = st.iterations;
            d["converged"] = st.converged;
            d["cone_residual"] = st.coneResidual;
            d["velocity_residual"] = st.velocityResidual;
            d["complementarity_residual"] = st.complementarityResidual;
            return d;
          },
          "The last contact solve: rows, iterations, converged, and its residuals.");
}

}  // namespace grbda::python
