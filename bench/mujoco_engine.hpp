#pragma once
// MuJoCo's C API (2.2.2 from Debian, 4.0 from the package index) driven like grbda's Simulator in
// the side-by-side benchmarks (bench_mujoco.cpp, peers/side_by_side.cpp): the Mini Cheetah written
// as MJCF by tools/make_mjcf.py, its state set from grbda's coordinates, the joint PD on the link
// joints as motor controls, Σ normal force and gear slip read back. Coordinates: grbda's floating
// base v = [ω; v] in the body frame; MuJoCo's free joint qvel = [ṗ in world; ω in body], so
// ṗ = R v and p̈ = R (v̇ + ω × v).
#include <mujoco/mujoco.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "grbda/grbda.hpp"

namespace grbda::bench {

class MujocoCheetah {
 public:
  /// Loads `mjcf` and maps grbda's joints (by name) onto MuJoCo's.
  MujocoCheetah(const std::string& mjcf, const Model& model) {
    char error[1000] = "";
    m_ = mj_loadXML(mjcf.c_str(), nullptr, error, sizeof(error));
    if (!m_) throw std::runtime_error("MuJoCo could not load " + mjcf + ": " + error);
    d_ = mj_makeData(m_);
    const auto& names = model.velocityNames();
    for (int i = 6; i < model.nv(); ++i) {
      const std::string& name = names[static_cast<size_t>(i)];
      const int j = mj_name2id(m_, mjOBJ_JOINT, name.c_str());
      const int a = mj_name2id(m_, mjOBJ_ACTUATOR, name.c_str());
      if (j < 0 || a < 0) throw std::runtime_error("MJCF " + mjcf + " has no joint/motor '" + name + "'");
      Joint joint{m_->jnt_qposadr[j], m_->jnt_dofadr[j], a, -1, -1, 0.0};
      for (int e = 0; e < m_->neq; ++e)  // a rotor tied to this joint: joint1 = N · joint2
        if (m_->eq_type[e] == mjEQ_JOINT && m_->eq_obj2id[e] == j) {
          joint.rotorQ = m_->jnt_qposadr[m_->eq_obj1id[e]];
          joint.rotorDof = m_->jnt_dofadr[m_->eq_obj1id[e]];
          joint.ratio = m_->eq_data[e * mjNEQDATA + 1];
        }
      joints_.push_back(joint);
    }
  }
  ~MujocoCheetah() {
    mj_deleteData(d_);
    mj_deleteModel(m_);
  }
  MujocoCheetah(const MujocoCheetah&) = delete;
  MujocoCheetah& operator=(const MujocoCheetah&) = delete;

  const mjModel* model() const { return m_; }
  mjData* data() { return d_; }
  bool hasRotors() const { return !joints_.empty() && joints_[0].rotorQ >= 0; }

  /// The state of grbda's (q, v), rotors at N times their joint; time 0.
  void setState(const VecX& q, const VecX& v) {
    mj_resetData(m_, d_);
    for (int k = 0; k < 7; ++k) d_->qpos[k] = q[k];
    const Mat3 R = rotation(q);
    const Vec3 pdot = R * v.segment<3>(3);
    for (int k = 0; k < 3; ++k) {
      d_->qvel[k] = pdot[k];
      d_->qvel[3 + k] = v[k];
    }
    for (size_t i = 0; i < joints_.size(); ++i) {
      const Joint& j = joints_[i];
      d_->qpos[j.q] = q[7 + static_cast<int>(i)];
      d_->qvel[j.dof] = v[6 + static_cast<int>(i)];
      if (j.rotorQ >= 0) {
        d_->qpos[j.rotorQ] = j.ratio * d_->qpos[j.q];
        d_->qvel[j.rotorDof] = j.ratio * d_->qvel[j.dof];
      }
    }
  }

  /// The link-side joint torques τ (grbda's v order after the base) as motor controls.
  void setTorque(const VecX& tau) {
    for (size_t i = 0; i < joints_.size(); ++i) d_->ctrl[joints_[i].actuator] = tau[6 + static_cast<int>(i)];
  }

  /// τ = kp (target − q) − kd q̇ on the link joints, from MuJoCo's own state.
  void applyPd(const VecX& qTarget, double kp, double kd) {
    for (size_t i = 0; i < joints_.size(); ++i) {
      const Joint& j = joints_[i];
      d_->ctrl[j.actuator] = kp * (qTarget[7 + static_cast<int>(i)] - d_->qpos[j.q]) - kd * d_->qvel[j.dof];
    }
  }

  /// Σ normal force of the contacts of the last mj_step/mj_forward [N].
  double normalForceSum() const {
    double sum = 0.0;
    for (int c = 0; c < d_->ncon; ++c) {
      mjtNum f[6];
      mj_contactForce(m_, d_, c, f);
      sum += f[0];
    }
    return sum;
  }

  /// max |rotor angle − N · joint angle| over the joints (0 without rotor bodies) [rad].
  double gearSlip() const {
    double slip = 0.0;
    for (const Joint& j : joints_)
      if (j.rotorQ >= 0) slip = std::max(slip, std::abs(d_->qpos[j.rotorQ] - j.ratio * d_->qpos[j.q]));
    return slip;
  }

  double torsoHeight() const { return d_->qpos[2]; }

  /// q̈ in grbda's order and coordinates (base: [ω̇; v̇] in the body frame) from MuJoCo's qacc
  /// (or another nv-vector of MuJoCo accelerations) at the current state.
  VecX toGrbdaAcceleration(const mjtNum* qacc) const {
    VecX a(6 + static_cast<int>(joints_.size()));
    const Mat3 R = rotation(d_->qpos);
    const Vec3 w(d_->qvel[3], d_->qvel[4], d_->qvel[5]);
    const Vec3 vb = R.transpose() * Vec3(d_->qvel[0], d_->qvel[1], d_->qvel[2]);
    const Vec3 pdd(qacc[0], qacc[1], qacc[2]);
    a.head<3>() = Vec3(qacc[3], qacc[4], qacc[5]);
    a.segment<3>(3) = R.transpose() * pdd - w.cross(vb);  // v̇ = Rᵀ p̈ − ω × v
    for (size_t i = 0; i < joints_.size(); ++i) a[6 + static_cast<int>(i)] = qacc[joints_[i].dof];
    return a;
  }

  /// The exact (hard-constraint) q̈ of the rotor-body model from MuJoCo's own M and bias after
  /// mj_forward: [M Jᵀ; J 0] [q̈; λ] = [qfrc_smooth; 0] with J the gear rows e_rotor − N e_joint
  /// (constant, so J̇ q̇ = 0). Without rotors it is M⁻¹ qfrc_smooth. MuJoCo's numbering.
  VecX exactAcceleration() const {
    const int nv = m_->nv;
    MatX M(nv, nv);
    std::vector<mjtNum> dense(static_cast<size_t>(nv * nv));
#if mjVERSION_HEADER >= 4000000  // MuJoCo 4 reads M from mjData
    mj_fullM(m_, d_, dense.data());
#else
    mj_fullM(m_, dense.data(), d_->qM);
#endif
    for (int r = 0; r < nv; ++r)
      for (int c = 0; c < nv; ++c) M(r, c) = dense[static_cast<size_t>(r * nv + c)];
    VecX f(nv);
    for (int k = 0; k < nv; ++k) f[k] = d_->qfrc_smooth[k];  // actuators + passive + applied − bias
    int nc = 0;
    for (const Joint& j : joints_) nc += j.rotorDof >= 0;
    MatX K = MatX::Zero(nv + nc, nv + nc);
    VecX rhs = VecX::Zero(nv + nc);
    K.topLeftCorner(nv, nv) = M;
    rhs.head(nv) = f;
    int row = nv;
    for (const Joint& j : joints_) {
      if (j.rotorDof < 0) continue;
      K(row, j.rotorDof) = K(j.rotorDof, row) = 1.0;
      K(row, j.dof) = K(j.dof, row) = -j.ratio;
      ++row;
    }
    return K.fullPivLu().solve(rhs).head(nv);
  }

 private:
  struct Joint {
    int q, dof, actuator, rotorQ, rotorDof;
    double ratio;
  };
  template <class V>
  static Mat3 rotation(const V& q) {  // world ← body, from (qw, qx, qy, qz) at q[3..6]
    return Eigen::Quaterniond(q[3], q[4], q[5], q[6]).normalized().toRotationMatrix();
  }

  mjModel* m_ = nullptr;
  mjData* d_ = nullptr;
  std::vector<Joint> joints_;
};

}  // namespace grbda::bench
