"""Whole-body-control quantities (issue #24 part A) from Python, each against an independent
method: the CoM against a sum over bodies, J_c against finite differences of the CoM, A_G v = h_G
with h_G against finite differences of A_G for the bias, C v + g = bias_forces and dH/dt = C + C^T
(finite differences of the mass matrix), the static torque against world Jacobians, dJ against
finite differences of J; numpy in and out; bad input raises InputError; the CLI agrees."""
import numpy as np
import pytest

import grbda
from conftest import model_path, robot_at_state, run_cli, vector_arg

FILES = ["mini_cheetah.urdf", "revolute_rotor_chain.urdf", "four_bar.urdf"]


def along(model, q, v, f, h=1e-4):
    """d/dt f(q(t)) at t = 0 along q' = v (fourth-order central stencil)."""
    g = lambda t: f(grbda.integrate(model, q, v, t))  # noqa: E731
    return (g(-2 * h) - 8 * g(-h) + 8 * g(h) - g(2 * h)) / (12 * h)


@pytest.mark.parametrize("file", FILES)
def test_com_and_its_jacobian(file):
    path, model, data, q, v, _ = robot_at_state(file, seed=3)
    com, vcom, acom = grbda.com(model, data, q, v)
    assert com.shape == (3,) and vcom.shape == (3,)
    J = grbda.com_jacobian(model, data, q)
    assert J.shape == (3, model.nv)
    assert np.allclose(J @ v, vcom, atol=1e-12)
    fd = along(model, q, v, lambda qq: grbda.com(model, data, qq)[0])
    assert np.allclose(fd, vcom, atol=1e-8)
    bias = along(model, q, v, lambda qq: grbda.com_jacobian(model, data, qq) @ v)
    assert np.allclose(bias, acom, atol=1e-7)
    coms, masses = grbda.subtree_coms(model, data, q)
    assert coms.shape == (model.num_bodies, 3)
    # the subtrees hanging from the ground hold all the mass (a loop model may have several)
    roots = [i for i, b in enumerate(model.bodies) if b.parent == -1]
    assert sum(masses[i] for i in roots) == pytest.approx(grbda.total_mass(model, data))


@pytest.mark.parametrize("file", FILES)
def test_centroidal_momentum(file):
    path, model, data, q, v, _ = robot_at_state(file, seed=4)
    A = grbda.centroidal_momentum_matrix(model, data, q)
    h = grbda.centroidal_momentum(model, data, q, v)
    assert A.shape == (6, model.nv)
    assert np.allclose(A @ v, h, atol=1e-11)
    dh = grbda.centroidal_momentum_bias(model, data, q, v)
    fd = along(model, q, v, lambda qq: grbda.centroidal_momentum_matrix(model, data, qq) @ v)
    assert np.allclose(dh, fd, atol=1e-7 * max(1.0, np.abs(fd).max()))
    out = grbda.centroidal_dynamics(model, data, q, v)
    assert np.allclose(out["centroidal_momentum_matrix"], A) and np.allclose(out["centroidal_bias"], dh)
    # linear momentum = M * com velocity
    _, vcom, _ = grbda.com(model, data, q, v)
    assert np.allclose(h[:3], out["mass"] * vcom, atol=1e-11)


@pytest.mark.parametrize("file", FILES)
def test_coriolis_gravity_static_torque(file):
    path, model, data, q, v, _ = robot_at_state(file, seed=5)
    C = grbda.coriolis_matrix(model, data, q, v)
    g = grbda.gravity_vector(model, data, q)
    assert np.allclose(C @ v + g, grbda.bias_forces(model, data, q, v), atol=1e-10)
    Hdot = along(model, q, v, lambda qq: grbda.mass_matrix(model, data, qq))
    N = Hdot - 2 * C
    assert np.abs(N + N.T).max() < 1e-7 * max(1.0, np.abs(Hdot).max())
    rng = np.random.default_rng(0)
    fext = rng.standard_normal((model.num_bodies, 6))
    tau = grbda.static_torque(model, data, q, fext)
    expected = g.copy()
    grbda.forward_kinematics(model, data, q)
    for i, body in enumerate(model.bodies):
        Jw = grbda.frame_jacobian(model, data, q, body.name, np.zeros(3), grbda.ReferenceFrame.WORLD)
        expected -= Jw.T @ fext[i]
    assert np.allclose(tau, expected, atol=1e-10)


@pytest.mark.parametrize("file", FILES)
def test_jacobian_time_variation(file):
    path, model, data, q, v, a = robot_at_state(file, seed=6)
    frame = model.bodies[-1].name
    point = np.array([0.01, 0.02, -0.03])
    for ref in (grbda.ReferenceFrame.LOCAL, grbda.ReferenceFrame.LOCAL_WORLD_ALIGNED, grbda.ReferenceFrame.WORLD):
        dJ = grbda.frame_jacobian_time_variation(model, data, q, v, frame, point, ref)
        fd = along(model, q, v, lambda qq: grbda.frame_jacobian(model, data, qq, frame, point, ref))
        assert np.allclose(dJ, fd, atol=1e-7 * max(1.0, np.abs(fd).max()))
    J = grbda.frame_jacobian(model, data, q, frame, point)
    dJ = grbda.frame_jacobian_time_variation(model, data, q, v, frame, point)
    acc = grbda.frame_acceleration_at(model, data, q, v, a, frame, point)
    assert np.allclose(acc, J @ a + dJ @ v, atol=1e-10)


def test_bad_input_raises_input_error():
    path, model, data, q, v, _ = robot_at_state("mini_cheetah.urdf")
    with pytest.raises(grbda.InputError):
        grbda.com_jacobian(model, data, q[:3])
    bad = v.copy()
    bad[0] = np.nan
    with pytest.raises(grbda.InputError):
        grbda.centroidal_momentum(model, data, q, bad)
    with pytest.raises(grbda.InputError):
        grbda.coriolis_matrix(model, data, q, v[:2])
    with pytest.raises(grbda.InputError):
        grbda.static_torque(model, data, q, np.zeros((2, 6)))
    with pytest.raises(grbda.InputError):
        grbda.frame_jacobian_time_variation(model, data, q, v, "no_such_link")


def test_docstrings():
    for name in ("com", "com_jacobian", "subtree_coms", "total_mass", "centroidal_momentum",
                 "centroidal_momentum_matrix", "centroidal_momentum_bias", "centroidal_dynamics",
                 "coriolis_matrix", "gravity_vector", "static_torque", "frame_jacobian_time_variation",
                 "frame_acceleration_at"):
        assert len(getattr(grbda, name).__doc__) > 80, name


def test_cli_agrees_with_the_bindings():
    path, model, data, q, v, _ = robot_at_state("mini_cheetah.urdf", seed=7)
    out = run_cli("com", model_path("mini_cheetah.urdf"), "--q", vector_arg(q), "--v", vector_arg(v))
    com, vcom, acom = grbda.com(model, data, q, v)
    assert np.allclose(out["com"], com) and np.allclose(out["com_velocity"], vcom)
    assert np.allclose(out["com_acceleration_bias"], acom)
    assert np.allclose(np.array(out["com_jacobian"]), grbda.com_jacobian(model, data, q))
    assert out["mass"] == pytest.approx(grbda.total_mass(model, data))
    out = run_cli("centroidal", model_path("mini_cheetah.urdf"), "--q", vector_arg(q), "--v", vector_arg(v))
    assert np.allclose(out["centroidal_momentum"], grbda.centroidal_momentum(model, data, q, v))
    assert np.allclose(np.array(out["centroidal_momentum_matrix"]), grbda.centroidal_momentum_matrix(model, data, q))
    assert np.allclose(out["centroidal_bias"], grbda.centroidal_momentum_bias(model, data, q, v))
