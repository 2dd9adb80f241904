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

/// An argument taken as the Python object itself and converted by the functions below (which
/// raise InputError); the tag only names it in signatures, so help() shows "numpy.typing.ArrayLike"
/// rather than "handle".
template <typename Tag>
struct Named {
  py::handle object;
  operator py::handle() const { return object; }  // NOLINT: used wherever a handle is
  bool is_none() const { return object.is_none(); }
};
struct ArrayTag {
  static constexpr auto name = py::detail::const_name("numpy.typing.ArrayLike");
};
struct FrameTag {
  static constexpr auto name = py::detail::const_name("str | int");
};
struct PathTag {
  static constexpr auto name = py::detail::const_name("os.PathLike | list[os.PathLike]");
};
struct EndEffectorsTag {
  static constexpr auto name = py::detail::const_name("list[str | int | tuple[str | int, ArrayLike]]");
};
using ArrayLike = Named<ArrayTag>;
using FrameLike = Named<FrameTag>;
using PathLike = Named<PathTag>;
using EndEffectorsLike = Named<EndEffectorsTag>;

/// What every array argument becomes: float64, C-contiguous (numpy's own array when it already is
/// one, else a converted copy).
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

namespace detail {
struct KeepsArray {  // a base, so that the array is alive before the Map over it is made
  DoubleArray held;
};
}  // namespace detail

/// A 1-D array argument as an Eigen vector: a Map over the float64 array it holds (numpy's own
/// buffer when the argument already was a contiguous float64 array), so passing it to the
/// library's VecRef inputs copies nothing; it converts to a VecX where a copy is wanted.
class VectorView : private detail::KeepsArray, public Eigen::Map<const VecX> {
 public:
  explicit VectorView(DoubleArray a)
      : detail::KeepsArray{std::move(a)}, Eigen::Map<const VecX>(held.data(), held.shape(0)) {}
  VectorView(const VectorView& other) : VectorView(other.held) {}
  VectorView& operator=(const VectorView&) = delete;
};

/// Any array-like of numbers with one dimension (list, tuple, numpy array of any numeric dtype),
/// viewed without a copy when it is a contiguous float64 array. InputError naming `what` otherwise.
VectorView toVector(py::handle x, const std::string& what);
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
  /// The proximal solver's workspace, built on first use; with `constraints`, one for their rows
  /// (rebuilt when another ConstraintModel, or a changed one, is passed).
  ProximalData& proximal(const Model& m, const ConstraintModel* constraints = nullptr);

  const Model* model;
  Data data;
  std::unique_ptr<ProximalData> proximalData;
  int proximalConstraintsVersion = -1;  ///< version() of proximalData's ConstraintModel
};

}  // namespace grbda::python

namespace pybind11::detail {
template <typename Tag>
struct type_caster<grbda::python::Named<Tag>> {
  PYBIND11_TYPE_CASTER(grbda::python::Named<Tag>, Tag::name);
  bool load(handle src, bool) {
    value = grbda::python::Named<Tag>{src};
    return true;  // anything is accepted here; the grbda::python::to* functions check it
  }
  static handle cast(const grbda::python::Named<Tag>& src, return_value_policy, handle) { return src.object.inc_ref(); }
};
}  // namespace pybind11::detail
