"""What a Python call costs on top of the C++ one: forward dynamics of the Mini Cheetah at its
neutral state, timed from Python (timeit) and in C++ (`grbda fd --repeat N`, load time taken off
by a `--repeat 0` run), plus the batched call per state. Prints a Markdown table.

    build/python/python3 bench/python_overhead.py [--build build] [--model models/mini_cheetah.urdf]

Each number is the best of several runs (the machine may be shared).
"""
import argparse
import pathlib
import subprocess
import sys
import time
import timeit

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def cxx_seconds_per_call(cli, model, repeat, runs=5):
    def wall(n):
        start = time.perf_counter()
        subprocess.run([str(cli), "fd", str(model), "--repeat", str(n)], check=True, capture_output=True)
        return time.perf_counter() - start
    load_only = min(wall(0) for _ in range(runs))
    return max(min(wall(repeat) for _ in range(runs)) - load_only, 0.0) / repeat


def best_per_call(statement, number, runs=7):
    return min(timeit.repeat(statement, number=number, repeat=runs)) / number


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--model", default=str(ROOT / "models" / "mini_cheetah.urdf"))
    args = parser.parse_args()
    build = pathlib.Path(args.build)
    sys.path.insert(0, str(build / "python"))
    import grbda

    model = grbda.load(args.model)
    data = grbda.Data(model)
    q, v, tau = model.neutral_configuration(), np.zeros(model.nv), np.zeros(model.nv)
    q_list, v_list, tau_list = q.tolist(), v.tolist(), tau.tolist()
    n = 20000
    cxx = cxx_seconds_per_call(build / "tools" / "grbda", args.model, 200000)
    py = best_per_call(lambda: grbda.forward_dynamics(model, data, q, v, tau), n)
    py_lists = best_per_call(lambda: grbda.forward_dynamics(model, data, q_list, v_list, tau_list), n)
    states = 20000
    Q, V, TAU = np.tile(q, (states, 1)), np.zeros((states, model.nv)), np.zeros((states, model.nv))
    batch = {t: best_per_call(lambda: grbda.forward_dynamics_batch(model, Q, V, TAU, threads=t), 1, runs=5) / states
             for t in (1, 2)}

    us = 1e6
    print(f"Forward dynamics of `{model.name}` (nv = {model.nv}) at the neutral state, per call or state:\n")
    print("| call | µs | overhead over C++ |")
    print("|---|---:|---:|")
    print(f"| C++ `forwardDynamics` (`grbda fd --repeat`) | {cxx * us:.2f} | |")
    rows = [("Python `forward_dynamics`, numpy arrays", py), ("Python `forward_dynamics`, lists", py_lists),
            ("`forward_dynamics_batch`, 1 thread", batch[1]), ("`forward_dynamics_batch`, 2 threads", batch[2])]
    for label, seconds in rows:
        print(f"| {label} | {seconds * us:.2f} | {(seconds - cxx) * us:+.2f} |")


if __name__ == "__main__":
    main()
