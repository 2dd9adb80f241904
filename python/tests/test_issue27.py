"""Issue #27, the Python side of the messages: each message names what is wrong."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import BUILD, MODELS, grbda

CHEETAH = str(MODELS / "mini_cheetah.urdf")


def test_data_of_a_second_load_of_the_same_file_says_it_is_another_model_object():
    first, second = grbda.load(CHEETAH), grbda.load(CHEETAH)
    data = grbda.Data(first)
    zeros = np.zeros(second.nv)
    with pytest.raises(grbda.InputError, match="another Model object of the same name 'mini_cheetah'"):
        grbda.forward_dynamics(second, data, second.neutral_configuration(), zeros, zeros)


def test_constraints_of_another_model_are_named_not_cdata():
    model, other = grbda.load(CHEETAH), grbda.load(CHEETAH)
    mine = grbda.ConstraintModel(model)
    mine.add_point_contact("FR_foot")
    theirs = grbda.ConstraintModel(other)
    theirs.add_point_contact("FR_foot")
    cdata = grbda.ConstraintData(model, mine)
    zeros = np.zeros(model.nv)
    with pytest.raises(grbda.InputError, match="constraints was made for another model than 'mini_cheetah'"):
        grbda.constrained_forward_dynamics(model, grbda.Data(model), theirs, cdata,
                                           model.neutral_configuration(), zeros, zeros)


def test_add_relative_point_defaults_to_the_link_origins_like_add_point_contact():
    model = grbda.load(CHEETAH)
    a, b = grbda.ConstraintModel(model), grbda.ConstraintModel(model)
    a.add_relative_point("FR_foot", link_b="FL_foot")
    b.add_relative_point("FR_foot", [0, 0, 0], "FL_foot", [0, 0, 0])
    assert a.num_rows == b.num_rows == 3
    q = model.neutral_configuration()
    v = np.linspace(-1, 1, model.nv)
    results = []
    for c in (a, b):
        results.append(grbda.constrained_forward_dynamics(model, grbda.Data(model), c, grbda.ConstraintData(model, c),
                                                          q, v, np.zeros(model.nv)))
    assert np.array_equal(results[0], results[1])
    with pytest.raises(grbda.InputError, match="link_b is required"):
        grbda.ConstraintModel(model).add_relative_point("FR_foot")


def test_neutral_configuration_docstring_says_what_a_four_bar_returns():
    model = grbda.load(str(MODELS / "four_bar.urdf"))
    assert model.neutral_configuration()[0] == pytest.approx(0.3)
    doc = grbda.Model.neutral_configuration.__doc__
    assert "0.3" in doc and "loop" in doc


def test_import_from_another_interpreter_names_the_one_it_was_built_for():
    # The extension failing to load (here: blocked) must say which interpreter it needs.
    code = "import sys; sys.modules['grbda._grbda'] = None; import grbda"
    env = dict(os.environ, PYTHONPATH=str(BUILD / "python"))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode != 0
    assert "It was built for Python" in out.stderr, out.stderr
    assert sys.executable in out.stderr


def test_python_builder_has_no_add_constraint_and_says_why():
    # Implicit constraints run inside every kinematics call: C++ only, documented (issue #27).
    assert not hasattr(grbda.ModelBuilder, "add_constraint")
    doc = grbda.ModelBuilder.num_constraints.__doc__
    assert "no add_constraint on purpose" in doc and "docs/urdf-plus.md" in doc
    text = (MODELS.parent / "docs" / "urdf-plus.md").read_text()
    assert "## Constraints written in code (C++ only)" in text
