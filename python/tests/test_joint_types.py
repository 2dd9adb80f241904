"""Issue #25, more joint types from Python: the screw (helical) joint against a closed form, its
SDFormat spellings, and its errors (file and line)."""
import math

import numpy as np
import pytest

import grbda

NUT = """<robot name="nut"><link name="base"/><link name="nut"><inertial><origin xyz="0.07 -0.02 0.03"/>
<mass value="2.5"/><inertia ixx="0.004" ixy="0.0003" ixz="0.0002" iyy="0.005" iyz="-0.0001" izz="0.006"/>
</inertial></link>
<joint name="screw" type="screw"><parent link="base"/><child link="nut"/><axis xyz="0 0 1"/>PITCH</joint>
</robot>"""


def nut(pitch_element, name="nut.urdf"):
    return grbda.load_urdf_string(NUT.replace("PITCH", pitch_element), name)


def test_one_body_on_a_screw_matches_the_closed_form():
    # <screw_thread_pitch> 0.02 m per turn, right-handed: p = 0.02 / 2pi m/rad
    model = nut("<screw_thread_pitch>0.02</screw_thread_pitch>")
    joint = model.bodies[0].joint
    assert joint.type == grbda.JointType.SCREW
    p = 0.02 / (2 * math.pi)
    assert joint.pitch == pytest.approx(p, rel=1e-15)
    m, c, a = 2.5, np.array([0.07, -0.02, 0.03]), np.array([0.0, 0.0, 1.0])
    # COM velocity p a qd + (a x c) qd, two orthogonal parts; rotation about a: I_c,zz
    H = 0.006 + m * (p * p + np.cross(a, c) @ np.cross(a, c))
    data = grbda.Data(model)
    q, v, tau = np.array([0.7]), np.array([-3.0]), np.array([0.4])
    assert grbda.mass_matrix(model, data, q)[0, 0] == pytest.approx(H, rel=1e-13)
    # H qdd + m g p = tau (H constant: no Coriolis term)
    qdd = grbda.forward_dynamics(model, data, q, v, tau)[0]
    assert qdd == pytest.approx((0.4 - m * 9.81 * p) / H, rel=1e-12)


def test_thread_pitch_is_radians_per_metre_left_handed():
    a = nut("<screw_thread_pitch>0.5</screw_thread_pitch>")
    b = nut("<thread_pitch>%r</thread_pitch>" % (-2 * math.pi / 0.5))
    assert a.bodies[0].joint.pitch == pytest.approx(b.bodies[0].joint.pitch, rel=1e-14)
    assert a.bodies[0].joint.pitch > 0  # right-handed


@pytest.mark.parametrize("pitch, needle", [
    ("", "needs its pitch"),
    ("<thread_pitch>nan</thread_pitch>", "not a finite number"),
    ("<thread_pitch>0</thread_pitch>", "infinite pitch"),
])
def test_bad_pitch_names_file_and_line(pitch, needle):
    with pytest.raises(grbda.ModelError) as err:
        nut(pitch, "bad_nut.urdf")
    assert err.value.file == "bad_nut.urdf" and err.value.line == 4
    assert needle in str(err.value)
