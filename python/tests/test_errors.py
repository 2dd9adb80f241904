"""Bad input raises the typed grbda exceptions with their messages; nothing crashes."""
import inspect

import numpy as np
import pytest

import grbda
from conftest import MODELS, model_path


@pytest.fixture(scope="module")
def cheetah():
    model = grbda.load(model_path("mini_cheetah.urdf"))
    return model, grbda.Data(model)


def test_hierarchy():
    for name in ("ModelError", "InputError", "NumericalError"):
        assert issubclass(getattr(grbda, name), grbda.Error)
    assert issubclass(grbda.Error, RuntimeError)


def test_model_error_names_file_line_and_element(tmp_path):
    bad = tmp_path / "bad.urdf"
    text = (MODELS / "double_pendulum.urdf").read_text()
    # a negative mass on the second link: the loader must name this file and the line
    lines = text.splitlines()
    line_no = next(i for i, l in enumerate(lines) if "<mass" in l and i > 0 and
                   any("link2" in x for x in lines[max(0, i - 6):i]))
    lines[line_no] = '      <mass value="-1"/>'
    bad.write_text("\n".join(lines))
    with pytest.raises(grbda.ModelError) as err:
        grbda.load(bad)
    e = err.value
    assert "bad.urdf" in str(e) and e.file.endswith("bad.urdf") and e.line > 0
    assert str(e).startswith(e.file + ":" + str(e.line))
    assert e.message and e.message in str(e)


def test_missing_file_is_a_model_error():
    with pytest.raises(grbda.ModelError, match="no_such_robot.urdf"):
        grbda.load("no_such_robot.urdf")
    with pytest.raises(grbda.InputError, match="unknown built-in robot 'builtin:nao'"):
        grbda.load("builtin:nao")
    with pytest.raises(grbda.InputError, match="expected a file path"):
        grbda.load_urdf(42)
    with pytest.raises(grbda.InputError, match="a model is a file path"):
        grbda.load(42)


def test_builder_misuse_is_a_model_error():
    builder = grbda.ModelBuilder("broken")
    builder.add_link(grbda.LinkSpec(name="base"))
    builder.add_joint(grbda.JointSpec(name="j", parent="base", child="ghost"))
    with pytest.raises(grbda.ModelError, match="ghost"):
        builder.build()


@pytest.mark.parametrize("bad,message", [
    (np.zeros(3), "tau has 3 entries, expected 18"),
    (np.zeros((2, 9)), r"tau must be a 1-D array, got shape \(2, 9\)"),
    (np.zeros((18, 1)), "1-D"),
    (np.float64(1.0), "1-D array, got shape ()"),
    ("0,0,0", "tau is a string"),
    (None, "tau is None"),
    ([1.0, "x"], "tau is not an array of numbers"),
    (object(), "tau is not an array of numbers"),
    (np.full(18, np.nan), r"tau\[0\] is not finite"),
    (np.r_[np.zeros(17), np.inf], r"tau\[17\] is not finite"),
])
def test_bad_vectors_raise_input_error(cheetah, bad, message):
    model, data = cheetah
    q = model.neutral_configuration()
    with pytest.raises(grbda.InputError, match=message):
        grbda.forward_dynamics(model, data, q, np.zeros(model.nv), bad)


def test_integer_and_float32_arrays_are_accepted(cheetah):
    model, data = cheetah
    q = model.neutral_configuration()
    reference = grbda.forward_dynamics(model, data, q, np.zeros(model.nv), np.zeros(model.nv))
    ints = grbda.forward_dynamics(model, data, q.astype(np.float32), np.zeros(model.nv, dtype=int),
                                  [0] * model.nv)
    assert np.allclose(ints, reference)
    # a strided view (every other entry) is read correctly too
    wide = np.zeros(2 * model.nv)
    wide[::2] = 1.0
    assert np.allclose(grbda.forward_dynamics(model, data, q, np.zeros(model.nv), wide[::2]),
                       grbda.forward_dynamics(model, data, q, np.zeros(model.nv), np.ones(model.nv)))


def test_zero_quaternion_and_bad_external_forces(cheetah):
    model, data = cheetah
    q = model.neutral_configuration()
    q[3] = 0.0
    zeros = np.zeros(model.nv)
    with pytest.raises(grbda.InputError, match="quaternion"):
        grbda.forward_dynamics(model, data, q, zeros, zeros)
    q = model.neutral_configuration()
    with pytest.raises(grbda.InputError, match=r"fext has shape \(2, 6\)"):
        grbda.forward_dynamics(model, data, q, zeros, zeros, np.zeros((2, 6)))
    fext = np.zeros((model.num_bodies, 6))
    fext[3, 1] = np.nan
    with pytest.raises(grbda.InputError, match="external force on body"):
        grbda.inverse_dynamics(model, data, q, zeros, zeros, fext)


def test_singular_and_violated_loops_raise_typed_errors():
    # four_bar.urdf is a parallelogram: at crank 0 all links are on one line (a toggle position)
    model = grbda.load(model_path("four_bar.urdf"))
    data = grbda.Data(model)
    with pytest.raises(grbda.NumericalError):
        grbda.complete_configuration(model, data, [0.0])
    with pytest.raises(grbda.NumericalError):
        grbda.forward_dynamics(model, data, [0.0], [0.0], [0.0])
    with pytest.raises(grbda.InputError, match="spanning positions violate the constraints of cluster 'loop1'"):
        grbda.complete_configuration(model, data, [0.5, 0.5, 0.5])


def test_data_of_another_model_is_refused():
    a = grbda.load(model_path("double_pendulum.urdf"))
    b = grbda.load(model_path("double_pendulum.urdf"))
    with pytest.raises(grbda.InputError, match="data was made for another Model object of the same name 'double_pendulum'"):
        grbda.mass_matrix(a, grbda.Data(b), [0, 0])


def test_data_keeps_its_model_alive():
    model = grbda.load(model_path("double_pendulum.urdf"))
    data = grbda.Data(model)
    assert data.model is model
    del model
    import gc
    gc.collect()
    # only the Data refers to the model now; it is still whole
    assert grbda.forward_dynamics(data.model, data, [0.1, 0.2], [0, 0], [0, 0]).shape == (2,)
    assert data.model.name == "double_pendulum"


def test_every_public_function_and_class_has_a_docstring():
    missing = []
    for module in (grbda, grbda.tree, grbda.robots):
        for name, obj in vars(module).items():
            if name.startswith("_") or inspect.ismodule(obj) or not callable(obj):
                continue
            if not (obj.__doc__ or "").strip():
                missing.append(module.__name__ + "." + name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for member, attribute in vars(obj).items():  # methods and properties of the classes
                if not member.startswith("_") and member != "value" and not (attribute.__doc__ or "").strip():
                    missing.append(module.__name__ + "." + name + "." + member)
    assert not missing
    assert "qdd = H^-1" in grbda.forward_dynamics.__doc__ and "fext" in grbda.forward_dynamics.__doc__


def test_odd_arguments_are_refused_with_a_message():
    model = grbda.load(model_path("four_bar.urdf"))
    data = grbda.Data(model)
    with pytest.raises(grbda.InputError, match="q is complex"):
        grbda.forward_dynamics(model, data, np.array([0.5 + 1j]), [0], [0])
    with pytest.raises(grbda.InputError, match="frame index 1000000000000000000000000000000 is out of range"):
        grbda.frame_position(model, data, 10**30)
    with pytest.raises(grbda.InputError, match="E has shape"):
        grbda.Transform(E=np.zeros((2, 2)))
    # merging a builder into itself duplicates every name (and must not read what it appends)
    builder = grbda.parse_urdf_file(model_path("four_bar.urdf"))
    builder.merge(builder)
    assert len(builder.links) == 2 * len(grbda.parse_urdf_file(model_path("four_bar.urdf")).links)
    with pytest.raises(grbda.ModelError, match="twice|duplicate|already"):
        builder.build()
