#!/usr/bin/env python3
"""Instructions per simulator step through the Mini Cheetah's drop and landing (callgrind).

Runs build/bench/sim_step_count MODEL drop SOLVER N under callgrind, which dumps its counts after
every step, and writes bench/results/sim_drop_cost.csv (step, time, instructions, contacts,
solver iterations, normal force sum, torso height) and bench/plots/sim_drop_cost.png.

    tools/plot_sim_cost.py [--build DIR] [--solver admm] [--steps 400]
"""
import argparse
import csv
import glob
import os
import re
import subprocess
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    parser.add_argument("--solver", default="admm")
    parser.add_argument("--steps", type=int, default=400)
    args = parser.parse_args()
    program = os.path.join(args.build, "bench", "sim_step_count")
    model = os.path.join(REPO, "models", "mini_cheetah.urdf")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, program, model, "drop",
                              args.solver, str(args.steps)], capture_output=True, text=True, check=True)
        counts = {}
        for path in glob.glob(out + ".*"):
            dump = int(path.rsplit(".", 1)[1])
            with open(path) as f:
                for line in f:
                    if line.startswith("summary:"):
                        counts[dump] = int(line.split()[1])
    steps = [dict(re.findall(r"(\w+) (\S+)", line)) for line in run.stdout.splitlines() if line.startswith("step ")]
    rows = []
    for s in steps:
        i = int(s["step"])
        rows.append([i, float(s["t"]), counts.get(i + 1, 0), int(s["contacts"]), int(s["iterations"]),
                     float(s["normal_force_sum"]), float(s["torso_z"])])
    os.makedirs(os.path.join(REPO, "bench", "results"), exist_ok=True)
    table = os.path.join(REPO, "bench", "results", "sim_drop_cost.csv")
    with open(table, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "t", "instructions", "contacts", "iterations", "normal_force_sum", "torso_z"])
        w.writerows(rows)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    t = [r[1] for r in rows]
    fig, (a, b) = plt.subplots(2, 1, sharex=True, figsize=(7, 5))
    a.plot(t, [r[2] / 1000 for r in rows], lw=1)
    a.set_ylabel("instructions per step [k]")
    a.set_title("Mini Cheetah dropped from 0.30 m, PD kp 50 kd 0.4, " + args.solver)
    b.plot(t, [r[5] for r in rows], lw=1, label="normal force sum [N]")
    b.set_ylabel("Σ normal force [N]")
    b.set_xlabel("t [s]")
    fig.tight_layout()
    os.makedirs(os.path.join(REPO, "bench", "plots"), exist_ok=True)
    fig.savefig(os.path.join(REPO, "bench", "plots", "sim_drop_cost.png"), dpi=110)
    print("wrote bench/results/sim_drop_cost.csv and bench/plots/sim_drop_cost.png")


if __name__ == "__main__":
    main()
