#!/usr/bin/env python3
"""grbda beside MuJoCo 4.0 and Pinocchio 4.1 on the Mini Cheetah, in one run on this machine:
instructions per call (callgrind, steady state: (count(N) - count(1)) / (N - 1)) and time per call
(medians of interleaved rounds in one process, bench/peers/side_by_side.cpp), with the ratios and
the goals of bench/RESULTS.md.

  bench/compare_peers.py [--build DIR] [--rounds R] [--no-counts] [--write FILE]

It installs the peers itself (tools/install_peers.sh: the pinned wheels of
tools/requirements/peers.txt into .peers/venv), builds bench/peers against the grbda build tree
DIR (default build) into DIR/peers-bench, and prints a markdown table. Without the package index
it says so and exits 0 (--require-peers: exit 1).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from ledger import callgrind, flavour_launch  # noqa: E402  (one way of counting for the ledger and this table)

# (grbda measure, peer measure, goal on grbda / peer for instructions, for time): issue #52
PAIRS = [
    ("grbda C-ABA", "Pinocchio aba", 0.8, 0.5),
    ("grbda C-RNEA", "Pinocchio rnea", 1.0, 0.7),
    ("grbda step standing", "MuJoCo armature standing", 0.75, 0.8),
    ("grbda step falling", "MuJoCo armature falling", 1.0, 1.0),
    ("grbda step standing", "MuJoCo rotors standing", None, 0.5),
    ("grbda step falling", "MuJoCo rotors falling", None, 0.5),
]
REPEAT = {"C-ABA": 200, "aba": 200, "C-RNEA": 400, "rnea": 400}


def install_peers(venv):
    run = subprocess.run([str(ROOT / "tools" / "install_peers.sh"), str(venv)], capture_output=True, text=True)
    print(run.stdout.strip())
    if run.returncode != 0:
        print(run.stderr.strip()[-1500:])
    return run.returncode == 0


def build_side_by_side(build, venv):
    out = build / "peers-bench"
    cmake = shutil.which("cmake") or "cmake"
    configure = [cmake, "-S", str(ROOT / "bench" / "peers"), "-B", str(out), f"-Dgrbda_DIR={build}",
                 f"-DGRBDA_PEERS_VENV={venv}", "-DCMAKE_BUILD_TYPE=Release"]
    if shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    if shutil.which("ccache"):
        configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
    subprocess.run(configure, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([cmake, "--build", str(out)], check=True, stdout=subprocess.DEVNULL)
    return out / "side_by_side"


def instructions(program, measure, launch):
    repeat = next((n for key, n in REPEAT.items() if measure.endswith(key)), 100)
    once = callgrind([str(program), "count", measure, "1"], launch=launch)
    many = callgrind([str(program), "count", measure, str(repeat)], launch=launch)
    return (many - once) / (repeat - 1)


def times(program, rounds, launch):
    prefix, env = launch
    out = subprocess.run(prefix + [str(program), "time", "--rounds", str(rounds)], check=True, capture_output=True,
                         text=True, env=env).stdout
    header = next(line for line in out.splitlines() if line.startswith("#"))
    rows = dict(line.split("\t") for line in out.splitlines() if "\t" in line)
    return header, {name: float(ns) for name, ns in rows.items()}


def ratio_cell(ours, theirs, goal):
    r = ours / theirs
    if goal is None:
        return f"{r:.2f} ×"
    return f"{r:.2f} × ({'met' if r <= goal else 'goal'} ≤ {goal} ×)"


def table(runs, header):
    """runs: flavour -> (instruction counts or {}, ns per call)."""
    lines = [f"{header}; instructions: callgrind, steady state", "",
             "| grbda (flavour) | peer | instructions grbda / peer | ratio | time grbda / peer [µs] | ratio |",
             "|---|---|---:|---|---:|---|"]
    for ours, theirs, goal_instr, goal_time in PAIRS:
        for flavour, (counts, ns) in runs.items():
            if counts:
                c = f"{counts[ours] / 1e3:.1f} k / {counts[theirs] / 1e3:.1f} k"
                cr = ratio_cell(counts[ours], counts[theirs], goal_instr)
            else:
                c, cr = "-", "-"
            t = f"{ns[ours] / 1e3:.2f} / {ns[theirs] / 1e3:.2f}"
            lines.append(f"| {ours} ({flavour}) | {theirs} | {c} | {cr} | {t} | "
                         f"{ratio_cell(ns[ours], ns[theirs], goal_time)} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--venv", default=str(ROOT / ".peers" / "venv"))
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--no-counts", action="store_true", help="time only (no valgrind)")
    parser.add_argument("--write", help="also write the table to this file")
    parser.add_argument("--require-peers", action="store_true")
    args = parser.parse_args()
    build = Path(args.build) if Path(args.build).is_absolute() else (ROOT / args.build)
    if not install_peers(Path(args.venv)):
        print("compare_peers.py: skipped: the peer environment could not be installed (no package index?)")
        return 1 if args.require_peers else 0
    program = build_side_by_side(build.resolve(), Path(args.venv).resolve())
    ours = sorted({pair[0] for pair in PAIRS})
    theirs = sorted({pair[1] for pair in PAIRS})
    count = not args.no_counts and shutil.which("valgrind")
    runs, header, peer_counts = {}, "", {}
    # the plain x86-64 build and, where it was built, the x86-64-v3 flavour (AVX2, FMA) the dynamic
    # loader picks on this CPU: each run times grbda and the peers interleaved in one process
    for flavour in ("x86-64", "x86-64-v3"):
        launch = flavour_launch(build.resolve(), flavour)
        if launch is None:
            print(f"compare_peers.py: no {flavour} flavour of libgrbda in {build} (GRBDA_X86_64_V3)")
            continue
        if count and not peer_counts:
            peer_counts = {n: instructions(program, n, launch) for n in theirs}
        counts = {**peer_counts, **{n: instructions(program, n, launch) for n in ours}} if count else {}
        header, ns = times(program, args.rounds, launch)
        runs[flavour] = (counts, ns)
    text = table(runs, header)
    print(text)
    if args.write:
        Path(args.write).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
