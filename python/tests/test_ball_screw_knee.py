"""models/ball_screw_knee.urdf (issue #25): a knee driven by a ball-screw actuator, a helical
joint and a prismatic joint inside one loop cluster. Checked against a closed form of the planar
geometry and of the Lagrangian written here (not taken from the library), against the projection
and Lagrange-multiplier baselines, and against energy conservation under RK4."""
import math

import numpy as np
import pytest

import grbda
from conftest import model_path

# The mechanism as tools/models/mechanisms.py writes it (thigh frame = world; x-z plane; axes y).
KNEE = np.array([0.0, -0.4])          # (x, z) of the knee joint
PIVOT = np.array([-0.05, -0.1])       # (x, z) of the housing pivot
CRANK = np.array([-0.05, 0.05])       # (x, z) of the nut's pin in the shank frame
NUT_AT_ZERO = 0.25                    # pivot to nut along the screw at nut_slide = 0
PITCH = 0.005 / (2 * math.pi)         # 5 mm per revolution, right-handed: metres per radian
G = 9.81
SHANK = dict(m=1.2, c=0.18, iyy=0.018)         # COM 0.18 below the knee
HOUSING = dict(m=0.6, c=0.04, iyy=6e-4)        # COM 0.04 below the pivot
NUT = dict(m=0.08, iyy=1e-5)                   # COM at the pin
SHAFT = dict(m=0.35, c=0.125, transverse=1.8e-3, axial=3.5e-5)  # COM on the axis 0.125 below the pivot


def ry(q, p):
    """Rotation about y of an (x, z) point: (c x + s z, -s x + c z)."""
    c, s = math.cos(q), math.sin(q)
    return np.array([c * p[0] + s * p[1], -s * p[0] + c * p[1]])


def geometry(q):
    """Closed form of the loop at knee angle q: pin P, its rate P' (per knee radian), actuator length L,
    L', housing angle phi, phi', nut travel and shaft angle (with their rates)."""
    P = KNEE + ry(q, CRANK)
    dP = ry(q, np.array([CRANK[1], -CRANK[0]]))  # d/dq of Ry(q) r
    u = P - PIVOT
    L = float(np.hypot(*u))
    dL = float(u @ dP) / L
    phi = math.atan2(-u[0], -u[1])  # the housing's -z axis points at the pin: Ry(phi) (0, -1) = u / L
    dphi = float(u[1] * dP[0] - u[0] * dP[1]) / L ** 2
    nut = NUT_AT_ZERO - L  # the nut slides along +z of the housing toward the pivot as L shrinks
    shaft = -nut / PITCH   # the shaft is held axially: nut travel + pitch * shaft turn = 0
    return dict(P=P, dP=dP, L=L, dL=dL, phi=phi, dphi=dphi, nut=nut, dnut=-dL, shaft=shaft, dshaft=dL / PITCH)


def inertia_closed_form(q, shaft_axial=SHAFT["axial"]):
    """M(q) = sum of the bodies' kinetic energies per (1/2 qdot^2): shank about the knee, housing,
    nut and shaft turning with phi about the pivot, the nut's pin moving with P', the shaft spinning
    at shaft' about its own (symmetric) axis."""
    g = geometry(q)
    shank = SHANK["iyy"] + SHANK["m"] * SHANK["c"] ** 2
    about_pivot = (HOUSING["iyy"] + HOUSING["m"] * HOUSING["c"] ** 2 + NUT["iyy"]
                   + SHAFT["transverse"] + SHAFT["m"] * SHAFT["c"] ** 2)
    return (shank + about_pivot * g["dphi"] ** 2 + NUT["m"] * float(g["dP"] @ g["dP"])
            + shaft_axial * g["dshaft"] ** 2)


def potential_closed_form(q):
    g = geometry(q)
    z = (SHANK["m"] * (KNEE[1] - SHANK["c"] * math.cos(q))
         + (HOUSING["m"] * HOUSING["c"] + SHAFT["m"] * SHAFT["c"]) * -math.cos(g["phi"])
         + (HOUSING["m"] + SHAFT["m"]) * PIVOT[1] + NUT["m"] * g["P"][1])
    return G * z


def qdd_closed_form(q, v, tau, h=1e-5):
    """Lagrange's equation of a 1-DoF system: M qdd + M'/2 v^2 + V' = tau (M', V' by central differences)."""
    dM = (inertia_closed_form(q + h) - inertia_closed_form(q - h)) / (2 * h)
    dV = (potential_closed_form(q + h) - potential_closed_form(q - h)) / (2 * h)
    return (tau - 0.5 * dM * v * v - dV) / inertia_closed_form(q)


@pytest.fixture(scope="module")
def model():
    return grbda.load(model_path("ball_screw_knee.urdf"))


def states(n, seed):
    rng = np.random.default_rng(seed)
    return [(rng.uniform(-1.0, 1.2), rng.uniform(-3, 3), rng.uniform(-5, 5)) for _ in range(n)]


def test_one_generic_cluster_holds_the_screw_and_the_slider(model):
    assert (model.nq, model.nv, model.nv_spanning) == (1, 1, 4)
    assert model.position_names == ["knee"]
    assert model.spanning_position_names == ["knee", "pivot", "nut_slide", "screw_turn"]
    assert grbda.load(model_path("ball_screw_knee.urdf")).neutral_configuration().tolist() == [0.0]


def test_spanning_positions_follow_the_helix_and_the_planar_loop(model):
    data = grbda.Data(model)
    for q in (-1.0, -0.4, 0.0, 0.3, 0.62, 1.1):  # 0.62: the shaft's fold, regular in the knee
        knee, pivot, nut, shaft = grbda.complete_configuration(model, data, [q])
        g = geometry(q)
        assert knee == q
        assert abs(nut - (-PITCH * shaft)) < 1e-12          # nut travel = -pitch x shaft turn
        assert abs(nut - g["nut"]) < 1e-11 and abs(shaft - g["shaft"]) < 1e-10 and abs(pivot - g["phi"]) < 1e-11
    # the helical pair at velocity level too: the constraint's G column (d spanning / d knee)
    for q, v, _ in states(4, 1):
        G_ = grbda.projection_matrices(model, data, [q], [v]).G[:, 0]
        g = geometry(q)
        np.testing.assert_allclose(G_, [1.0, g["dphi"], g["dnut"], g["dshaft"]], rtol=1e-9)
        assert abs(G_[2] + PITCH * G_[3]) < 1e-14


def test_cluster_aba_equals_projection_lagrange_and_the_closed_form(model):
    data = grbda.Data(model)
    for q, v, tau in states(6, 7):
        cluster = grbda.forward_dynamics(model, data, [q], [v], [tau])[0]
        scale = 1.0 + abs(cluster)
        assert abs(grbda.projection_forward_dynamics(model, data, [q], [v], [tau])[0] - cluster) < 1e-9 * scale
        assert abs(grbda.lagrange_forward_dynamics(model, data, [q], [v], [tau])[0] - cluster) < 1e-9 * scale
        assert abs(qdd_closed_form(q, v, tau) - cluster) < 1e-9 * scale  # measured 5e-11 (the differences)
        assert abs(grbda.mass_matrix(model, data, [q])[0, 0] - inertia_closed_form(q)) < 1e-12


def energy_drift(model, dt, q0=0.3, v0=4.0):
    """|E(1 s) - E(0)| / kinetic energy at the start, RK4 without damping, friction or limits; and the
    knee's trajectory."""
    sim = grbda.Simulator(model, grbda.World(ground=False), dt=dt, integrator="rk4", joint_limits=False,
                          joint_friction=False, joint_damping=False)
    sim.set_state([q0], [v0])
    kinetic = 0.5 * inertia_closed_form(q0) * v0 ** 2
    e0 = sim.energy()
    assert abs(e0 - (kinetic + potential_closed_form(q0))) < 1e-12 * abs(e0)
    sim.start_recording()
    sim.step(int(round(1.0 / dt)))
    return abs(sim.energy() - e0) / kinetic, sim.trajectory["q"][:, 0]


def test_energy_is_conserved_under_rk4(model):
    drift, knee = energy_drift(model, 1e-3)
    # it swings through the shaft's fold (knee 0.62, where the motor angle turns back)
    assert knee.max() > 0.8 and knee.min() < -0.5
    assert drift < 1e-10  # measured 8.7e-12
    coarse, _ = energy_drift(model, 2e-3)
    assert 8 < coarse / drift < 32  # fourth order: 2^4 (measured 18.6)


def test_the_shaft_spin_is_reflected_at_the_knee_by_the_screw_ratio_squared(model, tmp_path):
    """Two models differing only in the shaft's axial moment: M rises by exactly
    delta I (d shaft / d knee)^2 = delta I (L' / pitch)^2, the ball screw's reflected inertia."""
    text = open(model_path("ball_screw_knee.urdf")).read()
    assert text.count('izz="3.5e-05"') == 1
    heavier = tmp_path / "heavier_shaft.urdf"
    heavier.write_text(text.replace('izz="3.5e-05"', 'izz="7e-05"'))
    other = grbda.load(str(heavier))
    d1, d2 = grbda.Data(model), grbda.Data(other)
    for q in (-0.8, 0.0, 0.4, 1.0):
        ratio = geometry(q)["dL"] / PITCH  # shaft radians per knee radian (about 63 at q = 0)
        m1, m2 = grbda.mass_matrix(model, d1, [q])[0, 0], grbda.mass_matrix(other, d2, [q])[0, 0]
        assert abs((m2 - m1) - 3.5e-5 * ratio ** 2) < 1e-12 * m2
    # at q = 0 the spinning shaft is most of what the knee feels
    m0 = grbda.mass_matrix(model, d1, [0.0])[0, 0]
    assert 3.5e-5 * (geometry(0.0)["dL"] / PITCH) ** 2 > 0.5 * m0


# kept loops state a row on a body as a force F with S_j^T F = K_rj; a screw's S is not a unit
# vector (|S|^2 = 1 + p^2), which an earlier F = K_rj S_j got wrong by exactly pitch^2
def test_kept_loops_give_the_embedded_dynamics(model):
    kept = grbda.load(model_path("ball_screw_knee.urdf"), loops="constrain")
    constraints = grbda.ConstraintModel(kept)
    cdata = grbda.ConstraintData(kept, constraints)
    data = grbda.Data(model)
    for y, yd, tau in states(3, 11):
        reference = grbda.forward_dynamics(model, data, [y], [yd], [tau])[0]
        q = grbda.expand_positions(kept, [y])
        v = grbda.expand_velocities(kept, q, [yd])
        qdd = grbda.constrained_forward_dynamics(kept, grbda.Data(kept), constraints, cdata, q, v,
                                                 grbda.expand_forces(kept, [tau]), solver="kkt")
        # measured today: 6e-7 relative (= pitch^2, 6.3e-7, on the shaft's column)
        assert abs(grbda.reduce_velocities(kept, qdd)[0] - reference) < 1e-10 * (1 + abs(reference))
