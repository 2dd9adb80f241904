"""PV-OSIM and PV-OSIM-fast from Python: Lambda^-1 of contact rows against J H^-1 J^T formed from
the bound frame Jacobians and mass matrix, the operator's Lambda x against numpy's solve, eq. 48,
the fallback for a weld on the base link, and the grbda command's osim --method pv / pv-fast."""
import numpy as np
import pytest

import grbda
from conftest import model_path, run_cli, vector_arg

FEET = ["FR_foot", "FL_foot", "HR_foot", "HL_foot"]


def bent_cheetah(model, seed):
    rng = np.random.default_rng(seed)
    q = model.neutral_configuration()
    q[2] = 0.3
    for leg in range(4):
        q[7 + 3 * leg:10 + 3 * leg] = [rng.uniform(-0.3, 0.3), rng.uniform(-1.0, -0.6), rng.uniform(1.2, 1.8)]
    return q


def contact_jacobian(model, q, links):
    """World-aligned linear rows of each contact point (the rows of add_point_contact)."""
    data = grbda.Data(model)
    return np.vstack([grbda.frame_jacobian(model, data, q, link, [0, 0, 0])[3:] for link in links])


def delassus(model, q, links):
    J = contact_jacobian(model, q, links)
    H = grbda.mass_matrix(model, grbda.Data(model), q)
    return J @ np.linalg.solve(H, J.T)


def feet_problem(links=FEET):
    model = grbda.load(model_path("mini_cheetah.urdf"))
    constraints = grbda.ConstraintModel(model)
    for link in links:
        constraints.add_point_contact(link)
    return model, constraints, grbda.ConstraintData(model, constraints)


def test_pv_inverse_osim_is_J_Hinv_Jt():
    model, constraints, cdata = feet_problem()
    q = bent_cheetah(model, 1)
    data = grbda.Data(model)
    lam_inv = grbda.pv_inverse_operational_space_inertia(model, data, constraints, cdata, q)
    reference = delassus(model, q, FEET)
    assert lam_inv.shape == (12, 12)
    assert np.allclose(lam_inv, reference, rtol=1e-9, atol=1e-12)
    assert np.allclose(grbda.dense_inverse_operational_space_inertia(model, data, constraints, cdata, q), reference, rtol=1e-9, atol=1e-12)
    lam = grbda.pv_operational_space_inertia(model, data, constraints, cdata, q)
    assert np.allclose(lam @ reference, np.eye(12), atol=1e-8)


def test_pv_osim_fast_operator_and_eq48():
    model, constraints, cdata = feet_problem()
    q = bent_cheetah(model, 2)
    op = grbda.PvOsimFast(model, constraints)
    op.compute(model, grbda.Data(model), constraints, cdata, q)
    assert op.floating_base and op.fast and not op.fell_back and op.num_branches == 4 and op.size == 12
    reference = delassus(model, q, FEET)
    x = np.random.default_rng(3).standard_normal(12)
    assert np.allclose(op.apply_inverse(x), reference @ x, rtol=1e-10, atol=1e-12)
    assert np.allclose(op.apply_lambda(x), np.linalg.solve(reference, x), rtol=1e-8)
    assert np.array_equal(op.solve(x), op.apply_lambda(x))
    Kb = op.base_rows()
    L0 = op.branch_delassus() + Kb @ np.linalg.solve(op.base_inertia(), Kb.T)
    assert np.allclose(L0, reference, rtol=1e-10, atol=1e-12)


def test_pv_osim_fast_falls_back_for_a_weld_on_the_base():
    model = grbda.load(model_path("mini_cheetah.urdf"))
    constraints = grbda.ConstraintModel(model)
    constraints.add_point_contact("FR_foot")
    constraints.add_weld(model.bodies[0].name)
    cdata = grbda.ConstraintData(model, constraints)
    q = bent_cheetah(model, 4)
    op = grbda.PvOsimFast(model, constraints)
    op.compute(model, grbda.Data(model), constraints, cdata, q)
    assert op.fell_back and not op.fast
    reference = grbda.dense_inverse_operational_space_inertia(model, grbda.Data(model), constraints, cdata, q)
    x = np.arange(9.0)
    assert np.allclose(op.apply_lambda(x), np.linalg.solve(reference, x), rtol=1e-8)
    with pytest.raises(grbda.InputError):
        op.apply_inverse(np.zeros(3))


def test_cli_pv_and_pv_fast_equal_efpa():
    path = model_path("mini_cheetah.urdf")
    model = grbda.load(path)
    q = bent_cheetah(model, 5)
    points = ["--point", "FR_foot:0.01,0,0", "--point", "HL_knee_link:0,0,-0.1"]
    efpa = np.array(run_cli("osim", path, "--q", vector_arg(q), *points, "--method", "efpa")["result"])
    for method in ("pv", "pv-fast", "dense"):
        out = run_cli("osim", path, "--q", vector_arg(q), *points, "--method", method)
        assert out["method"] == method
        assert np.allclose(out["result"], efpa, rtol=1e-9, atol=1e-12), method
