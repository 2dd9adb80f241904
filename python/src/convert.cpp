#include "convert.hpp"

#include <algorithm>


namespace grbda::python {

namespace {
std::string shapeOf(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

/// A float64 C-contiguous array of `x`, or InputError when x is not numeric.
DoubleArray numericArray(py::handle x, const std::string& what) {
  if (x.is_none()) throw InputError(what + " is None, expected an array of numbers");
  if (py::isinstance<py::str>(x) || py::isinstance<py::bytes>(x))
    throw InputError(what + " is a string, expected an array of numbers");
  if (py::isinstance<py::array>(x) && py::reinterpret_borrow<py::array>(x).dtype().kind() == 'c')
    throw InputError(what + " is complex, expected real numbers");
  DoubleArray a = DoubleArray::ensure(x);  // converts lists, ints, float32; nullptr if it cannot
  if (!a) throw InputError(what + " is not an array of numbers (got " + std::string(py::str(py::type::of(x))) + ")");
  return a;
}
}  // namespace

VectorView toVector(py::handle x, const std::string& what) {
  DoubleArray a = numericArray(x, what);
  if (a.ndim() != 1) throw InputError(what + " must be a 1-D array, got shape " + shapeOf(a));
  // A read-only view of memory it does not own is what Data's properties (data.qdd, data.tau)
  // hand out: a call given one may overwrite the buffer it reads, so it gets a copy.
  if (!a.writeable() && !a.owndata()) {
    DoubleArray copy(a.shape(0));
    std::copy(a.data(), a.data() + a.shape(0), copy.mutable_data());
    a = std::move(copy);
  }
  return VectorView(std::move(a));
}

Vec3 toVec3(py::handle x, const std::string& what) {
  const VecX v = toVector(x, what);
  if (v.size() != 3) throw InputError(what + " has " + std::to_string(v.size()) + " entries, expected 3");
  if (!v.allFinite()) throw InputError(what + " is not finite");
  return v;
}

MatX toMatrix(py::handle x, const std::string& what, Eigen::Index rows, Eigen::Index cols) {
  const DoubleArray a = numericArray(x, what);
  if (a.ndim() != 2) throw InputError(what + " must be a 2-D array, got shape " + shapeOf(a));
  if ((rows >= 0 && a.shape(0) != rows) || (cols >= 0 && a.shape(1) != cols))
    throw InputError(what + " has shape " + shapeOf(a) + ", expected (" + (rows >= 0 ? std::to_string(rows) : "N") +
                     ", " + (cols >= 0 ? std::to_string(cols) : "N") + ")");
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  return Eigen::Map<const RowMajor>(a.data(), a.shape(0), a.shape(1));
}

ExternalForces toExternalForces(py::handle fext, const Model& model) {
  if (fext.is_none()) return {};
  const MatX f = toMatrix(fext, "fext", model.numBodies(), 6);
  ExternalForces out(static_cast<size_t>(model.numBodies()));
  for (int i = 0; i < model.numBodies(); ++i) out[static_cast<size_t>(i)] = f.row(i).transpose();
  return out;  // finiteness is checked by the algorithms, naming the body
}

int toFrame(py::handle frame, const Model& model) {
  if (py::isinstance<py::str>(frame)) return model.frameIndex(frame.cast<std::string>());
  // ints and numpy integers (anything with __index__), not bools
  PyObject* index = py::isinstance<py::bool_>(frame) ? nullptr : PyNumber_Index(frame.ptr());
  const long long i = index ? PyLong_AsLongLong(index) : -1;
  Py_XDECREF(index);
  if (!index || PyErr_Occurred()) {
    PyErr_Clear();
    if (index) throw InputError("frame index " + std::string(py::str(frame)) + " is out of range");
    throw InputError("frame must be a frame name (str) or index (int), got " + std::string(py::str(py::type::of(frame))));
  }
  if (i < 0 || i >= static_cast<long long>(model.frames().size()))
    throw InputError("frame index " + std::to_string(i) + " is out of range (model '" + model.name() + "' has " +
                     std::to_string(model.frames().size()) + " frames)");
  return static_cast<int>(i);
}

Eigen::Matrix4d homogeneousPose(const Transform& X) {
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  T.topLeftCorner<3, 3>() = X.E.transpose();
  T.topRightCorner<3, 1>() = X.r;
  return T;
}

std::string toPath(py::handle path) {
  try {
    return py::str(py::module_::import("os").attr("fspath")(path)).cast<std::string>();
  } catch (const py::error_already_set&) {
    throw InputError("expected a file path (str or os.PathLike), got " + std::string(py::str(py::type::of(path))));
  }
}

Data& BoundData::of(const Model& m, const char* function) {
  if (&m != model) {
    if (model->name() == m.name())  // e.g. a second load of the same file: equal, but another object
      throw InputError(std::string(function) + ": data was made for another Model object of the same name '" +
                       m.name() + "' (each load makes a new model; use grbda.Data(model) with this one)");
    throw InputError(std::string(function) + ": data was made for model '" + model->name() +
                     "', not for this model '" + m.name() + "' (use grbda.Data(model))");
  }
  return data;
}

ProximalData& BoundData::proximal(const Model& m, const ConstraintModel* constraints) {
  const bool current = proximalData && proximalData->constraints == constraints &&
                       (!constraints || proximalConstraintsVersion == constraints->version());
  if (current) return *proximalData;
  proximalData = constraints ? std::make_unique<ProximalData>(m, *constraints) : std::make_unique<ProximalData>(m);
  proximalConstraintsVersion = constraints ? constraints->version() : -1;
  return *proximalData;
}

}  // namespace grbda::python
