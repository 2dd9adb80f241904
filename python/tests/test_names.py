"""One name per concept (issue #26, docs/architecture.md "Names"): the old Python names are the
new functions under another name, the old keywords y / yd still work, and the solver name
'proximal' still selects the proximal method on the Delassus matrix."""
import numpy as np

import grbda
from conftest import model_path, state

CHEETAH = model_path("mini_cheetah.urdf")

OLD_NAMES = {
    "projected_inverse_dynamics": "projection_inverse_dynamics",
    "projected_mass_matrix": "projection_mass_matrix",
    "projected_bias_forces": "projection_bias_forces",
    "projected_inverse_operational_space_inertia": "projection_inverse_operational_space_inertia",
    "forward_dynamics_proximal": "proximal_sparse_forward_dynamics",
    "pv_inverse_osim": "pv_inverse_operational_space_inertia",
    "pv_osim": "pv_operational_space_inertia",
    "dense_inverse_osim": "dense_inverse_operational_space_inertia",
    "constraint_matrices": "projection_matrices",
    "ConstraintMatrices": "ProjectionMatrices",
    "LoopConstraint": "KeptLoopGroup",
}


def test_old_names_are_the_new_functions():
    for old, new in OLD_NAMES.items():
        assert getattr(grbda, old) is getattr(grbda, new), old


def test_the_projection_method_under_both_names():
    model = grbda.load(CHEETAH)
    q, v, a = state(CHEETAH, model, seed=7)
    data = grbda.Data(model)
    H = grbda.projection_mass_matrix(model, data, q)
    assert np.array_equal(H, grbda.projected_mass_matrix(model, data, q))
    # the projection method's H is the cluster CRBA's (an independent algorithm)
    assert np.allclose(H, grbda.mass_matrix(model, grbda.Data(model), q), rtol=1e-12, atol=1e-12)


def test_proximal_is_the_old_name_of_proximal_delassus():
    assert grbda.ConstraintSolver.PROXIMAL == grbda.ConstraintSolver.PROXIMAL_DELASSUS
    model = grbda.load(CHEETAH)
    q, v, tau = state(CHEETAH, model, seed=8)
    constraints = grbda.ConstraintModel(model)
    constraints.add_point_contact("FR_foot")
    results = {}
    for name in ("proximal", "proximal-delassus", "kkt"):
        cdata = grbda.ConstraintData(model, constraints)
        results[name] = grbda.constrained_forward_dynamics(model, grbda.Data(model), constraints, cdata, q, v, tau,
                                                           solver=name)
    assert np.array_equal(results["proximal"], results["proximal-delassus"])
    assert np.allclose(results["proximal-delassus"], results["kkt"], rtol=1e-6, atol=1e-6)
    assert "proximal-delassus" in repr(grbda.ConstraintSolverSettings("proximal"))


def test_expand_takes_reduced_q_and_v_and_the_old_keywords():
    kept = grbda.load(model_path("four_bar.urdf"), loops="constrain")
    q_reduced = grbda.load(model_path("four_bar.urdf")).neutral_configuration()  # a closed pose
    assert q_reduced.size == grbda.reduced_nq(kept)
    q = grbda.expand_positions(kept, q_reduced=q_reduced)
    assert np.array_equal(q, grbda.expand_positions(kept, y=q_reduced))
    v_reduced = np.ones(grbda.reduced_nv(kept))
    v = grbda.expand_velocities(kept, q, v_reduced=v_reduced)
    assert np.array_equal(v, grbda.expand_velocities(kept, q, yd=v_reduced))
    assert np.allclose(grbda.reduce_velocities(kept, v), v_reduced, rtol=0, atol=1e-14)


def test_the_kept_loop_groups_under_both_names():
    four_bar = model_path("four_bar.urdf")
    kept = grbda.load(four_bar, loops="constrain")
    groups = kept.kept_loop_groups
    assert [g.name for g in groups] == [g.name for g in kept.loop_constraints] == ["loop1"]
    assert isinstance(groups[0], grbda.LoopConstraint)
    # the group's rows come first in every ConstraintModel, under both names
    cm = grbda.ConstraintModel(kept)
    assert cm.num_kept_loop_groups == cm.num_loop_constraints == 1
    assert groups[0].num_bodies == 3 and groups[0].num_rows == 2 and groups[0].num_dof == 1
