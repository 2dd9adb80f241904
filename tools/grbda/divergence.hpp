#pragma once
// `grbda simulate`'s divergence watch (issue #27, item 4): a run that integrates through a
// singularity or with too large a step does not stop by itself — the energy grows without input
// (or vanishes near a type-II singularity) and the constrained points drift away while every
// step succeeds. After each step the monitor checks
//   - the energy balance E(t) − E(0) − W(t), W the work of the constant --tau (trapezoid rule on
//     τᵀ v): off by more than kEnergyFraction of the largest |E| or |W| seen (and 1 mJ);
//   - the drift of the constrained points from where they started: more than kMaxDrift;
//   - the loop residual: more than kMaxLoopResidual (the completion closes loops every step);
// and stops the run with a NumericalError saying that it diverged, when and why — or, with
// --on-divergence warn, logs that once and lets it continue (the JSON says "diverged").
#include <string>

#include "grbda/data.hpp"
#include "simulation.hpp"

namespace grbda::cli {

class DivergenceMonitor {
 public:
  static constexpr double kEnergyFraction = 0.1;
  static constexpr double kMaxDrift = 0.01;         ///< m
  static constexpr double kMaxLoopResidual = 1e-6;  ///< m
  /// `tau`: the constant generalized forces; `warnOnly`: report instead of stopping.
  DivergenceMonitor(VecX tau, bool warnOnly) : tau_(std::move(tau)), warnOnly_(warnOnly) {}

  /// The sample at t = 0 and the velocity there.
  void start(const SimulationSample& s, const VecX& v);
  /// After each step: the sample and the velocity now. NumericalError unless warnOnly.
  void check(const SimulationSample& s, const VecX& v);

  bool diverged() const { return diverged_; }
  const std::string& reason() const { return reason_; }  ///< the first divergence found

 private:
  void report(double t, const std::string& why);
  VecX tau_, vPrevious_;
  bool warnOnly_;
  bool diverged_ = false;
  std::string reason_;
  double t0_ = 0.0, energy0_ = 0.0, work_ = 0.0, scale_ = 0.0;
};

}  // namespace grbda::cli
