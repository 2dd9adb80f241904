"""grbda.compute_aba_derivatives / compute_rnea_derivatives against central finite differences of
the bound forward and inverse dynamics, on the manifold (integrate) for the floating base, and
grbda.difference against integrate."""
import numpy as np
import pytest

import grbda
from conftest import CROSS_CHECK_MODELS, model_path, state


def finite_differences(model, f, q, v, hq=1e-5, hv=1e-2):
    """Central differences of f(q, v) along each tangent direction of q and of v (the dynamics is
    quadratic in v: exact at any step there)."""
    n = model.nv
    dq, dv = np.zeros((n, n)), np.zeros((n, n))
    for j in range(n):
        e = np.eye(n)[j]
        dq[:, j] = (f(grbda.integrate(model, q, e, hq), v) - f(grbda.integrate(model, q, e, -hq), v)) / (2 * hq)
        dv[:, j] = (f(q, v + hv * e) - f(q, v - hv * e)) / (2 * hv)
    return dq, dv


def rel(a, b):
    return np.abs(a - b).max() / max(1.0, np.abs(b).max())


@pytest.mark.parametrize("file", CROSS_CHECK_MODELS)
def test_derivatives_match_finite_differences(file):
    model = grbda.load(model_path(file))
    data, other = grbda.Data(model), grbda.Data(model)
    q, v, tau = state(model_path(file), model)
    dqdd_dq, dqdd_dv, dqdd_dtau = grbda.compute_aba_derivatives(model, data, q, v, tau)
    qdd = grbda.forward_dynamics(model, other, q, v, tau)
    fd_dq, fd_dv = finite_differences(model, lambda q, v: grbda.forward_dynamics(model, other, q, v, tau), q, v)
    assert rel(dqdd_dq, fd_dq) < 1e-6 and rel(dqdd_dv, fd_dv) < 1e-6
    assert rel(dqdd_dtau @ grbda.mass_matrix(model, other, q), np.eye(model.nv)) < 1e-9
    dtau_dq, dtau_dv, M = grbda.compute_rnea_derivatives(model, data, q, v, qdd)
    assert rel(M, grbda.mass_matrix(model, other, q)) < 1e-10
    assert rel(-dqdd_dtau @ dtau_dq, dqdd_dq) < 1e-9 and rel(-dqdd_dtau @ dtau_dv, dqdd_dv) < 1e-9


def test_difference_inverts_integrate():
    model = grbda.load(model_path("mini_cheetah.urdf"))
    q, v, _ = state(model_path("mini_cheetah.urdf"), model, seed=3)
    assert np.allclose(grbda.difference(model, q, grbda.integrate(model, q, v, 1.0)), v, atol=1e-12)
    with pytest.raises(grbda.InputError):
        grbda.difference(model, q, q[:3])
