// rollout (sim/rollout.hpp): rollouts handed out one at a time to the threads of a pool; each
// thread owns a Simulator, reset to the prototype at the start of every rollout.
#include "grbda/sim/rollout.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "../algorithms/thread_pool.hpp"
#include "grbda/errors.hpp"
#include "simulator_access.hpp"

namespace grbda {
namespace {

using Access = detail::SimulatorAccess;

/// Everything the threads share: the inputs, where the next rollout is, and the failures.
struct Job {
  Job(const Simulator& prototype_, const MatX& q0_, const MatX& v0_, int steps_, double* positions_, double* velocities_,
      const RolloutParameters& parameters_, const RolloutSettings& settings_)
      : prototype(prototype_), q0(q0_), v0(v0_), steps(steps_), positions(positions_), velocities(velocities_),
        parameters(parameters_), settings(settings_), count(static_cast<int>(q0_.rows())),
        errors(static_cast<size_t>(count)) {}
  const Simulator& prototype;
  const MatX &q0, &v0;
  int steps;
  double *positions, *velocities;
  const RolloutParameters& parameters;
  const RolloutSettings& settings;
  int count;
  std::atomic<int> next{0};
  std::atomic<int> firstFailure{INT_MAX};  ///< lowest failing rollout so far
  std::mutex errorMutex;
  std::vector<std::exception_ptr> errors;  ///< per rollout
};

void recordFailure(Job& job, int i) {
  {
    std::lock_guard<std::mutex> lock(job.errorMutex);
    job.errors[static_cast<size_t>(i)] = std::current_exception();
  }
  int seen = job.firstFailure.load();
  while (i < seen && !job.firstFailure.compare_exchange_weak(seen, i)) {
  }
}

/// Rollout i on `sim`: reset to the prototype, its own initial state and parameters, T steps.
void runRollout(Job& job, Simulator& sim, int i, VecX& q, VecX& v) {
  sim = job.prototype;  // whatever this thread ran before does not reach this rollout
  Access::recording(sim) = false;
  q = job.q0.row(i).transpose();
  v = job.v0.row(i).transpose();
  sim.setState(q, v);
  const RolloutParameters& p = job.parameters;
  if (p.friction.size() > 0) Access::world(sim).friction = p.friction[i];
  if (p.kp.size() > 0) sim.setPd(p.kp.row(i).transpose(), p.kd.row(i).transpose());
  std::unique_ptr<Controller> controller;
  if (job.settings.makeController) {
    controller = job.settings.makeController(i);
    sim.setController(controller.get());
  }
  const int nq = sim.model().nq(), nv = sim.model().nv();
  const size_t row = static_cast<size_t>(i) * static_cast<size_t>(job.steps + 1);
  for (int t = 0; t <= job.steps; ++t) {
    if (t > 0) sim.step();
    Eigen::Map<VecX>(job.positions + (row + size_t(t)) * size_t(nq), nq) = sim.q();
    Eigen::Map<VecX>(job.velocities + (row + size_t(t)) * size_t(nv), nv) = sim.v();
  }
  sim.setController(nullptr);
}

/// A thread of the pool: takes the next rollout until none is left. Rollouts after a failed one
/// are skipped (they cannot be the lowest failure); those before it still run.
void worker(void* context, int) {
  Job& job = *static_cast<Job*>(context);
  int i = -1;
  try {
    Simulator sim(job.prototype);
    VecX q, v;
    while ((i = job.next.fetch_add(1)) < job.count && i < job.firstFailure.load()) {
      try {
        runRollout(job, sim, i, q, v);
      } catch (...) {
        recordFailure(job, i);
      }
    }
  } catch (...) {  // copying the prototype failed (out of memory): blame the rollout it would have run
    recordFailure(job, std::max(0, std::min(i < 0 ? job.next.load() : i, job.count - 1)));
  }
}

/// The failure of rollout i, as the same grbda type with the rollout in its message.
[[noreturn]] void rethrowForRollout(std::exception_ptr error, int i) {
  const std::string prefix = "rollout " + std::to_string(i) + ": ";
  try {
    std::rethrow_exception(error);
  } catch (const InputError& e) {
    throw InputError(prefix + e.what());
  } catch (const NumericalError& e) {
    throw NumericalError(prefix + e.what());
  } catch (const ModelError& e) {
    throw ModelError(prefix + e.what());
  }  // anything else (bad_alloc, a controller's own exception) propagates unchanged
}

void checkInputs(const Simulator& prototype, const MatX& q0, const MatX& v0, int steps, const RolloutParameters& p,
                 const RolloutSettings& settings) {
  const Model& model = prototype.model();
  const auto n = q0.rows();
  const auto fail = [](const std::string& what) { throw InputError("rollout: " + what); };
  if (q0.cols() != model.nq()) fail("q0 has " + std::to_string(q0.cols()) + " columns, expected nq = " + std::to_string(model.nq()));
  if (v0.rows() != n || v0.cols() != model.nv())
    fail("v0 is " + std::to_string(v0.rows()) + " x " + std::to_string(v0.cols()) + ", expected " + std::to_string(n) +
         " x nv = " + std::to_string(model.nv()));
  if (steps < 0) fail("steps must be >= 0 (got " + std::to_string(steps) + ")");
  if (settings.threads < 0) fail("threads must be >= 0 (0: one per core; got " + std::to_string(settings.threads) + ")");
  if (p.friction.size() != 0 && p.friction.size() != n)
    fail("friction has " + std::to_string(p.friction.size()) + " entries, expected one per rollout (" + std::to_string(n) + ")");
  for (Eigen::Index i = 0; i < p.friction.size(); ++i)
    if (!(std::isfinite(p.friction[i]) && p.friction[i] >= 0.0))
      fail("friction[" + std::to_string(i) + "] = " + std::to_string(p.friction[i]) + " must be finite and >= 0");
  if ((p.kp.size() == 0) != (p.kd.size() == 0)) fail("kp and kd are given together or not at all");
  for (const auto& [gain, name] : {std::pair<const MatX*, const char*>{&p.kp, "kp"}, {&p.kd, "kd"}})
    if (gain->size() != 0 && (gain->rows() != n || (gain->cols() != 1 && gain->cols() != model.nv())))
      fail(std::string(name) + " is " + std::to_string(gain->rows()) + " x " + std::to_string(gain->cols()) + ", expected " +
           std::to_string(n) + " x 1 or " + std::to_string(n) + " x nv = " + std::to_string(model.nv()));
  if (prototype.controller() && !settings.makeController)
    fail("the simulator has a controller, and rollouts on several threads cannot share one (it may keep state): give "
         "RolloutSettings::makeController, which makes one per rollout");
}

}  // namespace

void rollout(const Simulator& prototype, const MatX& q0, const MatX& v0, int steps, double* positions,
             double* velocities, const RolloutParameters& parameters, const RolloutSettings& settings) {
  checkInputs(prototype, q0, v0, steps, parameters, settings);
  const int count = static_cast<int>(q0.rows());
  if (count == 0) return;
  int threads = settings.threads == 0 ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency())) : settings.threads;
  threads = std::min(threads, count);
  Job job(prototype, q0, v0, steps, positions, velocities, parameters, settings);
  detail::ThreadPool pool(threads);
  pool.run(&worker, &job);
  const int failed = job.firstFailure.load();
  if (failed < count) rethrowForRollout(job.errors[static_cast<size_t>(failed)], failed);
}

Rollouts rollout(const Simulator& prototype, const MatX& q0, const MatX& v0, int steps,
                 const RolloutParameters& parameters, const RolloutSettings& settings) {
  Rollouts out;
  out.count = static_cast<int>(q0.rows());
  out.steps = steps;
  out.nq = prototype.model().nq();
  out.nv = prototype.model().nv();
  checkInputs(prototype, q0, v0, steps, parameters, settings);  // before sizing with `steps`
  const size_t rows = static_cast<size_t>(out.count) * static_cast<size_t>(steps + 1);
  out.positions.resize(rows * static_cast<size_t>(out.nq));
  out.velocities.resize(rows * static_cast<size_t>(out.nv));
  rollout(prototype, q0, v0, steps, out.positions.data(), out.velocities.data(), parameters, settings);
  return out;
}

}  // namespace grbda
