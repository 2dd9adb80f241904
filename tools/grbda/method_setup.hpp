#pragma once
// What fd, id, mass-matrix and osim share before computing: the method, the model, the
// positions as given and as the method takes them, and the prepared MethodRunner.
#include <string>
#include <utility>
#include <vector>

#include "args.hpp"
#include "inputs.hpp"
#include "method.hpp"
#include "report.hpp"

namespace grbda::cli {

/// --prox-iters / --prox-mu (UsageError when given with another method than proximal).
ProximalSettings proximalSettingsFromArgs(const ParsedArgs& args, Method method);

struct DynamicsSetup {
  /// --method first (a bad name fails before the model is read), then the model and positions.
  DynamicsSetup(const ParsedArgs& args, const std::string& command);
  DynamicsSetup(const DynamicsSetup&) = delete;
  DynamicsSetup& operator=(const DynamicsSetup&) = delete;

 private:
  DynamicsSetup(const ParsedArgs& args, const std::string& command, Method named);

 public:

  /// The report of a command; the positions as given come first among the inputs.
  Report report(const std::string& command, const std::string& quantity, const std::string& title,
                std::vector<std::pair<std::string, const VecX*>> inputs) const;

  const Model model;          ///< fd: loops kept as rows where --loops (default auto) says
  const Method method;        ///< as named, or the command's default for `model`
  const Configuration given;  ///< --q or --q-spanning as typed
  MethodRunner runner;        ///< refers to `model`
  const VecX q;               ///< `given` in the form the method takes
};

/// Runs `compute` --repeat times and returns its last result, or nullptr for --repeat 0.
template <class T, class Compute>
const T* repeated(const ParsedArgs& args, Compute compute) {
  const T* result = nullptr;
  for (long i = 0, n = repeatCountFromArgs(args); i < n; ++i) result = &compute();
  return result;
}

}  // namespace grbda::cli
