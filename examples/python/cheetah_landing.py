"""The Mini Cheetah dropped on the ground: torso at 0.30 m, legs (abad, hip, knee) = (0, -1, 2) rad
held by a joint PD (kp = 50 N m/rad, kd = 0.4 N m s/rad), 1 ms steps, four 0.02 m foot spheres with
friction 1 on the exact Coulomb cone. It lands and stands; the plot shows the torso height and the
sum of the normal forces against the robot's weight. (bench/RESULTS.md runs the same drop in MuJoCo.)

    python3 examples/python/cheetah_landing.py [OUT.png] [--time 1.5] [--short]
"""
import argparse
import pathlib

import numpy as np

import grbda

MODEL = pathlib.Path(__file__).resolve().parents[2] / "models" / "mini_cheetah.urdf"
LEGS = {"abad": 0.0, "hip": -1.0, "knee": 2.0}  # rad, every leg


def crouch(model, height):
    """Independent positions: the torso level at `height`, every leg at LEGS."""
    q = model.neutral_configuration()
    q[2] = height
    for i, name in enumerate(model.position_names):
        for part, angle in LEGS.items():
            if name.endswith("_" + part + "_j"):
                q[i] = angle
    return q


def simulate(duration=1.5, dt=1e-3, height=0.30, kp=50.0, kd=0.4):
    """Times (s), torso heights (m) and sums of normal forces (N) after each step, and the weight (N)."""
    model = grbda.load(MODEL)
    sim = grbda.Simulator(model, grbda.World(friction=1.0), dt=dt)
    sim.set_state(crouch(model, height))
    sim.set_pd(kp, kd)  # the target is the pose it is switched on at
    steps = int(round(duration / dt))
    times, heights, forces = np.zeros(steps), np.zeros(steps), np.zeros(steps)
    for k in range(steps):
        sim.step()
        times[k], heights[k], forces[k] = sim.time, sim.q[2], sim.normal_force_sum
    weight = 9.81 * sum(body.inertia[5, 5] for body in model.bodies)
    return times, heights, forces, weight


def summary(times, heights, forces):
    touched = np.nonzero(forces > 0)[0]
    last = times > times[-1] - 0.2  # the weakly damped PD lets the torso bob at ~5 Hz: one period
    return dict(touchdown=times[touched[0]] if len(touched) else None, peak_force=forces.max(),
                lowest=heights.min(), final=heights[-1], final_force=forces[-1], mean_force=forces[last].mean())


def plot(png, times, heights, forces, weight):
    import matplotlib
    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt
    fig, (ax_z, ax_f) = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    ax_z.plot(times, heights)
    ax_z.set_ylabel("torso height (m)")
    ax_z.set_title("Mini Cheetah dropped from 0.30 m, joint PD kp = 50, kd = 0.4")
    ax_f.plot(times, forces, label="Σ normal force")
    ax_f.axhline(weight, ls="--", color="gray", label=f"weight m g = {weight:.1f} N")
    ax_f.set_xlabel("time (s)")
    ax_f.set_ylabel("force (N)")
    ax_f.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("png", nargs="?", default="cheetah_landing.png", help="where to write the plot")
    parser.add_argument("--time", type=float, default=1.5, help="simulated seconds")
    parser.add_argument("--short", action="store_true", help="1 s (enough to land and stand), for CI")
    args = parser.parse_args()
    duration = 1.0 if args.short else args.time
    times, heights, forces, weight = simulate(duration)
    s = summary(times, heights, forces)
    print(f"{len(times)} steps; touchdown {s['touchdown']:.3f} s, peak Σ normal force {s['peak_force']:.1f} N, "
          f"lowest torso {s['lowest']:.4f} m, final torso {s['final']:.4f} m, final Σ normal force "
          f"{s['final_force']:.2f} N, over the last 0.2 s {s['mean_force']:.2f} N (weight {weight:.2f} N)")
    # it lands and stands: on its feet, carrying its weight, the torso well above the ground
    assert s["touchdown"] is not None and 0.15 < s["lowest"] and 0.15 < s["final"] < 0.30, s
    assert abs(s["mean_force"] - weight) < 0.05 * weight, (s["mean_force"], weight)
    plot(args.png, times, heights, forces, weight)
    print(f"plot: {args.png}")


if __name__ == "__main__":
    main()
