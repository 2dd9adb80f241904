"""Dynamics from Python against the grbda command's JSON (same library, independent path through
argument parsing and printing), and against each other (fd/id inverse, H qdd + C = tau, J^T f)."""
import numpy as np
import pytest

import grbda
from conftest import model_path, run_cli, state, vector_arg

TOL = dict(rtol=1e-9, atol=1e-9)


def cli_state_args(q, v=None, **vectors):
    args = ["--q", vector_arg(q)]
    if v is not None:
        args += ["--v", vector_arg(v)]
    for name, x in vectors.items():
        args += ["--" + name, vector_arg(x)]
    return args


def test_forward_dynamics_matches_cli(bundled):
    path, model = bundled
    q, v, tau = state(path, model)
    qdd = grbda.forward_dynamics(model, grbda.Data(model), q, v, tau)
    expected = run_cli("fd", path, *cli_state_args(q, v, tau=tau))["result"]
    assert np.allclose(qdd, expected, **TOL)


def test_inverse_dynamics_matches_cli(bundled):
    path, model = bundled
    q, v, a = state(path, model, seed=1)
    tau = grbda.inverse_dynamics(model, grbda.Data(model), q, v, a)
    assert np.allclose(tau, run_cli("id", path, *cli_state_args(q, v, a=a))["result"], **TOL)


def test_mass_matrix_matches_cli(bundled):
    path, model = bundled
    q, _, _ = state(path, model, seed=2)
    H = grbda.mass_matrix(model, grbda.Data(model), q)
    assert H.shape == (model.nv, model.nv)
    assert np.allclose(H, run_cli("mass-matrix", path, "--q", vector_arg(q))["result"], **TOL)


def test_complete_configuration_matches_cli(bundled):
    path, model = bundled
    q, _, _ = state(path, model, seed=3)
    q_span = grbda.complete_configuration(model, grbda.Data(model), q)
    assert q_span.shape == (model.nq_spanning,)
    assert np.allclose(q_span, run_cli("complete", path, "--q", vector_arg(q))["result"], atol=1e-9)


def test_dynamics_equation_holds(bundled):
    # tau = H qdd + C, and forward dynamics inverts inverse dynamics
    path, model = bundled
    data = grbda.Data(model)
    q, v, tau = state(path, model, seed=4)
    qdd = grbda.forward_dynamics(model, data, q, v, tau)
    H = grbda.mass_matrix(model, data, q)
    C = grbda.bias_forces(model, data, q, v)
    assert np.allclose(H @ qdd + C, tau, atol=1e-8)
    assert np.allclose(grbda.inverse_dynamics(model, data, q, v, qdd), tau, atol=1e-8)
    assert np.allclose(H, H.T) and np.all(np.linalg.eigvalsh(H) > 0)


def test_spanning_configuration_gives_the_same_dynamics(bundled):
    path, model = bundled
    data = grbda.Data(model)
    q, v, tau = state(path, model, seed=5)
    q_span = grbda.complete_configuration(model, data, q).copy()
    assert np.allclose(grbda.forward_dynamics(model, data, q_span, v, tau),
                       grbda.forward_dynamics(model, grbda.Data(model), q, v, tau), atol=1e-9)


def test_external_force_enters_as_jacobian_transpose():
    # A world-frame spatial force f on body b (moment about the world origin) acts like J_b^T f,
    # J_b the body's world-frame Jacobian about the world origin: checked against frame_jacobian.
    path = model_path("mini_cheetah.urdf")
    model = grbda.load(path)
    data = grbda.Data(model)
    q, v, tau = state(path, model, seed=6)
    body = model.body_index("FR_knee_link")
    frame = model.frame_index("FR_knee_link")
    f = np.array([0.3, -0.2, 0.5, 4.0, -1.0, 2.0])
    fext = np.zeros((model.num_bodies, 6))
    fext[body] = f
    with_force = grbda.inverse_dynamics(model, data, q, v, np.zeros(model.nv), fext=fext)
    without = grbda.inverse_dynamics(model, data, q, v, np.zeros(model.nv))
    # world-aligned Jacobian at the frame origin p; the moment about p is n - p x f
    J = grbda.frame_jacobian(model, data, q, frame)
    grbda.forward_kinematics(model, data, q)
    p = grbda.frame_position(model, data, frame)
    wrench_at_p = np.concatenate([f[:3] - np.cross(p, f[3:]), f[3:]])
    assert np.allclose(without - with_force, J.T @ wrench_at_p, atol=1e-9)
    qdd_f = grbda.forward_dynamics(model, data, q, v, tau, fext)
    H = grbda.mass_matrix(model, data, q)
    C = grbda.bias_forces(model, data, q, v)
    assert np.allclose(H @ qdd_f + C - J.T @ wrench_at_p, tau, atol=1e-8)


def test_cluster_joint_force_of_the_first_joint_carries_the_weight():
    model = grbda.load(model_path("double_pendulum.urdf"))
    data = grbda.Data(model)
    q = np.array([0.4, -0.3])
    grbda.inverse_dynamics(model, data, q, [0, 0], [0, 0])
    f0 = grbda.cluster_joint_force(model, data, 0)
    # the first joint holds the whole pendulum: vertical force = total weight
    mass = sum(b.inertia[5, 5] for b in model.bodies)
    assert f0[5] == pytest.approx(mass * 9.81, rel=1e-9)
    with pytest.raises(grbda.InputError, match="out of range"):
        grbda.cluster_joint_force(model, data, 5)


def test_data_views_share_the_last_result():
    model = grbda.load(model_path("double_pendulum.urdf"))
    data = grbda.Data(model)
    qdd = grbda.forward_dynamics(model, data, [0.1, 0.2], [0, 0], [1, 0])
    view = data.qdd
    assert np.array_equal(view, qdd) and not view.flags.writeable
    grbda.forward_dynamics(model, data, [0.5, 0.2], [0, 0], [0, 1])
    assert not np.array_equal(view, qdd)  # the view follows the workspace; the returned copy does not
    grbda.mass_matrix(model, data, [0.1, 0.2])
    assert np.array_equal(data.H, grbda.mass_matrix(model, grbda.Data(model), [0.1, 0.2]))


def test_every_array_layout_gives_the_same_answer_and_no_input_is_written():
    """A contiguous float64 array is read in place (the library takes views); any other layout
    (a slice of one state buffer, a strided view, a read-only array, a list, integers) is converted
    first. All give bitwise the same answer, and the inputs are left as they were."""
    path = model_path("mini_cheetah.urdf")
    model = grbda.load_urdf(path)
    q, v, tau = state(path, model, seed=3)
    nq, nv = model.nq, model.nv
    expected = grbda.forward_dynamics(model, grbda.Data(model), q, v, tau)

    buffer = np.concatenate([q, v, tau])
    strided = np.zeros((2 * nq,))
    strided[::2] = q
    read_only = q.copy()
    read_only.flags.writeable = False
    layouts = {
        "slices of one buffer": (buffer[:nq], buffer[nq:nq + nv], buffer[nq + nv:]),
        "strided": (strided[::2], v, tau),
        "read-only": (read_only, v, tau),
        "lists": (q.tolist(), v.tolist(), tau.tolist()),
    }
    before = buffer.copy()
    for name, (qa, va, ta) in layouts.items():
        qdd = grbda.forward_dynamics(model, grbda.Data(model), qa, va, ta)
        assert np.array_equal(qdd, expected), name
    assert np.array_equal(buffer, before)

    tree = grbda.load_urdf(model_path("arm_6dof.urdf"))
    as_ints = grbda.inverse_dynamics(tree, grbda.Data(tree), np.arange(6) % 2, np.zeros(6, dtype=np.int64), [0] * 6)
    assert np.array_equal(as_ints, grbda.inverse_dynamics(tree, grbda.Data(tree), np.arange(6.0) % 2, np.zeros(6), np.zeros(6)))


def test_a_view_of_the_data_passed_back_in_is_read_before_it_is_overwritten():
    """data.qdd and data.tau are read-only views of the workspace; passed back as inputs to a call
    with the same Data they are copied first (the library reads inputs in place otherwise)."""
    path = model_path("mini_cheetah.urdf")
    model = grbda.load_urdf(path)
    q, v, tau = state(path, model, seed=5)
    data = grbda.Data(model)
    grbda.forward_dynamics(model, data, q, v, tau)
    qdd = np.array(data.qdd)
    assert np.array_equal(grbda.inverse_dynamics(model, data, q, v, data.qdd),
                          grbda.inverse_dynamics(model, grbda.Data(model), q, v, qdd))
    # the round trip: the torque that produced qdd
    assert np.allclose(data.tau, tau, rtol=1e-9, atol=1e-9)
    tau_id = np.array(data.tau)
    assert np.array_equal(grbda.forward_dynamics(model, data, q, v, data.tau),
                          grbda.forward_dynamics(model, grbda.Data(model), q, v, tau_id))
