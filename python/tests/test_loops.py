"""Loops kept as constraint rows (load(..., loops="constrain"|"auto")): the same dynamics as the
embedded model, through the reduced-coordinate maps, and the same numbers as `grbda fd --loops`."""
import numpy as np
import pytest

import grbda
from conftest import model_path, run_cli, vector_arg

LOOP_MODELS = ["four_bar.urdf", "six_bar.urdf", "mini_cheetah.urdf", "revolute_rotor_chain.urdf"]


def reduced_state(model, seed):
    rng = np.random.default_rng(seed)
    y = grbda.integrate(model, model.neutral_configuration(), rng.uniform(-0.2, 0.2, model.nv), 1.0)
    return y, rng.uniform(-1, 1, model.nv), rng.uniform(-1, 1, model.nv)


@pytest.mark.parametrize("name", LOOP_MODELS)
def test_constrained_loops_give_the_embedded_dynamics(name):
    embedded = grbda.load(model_path(name))
    kept = grbda.load(model_path(name), loops="constrain")
    assert kept.kept_loop_groups and not embedded.kept_loop_groups
    assert grbda.reduced_velocity_names(kept) == embedded.velocity_names
    y, yd, tau = reduced_state(embedded, 3)
    reference = grbda.forward_dynamics(embedded, grbda.Data(embedded), y, yd, tau)
    q = grbda.expand_positions(kept, y)
    v = grbda.expand_velocities(kept, q, yd)
    constraints = grbda.ConstraintModel(kept)
    assert constraints.num_rows == embedded.nv_spanning - embedded.nv
    cdata = grbda.ConstraintData(kept, constraints)
    for solver in ("pv", "kkt", "ltl"):
        qdd = grbda.constrained_forward_dynamics(kept, grbda.Data(kept), constraints, cdata, q, v,
                                                 grbda.expand_forces(kept, tau), solver=solver)
        assert np.allclose(grbda.reduce_velocities(kept, qdd), reference, rtol=1e-8, atol=1e-8), solver
    # and the command, given the same reduced vectors
    out = run_cli("fd", model_path(name), "--loops", "constrain", "--q", vector_arg(y), "--v", vector_arg(yd),
                  "--tau", vector_arg(tau))
    assert np.allclose(out["result"], reference, rtol=1e-8, atol=1e-8)


def test_bad_treatment_is_an_input_error():
    with pytest.raises(grbda.InputError, match="constrain"):
        grbda.load(model_path("four_bar.urdf"), loops="cut")


def locality_family(directory):
    """The whole locality family of seed 000 (Figs. 10-11: two parallel chains of depth d joined by
    an explicit transmission or an implicit rod of size l), written by the project's generator."""
    import os
    import subprocess
    import sys
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sizes = {"explicit-parallel": ["5x2", "5x10", "10x8", "20x12", "40x2", "40x40"],
             "implicit-parallel": ["5x3", "5x11", "10x9", "20x13", "40x3", "40x41"]}
    for family, family_sizes in sizes.items():
        subprocess.run([sys.executable, os.path.join(repo, "tools", "make_models.py"), "--out", str(directory),
                        family, *family_sizes], check=True, capture_output=True)
    return sorted(str(p) for p in directory.iterdir())


def test_the_locality_family_agrees_under_every_treatment(tmp_path):
    files = locality_family(tmp_path)
    assert len(files) == 12
    for path in files:
        embedded = grbda.load(path)
        y, yd, tau = reduced_state(embedded, 5)
        reference = grbda.forward_dynamics(embedded, grbda.Data(embedded), y, yd, tau)
        for treatment in ("constrain", "auto"):
            kept = grbda.load(path, loops=treatment)
            assert grbda.reduced_velocity_names(kept) == embedded.velocity_names
            q = grbda.expand_positions(kept, y)
            v = grbda.expand_velocities(kept, q, yd)
            constraints = grbda.ConstraintModel(kept)
            cdata = grbda.ConstraintData(kept, constraints)
            qdd = grbda.constrained_forward_dynamics(kept, grbda.Data(kept), constraints, cdata, q, v,
                                                     grbda.expand_forces(kept, tau), solver="pv")
            scale = 1.0 + np.abs(reference).max()
            assert np.abs(grbda.reduce_velocities(kept, qdd) - reference).max() < 1e-8 * scale, (path, treatment)


BALL_AFTER_A_LOOP = """
  <link name="ball_link">
    <inertial><mass value="1"/><origin xyz="0 0 -0.2"/>
      <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="ball" type="spherical">
    <parent link="link3"/><child link="ball_link"/><origin xyz="0.5 0 0"/>
  </joint>
</robot>"""


@pytest.mark.parametrize("loops", ["embed", "constrain"])
def test_a_ball_after_a_loop_starts_at_the_identity(tmp_path, loops):
    """The neutral configuration puts a quaternion joint's identity at its own coordinates, also
    when a loop before it leaves fewer coordinates than joints (it once landed at the joint's
    spanning index: a half turn, the link upside down)."""
    path = tmp_path / "four_bar_ball.urdf"
    path.write_text(open(model_path("four_bar.urdf")).read().replace("</robot>", BALL_AFTER_A_LOOP))
    model = grbda.load(str(path), loops=loops)
    q = model.neutral_configuration()
    names = model.position_names
    assert [q[names.index("ball:" + c)] for c in ("qw", "qx", "qy", "qz")] == [1.0, 0.0, 0.0, 0.0]
    # the four-bar's links have their CoMs in the plane z = 0; the ball link's hangs 0.2 m below
    (com,) = grbda.com(model, grbda.Data(model), q)
    assert com[2] == pytest.approx(-0.2 * 1.0 / (3 * 3.3 + 1.0), abs=1e-15)
