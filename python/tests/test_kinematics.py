"""Frames: placement, velocity and acceleration checked by finite differences of the positions
(moving along grbda.integrate), and the Jacobian against the velocity it must reproduce."""
import numpy as np
import pytest

import grbda
from conftest import model_path, robot_at_state

MODELS_WITH_FRAMES = [("mini_cheetah.urdf", "FR_knee_link"), ("mit_humanoid_leg.urdf", None),
                      ("four_bar.urdf", "link2"), ("arm_6dof.urdf", None)]


def last_frame(model, name):
    return name if name else model.frames[-1].name


@pytest.mark.parametrize("file,frame", MODELS_WITH_FRAMES)
def test_frame_velocity_is_the_derivative_of_its_position(file, frame):
    path, model, data, q, v, _ = robot_at_state(file, seed=7)
    frame = last_frame(model, frame)
    point = np.array([0.01, -0.02, 0.03])
    grbda.forward_kinematics(model, data, q, v)
    vel = grbda.frame_velocity(model, data, frame, point)
    h = 1e-6

    def position(qq):
        grbda.forward_kinematics(model, data, qq)
        return grbda.frame_position(model, data, frame, point)
    fd = (position(grbda.integrate(model, q, v, h)) - position(grbda.integrate(model, q, v, -h))) / (2 * h)
    assert np.allclose(vel[3:], fd, atol=1e-6)
    J = grbda.frame_jacobian(model, data, q, frame, point)
    assert J.shape == (6, model.nv)
    assert np.allclose(J @ v, vel, atol=1e-10)
    grbda.forward_kinematics(model, data, q, v)
    local = grbda.frame_velocity(model, data, frame, point, grbda.ReferenceFrame.LOCAL)
    R = grbda.frame_rotation(model, data, frame)
    assert np.allclose(R @ local[3:], vel[3:]) and np.allclose(R @ local[:3], vel[:3])


@pytest.mark.parametrize("file,frame", MODELS_WITH_FRAMES)
def test_frame_acceleration_is_the_derivative_of_its_velocity(file, frame):
    path, model, data, q, v, a = robot_at_state(file, seed=8)
    frame = last_frame(model, frame)
    if model.is_floating_base:
        v[:6] = 0.0  # keep the finite difference free of the base's body-frame velocity rotation
        a[:6] = 0.0
    h = 1e-6

    def velocity(dt):
        grbda.forward_kinematics(model, data, grbda.integrate(model, q, v, dt), v + dt * a)
        return grbda.frame_velocity(model, data, frame)
    fd = (velocity(h) - velocity(-h)) / (2 * h)
    grbda.forward_kinematics(model, data, q, v, a)
    acc = grbda.frame_acceleration(model, data, frame)
    assert np.allclose(acc, fd, atol=1e-5)


def test_frame_placement_is_consistent_with_position_and_rotation():
    path, model, data, q, _, _ = robot_at_state("mini_cheetah.urdf", seed=9)
    grbda.forward_kinematics(model, data, q)
    index = model.frame_index("FL_knee_link")
    T = grbda.frame_placement(model, data, index)
    assert np.allclose(T[:3, :3], grbda.frame_rotation(model, data, "FL_knee_link"))
    assert np.allclose(T[:3, 3], grbda.frame_position(model, data, "FL_knee_link"))
    X = grbda.frame_transform(model, data, np.int64(index))  # numpy integers are indices too
    assert np.allclose(X.homogeneous(), T)
    # the base frame sits at the floating-base position, rotated by its quaternion
    base = grbda.frame_placement(model, data, model.frames[1].name)
    assert np.allclose(base[:3, 3], q[:3]) and np.allclose(base[:3, :3], grbda.quaternion_to_rotation(q[3:7]))


def test_frame_errors_name_the_problem():
    model = grbda.load(model_path("double_pendulum.urdf"))
    data = grbda.Data(model)
    grbda.forward_kinematics(model, data, [0, 0])
    with pytest.raises(grbda.InputError, match="out of range"):
        grbda.frame_position(model, data, 99)
    with pytest.raises(grbda.InputError, match="nope"):
        grbda.frame_position(model, data, "nope")
    with pytest.raises(grbda.InputError, match="frame must be"):
        grbda.frame_position(model, data, 1.5)
    with pytest.raises(grbda.InputError, match="without v"):
        grbda.forward_kinematics(model, data, [0, 0], qdd=[0, 0])


def test_integrate_moves_a_floating_base_along_its_body_frame_velocity():
    model = grbda.load(model_path("mini_cheetah.urdf"))
    q = model.neutral_configuration()
    q[3:7] = [np.cos(0.25), 0, 0, np.sin(0.25)]  # yawed by 0.5 rad
    v = np.zeros(model.nv)
    v[3] = 2.0  # forward in the body frame
    v[2] = 0.4  # yaw rate
    v[7] = -1.0  # a leg joint
    q1 = grbda.integrate(model, q, v, 0.5)
    assert np.allclose(q1[:3], [np.cos(0.5), np.sin(0.5), 0.0])  # 1 m along the yawed x axis
    assert np.allclose(q1[3:7], [np.cos(0.35), 0, 0, np.sin(0.35)])  # yaw 0.5 + 0.4 * 0.5
    assert q1[7 + 1] == q[8] - 0.5 and np.allclose(np.delete(q1, [0, 1, 3, 6, 8]), np.delete(q, [0, 1, 3, 6, 8]))
    with pytest.raises(grbda.InputError, match="integrate"):
        grbda.integrate(model, q, v[:3], 0.1)
