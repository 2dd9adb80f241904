"""forward_dynamics_batch: the same answers as a Python loop, on one or several threads."""
import numpy as np
import pytest

import grbda
from conftest import model_path, state


@pytest.mark.parametrize("file", ["mini_cheetah.urdf", "four_bar.urdf"])
@pytest.mark.parametrize("threads", [1, 3, 0])
def test_batch_equals_loop(file, threads):
    path = model_path(file)
    model = grbda.load(path)
    states = [state(path, model, seed=s) for s in range(17)]
    Q, V, TAU = (np.array([s[i] for s in states]) for i in range(3))
    data = grbda.Data(model)
    looped = np.array([grbda.forward_dynamics(model, data, q, v, tau) for q, v, tau in states])
    batched = grbda.forward_dynamics_batch(model, Q, V, TAU, threads=threads)
    assert batched.shape == (17, model.nv)
    assert np.allclose(batched, looped, atol=1e-10)


def test_batch_errors_name_the_state():
    model = grbda.load(model_path("double_pendulum.urdf"))
    Q = np.zeros((5, 2))
    TAU = np.zeros((5, 2))
    TAU[3, 1] = np.nan
    with pytest.raises(grbda.InputError, match=r"state 3: forwardDynamics: tau\[1\] is not finite"):
        grbda.forward_dynamics_batch(model, Q, Q, TAU, threads=2)
    with pytest.raises(grbda.InputError, match=r"V has shape \(4, 2\), expected \(5, 2\)"):
        grbda.forward_dynamics_batch(model, Q, Q[:4], TAU)
    with pytest.raises(grbda.InputError, match="Q has 3 columns"):
        grbda.forward_dynamics_batch(model, np.zeros((5, 3)), Q, Q)
    with pytest.raises(grbda.InputError, match="threads"):
        grbda.forward_dynamics_batch(model, Q, Q, Q, threads=-1)
    assert grbda.forward_dynamics_batch(model, np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2))).shape == (0, 2)
