"""tools/make_mjcf.py writes the Mini Cheetah as MuJoCo MJCF (bench_mujoco; MuJoCo itself is not
needed here): the written bodies hold the URDF+'s mass and rotor inertia, the rotors become armature
N^2 I or bodies tied by gear equalities, and the only change, MuJoCo's A + B >= C on the hip links,
keeps mass, centre and principal axes."""
import importlib.util
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import grbda
from conftest import ROOT, model_path

spec = importlib.util.spec_from_file_location("make_mjcf", ROOT / "tools" / "make_mjcf.py")
make_mjcf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_mjcf)

URDF = str(model_path("mini_cheetah.urdf"))
RATIOS = {"abad": 6.0, "hip": 6.0, "knee": 9.33}  # the file header's gear ratios


def mjcf(variant):
    text, balanced = make_mjcf.make_mjcf(URDF, variant)
    return ET.fromstring(text[text.index("<mujoco"):]), balanced


def urdf_mass():
    return sum(float(m.get("value")) for m in ET.parse(URDF).getroot().iter("mass"))


@pytest.mark.parametrize("variant", ["armature", "rotors"])
def test_the_mjcf_bodies_carry_the_urdf_mass_and_the_foot_spheres(variant):
    root, _ = mjcf(variant)
    masses = [float(i.get("mass")) for i in root.iter("inertial")]
    assert sum(masses) == pytest.approx(urdf_mass(), rel=1e-12)
    assert len(masses) == (13 if variant == "armature" else 25)
    spheres = [g for g in root.iter("geom") if g.get("type") == "sphere"]
    assert sorted(g.get("name") for g in spheres) == ["FL_foot", "FR_foot", "HL_foot", "HR_foot"]
    assert all(g.get("size") == "0.02" and g.get("friction").split()[0] == "1" for g in spheres)
    option = root.find("option")
    assert (option.get("cone"), option.get("solver"), option.get("timestep")) == ("pyramidal", "Newton", "0.001")


def test_armature_is_the_reflected_rotor_inertia():
    # the rotors' axial inertia, 6.3e-5 kg m^2, is in the URDF file; N from the header
    root, _ = mjcf("armature")
    joints = {j.get("name"): j for j in root.iter("joint")}
    assert len(joints) == 12 and not any("rotor" in name for name in joints)
    for name, j in joints.items():
        part = next(p for p in RATIOS if name.endswith(f"_{p}_j"))
        assert float(j.get("armature")) == pytest.approx(RATIOS[part] ** 2 * 6.3e-5, rel=1e-12), name


def test_rotor_bodies_are_tied_by_gear_equalities_and_driven_through_them():
    root, _ = mjcf("rotors")
    equalities = root.find("equality").findall("joint")
    assert len(equalities) == 12
    motors = {m.get("name"): m for m in root.iter("motor")}
    for e in equalities:
        part = next(p for p in RATIOS if e.get("joint2").endswith(f"_{p}_j"))
        n = float(e.get("polycoef").split()[1])
        assert n == RATIOS[part] and e.get("polycoef") == f"0 {e.get('polycoef').split()[1]} 0 0 0"
        motor = motors[e.get("joint2")]  # named for the link joint, acting on the rotor with gear 1/N
        assert motor.get("joint") == e.get("joint1") and float(motor.get("gear")) * n == pytest.approx(1.0)


def test_the_hip_inertias_are_balanced_and_nothing_else_changes(tmp_path):
    _, balanced = mjcf("rotors")
    assert sorted(balanced) == ["FL_hip_link", "FR_hip_link", "HL_hip_link", "HR_hip_link"]
    original = make_mjcf.Inertia.of_link(make_mjcf.Robot(URDF).links["FR_hip_link"])
    fixed, excess = balanced["FR_hip_link"]
    e0, v0 = np.linalg.eigh(original.inertia)
    e1, v1 = np.linalg.eigh(fixed.inertia)
    assert e0[2] - e0[0] - e0[1] == pytest.approx(excess) and excess > 9e-5  # the URDF's violation
    assert e1[0] + e1[1] >= e1[2]  # what MuJoCo requires
    assert e1[2] == pytest.approx(e0[2], rel=1e-12) and np.allclose(np.abs(v0.T @ v1), np.eye(3), atol=1e-9)
    # the balanced URDF loads in grbda with the same mass and the new inertia
    path = tmp_path / "balanced.urdf"
    path.write_text(make_mjcf.balanced_urdf(URDF, balanced))
    model, reference = grbda.load(path), grbda.load(URDF)
    assert model.nv == reference.nv
    masses = [b.inertia[5, 5] for b in model.bodies]
    assert sum(masses) == pytest.approx(urdf_mass(), rel=1e-12)
