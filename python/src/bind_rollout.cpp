// grbda.rollout (sim/rollout.hpp) with the GIL released, and pickling of Model, World and
// Simulator (model_source.hpp, sim/serialize.hpp) for processes and machines that need them.
#include <pybind11/numpy.h>

#include "bindings.hpp"
#include "bound_simulator.hpp"
#include "convert.hpp"
#include "grbda/model_source.hpp"
#include "grbda/sim/rollout.hpp"
#include "grbda/sim/serialize.hpp"

namespace grbda::python {

namespace {

/// Per-rollout gains: a scalar (every rollout, every coordinate), (N,) or (N, 1) (one gain per
/// rollout), or (N, nv).
MatX toGains(py::handle x, const char* what, Eigen::Index n, Eigen::Index nv) {
  const py::array a = py::array::ensure(x);
  if (!a) throw InputError(std::string("rollout: ") + what + " must be a number or an array");
  if (a.ndim() == 0) return MatX::Constant(n, 1, toVector(a.attr("reshape")(1), what)[0]);
  if (a.ndim() == 1) return toMatrix(a.attr("reshape")(-1, 1), what, n, 1);
  const MatX g = toMatrix(a, what);
  if (g.rows() != n || (g.cols() != 1 && g.cols() != nv))
    throw InputError(std::string("rollout: ") + what + " is " + std::to_string(g.rows()) + " x " + std::to_string(g.cols()) +
                     ", expected a scalar, (" + std::to_string(n) + ",), (" + std::to_string(n) + ", 1) or (" +
                     std::to_string(n) + ", nv = " + std::to_string(nv) + ")");
  return g;
}

py::tuple rolloutPy(BoundSimulator& s, ArrayLike q0in, py::object v0in, int steps, int threads, py::object friction,
                    py::object kp, py::object kd) {
  if (s.controller)
    throw InputError("rollout: the simulator has a Python controller, which cannot run on the rollout threads (it "
                     "needs the GIL); remove it with set_controller(None) and use set_pd / per-rollout kp, kd, or "
                     "step the simulator from Python");
  const Model& model = s.sim.model();
  const MatX Q = toMatrix(q0in, "q0", -1, model.nq());
  const Eigen::Index n = Q.rows();
  const MatX V = v0in.is_none() ? MatX(MatX::Zero(n, model.nv())) : toMatrix(v0in, "v0", n, model.nv());
  RolloutParameters p;
  if (!friction.is_none()) p.friction = toVector(friction, "friction");
  if (!kp.is_none()) p.kp = toGains(kp, "kp", n, model.nv());
  if (!kd.is_none()) p.kd = toGains(kd, "kd", n, model.nv());
  if (steps < 0) throw InputError("rollout: steps must be >= 0 (got " + std::to_string(steps) + ")");
  RolloutSettings settings;
  settings.threads = threads;
  const auto rows = static_cast<py::ssize_t>(steps) + 1;
  py::array_t<double> positions({static_cast<py::ssize_t>(n), rows, static_cast<py::ssize_t>(model.nq())});
  py::array_t<double> velocities({static_cast<py::ssize_t>(n), rows, static_cast<py::ssize_t>(model.nv())});
  double* qOut = positions.mutable_data();
  double* vOut = velocities.mutable_data();
  {
    py::gil_scoped_release release;
    rollout(s.sim, Q, V, steps, qOut, vOut, p, settings);
  }
  return py::make_tuple(positions, velocities);
}

py::tuple worldState(const World& w) {
  py::list boxes;
  for (const StaticBox& b : w.boxes)
    boxes.append(py::make_tuple(Vec3(b.center), Mat3(b.rotation), Vec3(b.halfExtents), b.friction, b.restitution));
  return py::make_tuple(w.hasGround, w.groundHeight, Vec3(w.groundNormal), boxes, w.friction, w.restitution, w.margin,
                        w.selfCollision);
}

World worldFromState(const py::tuple& t) {
  if (t.size() != 8) throw InputError("World.__setstate__: expected 8 fields, got " + std::to_string(t.size()));
  World w;
  w.hasGround = t[0].cast<bool>();
  w.groundHeight = t[1].cast<double>();
  w.groundNormal = t[2].cast<Vec3>();
  for (const py::handle b : t[3].cast<py::list>()) {
    const auto f = b.cast<py::tuple>();
    StaticBox box;
    box.center = f[0].cast<Vec3>();
    box.rotation = f[1].cast<Mat3>();
    box.halfExtents = f[2].cast<Vec3>();
    box.friction = f[3].cast<double>();
    box.restitution = f[4].cast<double>();
    w.boxes.push_back(box);
  }
  w.friction = t[4].cast<double>();
  w.restitution = t[5].cast<double>();
  w.margin = t[6].cast<double>();
  w.selfCollision = t[7].cast<bool>();
  w.validate();
  return w;
}

}  // namespace

void bindRollout(py::module_& m) {
  // Pickling, on the classes bindModel and bindSimulator registered.
  py::reinterpret_borrow<py::class_<Model>>(py::type::of<Model>())
      .def(py::pickle([](const Model& model) { return py::make_tuple(py::bytes(serializeModel(model))); },
                      [](const py::tuple& t) {
                        if (t.size() != 1) throw InputError("Model.__setstate__: expected (bytes,)");
                        return deserializeModel(t[0].cast<std::string>());
                      }));
  py::reinterpret_borrow<py::class_<World>>(py::type::of<World>()).def(py::pickle(&worldState, &worldFromState));
  py::reinterpret_borrow<py::class_<BoundSimulator>>(py::type::of<BoundSimulator>())
      .def(py::pickle(
          [](const BoundSimulator& s) {
            // the Python controller travels as itself (pickle raises for one it cannot pickle)
            return py::make_tuple(py::bytes(serializeSimulator(s.sim)),
                                  s.controller ? py::object(s.controller->function()) : py::object(py::none()));
          },
          [](const py::tuple& t) {
            if (t.size() != 2) throw InputError("Simulator.__setstate__: expected (bytes, controller)");
            auto s = std::make_unique<BoundSimulator>(deserializeSimulator(t[0].cast<std::string>()));
            if (!t[1].is_none()) {
              s->controller = std::make_unique<PythonController>(t[1].cast<py::function>(), s.get());
              s->sim.setController(s->controller.get());
            }
            return s;
          }));

  m.def("rollout", &rolloutPy, py::arg("simulator"), py::arg("q0"), py::arg("v0") = py::none(), py::arg("steps") = 1000,
        py::arg("threads") = 1, py::arg("friction") = py::none(), py::arg("kp") = py::none(), py::arg("kd") = py::none(),
        "rollout(simulator, q0, v0=None, steps=1000, threads=1, friction=None, kp=None, kd=None) -> (positions, "
        "velocities)\n\nN rollouts of `steps` steps: rollout i starts at q0[i] (q0: N x nq), v0[i] (N x nv, default "
        "zeros) from a copy of `simulator` (its model, world, options, PD and contact warm start; the simulator "
        "itself does not move). positions is N x (steps + 1) x nq and velocities N x (steps + 1) x nv, row 0 the "
        "initial state. Per rollout, optionally: friction (N,) replaces the world's mu; kp, kd (a scalar, (N,) or "
        "(N, nv)) replace the PD gains (switching a PD on, holding each rollout's q0, if the simulator has none). "
        "Runs on `threads` threads (0: one per core), one Simulator each, with the GIL released; the results are "
        "bitwise the same for any thread count. A simulator with a Python controller is refused (InputError). An "
        "error names the lowest failing rollout.");
}

}  // namespace grbda::python
