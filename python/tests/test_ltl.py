"""Featherstone's LTL baselines from Python: solver='ltl' / 'ltl-soft' against PV, KKT and PV-soft,
and ltl_constraint_delassus against the hard and soft forces of KKT and PV-soft."""
import numpy as np

import grbda
from conftest import model_path, state

CHEETAH = model_path("mini_cheetah.urdf")


def test_ltl_equals_pv_kkt_and_ltl_soft_equals_pv_soft():
    model = grbda.load(CHEETAH)
    data = grbda.Data(model)
    q, v, tau = state(CHEETAH, model, seed=11)
    constraints = grbda.ConstraintModel(model)
    constraints.add_weld("FR_foot", [0.01, 0, 0])
    constraints.add_point_contact("HL_foot")
    cdata = grbda.ConstraintData(model, constraints)
    results = {}
    for solver in ("pv", "kkt", "ltl", grbda.ConstraintSolver.LTL):
        qdd = grbda.constrained_forward_dynamics(model, data, constraints, cdata, q, v, tau, solver=solver)
        results[str(solver)] = (qdd.copy(), cdata.lambda_.copy())
        assert cdata.residual < 1e-8 and cdata.rank == 9
    qdd_pv, lam_pv = results["pv"]
    for key in ("kkt", "ltl", str(grbda.ConstraintSolver.LTL)):
        assert np.allclose(results[key][0], qdd_pv, rtol=1e-10, atol=1e-10), key
        assert np.allclose(results[key][1], lam_pv, rtol=1e-8, atol=1e-8), key

    constraints.set_compliance(2e-3)
    soft = grbda.ConstraintData(model, constraints)
    qdd_ltl = grbda.constrained_forward_dynamics(model, data, constraints, soft, q, v, tau, solver="ltl-soft")
    lam_ltl = soft.lambda_.copy()
    qdd_pv = grbda.constrained_forward_dynamics(model, data, constraints, soft, q, v, tau, solver="pv-soft")
    assert np.allclose(qdd_ltl, qdd_pv, rtol=1e-10, atol=1e-10)
    assert np.allclose(lam_ltl, soft.lambda_, rtol=1e-8, atol=1e-8)

    # The Delassus matrix A = J H^-1 J^T ties the independent solutions together: the hard force
    # solves A lambda = b (KKT) and the soft one (A + R) lambda = b (PV-soft) for the same b.
    A = grbda.ltl_constraint_delassus(model, data, constraints, soft, q)
    assert A.shape == (9, 9) and np.allclose(A, A.T, atol=1e-12)
    assert np.allclose(A @ results["kkt"][1], (A + 2e-3 * np.eye(9)) @ soft.lambda_, rtol=1e-7, atol=1e-7)
