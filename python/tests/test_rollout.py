"""grbda.rollout and pickling: rollouts on 1, 2 and 4 threads are bitwise equal and equal to stepping
copies of the simulator by hand; per-rollout friction and gains; the GIL is released; Model, World
and Simulator survive pickle with bitwise-identical dynamics and trajectories; what cannot be
pickled says so."""
import pickle
import threading
import time

import numpy as np
import pytest

import grbda
from conftest import model_path


def crouched(model, height):
    q = model.neutral_configuration()
    q[2] = height
    for i, name in enumerate(model.position_names):
        if "abad_to_hip" in name:
            q[i] = -1.0
        if "hip_to_knee" in name:
            q[i] = 2.0
    return q


@pytest.fixture(scope="module")
def cheetah():
    return grbda.load(model_path("mini_cheetah.urdf"))


def prototype(model):
    sim = grbda.Simulator(model, grbda.World(friction=1.0))
    sim.set_state(crouched(model, 0.30))
    sim.set_pd(50.0, 0.4)
    return sim


def drops(model, n):
    q0 = np.array([crouched(model, 0.26 + 0.01 * i) for i in range(n)])
    v0 = np.zeros((n, model.nv))
    v0[:, 3] = 0.1 * (np.arange(n) % 3)
    return q0, v0


def test_rollouts_are_bitwise_equal_on_one_two_and_four_threads(cheetah):
    sim = prototype(cheetah)
    q0, v0 = drops(cheetah, 5)
    friction = np.linspace(0.3, 1.2, 5)
    results = [grbda.rollout(sim, q0, v0, 200, threads=t, friction=friction, kp=np.linspace(30, 70, 5), kd=0.4)
               for t in (1, 2, 4)]
    positions, velocities = results[0]
    assert positions.shape == (5, 201, cheetah.nq) and velocities.shape == (5, 201, cheetah.nv)
    for p, v in results[1:]:
        assert np.array_equal(p, positions) and np.array_equal(v, velocities)
    assert np.array_equal(positions[:, 0], q0) and np.array_equal(velocities[:, 0], v0)
    assert np.all(positions[:, -1, 2] < 0.25)  # every drop landed
    assert np.linalg.norm(positions[0, -1] - positions[4, -1]) > 1e-3


def test_a_rollout_is_the_simulator_stepped_by_hand(cheetah):
    sim = prototype(cheetah)
    q0, v0 = drops(cheetah, 3)
    positions, velocities = grbda.rollout(sim, q0, v0, 100, threads=2, friction=[0.4, 0.7, 1.0])
    for i, mu in enumerate([0.4, 0.7, 1.0]):
        by_hand = grbda.Simulator(cheetah, grbda.World(friction=mu))
        by_hand.set_state(crouched(cheetah, 0.30))
        by_hand.set_pd(50.0, 0.4)  # its target: the prototype's pose
        by_hand.set_state(q0[i], v0[i])
        for t in range(1, 101):
            by_hand.step()
            assert np.array_equal(positions[i, t], by_hand.q) and np.array_equal(velocities[i, t], by_hand.v)
    assert sim.time == 0.0 and np.array_equal(sim.q, crouched(cheetah, 0.30))  # the prototype did not move


def test_rollout_releases_the_gil(cheetah):
    sim = prototype(cheetah)
    q0, v0 = drops(cheetah, 2)
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    start = time.perf_counter()
    grbda.rollout(sim, q0, v0, 1500)
    end = time.perf_counter()
    done.set()
    ticker.join()
    during = [t for t in ticks if start < t < end]
    assert len(during) >= 5, f"{len(during)} ticks in {end - start:.3f} s"


def test_bad_rollout_input_is_an_input_error(cheetah):
    sim = prototype(cheetah)
    q0, v0 = drops(cheetah, 3)
    with pytest.raises(grbda.InputError, match="q0"):
        grbda.rollout(sim, q0[:, :5], v0, 10)
    with pytest.raises(grbda.InputError, match="v0"):
        grbda.rollout(sim, q0, v0[:2], 10)
    with pytest.raises(grbda.InputError, match="friction"):
        grbda.rollout(sim, q0, v0, 10, friction=[1.0, 1.0])
    with pytest.raises(grbda.InputError, match="kp"):
        grbda.rollout(sim, q0, v0, 10, kp=np.ones((3, 4)), kd=0.4)
    with pytest.raises(grbda.InputError, match="steps"):
        grbda.rollout(sim, q0, v0, -1)
    bad = q0.copy()
    bad[1, 9] = np.nan
    with pytest.raises(grbda.InputError, match="rollout 1"):
        grbda.rollout(sim, bad, v0, 10, threads=2)
    sim.set_controller(lambda s: np.zeros(s.nv))
    with pytest.raises(grbda.InputError, match="Python controller"):
        grbda.rollout(sim, q0, v0, 10)


# ---- pickling ----

def test_an_unpickled_model_has_bitwise_the_same_dynamics(cheetah):
    rng = np.random.default_rng(3)
    # a fixed-base file made to float needs a root with mass (arm_6dof's massless base is singular)
    floated = grbda.load_urdf_string("""<robot name="arm"><link name="base"><inertial><mass value="2"/>
<inertia ixx="0.02" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
<link name="upper"><inertial><origin xyz="0 0 0.2"/><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><axis xyz="0 1 0"/>
<limit lower="-2" upper="2" effort="10" velocity="5"/></joint></robot>""", floating_base=True)
    for model in [cheetah, grbda.load(model_path("four_bar.urdf")), floated]:
        copy = pickle.loads(pickle.dumps(model))
        assert copy.nq == model.nq and copy.position_names == model.position_names
        q = model.neutral_configuration()
        v, tau = rng.normal(size=model.nv), rng.normal(size=model.nv)
        a = grbda.forward_dynamics(model, grbda.Data(model), q, v, tau)
        b = grbda.forward_dynamics(copy, grbda.Data(copy), q, v, tau)
        assert np.array_equal(a, b), model.name


def test_a_model_built_in_code_pickles_and_a_code_constraint_says_why_not():
    builder = grbda.parse_urdf_file(model_path("double_pendulum.urdf"))
    model = builder.build()
    copy = pickle.loads(pickle.dumps(model))
    q, v, tau = np.array([0.3, -0.2]), np.array([1.0, 0.5]), np.array([0.1, 0.2])
    assert np.array_equal(grbda.forward_dynamics(model, grbda.Data(model), q, v, tau),
                          grbda.forward_dynamics(copy, grbda.Data(copy), q, v, tau))
    with pytest.raises(grbda.ModelError, match="ImplicitConstraint"):
        pickle.dumps(grbda.robots.tello())


def test_a_pickled_simulator_resumes_to_the_same_trajectory(cheetah):
    world = grbda.World(friction=0.7)
    world.add_box([0.6, 0, 0.05], [0.2, 0.2, 0.1])
    sim = grbda.Simulator(cheetah, world, dt=2e-3)
    sim.set_state(crouched(cheetah, 0.30))
    sim.set_pd(50.0, 0.4)
    sim.step(120)  # standing: the contact warm start is live
    assert len(sim.contacts) > 0
    copy = pickle.loads(pickle.dumps(sim))
    assert copy.time == sim.time and copy.normal_force_sum == sim.normal_force_sum
    assert pickle.loads(pickle.dumps(world)).num_boxes == 1
    sim.step(150)
    copy.step(150)
    assert np.array_equal(copy.q, sim.q) and np.array_equal(copy.v, sim.v) and copy.time == sim.time


def pd_controller(sim):  # module level: picklable
    return -2.0 * sim.v


def test_a_simulator_pickles_with_its_python_controller_if_the_controller_pickles():
    model = grbda.load(model_path("double_pendulum.urdf"))
    sim = grbda.Simulator(model, grbda.World(ground=False))
    sim.set_state([0.5, 0.0])
    sim.set_controller(pd_controller)
    sim.step(20)
    copy = pickle.loads(pickle.dumps(sim))
    sim.step(30)
    copy.step(30)
    assert np.array_equal(copy.q, sim.q)
    sim.set_controller(lambda s: np.zeros(s.nv))
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        pickle.dumps(sim)
