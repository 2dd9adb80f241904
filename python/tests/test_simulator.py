"""grbda.Simulator from Python: contacts with the ground, a controller written in Python against the
built-in PD, exceptions from a controller, the free-flyer option, and bad input."""
import math

import numpy as np
import pytest

import grbda
from conftest import model_path

BOX = """<robot name="box">
  <link name="world"/>
  <link name="box">
    <inertial><mass value="2"/><inertia ixx="0.0167" iyy="0.0283" izz="0.0417" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.4 0.3 0.1"/></geometry></collision>
  </link>
  <joint name="float" type="floating"><parent link="world"/><child link="box"/></joint>
</robot>"""

PENDULUM = """<robot name="pendulum">
  <link name="base"/>
  <link name="arm"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
    <inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="3" velocity="10"/></joint>
</robot>"""


def test_a_dropped_box_rests_on_the_ground_with_its_weight_on_four_corners():
    model = grbda.load_urdf_string(BOX)
    sim = grbda.Simulator(model, grbda.World(friction=0.8))
    sim.set_state([0, 0, 0.15, 1, 0, 0, 0])
    sim.step(800)
    assert len(sim.contacts) == 4
    assert sim.normal_force_sum == pytest.approx(2 * 9.81, rel=1e-6)
    assert np.linalg.norm(sim.v) < 1e-6
    assert all(c["link"] == "box" and c["normal_force"] > 0 for c in sim.contacts)
    assert sim.solver_stats["converged"]


def test_a_python_controller_gives_the_builtin_pd_trajectory():
    model = grbda.load_urdf_string(PENDULUM)
    kp, kd, target = 20.0, 0.5, 0.3
    builtin = grbda.Simulator(model, grbda.World(ground=False))
    builtin.set_pd(kp, kd)
    builtin.set_pd_target([target])
    python = grbda.Simulator(model, grbda.World(ground=False))
    calls = []

    def pd(sim):
        calls.append(sim.time)
        return [kp * (target - sim.q[0]) - kd * sim.v[0]]

    python.set_controller(pd)
    builtin.step(200)
    python.step(200)
    assert len(calls) == 200
    np.testing.assert_allclose(python.q, builtin.q, rtol=0, atol=1e-13)
    np.testing.assert_allclose(python.v, builtin.v, rtol=0, atol=1e-12)


def test_effort_saturates_the_applied_torque():
    model = grbda.load_urdf_string(PENDULUM)
    sim = grbda.Simulator(model, grbda.World(ground=False))
    sim.set_torque([10.0])
    sim.step()
    assert sim.applied_torque[0] == 3.0  # <limit effort="3">


def test_a_raising_controller_reaches_the_caller_and_the_state_stays_at_the_last_good_step():
    model = grbda.load_urdf_string(PENDULUM)
    sim = grbda.Simulator(model, grbda.World(ground=False))
    sim.set_state([0.2])
    sim.step(5)
    q, t = sim.q.copy(), sim.time

    def broken(_sim):
        raise RuntimeError("controller failed")

    sim.set_controller(broken)
    with pytest.raises(RuntimeError, match="controller failed"):
        sim.step(3)
    np.testing.assert_array_equal(sim.q, q)
    assert sim.time == t
    sim.set_controller(None)
    sim.step()
    assert sim.time == pytest.approx(t + 1e-3)


def test_floating_base_adds_a_free_joint_at_the_root():
    fixed = grbda.load(model_path("double_pendulum.urdf"))
    floating = grbda.load(model_path("double_pendulum.urdf"), floating_base=True)
    assert floating.nq == fixed.nq + 7 and floating.nv == fixed.nv + 6
    assert floating.is_floating_base


def test_bad_input_is_a_typed_error_naming_the_value():
    model = grbda.load_urdf_string(BOX)
    with pytest.raises(grbda.InputError, match="friction"):
        grbda.Simulator(model, grbda.World(friction=-1))
    with pytest.raises(grbda.InputError, match="dt"):
        grbda.Simulator(model, dt=-1)
    with pytest.raises(grbda.InputError, match="contact solver"):
        grbda.Simulator(model, solver="newton")
    sim = grbda.Simulator(model)
    with pytest.raises(grbda.InputError):
        sim.set_state([0, 0, math.nan, 1, 0, 0, 0])
    with pytest.raises(grbda.InputError):
        sim.set_torque(np.zeros(5))


def test_recording_and_spanning_positions():
    model = grbda.load(model_path("mini_cheetah.urdf"))
    sim = grbda.Simulator(model)
    q0 = model.neutral_configuration()
    q0[2] = 0.45
    q0[model.position_names.index("FR_hip_to_knee_j")] = 0.5
    sim.set_state(q0)
    sim.start_recording()
    sim.step(20)
    rec = sim.trajectory
    assert rec["q"].shape == (21, model.nq) and rec["v"].shape == (21, model.nv)
    assert rec["time"][-1] == pytest.approx(0.02)
    np.testing.assert_array_equal(rec["q"][-1], sim.q)
    # every rotor turns with its link by the gear ratio: the spanning positions say so
    span = sim.q_spanning
    names = model.spanning_position_names
    assert span.shape == (model.nq_spanning,)
    knee, rotor = span[names.index("FR_hip_to_knee_j")], span[names.index("FR_hip_to_knee_rotor_j")]
    assert abs(knee) > 0.1
    assert rotor == pytest.approx(9.33 * knee, rel=1e-12)


def test_a_box_takes_the_worlds_friction_by_none_and_refuses_other_negative_values():
    world = grbda.World()
    world.add_box([0.6, 0, 0.05], [0.2, 0.2, 0.1])  # friction and restitution: the world's
    world.add_box([0.6, 0, 0.05], [0.2, 0.2, 0.1], friction=None, restitution=-1)  # -1: the C++ sentinel
    world.add_box([0.6, 0, 0.05], [0.2, 0.2, 0.1], friction=0.3, restitution=0.1)
    with pytest.raises(grbda.InputError, match=r"box 3's friction must be >= 0, or -1 .*got -2"):
        world.add_box([0.6, 0, 0.05], [0.2, 0.2, 0.1], friction=-2)
    assert world.num_boxes == 3
