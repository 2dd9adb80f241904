"""The MIT Humanoid (floating base; geared hips, shoulders and elbows; knee and ankle driven by belts
from rotors on the thigh) standing on its two sole boxes (0.15 x 0.07 x 0.01 m, friction 1) for 5 s
under a joint PD that holds a slight crouch. It starts with the soles 5 mm above the ground, lands
and stands: the example asserts the torso height holds, the soles carry the weight and nothing slides.

    python3 examples/python/humanoid_stand.py [OUT.png] [--time 5] [--short]
"""
import argparse
import pathlib

import numpy as np

import grbda

MODEL = pathlib.Path(__file__).resolve().parents[2] / "models" / "mit_humanoid.urdf"
CROUCH = {"hipy_link": -0.2, "knee_link": 0.4, "knee_to_ankle": -0.2}  # rad, by joint-name suffix
SOLES = ["right_foot", "left_foot"]


def crouch(model):
    """The crouch with the torso raised until the lower sole is 5 mm above z = 0."""
    q = model.neutral_configuration()
    for i, name in enumerate(model.position_names):
        for suffix, angle in CROUCH.items():
            if name.endswith(suffix):
                q[i] = angle
    data = grbda.Data(model)
    grbda.forward_kinematics(model, data, q)
    # a sole box spans z in [0, 0.01] of its foot frame: the frame's origin is the sole's bottom
    q[2] = 0.005 - min(grbda.frame_position(model, data, sole)[2] for sole in SOLES)
    return q


def simulate(duration=5.0, dt=1e-3, kp=300.0, kd=3.0, solver="pgs"):
    """Times, torso heights, Σ normal forces, and the weight [N]; sole positions at start and end.
    The contact solver is PGS: ADMM diverges at this touchdown (eight sole corners; see
    examples/README.md)."""
    model = grbda.load(MODEL)
    sim = grbda.Simulator(model, grbda.World(friction=1.0), dt=dt, solver=solver)
    sim.set_state(crouch(model))
    sim.set_pd(kp, kd)
    steps = int(round(duration / dt))
    log = np.zeros((steps, 3))
    data = grbda.Data(model)
    soles = []
    for k in range(steps):
        sim.step()
        log[k] = sim.time, sim.q[2], sim.normal_force_sum
        if k in (int(0.5 / dt), steps - 1):  # once landed, and at the end
            grbda.forward_kinematics(model, data, sim.q)
            soles.append(np.array([grbda.frame_position(model, data, s) for s in SOLES]))
    weight = 9.81 * sum(body.inertia[5, 5] for body in model.bodies)
    return log, weight, soles


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("png", nargs="?", default="humanoid_stand.png", help="where to write the plot")
    parser.add_argument("--time", type=float, default=5.0, help="simulated seconds")
    parser.add_argument("--short", action="store_true", help="1 s, for CI")
    parser.add_argument("--solver", default="pgs", choices=["admm", "pgs", "compliant"], help="contact solver")
    args = parser.parse_args()
    log, weight, soles = simulate(1.0 if args.short else args.time, solver=args.solver)
    times, heights, forces = log.T
    slide = np.abs(soles[-1][:, :2] - soles[0][:, :2]).max()
    print(f"{len(times)} steps; torso height {heights[0]:.4f} -> {heights[-1]:.4f} m (lowest {heights.min():.4f}), "
          f"final Σ normal force {forces[-1]:.2f} N (weight {weight:.2f} N), soles slid {slide:.2e} m")
    assert heights.min() > heights[0] - 0.05, "the humanoid sagged or fell"
    assert abs(forces[-1] - weight) < 0.01 * weight, (forces[-1], weight)
    assert slide < 1e-3, f"a sole slid {slide} m"

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax_z, ax_f) = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    ax_z.plot(times, heights)
    ax_z.set_ylabel("torso height (m)")
    ax_z.set_title("MIT Humanoid standing under a joint PD")
    ax_f.plot(times, forces, label="Σ normal force")
    ax_f.axhline(weight, ls="--", color="gray", label=f"weight {weight:.1f} N")
    ax_f.set_xlabel("time (s)")
    ax_f.set_ylabel("force (N)")
    ax_f.legend()
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print(f"plot: {args.png}")


if __name__ == "__main__":
    main()
