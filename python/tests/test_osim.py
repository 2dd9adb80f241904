"""Inverse operational-space inertia: C-EFPA from Python against J H^-1 J^T formed from the bound
Jacobian and mass matrix, against the grbda command, and apply-test-force against both."""
import numpy as np
import pytest

import grbda
from conftest import model_path, robot_at_state, run_cli, state, vector_arg

POINTS = {"mini_cheetah.urdf": [("FR_knee_link", [0, 0, -0.2]), ("HL_knee_link", [0, 0, -0.2])],
          "mit_humanoid_leg.urdf": None, "four_bar.urdf": [("link2", [0.1, 0, 0])]}


def end_effectors(model, file):
    return POINTS[file] or [(model.frames[-1].name, [0.0, 0.0, -0.05])]


@pytest.mark.parametrize("file", sorted(POINTS))
def test_inverse_osim_is_J_Hinv_Jt(file):
    path, model, data, q, _, _ = robot_at_state(file, seed=10)
    ees = end_effectors(model, file)
    osim = grbda.OsimSet(model, ees)
    assert len(osim) == len(ees) == osim.size
    lam_inv = grbda.inverse_operational_space_inertia(model, data, osim, q)
    J = np.vstack([grbda.frame_jacobian(model, data, q, f, p, grbda.ReferenceFrame.LOCAL) for f, p in ees])
    Hinv = np.linalg.inv(grbda.mass_matrix(model, data, q))
    assert np.allclose(lam_inv, J @ Hinv @ J.T, atol=1e-9)
    linear = grbda.inverse_operational_space_inertia(model, data, osim, q, linear_only=True)
    rows = np.concatenate([6 * e + np.arange(3, 6) for e in range(len(ees))])
    assert np.allclose(linear, lam_inv[np.ix_(rows, rows)], atol=1e-12)
    projected = grbda.projection_inverse_operational_space_inertia(model, data, ees, q)
    assert np.allclose(projected, lam_inv, atol=1e-9)


@pytest.mark.parametrize("file", sorted(POINTS))
def test_inverse_osim_matches_cli(file):
    path = model_path(file)
    model = grbda.load(path)
    q, _, _ = state(path, model, seed=11)
    ees = end_effectors(model, file)
    points = [a for f, p in ees for a in ("--point", "%s:%s" % (f, vector_arg(p)))]
    expected = run_cli("osim", path, "--q", vector_arg(q), *points)["result"]
    got = grbda.inverse_operational_space_inertia(model, grbda.Data(model), grbda.OsimSet(model, ees), q)
    assert np.allclose(got, expected, atol=1e-10)


def test_apply_test_force_is_a_quadratic_form_of_the_inverse_osim():
    path, model, data, q, _, _ = robot_at_state("mini_cheetah.urdf", seed=12)
    frame, point = "FR_knee_link", np.array([0.0, 0.0, -0.2])
    grbda.update_force_propagators(model, data, q)
    force = np.array([0.2, -1.0, 0.5])
    lam_inv, dydd = grbda.apply_test_force(model, data, frame, point, force)
    J = grbda.frame_jacobian(model, grbda.Data(model), q, frame, point)[3:]  # world-aligned linear rows
    Hinv = np.linalg.inv(grbda.mass_matrix(model, grbda.Data(model), q))
    assert lam_inv == pytest.approx(force @ J @ Hinv @ J.T @ force, rel=1e-9)
    assert np.allclose(dydd, Hinv @ J.T @ force, atol=1e-9)


def test_osim_set_belongs_to_its_model():
    cheetah = grbda.load(model_path("mini_cheetah.urdf"))
    pendulum = grbda.load(model_path("double_pendulum.urdf"))
    osim = grbda.OsimSet(cheetah, ["FR_knee_link", (3, [0, 0, 0])])
    assert osim.end_effectors[1][0] == 3
    with pytest.raises(grbda.InputError, match="OsimSet was made for model 'mini_cheetah'"):
        grbda.inverse_operational_space_inertia(pendulum, grbda.Data(pendulum), osim, [0, 0])
    with pytest.raises(grbda.InputError, match="unknown"):
        grbda.OsimSet(cheetah, ["no_such_link"])
    with pytest.raises(grbda.InputError, match="pair"):
        grbda.OsimSet(cheetah, [("FR_knee_link", [0, 0, 0], 1)])
