"""MJCF import from Python: grbda.load("robot.xml") reads MuJoCo files. The Mini Cheetah written by
tools/make_mjcf.py (into a temporary directory here) in its rotors-as-bodies form has the URDF+'s
exact rotor clusters and the same forward dynamics; the four-bar written with <equality connect>
equals the URDF+ <loop>; a bad file's ModelError names file, line and element."""
import importlib.util

import numpy as np
import pytest

import grbda
from conftest import ROOT, model_path

spec = importlib.util.spec_from_file_location("make_mjcf", ROOT / "tools" / "make_mjcf.py")
make_mjcf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_mjcf)


def random_state(model, rng):
    q = rng.uniform(0.3, 1.2, model.nq)
    for c in model.clusters:
        if c.type_name == "Free":
            quat = rng.normal(size=4)
            q[c.q_index + 3:c.q_index + 7] = quat / np.linalg.norm(quat)
    return q, rng.uniform(-1, 1, model.nv), rng.uniform(-1, 1, model.nv)


def worst_disagreement(a, b, samples=10):
    """max relative difference of forward dynamics of two models of one robot (matched by name)"""
    pq = [b.position_names.index(n) for n in a.position_names]
    pv = [b.velocity_names.index(n) for n in a.velocity_names]
    da, db = grbda.Data(a), grbda.Data(b)
    rng = np.random.default_rng(5)
    worst = 0.0
    for _ in range(samples):
        q, v, tau = random_state(a, rng)
        qb, vb, tb = np.empty(b.nq), np.empty(b.nv), np.empty(b.nv)
        qb[pq], vb[pv], tb[pv] = q, v, tau
        fa = grbda.forward_dynamics(a, da, q, v, tau)
        fb = grbda.forward_dynamics(b, db, qb, vb, tb)[pv]
        worst = max(worst, np.linalg.norm(fa - fb) / (1 + np.linalg.norm(fb)))
    return worst


def test_mini_cheetah_rotors_as_bodies_give_the_exact_rotor_clusters(tmp_path):
    text, balanced = make_mjcf.make_mjcf(model_path("mini_cheetah.urdf"), "rotors")
    (tmp_path / "mc.xml").write_text(text)
    (tmp_path / "mc.urdf").write_text(make_mjcf.balanced_urdf(model_path("mini_cheetah.urdf"), balanced))
    mj = grbda.load(tmp_path / "mc.xml")
    urdf = grbda.load(tmp_path / "mc.urdf")
    assert sorted(c.type_name for c in mj.clusters) == sorted(c.type_name for c in urdf.clusters)
    assert worst_disagreement(mj, urdf) < 1e-10
    builder, motors = grbda.parse_mjcf_file(tmp_path / "mc.xml")
    assert len(motors) == 12 and all("rotor" in m.joint for m in motors)


def test_four_bar_connect_equals_the_urdf_loop():
    mj = grbda.load(model_path("mjcf/four_bar.xml"))
    assert mj.position_names == ["joint1"]
    assert worst_disagreement(mj, grbda.load(model_path("four_bar.urdf"))) < 1e-10


def test_armature_variant_loads_and_says_armature_is_ignored(tmp_path, capfd):
    text, _ = make_mjcf.make_mjcf(model_path("mini_cheetah.urdf"), "armature")
    (tmp_path / "arm.xml").write_text(text)
    level = grbda.log_level()
    grbda.set_log_level("warn")
    try:
        model = grbda.load(tmp_path / "arm.xml")
    finally:
        grbda.set_log_level(level)
    assert model.nv == 18
    assert "armature is ignored" in capfd.readouterr().err


def test_bad_mjcf_names_file_line_and_element():
    text = '<mujoco>\n<worldbody>\n<body name="a">\n<joint name="j" type="screw"/>\n</body>\n</worldbody>\n</mujoco>'
    with pytest.raises(grbda.ModelError) as error:
        grbda.load_mjcf_string(text, "bad.xml")
    assert "bad.xml:4:" in str(error.value) and "joint 'j'" in str(error.value)


def test_an_mjcf_file_is_a_whole_robot():
    with pytest.raises(grbda.InputError, match="give it alone"):
        grbda.load(model_path("mjcf/four_bar.xml"), model_path("four_bar.urdf"))
    assert grbda.is_mjcf_path("robot.XML") and not grbda.is_mjcf_path("robot.urdf")
