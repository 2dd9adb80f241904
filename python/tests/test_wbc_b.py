"""Whole-body control from Python (issue 24 B): contact-consistent inverse dynamics, impulse
dynamics and the inertial-parameter regressor, each against a numpy computation from the bound
mass matrix, bias forces and frame Jacobians, and the grbda command's id --contact, impulse and
regressor against the bindings."""
import numpy as np
import pytest

import grbda
from conftest import MODELS, model_path, run_cli, vector_arg

FEET = ["FR_foot", "FL_foot", "HR_foot", "HL_foot"]


def cheetah_problem(links=FEET):
    model = grbda.load(model_path("mini_cheetah.urdf"))
    constraints = grbda.ConstraintModel(model)
    for link in links:
        constraints.add_point_contact(link)
    return model, constraints, grbda.ConstraintData(model, constraints)


def bent(model, seed):
    rng = np.random.default_rng(seed)
    q = model.neutral_configuration()
    q[2] = 0.3
    for leg in range(4):
        q[7 + 3 * leg:10 + 3 * leg] = [rng.uniform(-0.3, 0.3), rng.uniform(-1.0, -0.6), rng.uniform(1.2, 1.8)]
    return q


def contact_jacobian(model, q, links):
    data = grbda.Data(model)
    return np.vstack([grbda.frame_jacobian(model, data, q, link, [0, 0, 0])[3:] for link in links])


def consistent_qdd(model, constraints, q, v, seed):
    tau = np.random.default_rng(seed).uniform(-3, 3, model.nv)
    tau[:6] = 0
    cd = grbda.ConstraintData(model, constraints)
    return grbda.constrained_forward_dynamics(model, grbda.Data(model), constraints, cd, q, v, tau, solver="kkt")


def test_standing_cheetah_carries_its_weight_with_dense_gravity_compensation():
    model, constraints, cd = cheetah_problem()
    q, zero = bent(model, 1), np.zeros(model.nv)
    tau, lam, report = grbda.contact_inverse_dynamics(model, grbda.Data(model), constraints, cd, q, zero, zero)
    assert report.ok and report.supported and report.base_rank == 6
    mass = sum(grbda.inertia_parameters(b.inertia)[0] for b in model.bodies)
    assert lam[2::3].sum() == pytest.approx(9.81 * mass, rel=1e-10)
    assert np.all(tau[:6] == 0)
    # numpy: g = bias forces at rest, lambda = pinv(J_b^T) g_b, tau = g - J^T lambda
    g = grbda.bias_forces(model, grbda.Data(model), q, zero)
    J = contact_jacobian(model, q, FEET)
    ref_lam = np.linalg.pinv(J[:, :6].T) @ g[:6]
    np.testing.assert_allclose(lam, ref_lam, atol=1e-8 * np.abs(ref_lam).max())
    np.testing.assert_allclose(tau, g - J.T @ ref_lam, atol=1e-8 * np.abs(g).max())
    np.testing.assert_allclose(cd.lambda_, lam)


def test_contact_id_torques_reproduce_the_acceleration_in_forward_dynamics():
    model, constraints, cd = cheetah_problem()
    rng = np.random.default_rng(4)
    q, v = bent(model, 2), rng.standard_normal(model.nv)
    qdd = consistent_qdd(model, constraints, q, v, 5)
    tau, lam, report = grbda.contact_inverse_dynamics(model, grbda.Data(model), constraints, cd, q, v, qdd)
    assert report.consistent and report.balanced
    cd2 = grbda.ConstraintData(model, constraints)
    qdd2 = grbda.constrained_forward_dynamics(model, grbda.Data(model), constraints, cd2, q, v, tau)
    np.testing.assert_allclose(qdd2, qdd, atol=1e-7 * (1 + np.abs(qdd).max()))
    np.testing.assert_allclose(cd2.lambda_, lam, atol=1e-7 * (1 + np.abs(lam).max()))
    # weighted: another lambda, the same acceleration
    w = np.linspace(0.5, 3.0, constraints.num_rows)
    tau_w, lam_w, _ = grbda.contact_inverse_dynamics(model, grbda.Data(model), constraints, cd, q, v, qdd, weights=w)
    assert np.linalg.norm(lam_w - lam) > 1e-3 and np.linalg.norm(lam) < np.linalg.norm(lam_w)
    # inconsistent qdd: reported, or raised on request
    bad = rng.standard_normal(model.nv)
    _, _, report = grbda.contact_inverse_dynamics(model, grbda.Data(model), constraints, cd, q, v, bad)
    assert not report.consistent and report.acceleration_residual > 1e-3
    with pytest.raises(grbda.NumericalError):
        grbda.contact_inverse_dynamics(model, grbda.Data(model), constraints, cd, q, v, bad, throw_on_error=True)
    with pytest.raises(grbda.InputError):
        grbda.contact_inverse_dynamics(model, grbda.Data(model), constraints, cd, q, v, qdd[:-1])
    with pytest.raises(grbda.InputError):
        grbda.contact_inverse_dynamics(model, grbda.Data(model), constraints, cd, q, v, qdd, weights=-w)


@pytest.mark.parametrize("e", [0.0, 0.6, 1.0])
def test_impulses_against_numpy_kkt(e):
    model, constraints, cd = cheetah_problem()
    rng = np.random.default_rng(9)
    q, v = bent(model, 3), rng.standard_normal(model.nv)
    result = grbda.impulse_dynamics(model, grbda.Data(model), constraints, cd, q, v, restitution=e)
    H = grbda.mass_matrix(model, grbda.Data(model), q)
    J = contact_jacobian(model, q, FEET)
    HinvJt = np.linalg.solve(H, J.T)
    impulses = np.linalg.solve(J @ HinvJt, -(1 + e) * (J @ v))
    v_plus = v + HinvJt @ impulses
    np.testing.assert_allclose(result.v_plus, v_plus, atol=1e-8 * (1 + np.abs(v_plus).max()))
    np.testing.assert_allclose(result.impulses, impulses, atol=1e-8 * (1 + np.abs(impulses).max()))
    np.testing.assert_allclose(J @ result.v_plus, -e * (J @ v), atol=1e-8)
    dT = 0.5 * result.v_plus @ H @ result.v_plus - 0.5 * v @ H @ v
    assert result.energy_change == pytest.approx(dT, abs=1e-9)
    assert dT <= 1e-9 and (e < 1 or abs(dT) < 1e-9)
    with pytest.raises(grbda.InputError):
        grbda.impulse_dynamics(model, grbda.Data(model), constraints, cd, q, v, restitution=1.2)


def test_regressor_times_parameters_is_inverse_dynamics_and_rotor_changes_are_linear():
    model = grbda.load(model_path("mini_cheetah.urdf"))
    rng = np.random.default_rng(2)
    q, v, a = bent(model, 4), rng.standard_normal(model.nv), rng.standard_normal(model.nv)
    data = grbda.Data(model)
    Y = grbda.compute_regressor(model, data, q, v, a)
    pi = grbda.model_parameters(model)
    names = grbda.parameter_names(model)
    assert Y.shape == (model.nv, pi.size) and len(names) == pi.size
    tau = grbda.inverse_dynamics(model, grbda.Data(model), q, v, a)
    np.testing.assert_allclose(Y @ pi, tau, atol=1e-10 * (1 + np.abs(tau).max()))
    np.testing.assert_allclose(grbda.regressor(model, data, q, v, a), Y)
    # a knee rotor's spin inertia changed: tau moves by Y dpi
    k = names.index("FR_knee_rotor.Iyy")
    dpi = np.zeros_like(pi)
    dpi[k] = 1e-4
    changed = grbda.model_with_parameters(model, pi + dpi)
    tau2 = grbda.inverse_dynamics(changed, grbda.Data(changed), q, v, a)
    assert np.abs(tau2 - tau).max() > 1e-6
    np.testing.assert_allclose(tau2 - tau, Y @ dpi, atol=1e-12)
    I = model.bodies[0].inertia
    np.testing.assert_allclose(grbda.inertia_from_parameters(grbda.inertia_parameters(I)), I, atol=1e-14)


def test_docstrings():
    for name in ["contact_inverse_dynamics", "impulse_dynamics", "compute_regressor", "regressor",
                 "model_parameters", "parameter_names", "model_with_parameters", "body_inertias_from_parameters",
                 "inertia_parameters", "inertia_from_parameters", "body_regressor"]:
        assert len(getattr(grbda, name).__doc__) > 60, name
    assert grbda.ImpulseData.__doc__ and grbda.ContactInverseDynamicsReport.__doc__


def test_command_line_matches_the_bindings():
    model, constraints, cd = cheetah_problem()
    q = bent(model, 5)
    zero = np.zeros(model.nv)
    contacts = [x for foot in FEET for x in ("--contact", foot)]
    out = run_cli("id", model_path("mini_cheetah.urdf"), "--q", vector_arg(q), *contacts)
    tau, lam, _ = grbda.contact_inverse_dynamics(model, grbda.Data(model), constraints, cd, q, zero, zero)
    np.testing.assert_allclose(out["tau"], tau, atol=1e-9)
    np.testing.assert_allclose(out["result"], tau, atol=1e-9)
    np.testing.assert_allclose([f["force"] for f in out["contact_forces"]], lam.reshape(4, 3), atol=1e-9)
    plain = run_cli("id", model_path("mini_cheetah.urdf"), "--q", vector_arg(q))
    assert "contact_forces" not in plain and plain["quantity"] == "tau"
    v = np.random.default_rng(1).standard_normal(model.nv)
    out = run_cli("impulse", model_path("mini_cheetah.urdf"), "--q", vector_arg(q), "--v", vector_arg(v),
                  "--restitution", "0.3", *contacts)
    result = grbda.impulse_dynamics(model, grbda.Data(model), constraints, cd, q, v, restitution=0.3)
    np.testing.assert_allclose(out["v_plus"], result.v_plus, atol=1e-9)
    np.testing.assert_allclose([f["force"] for f in out["impulses"]], result.impulses.reshape(4, 3), atol=1e-9)
    out = run_cli("regressor", model_path("mini_cheetah.urdf"), "--q", vector_arg(q), "--v", vector_arg(v))
    np.testing.assert_allclose(out["regressor"], grbda.compute_regressor(model, grbda.Data(model), q, v, zero),
                               atol=1e-9)
    assert out["parameter_names"] == grbda.parameter_names(model)
    np.testing.assert_allclose(out["parameters"], grbda.model_parameters(model))
