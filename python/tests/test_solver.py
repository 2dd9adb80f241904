"""grbda.Solver and grbda.methods(): the method table from Python, each forward-dynamics method
against a dense reference built here with numpy (H qdd = tau - C without rows; the KKT system with
the feet's contact Jacobians on the Mini Cheetah)."""
import numpy as np
import pytest

import grbda
from conftest import model_path, state

CHEETAH = model_path("mini_cheetah.urdf")
FEET = ["FR_foot", "HL_foot"]
COMPLIANCE = 1e-3


@pytest.fixture(scope="module")
def cheetah():
    model = grbda.load(CHEETAH)
    return (model,) + state(CHEETAH, model, seed=26)


def contacts(model, soft):
    constraints = grbda.ConstraintModel(model)
    for foot in FEET:
        constraints.add_point_contact(foot)
    if soft:
        constraints.set_compliance(COMPLIANCE)
    return constraints


def dense_kkt(model, q, v, tau, compliance):
    """[H -J^T; J R] [qdd; lambda] = [tau - C; -J_dot v] with the feet's linear world-aligned rows."""
    data = grbda.Data(model)
    H, C = grbda.mass_matrix(model, data, q), grbda.bias_forces(model, data, q, v)
    J = np.vstack([grbda.frame_jacobian(model, data, q, foot)[3:] for foot in FEET])
    grbda.forward_kinematics(model, data, q, v)
    bias = np.concatenate([grbda.frame_acceleration_bias(model, data, foot)[3:] for foot in FEET])
    n, m = model.nv, J.shape[0]
    K = np.block([[H, -J.T], [J, compliance * np.eye(m)]])
    x = np.linalg.solve(K, np.concatenate([tau - C, -bias]))
    return x[:n], x[n:]


def test_methods_lists_the_table():
    table = grbda.methods()
    names = [m["name"] for m in table]
    assert len(names) == 19 and len(set(names)) == 19
    assert names[0] == "cluster"
    by_name = {m["name"]: m for m in table}
    assert by_name["pv-soft"]["needs_compliance"] and by_name["pv-soft"]["solves_rows"]
    assert not by_name["cluster"]["solves_rows"]
    assert "pv_soft" in by_name["pv-soft"]["aliases"]
    assert by_name["pv-fast"]["commands"] == ["osim"] and not by_name["pv-fast"]["forward_dynamics"]
    assert sum(m["forward_dynamics"] for m in table) == 16


def test_every_forward_dynamics_method_matches_the_dense_reference(cheetah):
    model, q, v, tau = cheetah
    data = grbda.Data(model)
    H, C = grbda.mass_matrix(model, data, q), grbda.bias_forces(model, data, q, v)
    free = np.linalg.solve(H, tau - C)
    ran = 0
    for entry in grbda.methods():
        name = entry["name"]
        if not entry["forward_dynamics"] or name.startswith("cfa") or entry["approximate"]:
            continue  # cfa needs a chain (test_cfa.py); the approximate model has its own H (test_baselines.py)
        tol = 1e-6 if name.startswith("proximal") else 1e-8
        if entry["solves_rows"]:
            solver = grbda.Solver(model, name, contacts(model, entry["needs_compliance"]))
            qdd = solver.compute(q, v, tau)
            ref_qdd, ref_lambda = dense_kkt(model, q, v, tau, COMPLIANCE if entry["needs_compliance"] else 0.0)
            assert solver.num_rows == 6
            assert np.allclose(qdd, ref_qdd, atol=tol * (1 + np.linalg.norm(ref_qdd))), name
            assert np.allclose(solver.lambda_, ref_lambda, atol=1e2 * tol * (1 + np.linalg.norm(ref_lambda))), name
        else:
            solver = grbda.Solver(model, name)
            qdd = solver.compute(q, v, tau)
            assert np.allclose(qdd, free, atol=tol * (1 + np.linalg.norm(free))), name
            assert solver.lambda_.size == 0
        assert solver.method == name
        assert isinstance(qdd, np.ndarray) and qdd.shape == (model.nv,)
        assert np.array_equal(solver.qdd, qdd)
        ran += 1
    assert ran >= 11


def test_cfa_parallel_solver_on_a_chain():
    model = grbda.load(model_path("arm_6dof.urdf"))
    rng = np.random.default_rng(3)
    q, v, tau = rng.uniform(-1, 1, model.nq), rng.uniform(-1, 1, model.nv), rng.uniform(-1, 1, model.nv)
    reference = grbda.forward_dynamics(model, grbda.Data(model), q, v, tau)
    for name in ("cfa", "cfa-parallel"):
        assert np.allclose(grbda.Solver(model, name, threads=2).compute(q, v, tau), reference, atol=1e-9), name


def test_aliases_and_unknown_names(cheetah):
    model, q, v, tau = cheetah
    assert grbda.Solver(model, "pv_early").method == "pv-early"
    assert grbda.Solver(model).method == "cluster"
    with pytest.raises(grbda.InputError, match="no-such-method.*valid methods: cluster"):
        grbda.Solver(model, "no-such-method")
    with pytest.raises(grbda.InputError, match="does not solve constraint rows"):
        grbda.Solver(model, "cluster", contacts(model, False))
    with pytest.raises(grbda.InputError, match="prox_iterations"):
        grbda.Solver(model, "proximal", prox_iterations=0)
    with pytest.raises(grbda.InputError):
        grbda.Solver(model, "pv").compute(q[:-1], v, tau)


def test_builtin_robot_registry():
    assert grbda.robots.builtin_names() == ["tello", "tello_no_arms"]
    assert grbda.robots.builtin("builtin:tello_no_arms").nv == grbda.robots.tello(with_arms=False).nv
    with pytest.raises(grbda.InputError, match="builtin:tello, builtin:tello_no_arms"):
        grbda.robots.builtin("atlas")
