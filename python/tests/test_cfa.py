"""The constraint force algorithm and joint reactions from Python, against C-ABA and RNEA."""
import numpy as np
import pytest

import grbda
from conftest import model_path

RNG = np.random.default_rng(4)


def chain_state(model):
    q = RNG.uniform(-1.0, 1.0, model.nq)
    return q, RNG.uniform(-1.0, 1.0, model.nv), RNG.uniform(-2.0, 2.0, model.nv)


@pytest.mark.parametrize("name", ["arm_6dof.urdf", "planar_arm_3dof.urdf", "double_pendulum.urdf"])
def test_cfa_equals_aba_and_its_wrenches_equal_rnea_reactions(name):
    model = grbda.load_urdf(model_path(name))
    assert grbda.cfa_unsupported_reason(model) == ""
    cfa, data = grbda.CfaData(model), grbda.Data(model)
    q, v, tau = chain_state(model)
    qdd = grbda.cfa_forward_dynamics(model, cfa, q, v, tau)
    assert np.allclose(qdd, grbda.forward_dynamics(model, data, q, v, tau), atol=1e-9)
    # RNEA at the same state transmits the same joint wrenches; CFA takes moments about the world
    # origin, the reactions about each joint's origin: m_0 = m_joint + origin × f.
    grbda.inverse_dynamics(model, data, q, v, qdd)
    reactions = grbda.joint_reactions(model, data)
    wrench = cfa.joint_wrench
    assert wrench.shape == (len(model.bodies), 6)
    for r in reactions:
        assert np.allclose(wrench[r.body, 3:], r.force, atol=1e-8)
        assert np.allclose(wrench[r.body, :3], r.moment + np.cross(r.origin, r.force), atol=1e-8)


def test_parallel_cfa_agrees_with_serial():
    model = grbda.load_urdf(model_path("arm_6dof.urdf"))
    serial, parallel = grbda.CfaData(model), grbda.CfaData(model, threads=2)
    q, v, tau = chain_state(model)
    a = grbda.cfa_forward_dynamics(model, serial, q, v, tau)
    b = grbda.cfa_parallel_forward_dynamics(model, parallel, q, v, tau)
    assert np.allclose(a, b, atol=1e-10)
    assert parallel.threads == 2 and parallel.reduction_levels >= 1


def test_cfa_refuses_models_it_cannot_take():
    four_bar = grbda.load_urdf(model_path("four_bar.urdf"))
    assert grbda.cfa_unsupported_reason(four_bar) != ""
    with pytest.raises(grbda.InputError):
        grbda.CfaData(four_bar)
    arm, other = grbda.load_urdf(model_path("arm_6dof.urdf")), grbda.load_urdf(model_path("planar_arm_3dof.urdf"))
    with pytest.raises(grbda.InputError, match="prepared for model"):
        grbda.cfa_forward_dynamics(other, grbda.CfaData(arm), [0] * other.nq, [0] * other.nv, [0] * other.nv)
    with pytest.raises(grbda.InputError, match="basis"):
        grbda.CfaData(arm, basis="bogus")


def test_cluster_cfa_equals_forward_dynamics_on_loop_models():
    for name in ("four_bar.urdf", "six_bar.urdf"):
        model = grbda.load(model_path(name))
        assert grbda.cluster_cfa_unsupported_reason(model) == ""
        cfa = grbda.ClusterCfaData(model)
        assert cfa.system_size == sum(cfa.block_size(k) for k in range(model.num_clusters))
        rng = np.random.default_rng(4)
        q = grbda.integrate(model, model.neutral_configuration(), rng.uniform(-0.2, 0.2, model.nv), 1.0)
        v, tau = rng.uniform(-1, 1, model.nv), rng.uniform(-1, 1, model.nv)
        qdd = grbda.cluster_cfa_forward_dynamics(model, cfa, q, v, tau)
        assert np.allclose(qdd, grbda.forward_dynamics(model, grbda.Data(model), q, v, tau), rtol=1e-9, atol=1e-9)
        assert np.array_equal(cfa.qdd, qdd)


def test_cluster_cfa_refusals_name_why():
    cheetah = grbda.load(model_path("mini_cheetah.urdf"))
    assert "both hang from body" in grbda.cluster_cfa_unsupported_reason(cheetah)
    with pytest.raises(grbda.InputError, match="both hang from body"):
        grbda.ClusterCfaData(cheetah)
    four_bar = grbda.load(model_path("four_bar.urdf"))
    cfa = grbda.ClusterCfaData(four_bar)
    with pytest.raises(grbda.InputError, match="prepared for model"):
        grbda.cluster_cfa_forward_dynamics(cheetah, cfa, cheetah.neutral_configuration(), np.zeros(cheetah.nv),
                                           np.zeros(cheetah.nv))
