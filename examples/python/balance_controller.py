"""A controller written in Python, in the simulator's loop: a cart-pole (a cart on a rail, a pole
hinged on it; only the cart is pushed) balanced upright by LQR. The controller is a plain function
f(sim) -> tau that the Simulator calls at every step; its gains come from grbda's own dynamics,
linearised at the upright by finite differences of forward_dynamics and fed to a discrete Riccati
iteration. The pole starts tilted by 0.2 rad; the example asserts that it ends upright with the
cart back at the origin.

    python3 examples/python/balance_controller.py [OUT.png] [--time 5] [--short]
"""
import argparse
import os
import tempfile

import numpy as np

import grbda

CART_POLE = """<robot name="cart_pole">
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
</robot>
"""


def load_cart_pole():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cart_pole.urdf")
        with open(path, "w") as f:
            f.write(CART_POLE)
        return grbda.load(path)


def lqr_gain(model, dt, Q, R):
    """K of u = -K x, x = (q, v), for the dynamics linearised at the upright rest state (central
    differences of grbda.forward_dynamics), discretised like the simulator's semi-implicit Euler."""
    data = grbda.Data(model)
    n, eps = model.nv, 1e-6
    B_in = np.zeros((model.nv, 1))
    B_in[0, 0] = 1.0  # only the cart is pushed
    A = np.zeros((2 * n, 2 * n))
    B = np.zeros((2 * n, 1))
    A[:n, n:] = np.eye(n)
    zero = np.zeros(n)

    def qdd(q, v, u):
        return np.array(grbda.forward_dynamics(model, data, q, v, B_in @ u))

    for j in range(n):
        e = np.zeros(n)
        e[j] = eps
        A[n:, j] = (qdd(e, zero, [0.0]) - qdd(-e, zero, [0.0])) / (2 * eps)
        A[n:, n + j] = (qdd(zero, e, [0.0]) - qdd(zero, -e, [0.0])) / (2 * eps)
    B[n:, 0] = (qdd(zero, zero, [eps]) - qdd(zero, zero, [-eps])) / (2 * eps)
    # semi-implicit Euler: v+ = v + dt a, q+ = q + dt v+
    Ad = np.eye(2 * n) + dt * A
    Ad[:n] += dt * dt * A[n:]
    Bd = dt * B
    Bd[:n] += dt * dt * B[n:]
    P = Q.copy()
    for _ in range(5000):  # the discrete Riccati equation by fixed-point iteration
        K = np.linalg.solve(R + Bd.T @ P @ Bd, Bd.T @ P @ Ad)
        P_next = Q + Ad.T @ P @ (Ad - Bd @ K)
        if np.allclose(P_next, P, rtol=1e-12, atol=1e-12):
            break
        P = P_next
    return K


def simulate(duration=5.0, dt=1e-3, tilt=0.2):
    model = load_cart_pole()
    K = lqr_gain(model, dt, Q=np.diag([10.0, 10.0, 1.0, 1.0]), R=np.array([[0.1]]))
    sim = grbda.Simulator(model, grbda.World(ground=False), dt=dt)
    sim.set_state(np.array([0.0, tilt]))
    log = []

    def controller(s):
        """u = -K (q, v) on the cart; the pole's joint is not actuated."""
        x = np.concatenate([s.q, s.v])
        u = float(-(K @ x)[0])
        log.append((s.time, s.q[0], s.q[1], u))
        return np.array([u, 0.0])

    sim.set_controller(controller)
    sim.step(int(round(duration / dt)))  # step(n) releases the GIL; the callback takes it back
    return np.array(log), sim.q, sim.v


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("png", nargs="?", default="balance_controller.png", help="where to write the plot")
    parser.add_argument("--time", type=float, default=5.0, help="simulated seconds")
    parser.add_argument("--short", action="store_true", help="3 s, for CI")
    args = parser.parse_args()
    log, q, v = simulate(3.0 if args.short else args.time)
    times, cart, pole, force = log.T
    print(f"{len(times)} controller calls; pole {pole[0]:+.3f} -> {q[1]:+.2e} rad, cart {q[0]:+.2e} m "
          f"(furthest {np.abs(cart).max():.3f} m), largest push {np.abs(force).max():.2f} N")
    assert abs(q[1]) < 1e-2 and abs(q[0]) < 2e-2 and np.abs(v).max() < 2e-2, (q, v)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(3, 1, figsize=(7, 6), sharex=True)
    for ax, values, label in zip(axes, (pole, cart, force), ("pole angle (rad)", "cart (m)", "push (N)")):
        ax.plot(times, values)
        ax.set_ylabel(label)
    axes[0].set_title("cart-pole balanced by an LQR controller written in Python")
    axes[-1].set_xlabel("time (s)")
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print(f"plot: {args.png}")


if __name__ == "__main__":
    main()
