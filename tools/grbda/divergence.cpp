#include "divergence.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>

#include "grbda/errors.hpp"
#include "numbers.hpp"

namespace grbda::cli {

void DivergenceMonitor::start(const SimulationSample& s, const VecX& v) {
  t0_ = s.t;
  energy0_ = s.energy;
  work_ = 0.0;
  scale_ = std::abs(s.energy);
  vPrevious_ = v;
}

void DivergenceMonitor::check(const SimulationSample& s, const VecX& v) {
  if (tau_.size() == v.size() && vPrevious_.size() == v.size())
    work_ += 0.5 * (s.t - t0_) * tau_.dot(vPrevious_ + v);  // τ constant: W += h τᵀ (v₀ + v₁) / 2
  t0_ = s.t;
  vPrevious_ = v;
  scale_ = std::max({scale_, std::abs(s.energy), std::abs(work_)});
  const double imbalance = s.energy - energy0_ - work_;
  if (!std::isfinite(imbalance) || std::abs(imbalance) > kEnergyFraction * scale_ + 1e-3) {
    report(s.t, std::string("the energy ") + (imbalance > 0.0 ? "grew" : "fell") + " by " +
                    formatNumber(std::abs(imbalance), "energy") + " J more than the input's work (from " +
                    formatNumber(energy0_, "energy") + " J to " + formatNumber(s.energy, "energy") +
                    " J; the largest |E| or |W| was " + formatNumber(scale_, "energy") +
                    " J): a singularity (ill-conditioned H) or too large a --dt");
    return;
  }
  if (!(s.contactDrift <= kMaxDrift)) {
    report(s.t, "a constrained point drifted " + formatNumber(s.contactDrift, "drift") + " m from where it started "
                "(bound " + formatNumber(kMaxDrift, "drift") + " m): too large a --dt, or --baumgarte T to hold it");
    return;
  }
  if (!(s.loopResidual <= kMaxLoopResidual))
    report(s.t, "a loop is open by " + formatNumber(s.loopResidual, "residual") + " m (bound " +
                    formatNumber(kMaxLoopResidual, "residual") + " m)");
}

void DivergenceMonitor::report(double t, const std::string& why) {
  if (diverged_) return;
  diverged_ = true;
  reason_ = "the run diverged at t = " + formatNumber(t, "t") + " s: " + why;
  if (!warnOnly_)
    throw NumericalError("simulate: " + reason_ + " (--on-divergence warn continues with a warning)");
  std::cerr << "grbda: warning: simulate: " << reason_ << "; continuing (--on-divergence warn)\n";
}

}  // namespace grbda::cli
