"""grbda.tree: on a model without loops the tree algorithms are the cluster algorithms; their
own checks (sizes, NaN) are the bindings'."""
import numpy as np
import pytest

import grbda
from conftest import model_path, state


def test_tree_algorithms_equal_cluster_algorithms_without_loops():
    path = model_path("arm_6dof.urdf")
    model = grbda.load(path)
    assert not model.has_constraints
    data = grbda.Data(model)
    q, v, tau = state(path, model, seed=30)
    fext = np.random.default_rng(0).standard_normal((model.num_bodies, 6))
    qdd = grbda.tree.aba(model, data, q, v, tau, fext)
    assert np.allclose(qdd, grbda.forward_dynamics(model, grbda.Data(model), q, v, tau, fext), atol=1e-9)
    assert np.allclose(grbda.tree.rnea(model, data, q, v, qdd, fext), tau, atol=1e-9)
    assert np.allclose(grbda.tree.crba(model, data, q), grbda.mass_matrix(model, grbda.Data(model), q), atol=1e-10)
    assert np.allclose(grbda.tree.non_linear_effects(model, data, q, v),
                       grbda.bias_forces(model, grbda.Data(model), q, v), atol=1e-10)
    armature = np.full(model.nv, 0.1)
    H = grbda.tree.crba(model, data, q)
    C = grbda.tree.non_linear_effects(model, data, q, v)
    assert np.allclose(grbda.tree.aba(model, data, q, v, tau, armature=armature),
                       np.linalg.solve(H + np.diag(armature), tau - C), atol=1e-9)
    grbda.tree.forward_kinematics(model, data, q, v)
    frame = model.frames[-1].name
    J = grbda.tree.frame_jacobian(model, data, frame)
    assert np.allclose(J, grbda.frame_jacobian(model, grbda.Data(model), q, frame), atol=1e-12)


def test_tree_inputs_are_checked_by_the_bindings():
    model = grbda.load(model_path("four_bar.urdf"))
    data = grbda.Data(model)
    with pytest.raises(grbda.InputError, match="tree.crba: q has 1 entries, expected 3"):
        grbda.tree.crba(model, data, [0.5])
    with pytest.raises(grbda.InputError, match="tree.rnea: qdd is not finite"):
        grbda.tree.rnea(model, data, [0, 0, 0], [0, 0, 0], [0, np.nan, 0])
    with pytest.raises(grbda.InputError, match="armature"):
        grbda.tree.aba(model, data, [0, 0, 0], [0, 0, 0], [0, 0, 0], armature=[1.0])
