#!/usr/bin/env python3
"""The instruction ledger: every counted call behind a figure of bench/RESULTS.md, with its
recorded count, in bench/ledger.json. Counts are callgrind's, steady state, exact and repeatable
for the same compiler, flags and code, so a change that moves one shows here, not in a timing.

  tools/ledger.py list                       the entries and their recorded counts
  tools/ledger.py check [--only REGEX]       count each entry; fail when one moved more than the
                                             ledger's tolerance (1 %) from its record
  tools/ledger.py update [--only REGEX]      count and write the new records (say why in the commit)
  options: --build DIR (default build), --jobs N (default 2), --ledger FILE

How an entry is counted (one of two ways):
  * difference (default): the program runs with {repeat} = 1 and = N under callgrind; the cost of
    one call on a prepared model and state is (count(N) - count(1)) / (N - 1), so loading, the
    first (sizing) call and printing cancel;
  * "toggle": FUNCTION: only FUNCTION's instructions are collected (--toggle-collect), in one run
    that makes {repeat} = N calls inside it: count / N.
Placeholders in "args": {repeat}, {milliseconds} ({repeat} ms in seconds: that many 1 ms steps of
`grbda simulate --duration`), {models} (the repository's models/), {q}, {v}, {u} (a fixed
state of the entry's "model": joint positions, velocities and inputs in [-0.5, 0.5] from a
seeded generator, unit base quaternion, base at z = 0.3 m; the same on every machine).
Each entry counts one flavour of libgrbda ("flavour": "x86-64", the default, or "x86-64-v3"; the
dynamic loader would otherwise pick the v3 build on a CPU that has AVX2 and FMA).
"program" is "grbda" (BUILD/tools/grbda) or a path relative to BUILD (bench/sim_step_count). An
entry with "optional" (the peers' counts, BUILD/peers-bench/side_by_side of bench/compare_peers.py)
is skipped, saying so, when its program was not built.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEDGER = ROOT / "bench" / "ledger.json"


def fixed_state(nq, nv, floating, seed=7):
    """Positions, velocities and inputs in [-0.5, 0.5] from a 64-bit linear congruential generator
    (Knuth's MMIX constants): the same numbers wherever the ledger is checked."""
    x = seed

    def uniform():
        nonlocal x
        x = (6364136223846793005 * x + 1442695040888963407) % 2**64
        return (x >> 11) / 2**53 - 0.5

    q = [0.0, 0.0, 0.3, 1.0, 0.0, 0.0, 0.0] if floating else []
    q += [uniform() for _ in range(nq - len(q))]
    v = [uniform() for _ in range(nv)]
    u = [uniform() for _ in range(nv)]
    return [",".join("%.3f" % value for value in vector) for vector in (q, v, u)]


def model_info(grbda, model):
    info = json.loads(subprocess.run([grbda, "info", model, "--json"], check=True, capture_output=True,
                                     text=True).stdout)
    return info["nq"], info["nv"], bool(info["floating_base"])


def command_line(entry, build, repeat, states):
    program = str(build / "tools" / "grbda") if entry["program"] == "grbda" else str(build / entry["program"])
    values = {"repeat": str(repeat), "models": str(ROOT / "models"), "milliseconds": f"{repeat / 1000:g}"}
    if "model" in entry:
        values.update(zip(("q", "v", "u"), states[entry["model"]]))
    return [program] + [re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], a) for a in entry["args"]]


LOADER = "/lib64/ld-linux-x86-64.so.2"


def flavour_launch(build, flavour):
    """(argv prefix, environment) that run a program on one flavour of libgrbda: the plain x86-64
    build (the dynamic loader told to search no glibc-hwcaps subdirectory) or x86-64-v3 (its
    directory first on the library path). None when that flavour was not built."""
    env = dict(os.environ)
    if flavour == "x86-64-v3":
        directory = build / "glibc-hwcaps" / "x86-64-v3"
        if not (directory / "libgrbda.so.0").exists():
            return None
        env["LD_LIBRARY_PATH"] = str(directory) + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
        return [], env
    return ([LOADER, "--glibc-hwcaps-mask", "none"] if Path(LOADER).exists() else []), env


def callgrind(argv, toggle=None, launch=([], None)):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        if toggle:
            cmd.append(f"--toggle-collect={toggle}")
        prefix, env = launch
        run = subprocess.run(cmd + prefix + argv, capture_output=True, text=True, env=env)
        if run.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed ({run.returncode}):\n{run.stderr[-2000:]}")
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError(f"no instruction total in callgrind's output of {' '.join(argv)}")


def count(entry, build, states):
    repeat = entry["repeat"]
    launch = flavour_launch(build, entry.get("flavour", "x86-64"))
    if "toggle" in entry:
        return callgrind(command_line(entry, build, repeat, states), entry["toggle"], launch) / repeat
    once = callgrind(command_line(entry, build, 1, states), launch=launch)
    many = callgrind(command_line(entry, build, repeat, states), launch=launch)
    return (many - once) / (repeat - 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["list", "check", "update"])
    parser.add_argument("--build", default="build")
    parser.add_argument("--only", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ledger", default=str(LEDGER))
    args = parser.parse_args()
    ledger_path = Path(args.ledger)
    ledger = json.loads(ledger_path.read_text())
    tolerance = ledger["tolerance"]
    entries = [e for e in ledger["entries"] if re.search(args.only, e["name"])]
    if args.action == "list":
        for e in entries:
            print(f"{e.get('instructions', '-'):>12}  {e['name']}")
        return 0

    build = (ROOT / args.build).resolve() if not Path(args.build).is_absolute() else Path(args.build)
    grbda = str(build / "tools" / "grbda")
    models = sorted({e["model"] for e in entries if "model" in e})
    states = {}
    for m in models:
        states[m] = fixed_state(*model_info(grbda, str(ROOT / "models" / m)))

    def program_of(e):
        return build / "tools" / "grbda" if e["program"] == "grbda" else build / e["program"]

    for e in [e for e in entries if "optional" in e and not program_of(e).exists()]:
        print(f"skipped: {e['name']}: no {program_of(e)} ({e['optional']})")
        entries.remove(e)
    for e in [e for e in entries if flavour_launch(build, e.get("flavour", "x86-64")) is None]:
        print(f"skipped: {e['name']}: this build has no {e['flavour']} flavour of libgrbda (GRBDA_X86_64_V3)")
        entries.remove(e)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        counts = list(pool.map(lambda e: count(e, build, states), entries))

    moved = []
    print(f"| call | ledger | counted | change |\n|---|---:|---:|---:|")
    for e, n in zip(entries, counts):
        old = e.get("instructions")
        change = (n - old) / old if old else float("nan")
        flag = " **moved**" if old is None or abs(change) > tolerance else ""
        print(f"| {e['name']} | {old if old is not None else '-'} | {round(n)} | {change:+.2%}{flag} |")
        if flag:
            moved.append(e["name"])
        if args.action == "update":
            e["instructions"] = round(n)
    if args.action == "update":
        ledger_path.write_text(json.dumps(ledger, indent=1, ensure_ascii=False) + "\n")
        print(f"ledger.py: wrote {len(entries)} counts to {ledger_path.relative_to(ROOT)}")
        return 0
    if moved:
        print(f"ledger.py: {len(moved)} of {len(entries)} counts moved more than {tolerance:.0%} from the "
              f"ledger: {', '.join(moved)}. If on purpose, `tools/ledger.py update` and say why.")
        return 1
    print(f"ledger.py: all {len(entries)} counts within {tolerance:.0%} of the ledger")
    return 0


if __name__ == "__main__":
    sys.exit(main())
