// The method table and Solver (include/grbda/methods.hpp): grbda.methods() lists the table,
// grbda.Solver(model, "pv", constraints) prepares one forward-dynamics method; compute() returns a
// new array (a copy of the workspace's q̈), lambda_ the rows' forces.
#include <memory>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "grbda/constraints/constraint_model.hpp"
#include "grbda/methods.hpp"

namespace grbda::python {

namespace {

/// The commands an entry is offered for, by their command-line names.
std::vector<std::string> commandNames(const MethodInfo& info) {
  std::vector<std::string> names;
  const std::pair<MethodCommand, const char*> commands[] = {
      {kMethodFd, "fd"}, {kMethodId, "id"}, {kMethodMassMatrix, "mass-matrix"}, {kMethodOsim, "osim"},
      {kMethodSimulate, "simulate"}};
  for (const auto& [bit, name] : commands)
    if (info.accepts(bit)) names.emplace_back(name);
  return names;
}

py::dict entryDict(const MethodInfo& info) {
  py::dict d;
  d["name"] = info.name;
  std::vector<std::string> aliases;
  for (const char* a : info.aliases)
    if (a) aliases.emplace_back(a);
  d["aliases"] = aliases;
  d["summary"] = info.summary;
  d["solves_rows"] = info.solvesRows;
  d["exact_rows"] = info.exactRows;
  d["needs_compliance"] = info.needsCompliance;
  d["approximate"] = info.approximate;
  d["forward_dynamics"] = info.accepts(kMethodFd);
  d["commands"] = commandNames(info);
  return d;
}

SolverSettings settingsFrom(int proxIterations, double proxMu, int threads) {
  SolverSettings s;
  if (proxIterations < 1) throw InputError("Solver: prox_iterations must be at least 1, got " + std::to_string(proxIterations));
  if (!(proxMu >= 0)) throw InputError("Solver: prox_mu must be >= 0, got " + std::to_string(proxMu));
  if (threads < 1 || threads > 256) throw InputError("Solver: threads must be in 1..256, got " + std::to_string(threads));
  s.proximal.maxIterations = proxIterations;
  s.proximal.mu = proxMu;
  s.threads = threads;
  return s;
}

}  // namespace

void bindMethods(py::module_& m) {
  m.def(
      "methods",
      []() {
        py::list out;
        for (const MethodInfo& info : methodTable()) out.append(entryDict(info));
        return out;
      },
      "methods() -> list[dict]\n\n"
      "The method table (the grbda command's --method values), in order: per method its canonical 'name', "
      "'aliases', a one-line 'summary', whether it 'solves_rows' (contacts, welds, loops kept as rows), solves "
      "them exactly ('exact_rows'), 'needs_compliance' (soft rows), answers for the 'approximate' model, computes "
      "'forward_dynamics' (what Solver runs), and the 'commands' that accept it.");

  py::class_<Solver>(
      m, "Solver",
      "Solver(model, method='cluster', constraints=None, prox_iterations=20, prox_mu=1e-8, threads=1)\n\n"
      "One forward-dynamics method of the table (see methods()) prepared on a model: every workspace is built "
      "here, so compute() allocates nothing in C++ afterwards. method: a name or alias ('cluster', 'pv', "
      "'pv-soft', 'kkt', 'proximal', 'ltl', ...). constraints: a ConstraintModel of this model (copied) for a "
      "method that solves rows; without it a row-solving method solves the loops the model keeps as rows. "
      "prox_iterations, prox_mu: the proximal methods; threads: cfa-parallel. InputError listing the valid "
      "names for an unknown method, for rows given to a method that solves none, for a model the method does "
      "not apply to (cfa: not a chain). Keeps the model alive.")
      .def(py::init([](const Model& model, const std::string& method, const ConstraintModel* constraints,
                       int proxIterations, double proxMu, int threads) {
             const SolverSettings settings = settingsFrom(proxIterations, proxMu, threads);
             return constraints ? std::make_unique<Solver>(model, method, *constraints, settings)
                                : std::make_unique<Solver>(model, method, settings);
           }),
           py::arg("model"), py::arg("method") = "cluster", py::arg("constraints") = nullptr,
           py::arg("prox_iterations") = 20, py::arg("prox_mu") = 1e-8, py::arg("threads") = 1,
           py::keep_alive<1, 2>())
      .def(
          "compute",
          [](Solver& s, ArrayLike q, ArrayLike v, ArrayLike tau) {
            return VecX(s.compute(toVector(q, "q"), toVector(v, "v"), toVector(tau, "tau")));
          },
          py::arg("q"), py::arg("v"), py::arg("tau"),
          "compute(q, v, tau) -> qdd\n\n"
          "Joint accelerations (nv) at the state; the rows' forces are then in lambda_. q independent (nq) or "
          "spanning (the approximate methods: independent only), v and tau independent (nv).")
      .def_property_readonly("method", [](const Solver& s) { return std::string(s.method().name); },
                             "the canonical name of its method")
      .def_property_readonly("qdd", [](const Solver& s) { return VecX(s.qdd()); },
                             "q̈ of the last compute (a copy; empty before)")
      .def_property_readonly(
          "lambda_", [](const Solver& s) { return VecX(s.lambda()); },
          "the rows' forces of the last compute (a copy), in the ConstraintModel's order (kept loops first), "
          "world axes, what the environment exerts on the robot; empty for a method without rows. Named lambda_ "
          "because `lambda` is a Python keyword.")
      .def_property_readonly(
          "num_rows", [](const Solver& s) { return s.constraints() ? s.constraints()->numRows() : 0; },
          "the number of rows it solves (0 for a method without rows)");
}

}  // namespace grbda::python
