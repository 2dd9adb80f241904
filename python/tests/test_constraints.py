"""The constraint API from Python: the solvers against each other and against the grbda
command's JSON (`grbda fd --contact ...`), the forces against inverse dynamics, the errors, the
lifetimes, and H^-1 / log det H against numpy."""
import gc

import numpy as np
import pytest

import grbda
from conftest import CROSS_CHECK_MODELS, model_path, run_cli, state, vector_arg

FEET = ["FR_foot", "FL_foot", "HR_foot", "HL_foot"]
CHEETAH = model_path("mini_cheetah.urdf")


@pytest.fixture(scope="module")
def cheetah():
    """(model, data, q, v, tau): the Mini Cheetah at a moving, off-neutral state."""
    model = grbda.load(CHEETAH)
    return (model, grbda.Data(model)) + state(CHEETAH, model, seed=7)


def four_feet(model):
    constraints = grbda.ConstraintModel(model)
    for foot in FEET:
        constraints.add_point_contact(foot)
    return constraints


def cli_fd(q, v, tau, *constraint_args):
    return run_cli("fd", CHEETAH, "--q", vector_arg(q), "--v", vector_arg(v), "--tau", vector_arg(tau),
                   *constraint_args)


def test_four_feet_pv_kkt_proximal_agree_with_the_command(cheetah):
    model, data, q, v, tau = cheetah
    constraints = four_feet(model)
    cdata = grbda.ConstraintData(model, constraints)
    reference = cli_fd(q, v, tau, *sum((["--contact", f] for f in FEET), []))
    forces = np.concatenate([c["force"] for c in reference["contact_forces"]])
    assert [c["link"] for c in reference["contact_forces"]] == FEET
    for solver in ("pv", grbda.ConstraintSolver.KKT, "pv-early", grbda.ConstraintSolver.PV_EARLY,
                   grbda.ConstraintSolverSettings("proximal", max_iterations=100)):
        qdd = grbda.constrained_forward_dynamics(model, data, constraints, cdata, q, v, tau, solver=solver)
        assert np.allclose(qdd, reference["result"], rtol=1e-8, atol=1e-8), solver
        assert np.allclose(cdata.lambda_, forces, rtol=1e-8, atol=1e-7), solver
        assert cdata.residual < 1e-8 and not cdata.redundant
    assert cdata.iterations >= 1  # the last one was the proximal iteration
    assert cdata.lambda_.shape == (12,) and not cdata.lambda_.flags.writeable


def test_the_equation_of_motion_is_measured_when_asked_in_python_and_by_the_command(cheetah):
    model, data, q, v, tau = cheetah
    constraints = four_feet(model)
    cdata = grbda.ConstraintData(model, constraints)
    solve = grbda.constrained_forward_dynamics
    solve(model, data, constraints, cdata, q, v, tau)  # pv, check_dynamics='auto': not measured
    assert cdata.dynamics_residual == -1.0 and cdata.residual == cdata.row_residual
    asked = grbda.ConstraintSolverSettings("pv", check_dynamics="always")
    assert asked.check_dynamics == "always" and "check_dynamics='always'" in repr(asked)
    qdd = solve(model, data, constraints, cdata, q, v, tau, solver=asked)
    assert 0.0 <= cdata.dynamics_residual < 1e-9
    solve(model, data, constraints, cdata, q, v, tau, solver="pv-early")  # measured by default
    assert 0.0 <= cdata.dynamics_residual < 1e-8
    with pytest.raises(grbda.InputError, match="unknown dynamics check 'sometimes'"):
        grbda.ConstraintSolverSettings("pv", check_dynamics="sometimes")
    contacts = sum((["--contact", f] for f in FEET), [])
    assert cli_fd(q, v, tau, *contacts)["dynamics_residual"] == -1.0
    reference = cli_fd(q, v, tau, *contacts, "--check-dynamics")
    assert 0.0 <= reference["dynamics_residual"] < 1e-9
    assert np.allclose(qdd, reference["result"], rtol=1e-12, atol=1e-12)


def test_forces_give_tau_back_through_inverse_dynamics(cheetah):
    # lambda is what the ground exerts on the feet: placed as external forces, inverse dynamics at
    # the constrained qdd must return the joint torques that produced it
    model, data, q, v, tau = cheetah
    constraints = four_feet(model)
    cdata = grbda.ConstraintData(model, constraints)
    qdd = grbda.constrained_forward_dynamics(model, data, constraints, cdata, q, v, tau)
    grbda.forward_kinematics(model, data, q)
    fext = np.zeros((model.num_bodies, 6))
    for c in constraints.constraints:
        force = cdata.lambda_[c.row:c.row + 3]
        point = grbda.frame_position(model, data, c.link, c.point)
        fext[c.body] += np.concatenate([np.cross(point, force), force])
    assert np.allclose(grbda.inverse_dynamics(model, data, q, v, qdd, fext), tau, atol=1e-8)
    # and without the forces the robot would move otherwise: the check is not vacuous
    assert not np.allclose(grbda.inverse_dynamics(model, data, q, v, qdd), tau, atol=1e-3)


def test_welds_report_moments_like_the_command(cheetah):
    model, data, q, v, tau = cheetah
    constraints = grbda.ConstraintModel(model)
    assert constraints.add_weld("FR_foot", [0.01, 0, 0]) == 0
    assert constraints.add_point_contact("HL_foot", name="back left") == 1
    weld, contact = constraints.constraints
    assert (weld.kind, weld.kind_name, weld.row, weld.num_rows) == (grbda.ConstraintKind.WELD, "weld", 0, 6)
    assert (contact.name, contact.kind_name, contact.row, contact.num_rows) == ("back left", "contact", 6, 3)
    assert np.allclose(weld.point, [0.01, 0, 0]) and constraints.num_rows == 9 and len(constraints) == 2
    cdata = grbda.ConstraintData(model, constraints)
    qdd = grbda.constrained_forward_dynamics(model, data, constraints, cdata, q, v, tau, solver="kkt")
    reference = cli_fd(q, v, tau, "--weld", "FR_foot:0.01,0,0", "--contact", "HL_foot")
    welded = reference["contact_forces"][0]
    assert np.allclose(qdd, reference["result"], atol=1e-8)
    assert np.allclose(cdata.lambda_[:3], welded["moment"], atol=1e-7)
    assert np.allclose(cdata.lambda_[3:6], welded["force"], atol=1e-7)


def test_soft_rows_tend_to_the_hard_solution(cheetah):
    model, data, q, v, tau = cheetah
    constraints = four_feet(model)
    cdata = grbda.ConstraintData(model, constraints)
    with pytest.raises(grbda.InputError, match="pv-soft needs a compliance"):
        grbda.constrained_forward_dynamics(model, data, constraints, cdata, q, v, tau, solver="pv-soft")
    hard = grbda.constrained_forward_dynamics(model, data, constraints, cdata, q, v, tau)
    errors = []
    for R in (1e-3, 1e-5):
        soft_model = four_feet(model)
        soft_model.set_compliance(R)
        soft_data = grbda.ConstraintData(model, soft_model)
        soft = grbda.constrained_forward_dynamics(model, data, soft_model, soft_data, q, v, tau, solver="pv-soft")
        errors.append(np.abs(soft - hard).max())
    assert 0.005 < errors[1] / errors[0] < 0.02  # the error falls in proportion to R (x 1/100)
    assert np.allclose(soft_model.compliance, 1e-5)


def test_custom_rows_equal_a_weld(cheetah):
    # K = identity on the foot link's spatial acceleration is a weld at its origin in link axes:
    # the same motion (forces differ only in axes)
    model, data, q, v, tau = cheetah
    custom = grbda.ConstraintModel(model)
    custom.add_custom_rows("FR_foot", np.eye(6), np.zeros(6))
    weld = grbda.ConstraintModel(model)
    weld.add_weld("FR_foot")
    a = grbda.constrained_forward_dynamics(model, data, custom, grbda.ConstraintData(model, custom), q, v, tau)
    b = grbda.constrained_forward_dynamics(model, data, weld, grbda.ConstraintData(model, weld), q, v, tau)
    assert custom.constraints[0].kind == grbda.ConstraintKind.CUSTOM
    # a custom row holds the spatial acceleration, a weld the classical one: equal when the link's
    # origin does not move; at v = 0 both hold the link still
    zero = np.zeros(model.nv)
    a0 = grbda.constrained_forward_dynamics(model, data, custom, grbda.ConstraintData(model, custom), q, zero, tau)
    b0 = grbda.constrained_forward_dynamics(model, data, weld, grbda.ConstraintData(model, weld), q, zero, tau)
    assert np.allclose(a0, b0, atol=1e-8)
    assert not np.allclose(a, b, atol=1e-6)  # with velocity the two differ by the omega x v term


def test_relative_constraints_hold_two_feet_together(cheetah):
    model, data, q, v, tau = cheetah
    constraints = grbda.ConstraintModel(model)
    constraints.add_relative_point("FR_foot", [0, 0, 0], "FL_foot", [0, 0, 0])
    constraints.add_relative_weld("HR_foot", [0, 0, 0], "HL_foot", [0, 0, 0])
    cdata = grbda.ConstraintData(model, constraints)
    qdd = grbda.constrained_forward_dynamics(model, data, constraints, cdata, q, v, tau, solver="kkt")
    grbda.forward_kinematics(model, data, q, v, qdd)
    relative = grbda.frame_acceleration(model, data, "FR_foot")[3:] - grbda.frame_acceleration(model, data, "FL_foot")[3:]
    assert np.allclose(relative, 0, atol=1e-8)
    assert constraints.constraints[1].link2 == "HL_foot" and constraints.num_rows == 9


@pytest.mark.parametrize("call,message", [
    (lambda c: c.add_point_contact("nose"), "unknown link 'nose' in model 'mini_cheetah'"),
    (lambda c: c.add_weld("FR_foot", [0, 1]), "point has 2 entries, expected 3"),
    (lambda c: c.add_point_contact("FR_foot", [0, np.nan, 0]), "point is not finite"),
    (lambda c: c.add_custom_rows("FR_foot", np.eye(3), np.zeros(3)), r"K has shape \(3, 3\), expected \(N, 6\)"),
    (lambda c: c.add_custom_rows("FR_foot", np.ones((2, 6)), np.zeros(3)), "k has 3 entries"),
    (lambda c: c.set_compliance(-1.0), "compliance must be positive"),
    (lambda c: c.set_row_compliance(5, 1e-3), "row 5 is out of range"),
    (lambda c: c.set_baumgarte(float("nan")), "time constant"),
])
def test_bad_constraints_are_input_errors(cheetah, call, message):
    constraints = grbda.ConstraintModel(cheetah[0])
    with pytest.raises(grbda.InputError, match=message):
        call(constraints)


def test_mismatched_workspaces_and_solvers_are_refused(cheetah):
    model, data, q, v, tau = cheetah
    constraints = four_feet(model)
    other = four_feet(model)
    cdata = grbda.ConstraintData(model, constraints)
    solve = grbda.constrained_forward_dynamics
    with pytest.raises(grbda.InputError, match="another ConstraintModel"):
        solve(model, data, other, cdata, q, v, tau)
    with pytest.raises(grbda.InputError, match="unknown constraint solver 'fast'"):
        solve(model, data, constraints, cdata, q, v, tau, solver="fast")
    with pytest.raises(grbda.InputError, match="solver must be a name"):
        solve(model, data, constraints, cdata, q, v, tau, solver=3)
    with pytest.raises(grbda.InputError, match="unknown constraint solver 'nope'"):
        grbda.ConstraintSolverSettings("nope")
    settings = grbda.ConstraintSolverSettings(grbda.ConstraintSolver.PV_SOFT, max_iterations=7)
    assert settings.solver == grbda.ConstraintSolver.PV_SOFT and "max_iterations=7" in repr(settings)
    with pytest.raises(grbda.InputError, match="tau has 3 entries"):
        solve(model, data, constraints, cdata, q, v, tau[:3])
    pendulum = grbda.load(model_path("double_pendulum.urdf"))
    # the constraints are checked first now, and named (issue #27: not blamed on cdata)
    with pytest.raises(grbda.InputError, match="constraints was made for another model than 'double_pendulum'"):
        solve(pendulum, data, constraints, cdata, [0, 0], [0, 0], [0, 0])
    with pytest.raises(grbda.InputError, match="made for another model"):
        grbda.ConstraintData(pendulum, constraints)
    constraints.add_weld("FR_foot")  # the workspace no longer fits
    with pytest.raises(grbda.InputError, match="does not match the ConstraintModel"):
        solve(model, data, constraints, cdata, q, v, tau)


def test_constraint_model_and_data_keep_their_model_alive():
    def make():
        model = grbda.load(CHEETAH)
        constraints = four_feet(model)
        return constraints, grbda.ConstraintData(model, constraints)

    constraints, cdata = make()
    gc.collect()
    constraints.add_point_contact("FR_foot")  # validates against the (still living) model
    assert constraints.num_rows == 15 and cdata.lambda_.shape == (12,)
    del constraints
    gc.collect()
    assert cdata.lambda_.shape == (12,)


def test_baumgarte_pulls_a_displaced_foot_back(cheetah):
    # reference at q0; solved at a displaced q with zero velocity the correction accelerates the
    # feet towards the reference: p'' = -(1/T^2) e
    model, data, q, v, tau = cheetah
    constraints = four_feet(model)
    constraints.set_baumgarte(0.1)
    cdata = grbda.ConstraintData(model, constraints)
    grbda.forward_kinematics(model, data, q)
    reference = grbda.frame_position(model, data, "FR_foot")
    cdata.set_reference(model, data, constraints)
    moved = q.copy()
    moved[2] += 0.01  # the base 1 cm higher
    zero = np.zeros(model.nv)
    qdd = grbda.constrained_forward_dynamics(model, data, constraints, cdata, moved, zero, tau)
    grbda.forward_kinematics(model, data, moved, zero, qdd)
    error = grbda.frame_position(model, data, "FR_foot") - reference
    assert np.allclose(grbda.frame_acceleration(model, data, "FR_foot")[3:], -error / 0.1**2, atol=1e-6)
    assert constraints.baumgarte == 0.1


@pytest.mark.parametrize("file", CROSS_CHECK_MODELS)
def test_inverse_mass_matrix_and_log_det_against_numpy(file):
    path = model_path(file)
    model = grbda.load(path)
    data = grbda.Data(model)
    q, _, _ = state(path, model, seed=5)
    H = grbda.mass_matrix(model, data, q)
    Hinv = grbda.inverse_mass_matrix(model, data, q)
    assert np.allclose(Hinv @ H, np.eye(model.nv), atol=1e-8)
    sign, logdet = np.linalg.slogdet(H)
    assert sign == 1 and grbda.log_det_mass_matrix(model, data, q) == pytest.approx(logdet, abs=1e-9)
    assert np.allclose(Hinv, run_cli("mass-matrix", path, "--q", vector_arg(q), "--inverse")["result"], atol=1e-9)
    with pytest.raises(grbda.InputError, match="q has %d entries" % (model.nq_spanning + 1)):
        grbda.inverse_mass_matrix(model, data, np.zeros(model.nq_spanning + 1))


def test_proximal_sparse_with_contacts_gives_the_kkt_forces():
    """proximal_sparse_forward_dynamics(..., constraints=, cdata=): the contact rows in the spanning tree's
    sparse KKT system (the command's proximal-sparse) give the dense KKT's accelerations and forces."""
    model = grbda.load(model_path("mini_cheetah.urdf"))
    cm = grbda.ConstraintModel(model)
    for foot in ("FR_foot", "FL_foot", "HR_foot", "HL_foot"):
        cm.add_point_contact(foot)
    rng = np.random.default_rng(9)
    q = grbda.integrate(model, model.neutral_configuration(), rng.uniform(-0.3, 0.3, model.nv), 1.0)
    v, tau = rng.uniform(-1, 1, model.nv), rng.uniform(-1, 1, model.nv)
    kkt = grbda.ConstraintData(model, cm)
    reference = grbda.constrained_forward_dynamics(model, grbda.Data(model), cm, kkt, q, v, tau, solver="kkt")
    sparse = grbda.ConstraintData(model, cm)
    settings = grbda.ProximalSettings()
    settings.max_iterations = 50
    settings.tolerance = 1e-9
    result = grbda.proximal_sparse_forward_dynamics(model, grbda.Data(model), q, v, tau, settings, constraints=cm, cdata=sparse)
    assert result.converged
    assert np.allclose(result.qdd, reference, rtol=1e-8, atol=1e-8)
    assert np.allclose(sparse.lambda_, kkt.lambda_, rtol=1e-7, atol=1e-7)
    assert np.allclose(result.lambda_[-12:], sparse.lambda_)
    with pytest.raises(grbda.InputError, match="cdata"):
        grbda.proximal_sparse_forward_dynamics(model, grbda.Data(model), q, v, tau, constraints=cm)
