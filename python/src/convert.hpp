#pragma once
// The binding boundary: Python objects in, Eigen out. Every argument is checked here (a numeric
// array of the right dimension, a known frame, a Data made for this model) so that a bad
// argument raises grbda.InputError with a message instead of reaching the library; the library
// then checks sizes and finiteness itself.
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "grbda/baselines/proximal.hpp"
#include "grbda/data.hpp"
#include "grbda/errors.hpp"

namespace grbda::python {

namespace py = pybind11;

/// Any array-like of numbers with one dimension (list, tuple, numpy array of any numeric dtype),
/// copied into a VecX. InputError naming `what` otherwise.
VecX toVector(py::handle x, const std::string& what);
/// As toVector, with exactly 3 entries.
Vec3 toVec3(py::handle x, const std::string& what);
/// A 2-D array-like of numbers with the given shape (-1: any), row-major as read.
MatX toMatrix(py::handle x, const std::string& what, Eigen::Index rows = -1, Eigen::Index cols = -1);
/// None (no external forces) or a (num_bodies, 6) array of world-frame spatial forces.
ExternalForces toExternalForces(py::handle fext, const Model& model);
/// A frame given by index or by name (every URDF link is a frame).
int toFrame(py::handle frame, const Model& model);
/// 4x4 pose of B in A for ^B X_A: [[E^T, r], [0, 1]].
Eigen::Matrix4d homogeneousPose(const Transform& X);
/// A file path given as str or os.PathLike.
std::string toPath(py::handle path);

/// The Python Data: the library's workspace plus the model it was made for, so that every call
/// can refuse a Data of another model (which would index out of its buffers).
struct BoundData {
  explicit BoundData(const Model& m) : model(&m), data(m) {}
  /// The workspace, after checking it was made for `m`; InputError naming `function` otherwise.
  Data& of(const Model& m, const char* function);
  /// The proximal solver's workspace, built on first use.
  ProximalData& proximal(const Model& m);

  const Model* model;
  Data data;
  std::unique_ptr<ProximalData> proximalData;
};

}  // namespace grbda::python
