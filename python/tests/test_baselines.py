"""Every method of `grbda fd/id/mass-matrix --method` from Python: the exact baselines agree with
the cluster algorithms and with the command; the approximate ones match the command."""
import numpy as np
import pytest

import grbda
from conftest import model_path, robot_at_state, run_cli, state, vector_arg

CONSTRAINED = ["mini_cheetah.urdf", "mit_humanoid_leg.urdf", "four_bar.urdf", "revolute_rotor_chain.urdf"]


def cli(command, path, method, q, v=None, **vectors):
    args = [command, path, "--method", method, "--q", vector_arg(q)]
    if v is not None:
        args += ["--v", vector_arg(v)]
    for name, x in vectors.items():
        args += ["--" + name, vector_arg(x)]
    return np.array(run_cli(*args)["result"])


@pytest.mark.parametrize("file", CONSTRAINED)
def test_exact_forward_dynamics_methods_agree_with_cluster_and_cli(file):
    path, model, data, q, v, tau = robot_at_state(file, seed=20)
    cluster = grbda.forward_dynamics(model, grbda.Data(model), q, v, tau)
    results = {
        "projection": grbda.projection_forward_dynamics(model, data, q, v, tau),
        "lagrange": grbda.lagrange_forward_dynamics(model, data, q, v, tau),
        "proximal": grbda.proximal_sparse_forward_dynamics(model, data, q, v, tau).qdd,
    }
    for method, qdd in results.items():
        assert np.allclose(qdd, cluster, atol=1e-7), method
        assert np.allclose(qdd, cli("fd", path, method, q, v, tau=tau), atol=1e-9), method


@pytest.mark.parametrize("file", CONSTRAINED)
def test_projected_quantities_agree_with_cluster_and_cli(file):
    path, model, data, q, v, a = robot_at_state(file, seed=21)
    tau = grbda.projection_inverse_dynamics(model, data, q, v, a)
    assert np.allclose(tau, grbda.inverse_dynamics(model, grbda.Data(model), q, v, a), atol=1e-8)
    assert np.allclose(tau, cli("id", path, "projection", q, v, a=a), atol=1e-9)
    H = grbda.projection_mass_matrix(model, data, q)
    assert np.allclose(H, grbda.mass_matrix(model, grbda.Data(model), q), atol=1e-9)
    assert np.allclose(H, cli("mass-matrix", path, "projection", q), atol=1e-9)
    assert np.allclose(grbda.projection_bias_forces(model, data, q, v),
                       grbda.bias_forces(model, grbda.Data(model), q, v), atol=1e-8)


def test_projection_matrices_project_the_tree_onto_the_clusters():
    path, model, data, q, v, _ = robot_at_state("mini_cheetah.urdf", seed=22)
    cm = grbda.projection_matrices(model, data, q, v)
    assert cm.G.shape == (model.nv_spanning, model.nv)
    assert np.allclose(cm.K @ cm.G, 0, atol=1e-12)
    q_span = grbda.complete_configuration(model, data, q)
    H_tree = grbda.tree.crba(model, data, q_span)
    assert np.allclose(cm.G.T @ H_tree @ cm.G, grbda.mass_matrix(model, data, q), atol=1e-9)


def test_proximal_reports_convergence_and_residuals():
    path = model_path("four_bar.urdf")
    model = grbda.load(path)
    q, v, tau = state(path, model, seed=23)
    settings = grbda.ProximalSettings(mu=1e-6, max_iterations=30, rows=grbda.ProximalConstraintRows.LOOP_FULL)
    result = grbda.proximal_sparse_forward_dynamics(model, grbda.Data(model), q, v, tau, settings)
    assert result.converged and result.primal_residual <= settings.tolerance
    assert result.qdd_spanning.shape == (model.nv_spanning,) and result.lambda_.size > 0
    assert np.allclose(result.qdd, grbda.forward_dynamics(model, grbda.Data(model), q, v, tau), atol=1e-7)


@pytest.mark.parametrize("file", ["mini_cheetah.urdf", "mit_humanoid_leg.urdf"])
@pytest.mark.parametrize("method,kind", [("approximate", "DIAGONAL"), ("unconstrained", "NONE")])
def test_approximate_models_match_cli(file, method, kind):
    path = model_path(file)
    model = grbda.load(path)
    approx = grbda.make_approximate_model(model, getattr(grbda.RotorApproximation, kind))
    data = grbda.Data(approx.tree)
    q, v, tau = state(path, model, seed=24)
    qdd = grbda.approximate_forward_dynamics(approx, data, q, v, tau)
    assert np.allclose(qdd, cli("fd", path, method, q, v, tau=tau), atol=1e-9)
    assert np.allclose(grbda.approximate_inverse_dynamics(approx, data, q, v, qdd), tau, atol=1e-8)
    H = grbda.approximate_mass_matrix(approx, data, q)
    assert np.allclose(H, cli("mass-matrix", path, method, q), atol=1e-9)
    C = grbda.approximate_bias_forces(approx, data, q, v)
    assert np.allclose(H @ qdd + C, tau, atol=1e-8)
    assert np.allclose(np.diag(approx.mass_offset), approx.armature)
    frame = approx.tree.frames[-1].name
    osim = grbda.OsimSet(approx.tree, [frame])
    J = grbda.frame_jacobian(approx.tree, data, q, frame, reference=grbda.ReferenceFrame.LOCAL)
    assert np.allclose(grbda.approximate_inverse_operational_space_inertia(approx, data, osim, q),
                       J @ np.linalg.solve(H, J.T), atol=1e-9)
    with pytest.raises(grbda.InputError, match="data was made for model"):
        grbda.approximate_mass_matrix(approx, grbda.Data(model), q)


def test_reflected_inertia_of_the_mini_cheetah_is_positive_diagonal_on_the_legs():
    model = grbda.load(model_path("mini_cheetah.urdf"))
    R, unsupported = grbda.reflected_inertia(model)
    assert unsupported == [] and R.shape == (model.nv, model.nv)
    assert np.allclose(R[:6, :6], 0) and np.all(np.diag(R)[6:] > 0)
    tree = grbda.independent_tree_model(model)
    assert tree.nv == model.nv and tree.num_bodies == model.num_bodies - 12
