#pragma once
// Internal: the Simulator's private state for its serialisation (serialize.cpp) and for rollouts
// (rollout.cpp), which need the warm-start history, the workspace's closed spanning pose and the
// world's friction — state that no public setter should expose.
#include "grbda/sim/simulator.hpp"

namespace grbda::detail {

struct SimulatorAccess {
  static World& world(Simulator& s) { return s.world_; }
  static Data& data(Simulator& s) { return s.data_; }
  static const Data& data(const Simulator& s) { return s.data_; }
  // state and control
  static VecX& q(Simulator& s) { return s.q_; }
  static VecX& v(Simulator& s) { return s.v_; }
  static double& time(Simulator& s) { return s.time_; }
  /// the passive-energy watch's baseline (NaN: the run is not passive)
  static double& passiveEnergyStart(Simulator& s) { return s.passiveEnergyStart_; }
  static VecX& heldTorque(Simulator& s) { return s.tauHeld_; }
  static const VecX& heldTorque(const Simulator& s) { return s.tauHeld_; }
  static VecX& appliedTorque(Simulator& s) { return s.tauApplied_; }
  static bool& pdOn(Simulator& s) { return s.pdOn_; }
  static VecX& kp(Simulator& s) { return s.kp_; }
  static VecX& kd(Simulator& s) { return s.kd_; }
  static VecX& qTarget(Simulator& s) { return s.qTarget_; }
  static VecX& vTarget(Simulator& s) { return s.vTarget_; }
  static const VecX& kp(const Simulator& s) { return s.kp_; }
  static const VecX& kd(const Simulator& s) { return s.kd_; }
  static const VecX& qTarget(const Simulator& s) { return s.qTarget_; }
  static const VecX& vTarget(const Simulator& s) { return s.vTarget_; }
  // the contact impulses of the last step, the next step's warm start
  static std::vector<ContactPoint>& previousContacts(Simulator& s) { return s.previousContacts_; }
  static std::vector<double>& previousLambda(Simulator& s) { return s.previousLambda_; }
  static const std::vector<ContactPoint>& previousContacts(const Simulator& s) { return s.previousContacts_; }
  static const std::vector<double>& previousLambda(const Simulator& s) { return s.previousLambda_; }
  static StepResult& lastStep(Simulator& s) { return s.result_; }
  // recording
  static bool& recording(Simulator& s) { return s.recording_; }
  static bool recording(const Simulator& s) { return s.recording_; }
  static Trajectory& trajectory(Simulator& s) { return s.trajectory_; }
};

}  // namespace grbda::detail
