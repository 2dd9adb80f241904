"""grbda.compute_constrained_dynamics_derivatives against central finite differences of the bound
constrained_forward_dynamics (kkt) on the manifold, and dqdd/dtau against the dense projected
inverse H^-1 - H^-1 J^T (J H^-1 J^T)^-1 J H^-1."""
import numpy as np
import pytest

import grbda
from conftest import model_path

FEET = ("FR_foot", "FL_foot", "HR_foot", "HL_foot")


def rel(a, b):
    return np.abs(a - b).max() / max(1.0, np.abs(b).max())


@pytest.fixture(scope="module")
def cheetah():
    model = grbda.load(model_path("mini_cheetah.urdf"))
    contacts = grbda.ConstraintModel(model)
    for foot in FEET:
        contacts.add_point_contact(foot)
    rng = np.random.default_rng(16)
    q = model.neutral_configuration()
    q[7:] = rng.uniform(-1.0, 1.0, model.nq - 7)
    v, tau = rng.uniform(-1.0, 1.0, model.nv), rng.uniform(-1.0, 1.0, model.nv)
    return model, contacts, q, v, tau


def test_match_finite_differences(cheetah):
    model, contacts, q, v, tau = cheetah
    data, cdata = grbda.Data(model), grbda.ConstraintData(model, contacts)
    dqdd_dq, dqdd_dv, dqdd_dtau, dl_dq, dl_dv, dl_dtau = grbda.compute_constrained_dynamics_derivatives(
        model, data, contacts, cdata, q, v, tau)
    assert dqdd_dq.shape == (18, 18) and dl_dq.shape == (12, 18)
    other, ocd = grbda.Data(model), grbda.ConstraintData(model, contacts)

    def solve(q, v, tau):
        qdd = grbda.constrained_forward_dynamics(model, other, contacts, ocd, q, v, tau, solver="kkt")
        return qdd, ocd.lambda_.copy()

    n = model.nv
    for j in range(n):
        e = np.eye(n)[j]
        for (a1, l1), (a0, l0), h, dA, dL in (
                (solve(grbda.integrate(model, q, e, 1e-5), v, tau), solve(grbda.integrate(model, q, e, -1e-5), v, tau),
                 1e-5, dqdd_dq, dl_dq),
                (solve(q, v + 1e-2 * e, tau), solve(q, v - 1e-2 * e, tau), 1e-2, dqdd_dv, dl_dv),
                (solve(q, v, tau + e), solve(q, v, tau - e), 1.0, dqdd_dtau, dl_dtau)):
            assert rel(dA[:, j], (a1 - a0) / (2 * h)) < 1e-6
            assert rel(dL[:, j], (l1 - l0) / (2 * h)) < 1e-6


def test_torque_derivative_is_the_projected_inverse(cheetah):
    model, contacts, q, v, tau = cheetah
    data, cdata = grbda.Data(model), grbda.ConstraintData(model, contacts)
    dqdd_dtau = grbda.compute_constrained_dynamics_derivatives(model, data, contacts, cdata, q, v, tau, "kkt")[2]
    H = grbda.mass_matrix(model, data, q)
    J = np.vstack([grbda.frame_jacobian(model, data, q, foot)[3:] for foot in FEET])
    Hinv = np.linalg.inv(H)
    projected = Hinv - Hinv @ J.T @ np.linalg.inv(J @ Hinv @ J.T) @ J @ Hinv
    assert rel(dqdd_dtau, projected) < 1e-9


def test_bad_inputs(cheetah):
    model, contacts, q, v, tau = cheetah
    data, cdata = grbda.Data(model), grbda.ConstraintData(model, contacts)
    with pytest.raises(grbda.InputError):
        grbda.compute_constrained_dynamics_derivatives(model, data, contacts, cdata, q, v, tau[:3])
    with pytest.raises(grbda.InputError):
        grbda.compute_constrained_dynamics_derivatives(model, data, contacts, cdata, q, v * np.nan, tau)
    with pytest.raises(grbda.InputError):
        grbda.compute_constrained_dynamics_derivatives(model, data, contacts, cdata, q, v, tau, solver="pv-soft")
