"""What a Python call costs on top of the C++ one: forward dynamics of the Mini Cheetah (and of
a 2-DoF pendulum, where the call is nearly all overhead) at the neutral state, timed from Python (timeit) and in C++ (`grbda fd --repeat N`, load time taken off
by a `--repeat 0` run), plus the batched call per state. Prints a Markdown table.

    build/python/python3 bench/python_overhead.py [--build build] [--rounds 7] [MODEL...]

Each number is the best of several rounds (the machine may be shared).
"""
import argparse
import pathlib
import subprocess
import sys
import time
import timeit

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def cxx_seconds_per_call(cli, model, repeat):
    """`grbda fd --repeat N` minus `--repeat 0` (loading), per call."""
    def wall(n):
        start = time.perf_counter()
        subprocess.run([str(cli), "fd", str(model), "--repeat", str(n)], check=True, capture_output=True)
        return time.perf_counter() - start
    return max(wall(repeat) - wall(0), 0.0) / repeat


def per_call(function, number):
    return timeit.timeit(function, number=number) / number


def measure(grbda, cli, path, rounds):
    """Best of `rounds` rounds for each way of calling; every round measures them all in turn, so
    a busy moment on a shared machine slows one round, not one row."""
    model = grbda.load(path)
    data = grbda.Data(model)
    q, v, tau = model.neutral_configuration(), np.zeros(model.nv), np.zeros(model.nv)
    lists = q.tolist(), v.tolist(), tau.tolist()
    states = 20000
    Q, V, TAU = np.tile(q, (states, 1)), np.zeros((states, model.nv)), np.zeros((states, model.nv))
    calls = {
        "C++ `forwardDynamics` (`grbda fd --repeat`)": lambda: cxx_seconds_per_call(cli, path, 100000),
        "Python `forward_dynamics`, numpy arrays": lambda: per_call(lambda: grbda.forward_dynamics(model, data, q, v, tau), 20000),
        "Python `forward_dynamics`, lists": lambda: per_call(lambda: grbda.forward_dynamics(model, data, *lists), 20000),
        "`forward_dynamics_batch`, 1 thread": lambda: per_call(
            lambda: grbda.forward_dynamics_batch(model, Q, V, TAU, threads=1), 1) / states,
        "`forward_dynamics_batch`, 2 threads": lambda: per_call(
            lambda: grbda.forward_dynamics_batch(model, Q, V, TAU, threads=2), 1) / states,
    }
    best = {label: float("inf") for label in calls}
    for _ in range(rounds):
        for label, run in calls.items():
            best[label] = min(best[label], run())
    return model, best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("models", nargs="*", default=[str(ROOT / "models" / "mini_cheetah.urdf"),
                                                      str(ROOT / "models" / "double_pendulum.urdf")])
    args = parser.parse_args()
    build = pathlib.Path(args.build)
    sys.path.insert(0, str(build / "python"))
    import grbda

    print("Forward dynamics at the neutral state, per call (or per state for the batch), best of %d rounds:\n"
          % args.rounds)
    print("| robot | call | µs | over the C++ call |")
    print("|---|---|---:|---:|")
    for path in args.models:
        model, best = measure(grbda, build / "tools" / "grbda", path, args.rounds)
        cxx = next(iter(best.values()))
        for label, seconds in best.items():
            extra = "" if seconds is cxx else "%+.2f" % ((seconds - cxx) * 1e6)
            print(f"| {model.name} (nv = {model.nv}) | {label} | {seconds * 1e6:.2f} | {extra} |")


if __name__ == "__main__":
    main()
