"""The papers' accuracy experiment from Python: how wrong are the usual rotor approximations on
the MIT Humanoid leg moving fast? Every joint follows q = A sin(2π f t); torques by exact C-RNEA,
by RNEA with the rotors as armature N² J ("approximate") and with the rotors dropped
("unconstrained"); prints the RMS error per joint and plots the knee and ankle torques.

    python3 examples/python/rotor_accuracy.py [OUT.png] [--frequency 1.5]
"""
import argparse
import pathlib

import numpy as np

import grbda

LEG = pathlib.Path(__file__).resolve().parents[2] / "models" / "mit_humanoid_leg.urdf"


def torques(frequency, amplitude=0.5, dt=5e-4, duration=5.0):
    """Times (s) and the exact, approximate and unconstrained torques (samples x nv, N m)."""
    previous = grbda.log_level()
    grbda.set_log_level("error")  # the approximate models warn about what they leave out
    try:
        model = grbda.load(LEG)
        approximate = grbda.make_approximate_model(model, grbda.RotorApproximation.DIAGONAL)
        unconstrained = grbda.make_approximate_model(model, grbda.RotorApproximation.NONE)
    finally:
        grbda.set_log_level(previous)
    data, data_approximate, data_free = grbda.Data(model), grbda.Data(approximate.tree), grbda.Data(unconstrained.tree)
    w = 2 * np.pi * frequency
    times = np.arange(int(round(duration / dt))) * dt
    exact, approx, free = (np.empty((len(times), model.nv)) for _ in range(3))
    for k, t in enumerate(times):
        q, v, a = (np.full(model.nv, x) for x in (amplitude * np.sin(w * t), amplitude * w * np.cos(w * t),
                                                  -amplitude * w * w * np.sin(w * t)))
        exact[k] = grbda.inverse_dynamics(model, data, q, v, a)
        approx[k] = grbda.approximate_inverse_dynamics(approximate, data_approximate, q, v, a)
        free[k] = grbda.approximate_inverse_dynamics(unconstrained, data_free, q, v, a)
    return model, times, exact, approx, free


def rms_errors(exact, approx, free):
    """RMS error per joint of the approximate and unconstrained torques, and peak |exact torque|."""
    rms = lambda e: np.sqrt(np.mean(e**2, axis=0))  # noqa: E731
    return rms(approx - exact), rms(free - exact), np.abs(exact).max(axis=0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("png", nargs="?", help="plot the knee and ankle torques here")
    parser.add_argument("--frequency", type=float, default=1.5, help="Hz")
    args = parser.parse_args()
    model, times, exact, approx, free = torques(args.frequency)
    err_approx, err_free, peak = rms_errors(exact, approx, free)
    print(f"f = {args.frequency} Hz: RMS torque error against exact C-RNEA (N m, % of peak |tau|)")
    print(f"{'joint':20s} {'unconstrained':>21s} {'approximate':>21s}")
    for name, u, a, p in zip(model.velocity_names, err_free, err_approx, peak):
        print(f"{name:20s} {u:13.4f} {100 * u / p:6.1f}% {a:13.4f} {100 * a / p:6.1f}%")
    if args.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.5), sharex=True)
        for ax, j in zip(axes, (model.nv - 2, model.nv - 1)):
            ax.plot(times, exact[:, j], label="exact (C-RNEA)")
            ax.plot(times, approx[:, j], "--", label="approximate (N² J armature)")
            ax.plot(times, free[:, j], ":", label="unconstrained (rotors dropped)")
            ax.set_title(f"{model.velocity_names[j]}, f = {args.frequency} Hz")
            ax.set_xlabel("time (s)")
            ax.set_ylabel("torque (N m)")
        axes[0].legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(args.png, dpi=100)
        print(f"plot: {args.png}")


if __name__ == "__main__":
    main()
