"""The Mini Cheetah trotting in place on an open-loop gait: the diagonal pairs (FR + HL, FL + HR)
take turns lifting their feet (hip and knee targets varying in time, sent to the joint PD with
set_pd_target every step) while the other pair stands. Nothing feeds back the torso's state, yet it
neither falls nor tips: the example asserts that the torso stays above a height and level within a
tilt. Plots the torso height, tilt and Σ normal force.

    python3 examples/python/cheetah_trot.py [OUT.png] [--time 10] [--short]
"""
import argparse
import math
import pathlib

import numpy as np

import grbda

MODEL = pathlib.Path(__file__).resolve().parents[2] / "models" / "mini_cheetah.urdf"
STANCE = {"abad": 0.0, "hip": -0.8, "knee": 1.6}  # rad, the standing pose of every leg
PAIRS = ({"FR", "HL"}, {"FL", "HR"})  # the diagonal pairs, swinging in turn
PERIOD = 0.36      # s, one gait cycle (each pair swings for half of it)
LIFT = 0.25        # rad, the hip flexion at mid-swing (the knee flexes twice as much: the foot rises)
MIN_HEIGHT = 0.2   # m, the torso never goes lower (lying on the ground it is at ~0.05 m)
MAX_TILT = 0.26    # rad, the torso's z axis never leans further from vertical (15 degrees)


def leg_joints(model):
    """(index in q, leg, part) of every leg joint: names like FR_abad_to_hip_j are (FR, hip)."""
    out = []
    for i, name in enumerate(model.position_names):
        for part in STANCE:
            if name.endswith("_" + part + "_j"):
                leg = next(l for l in ("FR", "FL", "HR", "HL") if l in name)
                out.append((i, leg, part))
    return out


def targets(model, joints, t, q_stance):
    """PD targets (q, v) at time t: the stance, plus the swing of the pair whose half-cycle it is."""
    q, v = q_stance.copy(), np.zeros(model.nv)
    phase = (t % PERIOD) / PERIOD
    swinging = PAIRS[0] if phase < 0.5 else PAIRS[1]
    s = math.sin(2 * math.pi * phase)  # half a sine per pair: 0 -> 1 -> 0
    ds = 2 * math.pi / PERIOD * math.cos(2 * math.pi * phase)
    if phase >= 0.5:
        s, ds = -s, -ds
    for i, leg, part in joints:
        if leg in swinging and part != "abad":
            scale = -LIFT if part == "hip" else 2 * LIFT
            q[i] += scale * s
            v[i - 1] = scale * ds  # leg joints: velocity index = position index - 1 (the quaternion)
    return q, v


def tilt(q):
    """Angle between the torso's z axis and the vertical: R_zz = 1 - 2 (qx^2 + qy^2)."""
    return math.acos(max(-1.0, min(1.0, 1 - 2 * (q[4] ** 2 + q[5] ** 2))))


def simulate(duration=10.0, dt=1e-3, kp=60.0, kd=0.8, settle=0.5):
    """Times, torso heights, tilts, Σ normal forces and feet pushing on the ground, per step of the
    gait (which starts after `settle` seconds of standing)."""
    model = grbda.load(MODEL)
    joints = leg_joints(model)
    q0 = model.neutral_configuration()
    for i, _, part in joints:
        q0[i] = STANCE[part]
    data = grbda.Data(model)
    grbda.forward_kinematics(model, data, q0)  # the feet (0.02 m spheres) 5 mm above the ground
    q0[2] = 0.025 - min(grbda.frame_position(model, data, f"{leg}_foot")[2] for leg in ("FR", "FL", "HR", "HL"))
    sim = grbda.Simulator(model, grbda.World(friction=1.0), dt=dt)
    sim.set_state(q0)
    sim.set_pd(kp, kd)
    steps = int(round((settle + duration) / dt))
    log = np.zeros((steps, 5))
    for k in range(steps):
        t = sim.time - settle
        if t >= 0:
            sim.set_pd_target(*targets(model, joints, t, q0))
        sim.step()
        feet = sum(c["normal_force"] > 0 for c in sim.contacts)
        log[k] = sim.time, sim.q[2], tilt(sim.q), sim.normal_force_sum, feet
    return log[log[:, 0] > settle]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("png", nargs="?", default="cheetah_trot.png", help="where to write the plot")
    parser.add_argument("--time", type=float, default=10.0, help="seconds of trotting")
    parser.add_argument("--short", action="store_true", help="1.5 s of trotting, for CI")
    args = parser.parse_args()
    log = simulate(1.5 if args.short else args.time)
    times, heights, tilts, forces, feet = log.T
    swing = np.mean(feet <= 2)
    print(f"{len(times)} steps of trotting; torso height {heights.min():.4f}..{heights.max():.4f} m, "
          f"max tilt {math.degrees(tilts.max()):.2f} deg, peak Σ normal force {forces.max():.1f} N, "
          f"two feet or fewer on the ground {100 * swing:.0f} % of the time")
    assert swing > 0.2, "the feet hardly leave the ground: this is not a trot"
    assert heights.min() > MIN_HEIGHT, f"the torso fell to {heights.min():.3f} m"
    assert tilts.max() < MAX_TILT, f"the torso tipped by {tilts.max():.3f} rad"

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(3, 1, figsize=(8, 6), sharex=True)
    for ax, values, label in zip(axes, (heights, np.degrees(tilts), forces),
                                 ("torso height (m)", "tilt (deg)", "Σ normal force (N)")):
        ax.plot(times, values)
        ax.set_ylabel(label)
    axes[0].set_title(f"Mini Cheetah trotting in place (open loop, {PERIOD:g} s cycle)")
    axes[-1].set_xlabel("time (s)")
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print(f"plot: {args.png}")


if __name__ == "__main__":
    main()
