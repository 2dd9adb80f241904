// forward_dynamics_batch: N states in one call, split over threads that each own a Data, with the
// GIL released while they run (the library never calls back into Python).
#include <algorithm>
#include <atomic>
#include <thread>

#include "bindings.hpp"
#include "convert.hpp"
#include "grbda/algorithms/dynamics.hpp"

namespace grbda::python {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// The exception of state `row`, rethrown as the same grbda type with the row in its message.
[[noreturn]] void rethrowForRow(std::exception_ptr error, Eigen::Index row) {
  const std::string prefix = "forward_dynamics_batch: state " + std::to_string(row) + ": ";
  try {
    std::rethrow_exception(error);
  } catch (const InputError& e) {
    throw InputError(prefix + e.what());
  } catch (const NumericalError& e) {
    throw NumericalError(prefix + e.what());
  }  // anything else (ModelError, bad_alloc) propagates unchanged
}

/// Rows [begin, end) of (Q, V, TAU) -> rows of QDD, on a Data of its own. Stops at the first
/// failing row (or when another thread failed) and reports it in `failedRow` / `error`.
void runRows(const Model& model, const RowMatrix& Q, const RowMatrix& V, const RowMatrix& TAU, double* qdd,
             Eigen::Index begin, Eigen::Index end, std::atomic<bool>& stop, Eigen::Index& failedRow,
             std::exception_ptr& error) {
  Data data(model);
  VecX q(Q.cols()), v(V.cols()), tau(TAU.cols());
  const Eigen::Index nv = model.nv();
  for (Eigen::Index i = begin; i < end && !stop.load(std::memory_order_relaxed); ++i) {
    try {
      q = Q.row(i).transpose();
      v = V.row(i).transpose();
      tau = TAU.row(i).transpose();
      Eigen::Map<VecX>(qdd + i * nv, nv) = forwardDynamics(model, data, q, v, tau);
    } catch (...) {
      failedRow = i;
      error = std::current_exception();
      stop = true;
      return;
    }
  }
}

py::array_t<double> forwardDynamicsBatch(const Model& model, ArrayLike Qin, ArrayLike Vin, ArrayLike TAUin,
                                         int threads) {
  const RowMatrix Q = toMatrix(Qin, "Q"), V = toMatrix(Vin, "V", Q.rows(), model.nv()),
                  TAU = toMatrix(TAUin, "TAU", Q.rows(), model.nv());
  if (Q.cols() != model.nq() && Q.cols() != model.nqSpanning())
    throw InputError("forward_dynamics_batch: Q has " + std::to_string(Q.cols()) + " columns, expected nq = " +
                     std::to_string(model.nq()) + " or nq_spanning = " + std::to_string(model.nqSpanning()));
  if (threads < 0) throw InputError("forward_dynamics_batch: threads must be >= 0 (0: one per core)");
  if (threads == 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const Eigen::Index n = Q.rows();
  const int workers = static_cast<int>(std::max<Eigen::Index>(1, std::min<Eigen::Index>(threads, n)));

  py::array_t<double> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(model.nv())});
  double* qdd = out.mutable_data();
  std::vector<Eigen::Index> failedRow(static_cast<size_t>(workers), -1);
  std::vector<std::exception_ptr> errors(static_cast<size_t>(workers));
  std::atomic<bool> stop{false};
  {
    py::gil_scoped_release release;
    std::vector<std::thread> pool;
    for (int w = 0; w < workers; ++w) {
      const Eigen::Index begin = n * w / workers, end = n * (w + 1) / workers;
      auto job = [&, w, begin, end] {
        runRows(model, Q, V, TAU, qdd, begin, end, stop, failedRow[size_t(w)], errors[size_t(w)]);
      };
      if (w + 1 == workers) job();  // the calling thread takes the last share
      else pool.emplace_back(job);
    }
    for (auto& t : pool) t.join();
  }
  for (int w = 0; w < workers; ++w)  // the first failing worker in row order
    if (errors[size_t(w)]) rethrowForRow(errors[size_t(w)], failedRow[size_t(w)]);
  return out;
}

}  // namespace

void bindBatch(py::module_& m) {
  m.def("forward_dynamics_batch", &forwardDynamicsBatch, py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("TAU"),
        py::arg("threads") = 1,
        "forward_dynamics_batch(model, Q, V, TAU, threads=1) -> QDD\n\nForward dynamics of N states in one call: "
        "row i of QDD (N x nv) is forward_dynamics(model, data, Q[i], V[i], TAU[i]). Q is N x nq (or N x "
        "nq_spanning), V and TAU are N x nv. The rows are split over `threads` threads (0: one per core), each with "
        "its own Data; the GIL is released meanwhile. An error names the first failing state.");
}

}  // namespace grbda::python
