"""The Mini Cheetah dropped from rest (no contacts yet: it falls freely in gravity), its legs held
at a crouch by PD torques, integrated by semi-implicit Euler; plots the base height.

    python3 examples/python/mini_cheetah_drop.py OUT.png [--time 0.5] [--dt 0.001] [--kp 40 --kd 1]
"""
import argparse
import pathlib

import numpy as np

import grbda

MODEL = pathlib.Path(__file__).resolve().parents[2] / "models" / "mini_cheetah.urdf"
CROUCH = {"abad": 0.0, "hip": -0.8, "knee": 1.6}  # leg joint angles (rad) the PD torques hold


def crouch_pose(model):
    """Target leg angles by joint name (..._abad_j, ..._hip_j, ..._knee_j), zero for the base."""
    target = np.zeros(model.nv)
    for i, name in enumerate(model.velocity_names):
        for part, angle in CROUCH.items():
            if name.endswith("_" + part + "_j"):
                target[i] = angle
    return target


def simulate(duration=0.5, dt=1e-3, kp=40.0, kd=1.0, height=0.5):
    """Times (s), base heights (m) and the front-right leg's angles (rad, abad/hip/knee) of the drop;
    kp = kd = 0 lets the legs hang (then the base falls exactly like a point)."""
    model = grbda.load(MODEL)
    data = grbda.Data(model)
    q = model.neutral_configuration()
    q[2] = height
    v = np.zeros(model.nv)
    target = crouch_pose(model)
    times, heights, leg = [0.0], [q[2]], [q[7:10]]
    for step in range(int(round(duration / dt))):
        tau = np.zeros(model.nv)  # the floating base (first 6 velocities) is not actuated; the legs
        tau[6:] = kp * (target[6:] - q[7:]) - kd * v[6:]  # are: their angles follow the 7 base positions
        qdd = grbda.forward_dynamics(model, data, q, v, tau)
        v = v + dt * qdd  # semi-implicit Euler: the new velocity moves the positions
        q = grbda.integrate(model, q, v, dt)
        times.append((step + 1) * dt)
        heights.append(q[2])
        leg.append(q[7:10])
    return np.array(times), np.array(heights), np.array(leg)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("png", help="where to write the plot")
    parser.add_argument("--time", type=float, default=0.5, help="simulated seconds")
    parser.add_argument("--dt", type=float, default=1e-3, help="time step (s)")
    parser.add_argument("--kp", type=float, default=40.0, help="leg PD stiffness (N m/rad)")
    parser.add_argument("--kd", type=float, default=1.0, help="leg PD damping (N m s/rad)")
    args = parser.parse_args()
    times, heights, leg = simulate(args.time, args.dt, args.kp, args.kd)

    import matplotlib
    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt
    fig, (ax, ax_leg) = plt.subplots(1, 2, figsize=(10, 3.5))
    ax.plot(times, heights, label="base height (grbda, semi-implicit Euler)")
    ax.plot(times, heights[0] - 0.5 * 9.81 * times**2, "--", label="free fall of a point, z0 - g t²/2")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("base height (m)")
    ax.set_title("Mini Cheetah dropped (no contacts)")
    ax.legend()
    for joint, angles in zip(CROUCH, leg.T):
        ax_leg.plot(times, angles, label=f"FR {joint} (target {CROUCH[joint]:+.1f})")
    ax_leg.set_xlabel("time (s)")
    ax_leg.set_ylabel("joint angle (rad)")
    ax_leg.set_title(f"front-right leg under PD (kp={args.kp:g}, kd={args.kd:g})")
    ax_leg.legend()
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print(f"{len(times) - 1} steps of {args.dt} s; base height {heights[0]:.3f} -> {heights[-1]:.3f} m; plot: {args.png}")


if __name__ == "__main__":
    main()
