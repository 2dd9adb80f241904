"""The Mini Cheetah standing on its four feet: each foot is a point contact (bilateral, held where
it starts by Baumgarte stabilisation with T = 0.1 s), the legs are held bent (hip -0.8, knee 1.6)
by joint PD torques, the base starts at rest with the feet on the ground (z = 0); integrated by
semi-implicit Euler. Plots the base height and the vertical foot forces.

    python3 examples/python/mini_cheetah_stand.py OUT.png [--time 1.0] [--dt 0.001] [--kp 80 --kd 2]
"""
import argparse
import pathlib

import numpy as np

import grbda

MODEL = pathlib.Path(__file__).resolve().parents[2] / "models" / "mini_cheetah.urdf"
FEET = ["FR_foot", "FL_foot", "HR_foot", "HL_foot"]
BENT = {"abad": 0.0, "hip": -0.8, "knee": 1.6}  # leg joint angles (rad) the PD torques hold


def bent_legs(model):
    """Independent positions with the legs bent, the base level at the origin."""
    q = model.neutral_configuration()
    for i, name in enumerate(model.position_names):
        for part, angle in BENT.items():
            if name.endswith("_" + part + "_j"):
                q[i] = angle
    return q


def standing_pose(model, data):
    """The bent pose with the base raised until the feet touch z = 0 (about 0.28 m)."""
    q = bent_legs(model)
    grbda.forward_kinematics(model, data, q)
    q[2] = -np.mean([grbda.frame_position(model, data, foot)[2] for foot in FEET])
    return q


def total_mass(model):
    return sum(body.inertia[5, 5] for body in model.bodies)


def simulate(duration=1.0, dt=1e-3, kp=80.0, kd=2.0, solver="pv"):
    """Times (s), base heights (m) and vertical foot forces (N, one column per foot)."""
    model = grbda.load(MODEL)
    data = grbda.Data(model)
    contacts = grbda.ConstraintModel(model)
    for foot in FEET:
        contacts.add_point_contact(foot)
    contacts.set_baumgarte(0.1)  # the feet stay where they start (the pose of the first solve)
    cdata = grbda.ConstraintData(model, contacts)
    q = standing_pose(model, data)
    v = np.zeros(model.nv)
    target = bent_legs(model)[7:]  # the 12 leg angles follow the 7 base positions
    times, heights, forces = [], [], []
    for step in range(int(round(duration / dt))):
        tau = np.zeros(model.nv)  # the floating base is not actuated, the legs are
        tau[6:] = kp * (target - q[7:]) - kd * v[6:]
        qdd = grbda.constrained_forward_dynamics(model, data, contacts, cdata, q, v, tau, solver=solver)
        times.append(step * dt)
        heights.append(q[2])
        forces.append(cdata.lambda_[2::3].copy())  # z of each foot's force (world axes)
        v = v + dt * qdd  # semi-implicit Euler: the new velocity moves the positions
        q = grbda.integrate(model, q, v, dt)
    return np.array(times), np.array(heights), np.array(forces), total_mass(model)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("png", help="where to write the plot")
    parser.add_argument("--time", type=float, default=1.0, help="simulated seconds")
    parser.add_argument("--dt", type=float, default=1e-3, help="time step (s)")
    parser.add_argument("--kp", type=float, default=80.0, help="leg PD stiffness (N m/rad)")
    parser.add_argument("--kd", type=float, default=2.0, help="leg PD damping (N m s/rad)")
    args = parser.parse_args()
    times, heights, forces, mass = simulate(args.time, args.dt, args.kp, args.kd)

    import matplotlib
    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt
    fig, (ax, ax_force) = plt.subplots(1, 2, figsize=(10, 3.5))
    ax.plot(times, heights)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("base height (m)")
    ax.set_title("Mini Cheetah on four contacts")
    for foot, f in zip(FEET, forces.T):
        ax_force.plot(times, f, label=foot)
    ax_force.plot(times, forces.sum(axis=1), label="sum")
    ax_force.axhline(mass * 9.81, linestyle="--", color="gray", label="m g")
    ax_force.set_xlabel("time (s)")
    ax_force.set_ylabel("vertical foot force (N)")
    ax_force.set_title(f"leg PD kp={args.kp:g}, kd={args.kd:g}; Baumgarte T = 0.1 s")
    ax_force.legend()
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print(f"{len(times)} steps of {args.dt} s; base height {heights[0]:.3f} -> {heights[-1]:.3f} m; "
          f"vertical force {forces[-1].sum():.1f} N (m g = {mass * 9.81:.1f} N); plot: {args.png}")


if __name__ == "__main__":
    main()
