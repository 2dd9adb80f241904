// A controller in the simulator's loop: a cart-pole (a cart on a rail, a pole hinged on it; only
// the cart is pushed) balanced upright by LQR, written as a grbda::Controller the Simulator calls at
// every step. The gains come from grbda's own dynamics, linearised at the upright by central
// differences of forwardDynamics, discretised like the simulator's semi-implicit Euler and fed to
// a Riccati iteration. The pole starts tilted by 0.2 rad; the example fails unless it ends upright
// with the cart back home. examples/python/balance_controller.py is the same in Python (a callback).
//
//   example_balance_controller [--short] [--csv FILE]
#include "example_support.hpp"

namespace {

const char* kCartPole = R"(<robot name="cart_pole">
  <link name="rail"/>
  <link name="cart">
    <inertial><mass value="1.0"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="pole">
    <inertial><origin xyz="0 0 0.5"/><mass value="0.2"/>
      <inertia ixx="0.0167" iyy="0.0167" izz="0.0001" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="slider" type="prismatic">
    <parent link="rail"/><child link="cart"/><axis xyz="1 0 0"/>
    <limit effort="100" velocity="100" lower="-10" upper="10"/>
  </joint>
  <joint name="hinge" type="continuous">
    <parent link="cart"/><child link="pole"/><axis xyz="0 1 0"/>
  </joint>
</robot>)";

/// K of u = −K (q, v) for the cart force u (see the file comment).
Eigen::RowVector4d lqrGain(const grbda::Model& model, double dt) {
  grbda::Data data(model);
  const double eps = 1e-6;
  const grbda::VecX zero = grbda::VecX::Zero(2);
  auto qdd = [&](const grbda::VecX& q, const grbda::VecX& v, double u) {
    grbda::VecX tau = grbda::VecX::Zero(2);
    tau[0] = u;
    return grbda::VecX(grbda::forwardDynamics(model, data, q, v, tau));
  };
  Eigen::Matrix4d A = Eigen::Matrix4d::Zero();
  Eigen::Vector4d B = Eigen::Vector4d::Zero();
  A.topRightCorner<2, 2>().setIdentity();
  for (int j = 0; j < 2; ++j) {
    grbda::VecX e = zero;
    e[j] = eps;
    A.block<2, 1>(2, j) = (qdd(e, zero, 0) - qdd(-e, zero, 0)) / (2 * eps);
    A.block<2, 1>(2, 2 + j) = (qdd(zero, e, 0) - qdd(zero, -e, 0)) / (2 * eps);
  }
  B.tail<2>() = (qdd(zero, zero, eps) - qdd(zero, zero, -eps)) / (2 * eps);
  // semi-implicit Euler: v⁺ = v + dt a, q⁺ = q + dt v⁺
  Eigen::Matrix4d Ad = Eigen::Matrix4d::Identity() + dt * A;
  Ad.topRows<2>() += dt * dt * A.bottomRows<2>();
  Eigen::Vector4d Bd = dt * B;
  Bd.head<2>() += dt * dt * B.tail<2>();
  const Eigen::Matrix4d Q = Eigen::Vector4d(10.0, 10.0, 1.0, 1.0).asDiagonal();
  const double R = 0.1;
  Eigen::Matrix4d P = Q;
  Eigen::RowVector4d K;
  for (int it = 0; it < 5000; ++it) {  // the discrete Riccati equation by fixed-point iteration
    K = (Bd.transpose() * P * Ad) / (R + Bd.dot(P * Bd));
    const Eigen::Matrix4d next = Q + Ad.transpose() * P * (Ad - Bd * K);
    const bool done = (next - P).cwiseAbs().maxCoeff() < 1e-12;
    P = next;
    if (done) break;
  }
  return K;
}

/// u = −K x on the cart; the pole's joint is not actuated.
class Lqr : public grbda::Controller {
 public:
  explicit Lqr(const Eigen::RowVector4d& K) : K_(K) {}
  void compute(const grbda::Simulator& sim, grbda::VecX& tau) override {
    const Eigen::Vector4d x(sim.q()[0], sim.q()[1], sim.v()[0], sim.v()[1]);
    tau[0] = -K_.dot(x);
  }

 private:
  Eigen::RowVector4d K_;
};

}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parseArgs(argc, argv, "example_balance_controller [--short] [--csv FILE]");
  const grbda::Model model = grbda::loadUrdfString(kCartPole, "cart_pole");
  grbda::Simulator sim(model, grbda::World::empty());  // a rail in the air: nothing to touch
  Lqr lqr(lqrGain(model, sim.options().dt));
  sim.setController(&lqr);
  grbda::VecX q0(2);
  q0 << 0.0, 0.2;
  sim.setState(q0, grbda::VecX::Zero(2));

  const int steps = args.isShort ? 3000 : 5000;
  double furthest = 0.0, largestPush = 0.0;
  std::vector<std::vector<double>> rows;
  for (int k = 0; k < steps; ++k) {
    sim.step();
    furthest = std::max(furthest, std::abs(sim.q()[0]));
    largestPush = std::max(largestPush, std::abs(sim.appliedTorque()[0]));
    rows.push_back({sim.time(), sim.q()[0], sim.q()[1], sim.appliedTorque()[0]});
  }
  std::printf("%d steps: pole %+.3f -> %+.2e rad, cart %+.2e m (furthest %.3f m), largest push %.2f N\n", steps,
              q0[1], sim.q()[1], sim.q()[0], furthest, largestPush);
  example::writeCsv(args.csv, "time,cart,pole,push", rows);
  example::require(std::abs(sim.q()[1]) < 1e-2 && std::abs(sim.q()[0]) < 2e-2 && sim.v().cwiseAbs().maxCoeff() < 2e-2,
                   "the pole is not balanced upright with the cart home");
  return 0;
}
