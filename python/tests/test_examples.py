"""The examples in examples/python run (into a temporary directory) and say what they claim."""
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import grbda
from conftest import ROOT, model_path

EXAMPLES = ROOT / "examples" / "python"


def run_example(name, *args, cwd):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in [str(pathlib.Path(grbda.__file__).parents[1]),
                                                                  os.environ.get("PYTHONPATH")] if p),
               MPLBACKEND="Agg")
    out = subprocess.run([sys.executable, str(EXAMPLES / name), *map(str, args)], capture_output=True, text=True,
                         cwd=cwd, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_forward_dynamics_example_prints_free_fall(tmp_path):
    lines = run_example("forward_dynamics.py", cwd=tmp_path).splitlines()
    model = grbda.load(model_path("mini_cheetah.urdf"))
    assert [l.split()[0] for l in lines] == model.velocity_names
    assert float(lines[5].split()[1]) == pytest.approx(-9.81)  # base vz: the robot falls
    other = run_example("forward_dynamics.py", model_path("double_pendulum.urdf"), cwd=tmp_path)
    assert len(other.splitlines()) == 2


@pytest.mark.parametrize("example", ["mini_cheetah_drop.py", "mini_cheetah_stand.py"])
def test_simulation_examples_write_their_plot(tmp_path, example):
    pytest.importorskip("matplotlib")
    png = tmp_path / "plot.png"
    out = run_example(example, png, "--time", "0.05", cwd=tmp_path)
    assert png.read_bytes().startswith(b"\x89PNG") and "50 steps" in out


def test_drop_without_torques_is_exact_free_fall_of_semi_implicit_euler():
    # with the legs limp every body falls together: v_n = -g n dt, z_n = z0 - g dt^2 n (n + 1) / 2
    mini_cheetah_drop = import_example("mini_cheetah_drop")
    dt = 2e-3
    times, heights, leg = mini_cheetah_drop.simulate(duration=0.2, dt=dt, kp=0.0, kd=0.0, height=1.0)
    n = np.arange(len(times))
    assert np.allclose(heights, 1.0 - 9.81 * dt**2 * n * (n + 1) / 2, atol=1e-12)
    assert np.allclose(leg, 0.0, atol=1e-12)
    _, _, held = mini_cheetah_drop.simulate(duration=0.4, dt=1e-3)  # the PD legs reach the crouch
    assert np.allclose(held[-1], list(mini_cheetah_drop.CROUCH.values()), atol=0.02)


def test_accuracy_example_reproduces_the_cpp_experiment(tmp_path):
    # bench/results/accuracy.txt is the output of the C++ program bench/accuracy_experiment.cpp
    pytest.importorskip("matplotlib")
    png = tmp_path / "accuracy.png"
    out = run_example("rotor_accuracy.py", png, "--frequency", "1.5", cwd=tmp_path).splitlines()
    printed = {line.split()[0]: (float(line.split()[1]), float(line.split()[3])) for line in out[2:7]}
    reference = {}
    for line in (ROOT / "bench" / "results" / "accuracy.txt").read_text().splitlines():
        fields = line.split()
        if len(fields) == 7 and fields[0] == "1.50":
            reference[fields[1]] = (float(fields[2]), float(fields[4]))
    assert printed.keys() == reference.keys() and len(reference) == 5
    for joint, (unconstrained, approximate) in reference.items():
        assert printed[joint] == pytest.approx((unconstrained, approximate), abs=1.5e-4), joint
    assert png.read_bytes().startswith(b"\x89PNG")


def import_example(name):
    sys.path.insert(0, str(EXAMPLES))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(EXAMPLES))


def test_standing_cheetah_carries_its_weight_on_its_feet():
    # settled, the feet carry m g (the base barely moves), whatever solver computes the forces
    stand = import_example("mini_cheetah_stand")
    times, heights, forces, mass = stand.simulate(duration=1.0)
    assert 0.2 < heights[0] < 0.3
    assert abs(heights[-1] - heights[0]) < 0.02
    assert forces[-1].sum() == pytest.approx(mass * 9.81, rel=0.01)
    assert np.all(forces[-100:] > 0)  # every foot pushes on the ground, none pulls
    _, kkt_heights, kkt_forces, _ = stand.simulate(duration=0.1, solver="kkt")
    assert np.allclose(kkt_heights, heights[:100], atol=1e-9)
    assert np.allclose(kkt_forces, forces[:100], rtol=1e-6, atol=1e-6)


SIMULATOR_EXAMPLES = ["cheetah_landing.py", "cheetah_trot.py", "humanoid_stand.py", "balance_controller.py"]


@pytest.mark.parametrize("example", SIMULATOR_EXAMPLES)
def test_simulator_examples_run_short_and_plot(tmp_path, example):
    # each example asserts its own claim (lands and stands, trots without tipping, balances) and
    # exits non-zero otherwise
    pytest.importorskip("matplotlib")
    png = tmp_path / "plot.png"
    out = run_example(example, png, "--short", cwd=tmp_path)
    assert png.read_bytes().startswith(b"\x89PNG") and f"plot: {png}" in out


def test_landing_touches_down_when_free_fall_closes_the_gap():
    # legs at the PD's target and at rest: the robot falls rigidly, so the feet reach the ground when
    # g t^2 / 2 equals their clearance (closed form, from the feet's positions); then the feet carry
    # the weight on average, m g with m summed from the URDF file itself
    landing = import_example("cheetah_landing")
    model = grbda.load(landing.MODEL)
    data = grbda.Data(model)
    grbda.forward_kinematics(model, data, landing.crouch(model, 0.30))
    clearance = min(grbda.frame_position(model, data, f"{leg}_foot")[2] for leg in ("FR", "FL", "HR", "HL")) - 0.02
    times, heights, forces, weight = landing.simulate(duration=1.5)
    s = landing.summary(times, heights, forces)
    assert s["touchdown"] == pytest.approx(np.sqrt(2 * clearance / 9.81), abs=2.5e-3)
    import xml.etree.ElementTree as ET
    mass = sum(float(m.get("value")) for m in ET.parse(landing.MODEL).getroot().iter("mass"))
    assert weight == pytest.approx(9.81 * mass, rel=1e-12)
    assert s["mean_force"] == pytest.approx(weight, rel=0.03)  # over the last bob of the weak PD


def test_dask_sweep_small_on_a_loopback_cluster_equals_the_same_drops_run_here(tmp_path):
    # the --small sweep on a LocalCluster of worker processes (the simulators travel pickled): every
    # drop lands, and each equals, bit for bit, the same drop computed in this process
    pytest.importorskip("dask.distributed")
    import csv
    out = tmp_path / "sweep.csv"
    stdout = run_example("dask_sweep.py", "--small", "--out", out, cwd=tmp_path)
    assert "8 drops (2 frictions x 2 rotor scales x 2 heights)" in stdout
    rows = list(csv.DictReader(open(out)))
    assert len(rows) == 8
    assert all(float(r["lowest"]) < float(r["height"]) - 0.05 for r in rows)  # they fell and landed
    sweep = import_example("dask_sweep")
    sim, q0 = sweep.make_simulator(2.0, 1e-3, np.linspace(0.28, 0.40, 2))
    here = sweep.run_drops(sim, q0, 1.2, 300)
    there = [r for r in rows if float(r["rotor_scale"]) == 2.0 and float(r["friction"]) == 1.2]
    assert [(float(r["lowest"]), float(r["final"]), float(r["slide"])) for r in there] == \
        [(r["lowest"], r["final"], r["slide"]) for r in here]
