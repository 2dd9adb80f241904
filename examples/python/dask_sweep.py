"""Mini Cheetah drops swept over ground friction and rotor inertia on a Dask cluster.

Every task is one (friction, rotor-inertia scale) pair: a grbda.Simulator of the Mini Cheetah with
its rotors' inertias scaled is built here, pickled to a worker (grbda.Model and grbda.Simulator
pickle), and the worker runs its drops with grbda.rollout. What comes back per drop: the lowest and
final torso height, how far the torso slid, and whether it came to rest. Dask decides where tasks
run; the same script runs on a LocalCluster of this machine (the default: loopback only, no
dashboard) or against a running scheduler on many machines (--scheduler ADDRESS; see
docs/distributed.md).

    python3 examples/python/dask_sweep.py --small                 # CI: a few seconds
    python3 examples/python/dask_sweep.py --out sweep.csv         # 8 x 8 pairs x 16 drops, 2 s each
    python3 examples/python/dask_sweep.py --scheduler tcp://10.0.0.5:8786 --frictions 32 --scales 32
"""
import argparse
import csv
import pathlib
import sys
import xml.etree.ElementTree as ET

import numpy as np

import grbda

MODEL = pathlib.Path(__file__).resolve().parents[2] / "models" / "mini_cheetah.urdf"
KP, KD = 50.0, 0.4           # the joint PD of the drop (N m/rad, N m s/rad)
LEGS = {"abad_to_hip": -1.0, "hip_to_knee": 2.0}  # crouch (rad) by joint-name part


def cheetah_text(rotor_scale):
    """The Mini Cheetah's URDF+ with every rotor's rotational inertia scaled."""
    tree = ET.parse(MODEL)
    for link in tree.getroot().iter("link"):
        if link.get("name", "").endswith("_rotor"):
            inertia = link.find("inertial/inertia")
            for key in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz"):
                inertia.set(key, repr(rotor_scale * float(inertia.get(key))))
    return ET.tostring(tree.getroot(), encoding="unicode")


def crouched(model, height):
    q = model.neutral_configuration()
    q[2] = height
    for i, name in enumerate(model.position_names):
        for part, angle in LEGS.items():
            if part in name:
                q[i] = angle
    return q


def make_simulator(rotor_scale, dt, heights):
    """A simulator of the Mini Cheetah (rotors scaled) on a flat ground under the crouch PD, and the
    crouched initial positions of its drops (one row per height)."""
    model = grbda.load_urdf_string(cheetah_text(rotor_scale), "mini_cheetah_rotors_x%g.urdf" % rotor_scale)
    sim = grbda.Simulator(model, grbda.World(), dt=dt)
    sim.set_state(crouched(model, 0.30))
    sim.set_pd(KP, KD)  # holds the crouch
    return sim, np.array([crouched(model, h) for h in heights])


def run_drops(sim, q0, friction, steps):
    """On a worker: the drops of one (friction, scale) pair, one rollout per initial state."""
    v0 = np.zeros((len(q0), sim.nv))
    positions, velocities = grbda.rollout(sim, q0, v0, steps, threads=1, friction=np.full(len(q0), friction))
    z = positions[:, :, 2]
    slide = np.linalg.norm(positions[:, -1, :2] - positions[:, 0, :2], axis=1)
    at_rest = np.linalg.norm(velocities[:, -1], axis=1) < 1e-2
    return [dict(friction=friction, height=float(q0[i, 2]), lowest=float(z[i].min()), final=float(z[i, -1]),
                 slide=float(slide[i]), at_rest=bool(at_rest[i])) for i in range(len(q0))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="a 2 x 2 sweep of short drops (CI)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: a LocalCluster here)")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes (default 2)")
    parser.add_argument("--frictions", type=int, default=8, help="friction values from 0.2 to 1.2")
    parser.add_argument("--scales", type=int, default=8, help="rotor-inertia scales from 0.5 to 2")
    parser.add_argument("--drops", type=int, default=16, help="drop heights per pair, 0.28 to 0.40 m")
    parser.add_argument("--duration", type=float, default=2.0, help="seconds per drop")
    parser.add_argument("--dt", type=float, default=1e-3)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for the results")
    parser.add_argument("--out", type=pathlib.Path, help="CSV of every drop")
    args = parser.parse_args(argv)
    if args.small:
        args.frictions, args.scales, args.drops, args.duration, args.timeout = 2, 2, 2, 0.3, 60.0

    from dask.distributed import Client, LocalCluster, wait  # the example's only extra dependency

    frictions = np.linspace(0.2, 1.2, args.frictions)
    scales = np.linspace(0.5, 2.0, args.scales)
    heights = np.linspace(0.28, 0.40, args.drops)
    steps = int(round(args.duration / args.dt))

    cluster = None
    if args.scheduler:
        client = Client(args.scheduler, timeout=30)
    else:  # this machine only: scheduler and workers on loopback, no dashboard
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None, scheduler_port=0)
        client = Client(cluster, timeout=30)
    try:
        futures, pairs = [], []
        for scale in scales:
            sim, q0 = make_simulator(scale, args.dt, heights)
            sim = client.scatter(sim)  # pickled once per scale, shared by its tasks
            for mu in frictions:
                futures.append(client.submit(run_drops, sim, q0, float(mu), steps, pure=False))
                pairs.append(float(scale))
        done, not_done = wait(futures, timeout=args.timeout)
        if not_done:
            sys.exit("dask_sweep: %d of %d tasks not done after %g s" % (len(not_done), len(futures), args.timeout))
        rows = []
        for scale, future in zip(pairs, futures):
            for row in future.result(timeout=args.timeout):
                rows.append(dict(rotor_scale=scale, **row))
    finally:
        client.close(timeout=10)
        if cluster is not None:
            cluster.close(timeout=10)

    if args.out:
        with open(args.out, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    print("%d drops (%d frictions x %d rotor scales x %d heights), %d steps each"
          % (len(rows), len(frictions), len(scales), len(heights), steps))
    print("friction  rotor_scale  lowest_torso_m  final_torso_m  slide_m  at_rest")
    for scale in scales:
        for mu in frictions:
            mine = [r for r in rows if r["rotor_scale"] == scale and r["friction"] == mu]
            print("%8.3f  %11.3f  %14.4f  %13.4f  %7.4f  %d/%d"
                  % (mu, scale, min(r["lowest"] for r in mine), np.mean([r["final"] for r in mine]),
                     max(r["slide"] for r in mine), sum(r["at_rest"] for r in mine), len(mine)))


if __name__ == "__main__":
    main()
