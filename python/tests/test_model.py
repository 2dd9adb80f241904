"""Loading and inspecting models: the bindings' view of a Model against `grbda info --json`."""
import numpy as np
import pytest

import grbda
from conftest import MODELS, model_path, run_cli


def test_model_description_matches_cli_info(bundled):
    path, model = bundled
    info = run_cli("info", path)
    assert model.name == info["name"]
    assert (model.nq, model.nv, model.nq_spanning, model.nv_spanning) == (
        info["nq"], info["nv"], info["nq_spanning"], info["nv_spanning"])
    assert model.is_floating_base == info["floating_base"]
    assert model.position_names == info["position_names"]
    assert model.velocity_names == info["velocity_names"]
    assert model.spanning_position_names == info["spanning_position_names"]
    assert [b.name for b in model.bodies] == [b["name"] for b in info["bodies"]]
    assert [b.joint_name for b in model.bodies] == [b["joint"] for b in info["bodies"]]
    assert [c.type_name for c in model.clusters] == [c["type"] for c in info["clusters"]]
    assert [[model.bodies[i].name for i in c.bodies] for c in model.clusters] == [c["bodies"] for c in info["clusters"]]
    assert [(c.parent, c.q_index, c.nv) for c in model.clusters] == [
        (c["parent"], c["q_index"], c["nv"]) for c in info["clusters"]]
    assert [f.name for f in model.frames] == [f["name"] for f in info["frames"]]
    assert np.allclose(model.gravity, info["gravity"])


def test_clusters_partition_the_bodies_and_the_velocities(bundled):
    _, model = bundled
    bodies = [i for c in model.clusters for i in c.bodies]
    assert bodies == list(range(model.num_bodies))
    assert sum(c.nv for c in model.clusters) == model.nv
    assert all(model.bodies[i].cluster == k for k, c in enumerate(model.clusters) for i in c.bodies)


def test_neutral_configuration_has_unit_quaternion_on_the_floating_base():
    model = grbda.load(model_path("mini_cheetah.urdf"))
    q = model.neutral_configuration()
    assert q.shape == (model.nq,) and model.is_floating_base
    assert np.allclose(q[3:7], [1, 0, 0, 0]) and not q[7:].any()
    assert model.neutral_spanning_configuration().shape == (model.nq_spanning,)


def test_rotor_clusters_are_recognised_on_the_mini_cheetah():
    model = grbda.load(model_path("mini_cheetah.urdf"))
    types = [c.type_name for c in model.clusters]
    assert types.count("RevoluteWithRotor") == 12 and types[0] == "Free"
    assert model.has_constraints
    assert model.frames[model.frame_index("FR_knee_link")].body == model.body_index("FR_knee_link")


def test_builtin_tello_has_its_differentials():
    tello = grbda.load("builtin:tello")
    assert (tello.num_bodies, tello.nv_spanning, tello.nv) == (37, 42, 24)
    types = [c.type_name for c in tello.clusters]
    assert types.count("TelloHipDifferential") == types.count("TelloKneeAnkleDifferential") == 2
    legs = grbda.load("builtin:tello_no_arms")
    assert (legs.num_bodies, legs.nv_spanning, legs.nv) == (21, 26, 16)


def test_several_files_load_as_one_robot(tmp_path):
    # The double pendulum split in two files: the second names the first's link as a placeholder.
    text = (MODELS / "double_pendulum.urdf").read_text()
    whole = grbda.load(model_path("double_pendulum.urdf"))
    second_joint = whole.bodies[1].joint_name
    # file a: everything but the second joint and its child link; file b: those two
    import xml.etree.ElementTree as ET
    root = ET.fromstring(text)
    second = next(j for j in root.findall("joint") if j.get("name") == second_joint)
    child = second.find("child").get("link")
    parent = second.find("parent").get("link")
    child_link = next(l for l in root.findall("link") if l.get("name") == child)
    root.remove(second)
    root.remove(child_link)
    b = ET.Element("robot", name="part_b")
    ET.SubElement(b, "link", name=parent)
    b.append(child_link)
    b.append(second)
    (tmp_path / "a.urdf").write_text(ET.tostring(root, encoding="unicode"))
    (tmp_path / "b.urdf").write_text(ET.tostring(b, encoding="unicode"))
    split = grbda.load(tmp_path / "a.urdf", tmp_path / "b.urdf")
    assert [b.name for b in split.bodies] == [b.name for b in whole.bodies]
    q = np.array([0.3, -0.7])
    H_whole = grbda.mass_matrix(whole, grbda.Data(whole), q)
    assert np.allclose(grbda.mass_matrix(split, grbda.Data(split), q), H_whole)
    assert [b.name for b in grbda.load([tmp_path / "a.urdf", tmp_path / "b.urdf"]).bodies] == [b.name for b in split.bodies]


def test_gravity_can_be_changed_and_is_checked():
    model = grbda.load(model_path("double_pendulum.urdf"))
    model.gravity = [0.0, 0.0, 0.0]
    data = grbda.Data(model)
    assert np.allclose(grbda.forward_dynamics(model, data, [0.3, 0.2], [0, 0], [0, 0]), 0)
    with pytest.raises(grbda.InputError, match="gravity has 2 entries"):
        model.gravity = [1.0, 2.0]


def test_transform_composition_and_pose():
    X = grbda.Transform.from_xyz_rpy([1, 2, 3], [0, 0, np.pi / 2])
    assert np.allclose(X.r, [1, 2, 3])
    T = X.homogeneous()
    assert np.allclose(T[:3, :3], [[0, -1, 0], [1, 0, 0], [0, 0, 1]])  # a point's child -> parent coordinates
    assert np.allclose((X * X.inverse()).matrix(), np.eye(6))
    p_child = np.array([0.5, 0.0, 0.0])
    assert np.allclose(X.transform_point(T[:3, :3] @ p_child + T[:3, 3]), p_child)
    assert np.allclose(X.force_matrix(), np.linalg.inv(X.matrix()).T)


def test_model_built_in_code_swings_like_a_pendulum():
    # A point mass m on a massless rod of length l about y: ml^2 qdd = -m g l sin(q) (closed form).
    builder = grbda.ModelBuilder("pendulum")
    builder.add_link(grbda.LinkSpec(name="base"))
    m, l = 2.0, 0.7
    builder.add_link(grbda.LinkSpec(name="bob", mass=m, com=[0, 0, -l], inertia=np.eye(3) * 1e-9))
    joint = grbda.JointSpec(name="hinge", kind=grbda.JointKind.REVOLUTE, parent="base", child="bob")
    joint.axis = [0, 1, 0]
    builder.add_joint(joint)
    model = builder.build()
    assert (model.nq, model.nv, model.name) == (1, 1, "pendulum")
    for q in (0.0, 0.4, -1.2):
        qdd = grbda.forward_dynamics(model, grbda.Data(model), [q], [0.0], [0.0])
        assert qdd[0] == pytest.approx(-9.81 / l * np.sin(q), rel=1e-6, abs=1e-9)


def test_named_frame_follows_its_link():
    # A frame 0.3 m along the bob's x axis: at angle q about y its world position is R_y(q) [0.3, 0, 0].
    builder = grbda.ModelBuilder("pendulum")
    builder.add_link(grbda.LinkSpec(name="base"))
    builder.add_link(grbda.LinkSpec(name="bob", mass=1.0, com=[0, 0, -0.5], inertia=np.eye(3) * 1e-3))
    joint = grbda.JointSpec(name="hinge", kind=grbda.JointKind.REVOLUTE, parent="base", child="bob")
    joint.axis = [0, 1, 0]
    builder.add_joint(joint)
    builder.add_frame(grbda.FrameSpec(name="tool", link="bob", origin=grbda.Transform(E=np.eye(3), r=[0.3, 0, 0])))
    assert [f.name for f in builder.frames] == ["tool"]
    model = builder.build()
    data = grbda.Data(model)
    q = 0.6
    grbda.forward_kinematics(model, data, [q])
    expected = np.array([np.cos(q) * 0.3, 0.0, -np.sin(q) * 0.3])
    assert np.allclose(grbda.frame_position(model, data, "tool"), expected, atol=1e-14)
    builder.add_frame(grbda.FrameSpec(name="elsewhere", link="no_such_link"))
    with pytest.raises(grbda.ModelError, match="unknown link 'no_such_link'"):
        builder.build()


def test_parsed_builder_can_be_modified_before_build():
    builder = grbda.parse_urdf_file(model_path("mini_cheetah.urdf"))
    builder.specialised_joints = False
    generic = builder.build()
    assert {c.type_name for c in generic.clusters} == {"Free", "Generic"}
    assert len(builder.links) > 0 and len(builder.joints) > 0 and builder.couplings
    tello = grbda.robots.tello_builder(with_arms=False)
    assert tello.num_constraints > 0
    assert tello.build().nv == 16


def test_urdf_text_loads_like_the_file():
    text = (MODELS / "four_bar.urdf").read_text()
    from_text = grbda.load_urdf_string(text, "four_bar_text")
    assert [c.type_name for c in from_text.clusters] == ["FourBar"]
    assert grbda.parse_urdf_string(text).build().nv == 1
    assert from_text.loops[0].cluster == 0


def test_log_level_round_trips():
    before = grbda.log_level()
    try:
        grbda.set_log_level("error")
        assert grbda.log_level() == "error"
    finally:
        grbda.set_log_level(before)
    with pytest.raises(grbda.InputError):
        grbda.set_log_level("loud")
