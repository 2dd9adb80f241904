"""Issue #25: the delta robot of models/delta_robot.urdf (three parallelogram arms, balls written as
revolutes, five `<loop type="spherical">` closures) against independent references: the projection
and Lagrange baselines, the textbook delta forward kinematics (three spheres) and energy
conservation under RK4."""
import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import grbda
from conftest import model_path

PATH = model_path("delta_robot.urdf")
# The mechanism as its header describes it: base radius, upper arm, platform radius, half the gap
# between the two rods of a parallelogram, drop of the platform at q = 0 (rods 0.75 m).
RB, LA, RP, W, H = 0.2, 0.3, 0.05, 0.04, 0.6
ROD = math.hypot(RB + LA - RP, H)
CENTRE = np.array([-RP, -W, 0.0])  # platform centre in the platform frame (its frame sits at rod 0+'s end)


@pytest.fixture(scope="module")
def model():
    return grbda.load(PATH)


def delta_forward_kinematics(q):
    """Platform centre for motor angles q: the lower of the two points at distance ROD from the
    three elbow centres moved inward by RP (trilateration: two sphere differences give a line)."""
    centres = []
    for k in range(3):
        phi = 2 * math.pi * k / 3
        radial = np.array([math.cos(phi), math.sin(phi), 0.0])
        elbow = (RB + LA * math.cos(q[k])) * radial - LA * math.sin(q[k]) * np.array([0.0, 0.0, 1.0])
        centres.append(elbow - RP * radial)
    s1, s2, s3 = centres
    d = np.linalg.norm(s2 - s1)
    ex = (s2 - s1) / d
    i = ex @ (s3 - s1)
    ey = s3 - s1 - i * ex
    j = np.linalg.norm(ey)
    ey /= j
    ez = np.cross(ex, ey)
    x = d / 2  # equal radii
    y = (i * i + j * j - 2 * i * x) / (2 * j)
    z = math.sqrt(ROD * ROD - x * x - y * y)
    return min((s1 + x * ex + y * ey + s * z * ez for s in (1.0, -1.0)), key=lambda p: p[2])


def test_one_generic_cluster_with_the_three_motors_as_coordinates(model):
    assert model.position_names == ["motor_0", "motor_1", "motor_2"]
    assert (model.nq_spanning, model.num_bodies, len(model.loops)) == (18, 18, 5)
    assert [c.type_name for c in model.clusters] == ["Generic"]
    assert model.clusters[0].nv == 3 and model.clusters[0].nv_span == 18


def test_platform_translates_on_the_three_sphere_solution(model):
    data = grbda.Data(model)
    rng = np.random.default_rng(25)
    worst_rotation = worst_position = 0.0
    for q in [np.zeros(3)] + [rng.uniform(-0.6, 0.9, 3) for _ in range(8)]:
        grbda.forward_kinematics(model, data, q)  # completes the loops from the motors
        R = grbda.frame_rotation(model, data, "platform")
        p = grbda.frame_position(model, data, "platform", CENTRE)
        worst_rotation = max(worst_rotation, np.abs(R - np.eye(3)).max())
        worst_position = max(worst_position, np.abs(p - delta_forward_kinematics(q)).max())
    print(f"[ measured ] platform: |R - I| <= {worst_rotation:.1e}, |p - p_3spheres| <= {worst_position:.1e} m")
    assert worst_rotation < 1e-9
    assert worst_position < 1e-9


def test_cluster_forward_dynamics_equals_projection_and_lagrange(model):
    rng = np.random.default_rng(7)
    worst = 0.0
    for _ in range(4):
        q, v, tau = rng.uniform(-0.5, 0.8, 3), rng.standard_normal(3), rng.standard_normal(3)
        qdd = grbda.forward_dynamics(model, grbda.Data(model), q, v, tau)
        for baseline in (grbda.projection_forward_dynamics, grbda.lagrange_forward_dynamics):
            ref = baseline(model, grbda.Data(model), q, v, tau)
            worst = max(worst, np.abs(qdd - ref).max() / np.abs(ref).max())
    print(f"[ measured ] cluster vs projection/Lagrange: relative {worst:.1e}")
    assert worst < 1e-9


def urdf_masses():
    """(link, mass, COM in the link frame) read from the file itself, not through grbda."""
    out = []
    for link in ET.parse(PATH).getroot().iter("link"):
        inertial = link.find("inertial")
        if inertial is not None:
            com = [float(x) for x in inertial.find("origin").get("xyz").split()]
            out.append((link.get("name"), float(inertial.find("mass").get("value")), com))
    return out


def energy(model, data, q, v, masses):
    """0.5 v' M v (M from the projection baseline) + sum m g z over the COMs of the file."""
    kinetic = 0.5 * v @ grbda.projection_mass_matrix(model, data, q) @ v
    grbda.forward_kinematics(model, data, q)
    potential = sum(m * 9.81 * grbda.frame_position(model, data, name, com)[2] for name, m, com in masses)
    return kinetic + potential


def test_energy_is_conserved_under_rk4_with_constant_motor_torques(model):
    # The motors hold the torques that balance gravity at q0 (without them the arms fall through
    # the workspace); a constant torque does work tau . (q - q0), so E - tau . (q - q0) is conserved.
    q0, v0 = np.array([0.1, -0.05, 0.15]), np.array([1.6, -1.0, 0.6])
    tau = grbda.static_torque(model, grbda.Data(model), q0, None)
    masses = urdf_masses()
    assert sum(m for _, m, _ in masses) == pytest.approx(1.36)
    data = grbda.Data(model)
    drift = {}
    for dt in (4e-3, 2e-3, 1e-3):
        sim = grbda.Simulator(model, grbda.World(ground=False), dt=dt, integrator="rk4", joint_limits=False,
                              joint_friction=False, joint_damping=False)
        sim.set_state(q0, v0)
        sim.set_torque(tau)
        e0 = energy(model, data, q0, v0, masses)
        assert sim.energy() == pytest.approx(e0, abs=1e-12)
        worst, kinetic, travel, rotation = 0.0, 0.0, 0.0, 0.0
        every = round(0.01 / dt)  # the balance every 10 ms
        for step in range(1, round(1.0 / dt) + 1):
            sim.step()
            q, v = sim.q, sim.v
            if step % every == 0:
                e = energy(model, data, q, v, masses) - tau @ (q - q0)
                worst = max(worst, abs(e - e0))
                kinetic = max(kinetic, 0.5 * v @ grbda.projection_mass_matrix(model, data, q) @ v)
                travel = max(travel, np.abs(q - q0).max())
                grbda.forward_kinematics(model, data, q)
                rotation = max(rotation, np.abs(grbda.frame_rotation(model, data, "platform") - np.eye(3)).max())
        drift[dt] = worst
        print(f"[ measured ] dt {dt:g}: |dE| <= {worst:.2e} J over 1 s (max kinetic {kinetic:.3f} J, motors travel "
              f"{travel:.2f} rad, platform |R - I| <= {rotation:.1e})")
        assert travel > 0.1 and kinetic > 0.02  # the mechanism really moved
        assert rotation < 1e-9
    # measured: 3.6e-11, 2.3e-12, 1.4e-13 J (max kinetic energy 0.086 J): fourth order in dt
    assert drift[1e-3] < 1.5e-12
    assert drift[4e-3] / drift[2e-3] > 8 and drift[2e-3] / drift[1e-3] > 8
