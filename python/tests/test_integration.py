"""grbda.integrate and its companions (C++ since the simulate work) against the pure-Python
integrate the package used to have, finite differences, and the mass matrix."""
import numpy as np
import pytest

import grbda
from conftest import model_path, state


def quaternion_product(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2])


def reference_integrate(model, q, v, dt):
    """The package's former pure-Python integrate: the independent reference."""
    q = np.array(q, dtype=float)
    for cluster in model.clusters:
        qs = slice(cluster.q_index, cluster.q_index + cluster.nq)
        vs = slice(cluster.v_index, cluster.v_index + cluster.nv)
        if cluster.type_name == "Free":
            position, quaternion = q[qs][:3], q[qs][3:]
            w, linear = v[vs][:3], v[vs][3:]
            angle = np.linalg.norm(w) * dt
            axis = w / np.linalg.norm(w) if angle != 0 else np.zeros(3)
            turn = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])
            position = position + grbda.quaternion_to_rotation(quaternion) @ linear * dt
            quaternion = quaternion_product(quaternion, turn)
            q[qs] = np.concatenate([position, quaternion / np.linalg.norm(quaternion)])
        else:
            q[qs] += v[vs] * dt
    return q


@pytest.fixture(scope="module")
def cheetah():
    path = model_path("mini_cheetah.urdf")
    model = grbda.load(path)
    q, v, _ = state(path, model, seed=11)
    return model, grbda.Data(model), q, 3 * v


def test_integrate_matches_the_former_python_integrate(cheetah):
    model, _, q, v = cheetah
    for dt in (0.3, -0.05, 0.0):
        assert np.allclose(grbda.integrate(model, q, v, dt), reference_integrate(model, q, v, dt), atol=1e-14)


def test_position_rate_is_the_derivative_of_integrate(cheetah):
    model, _, q, v = cheetah
    h = 1e-6
    fd = (grbda.integrate(model, q, v, h) - grbda.integrate(model, q, v, -h)) / (2 * h)
    assert np.allclose(grbda.position_rate(model, q, v), fd, atol=1e-8)


def test_energies(cheetah):
    model, data, q, v = cheetah
    H = grbda.mass_matrix(model, data, q)
    assert grbda.kinetic_energy(model, data, q, v) == pytest.approx(0.5 * v @ H @ v, rel=1e-12)
    h = 1e-6  # the potential changes by the generalised gravity force C(q, 0)
    dV = (grbda.potential_energy(model, data, grbda.integrate(model, q, v, h)) -
          grbda.potential_energy(model, data, grbda.integrate(model, q, v, -h))) / (2 * h)
    assert dV == pytest.approx(grbda.bias_forces(model, data, q, np.zeros(model.nv)) @ v, rel=1e-6)


def test_normalize_configuration_and_errors(cheetah):
    model, _, q, v = cheetah
    scaled = q.copy()
    scaled[3:7] *= 2
    assert np.allclose(grbda.normalize_configuration(model, scaled), q)
    with pytest.raises(grbda.InputError, match="integrate: v has 3 entries"):
        grbda.integrate(model, q, v[:3], 0.1)
    with pytest.raises(grbda.InputError, match="dt is not finite"):
        grbda.integrate(model, q, v, float("inf"))
    zero = q.copy()
    zero[3:7] = 0
    with pytest.raises(grbda.InputError, match="quaternion of joint .* is zero"):
        grbda.normalize_configuration(model, zero)
