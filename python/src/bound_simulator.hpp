#pragma once
// The Python Simulator (bind_simulator.cpp), shared with the rollout and pickling bindings
// (bind_rollout.cpp): the library's Simulator plus the Python controller it may own.
#include <memory>

#include "grbda/sim/simulator.hpp"
#include <pybind11/pybind11.h>

namespace grbda::python {

struct BoundSimulator;

/// A Python callable as the simulator's controller: f(sim) -> tau (nv), sim the Python Simulator.
/// It runs with the GIL, which step() released.
class PythonController : public Controller {
 public:
  PythonController(pybind11::function f, BoundSimulator* owner) : f_(std::move(f)), owner_(owner) {}
  void compute(const Simulator&, VecX& tau) override;
  const pybind11::function& function() const { return f_; }  ///< the callable

 private:
  pybind11::function f_;
  BoundSimulator* owner_;
};

/// The Python Simulator: the library's, plus the Python controller it may own.
struct BoundSimulator {
  BoundSimulator(const Model& model, const World& world, const SimulatorOptions& options) : sim(model, world, options) {}
  explicit BoundSimulator(Simulator s) : sim(std::move(s)) {}
  Simulator sim;
  std::unique_ptr<PythonController> controller;
};

}  // namespace grbda::python
