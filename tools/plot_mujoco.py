#!/usr/bin/env python3
"""Plots the Mini Cheetah drop of grbda beside MuJoCo 2.2.2 (the time series that
`bench_mujoco report --csv FILE` writes): torso height and Σ normal force against time, one line
per engine.

    python3 tools/plot_mujoco.py DROP.csv bench/plots/mujoco_drop.png
"""
import argparse

import numpy as np

LABELS = {"grbda": "grbda (rotors exact, rigid contact)", "mujoco_armature": "MuJoCo 2.2.2, rotors as armature",
          "mujoco_rotors": "MuJoCo 2.2.2, rotor bodies + joint equality"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv")
    parser.add_argument("png")
    args = parser.parse_args()
    data = np.genfromtxt(args.csv, delimiter=",", names=True)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax_z, ax_f) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for engine, label in LABELS.items():
        ax_z.plot(data["time"], data["z_" + engine], label=label)
        ax_f.plot(data["time"], data["fn_" + engine], label=label)
    ax_z.set_ylabel("torso height (m)")
    ax_z.set_title("Mini Cheetah dropped from 0.30 m, legs (0, -1, 2), PD kp = 50, kd = 0.4, 1 ms")
    ax_z.legend()
    ax_f.set_ylabel("Σ normal force (N)")
    ax_f.set_xlabel("time (s)")
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)


if __name__ == "__main__":
    main()
