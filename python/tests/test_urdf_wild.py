"""URDF transmissions from Python (issue #25): load(..., transmissions="exact" | "ignore")."""
import numpy as np
import pytest

import grbda

# One link turning about z (mass 2 at 0.25 m, izz 0.05) driven through a Drake transmission.
ROBOT = """<robot name="one" xmlns:drake="http://drake.mit.edu">
  <link name="world"/>
  <link name="a"><inertial><mass value="2"/><origin xyz="0.25 0 0"/>
    <inertia ixx="0.01" iyy="0.05" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/></joint>
  <transmission name="t"><joint name="shoulder"/>
    <actuator name="m"><drake:rotor_inertia value="3e-4"/><drake:gear_ratio value="8"/></actuator>
  </transmission>
</robot>
"""


def test_exact_rotor_adds_the_reflected_inertia_of_a_ground_rotor():
    exact = grbda.load_urdf_string(ROBOT, "one.urdf")
    ignored = grbda.load_urdf_string(ROBOT, "one.urdf", transmissions="ignore")
    assert (exact.num_bodies, ignored.num_bodies) == (2, 1)
    assert exact.nv == ignored.nv == 1
    q = np.array([0.3])
    H_exact = grbda.mass_matrix(exact, grbda.Data(exact), q)
    H_ignored = grbda.mass_matrix(ignored, grbda.Data(ignored), q)
    assert H_ignored[0, 0] == pytest.approx(0.05 + 2 * 0.25**2, abs=1e-14)  # by hand
    assert H_exact[0, 0] - H_ignored[0, 0] == pytest.approx(8**2 * 3e-4, abs=1e-14)  # N^2 I_rotor


def test_unknown_transmissions_option_is_an_input_error():
    with pytest.raises(grbda.InputError, match="transmissions"):
        grbda.load_urdf_string(ROBOT, transmissions="approximate")


def test_load_passes_the_option_on(tmp_path):
    path = tmp_path / "one.urdf"
    path.write_text(ROBOT)
    assert grbda.load(path).num_bodies == 2
    assert grbda.load(path, transmissions="ignore").num_bodies == 1
