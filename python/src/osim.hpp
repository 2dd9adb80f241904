#pragma once
// The Python OsimSet: the library's set plus the model it was built for, shared by the cluster
// (bind_osim.cpp) and approximate (bind_baselines.cpp) operational-space calls.
#include <memory>
#include <vector>

#include "convert.hpp"
#include "grbda/algorithms/osim.hpp"

namespace grbda::python {

/// End-effectors from Python: each item a frame (name or index) or a (frame, point) pair.
std::vector<EndEffector> toEndEffectors(py::handle items, const Model& model);

struct BoundOsimSet {
  BoundOsimSet(const Model& m, std::vector<EndEffector> endEffectors) : model(&m), set(m, std::move(endEffectors)) {}
  /// The set, after checking it was built on `m`; InputError naming `function` otherwise.
  const OsimSet& of(const Model& m, const char* function) const;

  const Model* model;
  OsimSet set;
};

}  // namespace grbda::python
