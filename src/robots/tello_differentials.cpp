// The Tello leg differentials as closed-form implicit constraints (robot-data/tello.md, the
// MATLAB derivation's form): coordinates [q_rotor1, q_rotor2, q_link1, q_link2] with y = q_rotor / N
// the post-gearbox rotor angles. K and k come from automatic differentiation of φ.
#include <cmath>

#include "grbda/autodiff.hpp"
#include "grbda/robots/tello.hpp"
#include "math_constants.hpp"

namespace grbda::robots {

using detail::kPi;

namespace {

/// Hip: rotors 1 and 2 (at y = ±0.04 on the hip clamp) drive gimbal (roll) and thigh (pitch).
/// Each row involves only its own rotor; row 2 is row 1 with q_g -> -q_g.
class HipDifferential final : public ad::AutoDiffConstraint<HipDifferential, 2, 4> {
 public:
  template <class S>
  void phi(const S* q, S* out) const {
    using std::cos;
    using std::sin;
    const S y1 = q[0] / kTelloLegGear, y2 = q[1] / kTelloLegGear;
    const S sg = sin(q[2]), cg = cos(q[2]), st = sin(q[3]), ct = cos(q[3]);
    const S sy1 = sin(y1), cy1 = cos(y1), sy2 = sin(y2), cy2 = cos(y2);
    // Terms shared by both rows and the parts odd in q_g.
    const S even = -(49.0 / 5000.0) * cg - (57.0 / 2500.0) * cg * st + 3021.0 / 160000.0;
    const S odd = (399.0 / 20000.0) * sg - (7.0 / 625.0) * sg * st;
    out[0] = (57.0 / 2500.0) * sy1 - (8.0 / 625.0) * cy1 * ct - (7.0 / 625.0) * sy1 * sg -
             (8.0 / 625.0) * sy1 * cg * st + even - odd;
    out[1] = (57.0 / 2500.0) * sy2 - (8.0 / 625.0) * cy2 * ct + (7.0 / 625.0) * sy2 * sg -
             (8.0 / 625.0) * sy2 * cg * st + even + odd;
  }
};

/// Knee-ankle: rotors 1 and 2 on the thigh; the knee follows the mean post-gear rotor angle,
/// the ankle the half difference s through a push-rod closure.
class KneeAnkleDifferential final : public ad::AutoDiffConstraint<KneeAnkleDifferential, 2, 4> {
 public:
  template <class S>
  void phi(const S* q, S* out) const {
    using std::cos;
    using std::sin;
    const S y1 = q[0] / kTelloLegGear, y2 = q[1] / kTelloLegGear;
    const S s = 0.5 * (y1 - y2), qk = q[2], qa = q[3];
    out[0] = (21.0 / 6250.0) * cos(s + 1979.0 * kPi / 4500.0) - (13.0 / 625.0) * cos(s + 493.0 * kPi / 1500.0) -
             (7.0 / 2500.0) * sin(s + qa + 231.0 * kPi / 500.0) + (91.0 / 5000.0) * sin(qa + 2.0 * kPi / 15.0) -
             (147.0 / 50000.0) * sin(qa + kPi / 45.0) - (273.0 / 12500.0) * std::cos(kPi / 9.0) +
             163349.0 / 6250000.0;
    out[1] = qk - 0.5 * (y1 + y2);
  }
};

}  // namespace

std::shared_ptr<const ImplicitConstraint> telloHipDifferential() { return std::make_shared<HipDifferential>(); }
std::shared_ptr<const ImplicitConstraint> telloKneeAnkleDifferential() {
  return std::make_shared<KneeAnkleDifferential>();
}

}  // namespace grbda::robots
