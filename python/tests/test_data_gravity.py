"""Per-Data gravity (Data.set_gravity): the thread-safe way to vary gravity while one Model is
shared; a Data without an override follows model.gravity."""
import threading

import numpy as np
import pytest

import grbda
from conftest import model_path


@pytest.fixture
def model():
    return grbda.load_urdf(model_path("mini_cheetah.urdf"))


def test_override_equals_a_model_with_that_gravity(model):
    q = model.neutral_configuration()
    v = np.zeros(model.nv)
    moon = np.array([0.2, 0.0, -1.62])
    data = grbda.Data(model)
    assert not data.overrides_gravity
    earth = grbda.bias_forces(model, data, q, v)
    data.set_gravity(moon)
    assert data.overrides_gravity
    assert np.array_equal(data.gravity, moon)
    on_moon = grbda.bias_forces(model, data, q, v)
    other = grbda.load_urdf(model_path("mini_cheetah.urdf"))
    other.gravity = moon
    assert np.array_equal(on_moon, grbda.bias_forces(other, grbda.Data(other), q, v))
    assert np.array_equal(model.gravity, [0.0, 0.0, -9.81])  # the shared model is untouched
    data.use_model_gravity()
    assert not data.overrides_gravity
    assert np.array_equal(grbda.bias_forces(model, data, q, v), earth)


def test_bad_gravity_is_an_input_error(model):
    data = grbda.Data(model)
    with pytest.raises(grbda.InputError):
        data.set_gravity([0.0, float("nan"), -9.81])
    with pytest.raises(grbda.InputError):
        data.set_gravity([0.0, -9.81])


def test_two_threads_with_their_own_gravity_share_one_model(model):
    q = model.neutral_configuration()
    v = np.zeros(model.nv)
    gravities = [np.array([0.0, 0.0, -9.81]), np.array([1.0, 0.0, -3.7])]
    expected = []
    for g in gravities:
        data = grbda.Data(model)
        data.set_gravity(g)
        expected.append(grbda.bias_forces(model, data, q, v))
    results = [None, None]

    def run(i):
        data = grbda.Data(model)
        data.set_gravity(gravities[i])
        for _ in range(50):
            results[i] = grbda.bias_forces(model, data, q, v)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(2):
        assert np.array_equal(results[i], expected[i])
    assert not np.array_equal(results[0], results[1])
