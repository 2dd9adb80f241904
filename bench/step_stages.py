#!/usr/bin/env python3
"""Where a simulation step goes: inclusive instructions per stage of grbda's Simulator::step and of
MuJoCo 4.0's mj_step (armature model), standing on four feet and falling, on the Mini Cheetah of
bench/compare_peers.py. One callgrind run per engine and scenario collects only the measured steps
(side_by_side's measuredCalls), then each stage is the inclusive cost of the functions named
below, per step; "bookkeeping" is what no stage names (torque, checks, reports, copies).

  bench/step_stages.py [--build DIR] [--steps N] [--write FILE]

Needs the side-by-side program (bench/compare_peers.py builds it into DIR/peers-bench) and valgrind.
"""
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from ledger import flavour_launch  # noqa: E402  (the plain x86-64 libgrbda, as the ledger counts it)
STAGES = ["kinematics", "collision", "contact assembly", "solve", "dynamics", "integration"]
# stage -> functions whose inclusive costs add up to it (disjoint: none calls another of the list)
GRBDA = {
    "kinematics": [r"grbda::detail::prepareState\("],
    "collision": [r"grbda::detectContacts\(", r"grbda::SelfCollision::detect\("],
    "contact assembly": [r"grbda::Simulator::addContactRows\(", r"grbda::Simulator::addJointRows\(",
                         r"grbda::Simulator::warmStart\(", r"grbda::Simulator::buildDelassus\("],
    "solve": [r"grbda::solveContactProblem\(", r"grbda::detail::RowInnovations::velocityChange\("],
    "dynamics": [r"grbda::detail::clusterAba\("],
    "integration": [r"grbda::integrate\("],
}
MUJOCO = {  # MuJoCo 4.0's exported stages of mj_step (mj_fwdKinematics: kinematics, comPos, tendons)
    "kinematics": [r"mj_fwdKinematics$", r"mj_comVel$", r"mj_transmission$"],
    "collision": [r"mj_collision$"],
    "contact assembly": [r"mj_makeConstraint$", r"mj_projectConstraint$", r"mj_referenceConstraint$",
                         r"mj_island$"],
    "solve": [r"mj_fwdConstraint$"],
    "dynamics": [r"mj_crb$", r"mj_factorM$", r"mj_rne$", r"mj_passive$", r"mj_fwdActuation$",
                 r"mj_fwdAcceleration$"],
    "integration": [r"mj_EulerSkip$"],
}
ENGINES = {"grbda": ("grbda step", GRBDA), "MuJoCo 4.0 armature": ("MuJoCo armature", MUJOCO)}


def inclusive_costs(program, measure, steps, build):
    prefix, env = flavour_launch(build, "x86-64")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        "--toggle-collect=*measuredCalls*"] + prefix + [str(program), "count", measure, str(steps)],
                       check=True, capture_output=True, env=env)
        text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)], check=True,
                              capture_output=True, text=True).stdout
    costs = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+\S*?:(.*?)(?: \[.*\])?$", line)
        if m:
            name = m.group(2).strip()
            costs[name] = max(costs.get(name, 0), int(m.group(1).replace(",", "")))
        elif "PROGRAM TOTALS" in line:
            costs["__total__"] = int(line.split()[0].replace(",", ""))
    return costs


def stage_table(costs, stages, steps):
    row = {}
    for stage, patterns in stages.items():
        row[stage] = sum(cost for name, cost in costs.items()
                         if any(re.search(p, name.split(" [")[0]) for p in patterns)) / steps
    total = costs["__total__"] / steps
    row["bookkeeping"] = total - sum(row.values())
    row["step"] = total
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--write")
    args = parser.parse_args()
    build = Path(args.build) if Path(args.build).is_absolute() else ROOT / args.build
    program = build / "peers-bench" / "side_by_side"
    if not program.exists():
        print(f"step_stages.py: no {program} (bench/compare_peers.py builds it)", file=sys.stderr)
        return 1
    columns = []
    for scenario in ("standing", "falling"):
        for engine, (prefix, stages) in ENGINES.items():
            costs = inclusive_costs(program, f"{prefix} {scenario}", args.steps, build)
            columns.append((f"{engine} {scenario}", stage_table(costs, stages, args.steps)))
    lines = ["| stage | " + " | ".join(name for name, _ in columns) + " |",
             "|---|" + "---:|" * len(columns)]
    for stage in STAGES + ["bookkeeping", "step"]:
        cells = [f"{row[stage] / 1e3:.1f} k" for _, row in columns]
        label = "**whole step**" if stage == "step" else stage
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    text = "\n".join(lines)
    print(f"instructions per step by stage (callgrind, inclusive, {args.steps} steady-state steps)\n\n{text}")
    if args.write:
        Path(args.write).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
