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


BALL = """<robot name="ball_pendulum"><link name="base"/><link name="bob"><inertial><origin xyz="0.05 -0.03 -0.45"/>
<mass value="1.7"/><inertia ixx="0.021" ixy="0.002" ixz="-0.001" iyy="0.034" iyz="0.003" izz="0.015"/>
</inertial></link>
<joint name="ball" type="spherical"><parent link="base"/><child link="bob"/>EXTRA</joint>
</robot>"""


def ball(extra="", name="ball.urdf"):
    return grbda.load_urdf_string(BALL.replace("EXTRA", extra), name)


def quaternion_matrix(w, x, y, z):
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def test_spherical_pendulum_matches_euler_about_the_pivot():
    model = ball()
    joint = model.bodies[0].joint
    assert joint.type == grbda.JointType.SPHERICAL and (joint.nq, joint.nv) == (4, 3)
    assert model.position_names == ["ball:qw", "ball:qx", "ball:qy", "ball:qz"]
    np.testing.assert_array_equal(model.neutral_configuration(), [1, 0, 0, 0])
    rng = np.random.default_rng(3)
    quat = rng.normal(size=4)
    quat /= np.linalg.norm(quat)
    w, tau = rng.normal(size=3), rng.normal(size=3)
    data = grbda.Data(model)
    qdd = grbda.forward_dynamics(model, data, quat, w, tau)
    # Euler about the pivot, body frame: Io wd + w x Io w = tau + c x m R^T g
    m, c = 1.7, np.array([0.05, -0.03, -0.45])
    Ic = np.array([[0.021, 0.002, -0.001], [0.002, 0.034, 0.003], [-0.001, 0.003, 0.015]])
    Io = Ic + m * (c @ c * np.eye(3) - np.outer(c, c))
    g = quaternion_matrix(*quat).T @ np.array([0, 0, -9.81])
    ref = np.linalg.solve(Io, tau + np.cross(c, m * g) - np.cross(w, Io @ w))
    np.testing.assert_allclose(qdd, ref, rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(grbda.inverse_dynamics(model, data, quat, w, qdd), tau, atol=1e-11)
    q1 = grbda.integrate(model, quat, w, 0.3)
    assert np.linalg.norm(q1) == pytest.approx(1.0, abs=1e-14)
    np.testing.assert_allclose(grbda.difference(model, quat, q1), 0.3 * w, atol=1e-12)


def test_spherical_limit_names_file_and_line():
    with pytest.raises(grbda.ModelError) as err:
        ball('\n<limit lower="-1" upper="1" effort="1" velocity="1"/>', "bad_ball.urdf")
    assert err.value.file == "bad_ball.urdf" and err.value.line == 5
    assert "no single angle to bound" in str(err.value)
