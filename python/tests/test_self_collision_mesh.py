"""Self-collision and mesh collision geometry from Python: World(self_collision=True) stops a ball
on a plate of its own chain (and without it the ball passes through), the flag pickles, and a
URDF <mesh> becomes its convex hull (grbda.mesh_hull) — a bad mesh file is an InputError."""
import pickle
import struct

import numpy as np
import pytest

import grbda

CHAIN = """<robot name="plate_and_ball">
  <link name="world"/>
  <link name="plate"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.4 0.4 0.05"/></geometry></collision></link>
  <link name="slider"><inertial><mass value="0.1"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="ball"><inertial><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><sphere radius="0.05"/></geometry></collision></link>
  <joint name="lift" type="prismatic"><parent link="world"/><child link="plate"/><axis xyz="0 0 1"/>
    <limit lower="-10" upper="10" effort="100" velocity="10"/></joint>
  <joint name="slide" type="prismatic"><parent link="plate"/><child link="slider"/><axis xyz="1 0 0"/>
    <limit lower="-10" upper="10" effort="100" velocity="10"/></joint>
  <joint name="drop" type="prismatic"><parent link="slider"/><child link="ball"/><axis xyz="0 0 1"/>
    <limit lower="-10" upper="10" effort="100" velocity="10"/></joint>
</robot>"""


def run(self_collision):
    model = grbda.load_urdf_string(CHAIN)
    sim = grbda.Simulator(model, grbda.World(self_collision=self_collision))
    sim.set_state(np.array([0.045, 0.0, 0.3]))
    sim.step(1500)
    return sim


def test_the_ball_rests_on_the_plate_with_self_collision_and_falls_through_without():
    on = run(True)
    assert on.q[2] == pytest.approx(0.075, abs=2e-4)  # plate half height + ball radius
    pair = [c for c in on.contacts if c["other_link"] is not None]
    assert len(pair) == 1 and {pair[0]["link"], pair[0]["other_link"]} == {"plate", "ball"}
    assert pair[0]["normal_force"] == pytest.approx(0.5 * 9.81, rel=1e-6)
    off = run(False)
    assert off.q[2] < 0.025  # inside or below the plate: it passed through
    assert all(c["other_link"] is None for c in off.contacts)


def test_the_flag_is_a_world_property_that_pickles():
    w = grbda.World()
    assert w.self_collision is False
    w.self_collision = True
    assert pickle.loads(pickle.dumps(w)).self_collision is True


def binary_stl_cube(half):
    corners = [(sx * half, sy * half, sz * half) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    tris = [(corners[0], corners[1], corners[2]), (corners[3], corners[4], corners[5]),
            (corners[6], corners[7], corners[0]), (corners[1], corners[3], corners[5])]
    data = b" " * 80 + struct.pack("<I", len(tris))
    for t in tris:
        data += struct.pack("<3f", 0, 0, 0) + b"".join(struct.pack("<3f", *v) for v in t) + b"\0\0"
    return data


def test_a_urdf_mesh_is_its_convex_hull_and_bad_files_are_input_errors(tmp_path):
    (tmp_path / "cube.stl").write_bytes(binary_stl_cube(0.1))
    vertices, faces = grbda.mesh_hull(str(tmp_path / "cube.stl"), scale=[1, 2, 3])
    assert vertices.shape == (8, 3) and faces.shape == (12, 3)
    np.testing.assert_allclose(np.abs(vertices).max(axis=0), [0.1, 0.2, 0.3], rtol=1e-6)
    urdf = CHAIN.replace('<sphere radius="0.05"/>', '<mesh filename="cube.stl"/>')
    (tmp_path / "chain.urdf").write_text(urdf)
    model = grbda.load_urdf(str(tmp_path / "chain.urdf"))
    sim = grbda.Simulator(model, grbda.World(self_collision=True))
    sim.set_state(np.array([0.045, 0.0, 0.3]))
    sim.step(1500)
    assert sim.q[2] == pytest.approx(0.025 + 0.1, abs=2e-4)  # the cube's hull rests on the plate
    with pytest.raises(grbda.InputError, match="cannot open"):
        grbda.mesh_hull(str(tmp_path / "missing.stl"))
    (tmp_path / "part.dae").write_text("<COLLADA/>")
    with pytest.raises(grbda.InputError, match="unsupported mesh format"):
        grbda.mesh_hull(str(tmp_path / "part.dae"))
