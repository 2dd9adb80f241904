"""MIT Humanoid and its single leg (facts: robot-data/mit_humanoid.md).

As in the C++ header: inertias are LEFT-side values, positions are RIGHT-side values (y < 0).
The right side mirrors the inertias, the left side negates the position y. Joint names are the
facts' names; "{s}_" stands for "right_"/"left_" and is dropped in the single-leg model.
"""
from .urdfplus import Inertial, Robot, flip_y, rotor_inertial

TORSO = Inertial(8.52, (0.009896, 0.004771, 0.100522),
                 (0.172699, 0.105949, 0.091906, 0.001419, 0.004023, -0.001672))

# (ixx, iyy, izz, ixy, ixz, iyz)
HIP_RZ = Inertial(0.84563, (-0.064842, -3.6e-05, -0.06309),
                  (0.0015373, 0.0014252, 0.0012028, 1.1e-06, 0.0005578, 2.4e-06))
HIP_RX = Inertial(1.20868, (0.067232, -0.013018, 0.0001831),
                  (0.0017535, 0.003338, 0.0019927, -6.3e-06, -8e-05, -1.3e-05))
HIP_RY = Inertial(2.64093, (0.0132054, 0.0269864, -0.096021),
                  (0.0243761, 0.0259015, 0.0038929, 9.96e-05, 0.0006548, 0.0026713))
KNEE = Inertial(0.35435, (0.00528, 0.0014762, -0.13201),
                (0.003051, 0.003033, 0.0002529, 0.0, 8.73e-05, 3.93e-05))
ANKLE = Inertial(0.280951, (0.022623, 0.0, -0.012826),
                 (8.42e-05, 0.0007959, 0.0007681, 0.0, -4.88e-05, 0.0))
SHOULDER_RY = Inertial(0.788506, (0.009265, 0.052623, -0.0001249),
                       (0.0013678, 0.0007392, 0.000884, 2.66e-05, 2.1e-06, -1.2e-06))
SHOULDER_RX = Inertial(0.80125, (0.0006041, 0.0001221, -0.082361),
                       (0.0011524, 0.0011921, 0.0012386, 7e-07, 3.96e-05, 1.4e-06))
SHOULDER_RZ = Inertial(0.905588, (0.0001703, -0.016797, -0.06),
                       (0.0012713, 0.0017477, 0.0008191, 1e-06, -8e-06, -2.25e-05))
ELBOW = Inertial(0.34839, (-0.0059578, 0.000111, -0.0426735),
                 (0.00157, 0.0016167, 6.19e-05, 2e-07, 3.35e-05, 3e-06))

SMALL_ROTOR = (0.05, 1.084e-4, 1.6841e-4)  # mass, transverse, axial (about the spin axis)
LARGE_ROTOR = (0.1, 3.443e-4, 5.548e-4)

HIP_YAW_PITCH, HIP_ROLL_PITCH, HIP_PITCH_PITCH = -0.174533, 0.436332, -0.261799  # frame pitches (rad)

# One actuated joint: link, joint, rotor link, rotor joint, coupling, parent (rotor parent if
# different), axis, link xyz (right side), frame rpy, rotor xyz (right side), rotor size, ratio,
# link inertia (left).
# The ankle rotor sits on the thigh, so its coupling path (ankle -> knee -> thigh) spans the knee
# as well: q_ankle_rotor = 12 (q_knee + q_ankle) = 6 x belts (2, 1), the parallel-belt rule.
SOLE_CENTRE = (0.025, 0.0, -0.041)  # midway between toe (0.1, 0, -0.041) and heel (-0.05, 0, -0.041)
# the sole as a 0.15 x 0.07 x 0.01 m box whose bottom face holds the sole frame (collision for the simulator)
SOLE_BOX = '<origin xyz="0 0 0.005"/><geometry><box size="0.15 0.07 0.01"/></geometry>'
HAND_POINT = (0.0, 0.0, -0.27)      # hand contact point on the elbow link
LEG = [
    ("{s}_hip_rz_link", "base_to_{s}_hipz_link", "{s}_hip_rz_rotor", "{s}_base_to_hipz_rotor",
     "{s}_hipz_transmission", "TORSO", "z", (-0.00565, -0.082, -0.05735), (0, HIP_YAW_PITCH, 0),
     (-0.00842837, -0.082, -0.041593), SMALL_ROTOR, 6.0, HIP_RZ),
    ("{s}_hip_rx_link", "{s}_hipz_to_hipx_link", "{s}_hip_rx_rotor", "{s}_hipz_to_hipx_rotor",
     "{s}_hipx_transmission", "{s}_hip_rz_link", "x", (-0.06435, 0.0, -0.07499), (0, HIP_ROLL_PITCH, 0),
     (-0.0827, 0.0, -0.066436), SMALL_ROTOR, 6.0, HIP_RX),
    ("{s}_hip_ry_link", "{s}_hipx_to_hipy_link", "{s}_hip_ry_rotor", "{s}_hipx_to_hipy_rotor",
     "{s}_hipy_transmission", "{s}_hip_rx_link", "y", (0.071, 0.0018375, 0.0), (0, HIP_PITCH_PITCH, 0),
     (0.071, 0.024, 0.0), LARGE_ROTOR, 6.0, HIP_RY),
    ("{s}_knee_link", "{s}_hipy_to_knee_link", "{s}_knee_rotor", "{s}_hipy_to_knee_rotor",
     "{s}_knee_transmission", "{s}_hip_ry_link", "y", (0.0, 0.0, -0.267), (0, 0, 0),
     (0.013, -0.0497, -0.0178), LARGE_ROTOR, 12.0, KNEE),
    ("{s}_ankle_link", "{s}_knee_to_ankle", "{s}_ankle_rotor", "{s}_hipy_to_ankle_rotor",
     "{s}_ankle_transmission", ("{s}_knee_link", "{s}_hip_ry_link"), "y", (0.0, 0.0, -0.2785), (0, 0, 0),
     (0.01563, -0.0454, -0.13354), SMALL_ROTOR, 12.0, ANKLE),
]

ARM = [
    ("{s}_shoulder_ry_link", "base_to_{s}_shouldery_link", "{s}_shoulder_ry_rotor",
     "base_to_{s}_shouldery_rotor", "{s}_shouldery_transmission", "TORSO", "y",
     (0.01346, -0.17608, 0.24657), (0, 0, 0), (0.01346, -0.16, 0.24657), SMALL_ROTOR, 6.0, SHOULDER_RY),
    ("{s}_shoulder_rx_link", "{s}_shouldery_shoulderx_link", "{s}_shoulder_rx_rotor",
     "{s}_shouldery_to_shoulderx_rotor", "{s}_shoulderx_transmission", "{s}_shoulder_ry_link", "x",
     (0.0, -0.0575, 0.0), (0, 0, 0), (0.0, -0.0575, 0.0), SMALL_ROTOR, 6.0, SHOULDER_RX),
    ("{s}_shoulder_rz_link", "{s}_shoulderx_shoulderz_link", "{s}_shoulder_rz_rotor",
     "{s}_shoulderx_to_shoulderz_rotor", "{s}_shoulderz_transmission", "{s}_shoulder_rx_link", "z",
     (0.0, 0.0, -0.1025), (0, 0, 0), (0.0, 0.0, -0.1025), SMALL_ROTOR, 6.0, SHOULDER_RZ),
    ("{s}_elbow_link", "{s}_shoulderz_elbow_link", "{s}_elbow_rotor", "{s}_shoulderz_to_elbow_rotor",
     "{s}_elbow_transmission", "{s}_shoulder_rz_link", "y", (0.0, 0.0, -0.1455), (0, 0, 0),
     (0.0, 0.0325, -0.06), SMALL_ROTOR, 9.0, ELBOW),
]


def add_limb(r: Robot, rows, side: str, torso: str, with_rotors=True, mirror_inertia=True,
             flip_positions=False, rotor_mass=None) -> None:
    """side: "right_"/"left_" in the full robot, "" in the single leg."""
    def nm(t):
        return t.replace("{s}_", side)

    for (link, joint, rotor, rjoint, coupling, parent, axis, xyz, rpy, rxyz, size, ratio,
         inertia) in rows:
        parent, rotor_parent = parent if isinstance(parent, tuple) else (parent, parent)
        parent, rotor_parent = [torso if p == "TORSO" else nm(p) for p in (parent, rotor_parent)]
        if flip_positions:
            xyz, rxyz = flip_y(xyz), flip_y(rxyz)
        link_in = inertia.mirrored_y() if mirror_inertia else inertia
        mass, transverse, axial = size
        rotor_in = rotor_inertial(mass if rotor_mass is None else rotor_mass, transverse, axial, axis)
        r.link(nm(link), link_in)
        r.revolute(nm(joint), parent, nm(link), xyz, rpy, axis)
        if with_rotors:
            r.link(nm(rotor), rotor_in)
            r.revolute(nm(rjoint), rotor_parent, nm(rotor), rxyz, rpy, axis, False)
            r.couple(nm(coupling), nm(link), nm(rotor), ratio)


def mit_humanoid(with_rotors=True) -> Robot:
    if with_rotors:
        name = "mit_humanoid"
        what = ["MIT Humanoid: floating torso, legs (hip yaw z, hip roll x, hip pitch y, knee y,",
                "ankle pitch y) and arms (shoulder y, x, z, elbow y). Hips, shoulders and elbows",
                "are geared link+rotor clusters (ratio 6, elbow 9); knee and ankle of each leg form",
                "one parallel-belt cluster with both rotors on the thigh: q_knee_rotor = 12 q_knee,",
                "q_ankle_rotor = 12 (q_knee + q_ankle) (gear 6 x belts (2) and (2, 1)).",
                "Contact frames right_foot, left_foot (sole centre) and right_hand, left_hand."]
    else:
        name = "mit_humanoid_approximate"
        what = ["MIT Humanoid with all 18 rotors, rotor joints and couplings deleted",
                "(plain tree, no reflected inertia added). Contact frames as in mit_humanoid.urdf."]
    r = Robot(name, what, "robot-data/mit_humanoid.md")
    r.link("ground")
    r.link("Floating Base", TORSO)
    r.floating("world_to_base", "ground", "Floating Base")
    for side, right in (("right_", True), ("left_", False)):
        add_limb(r, LEG, side, "Floating Base", with_rotors, mirror_inertia=right, flip_positions=not right)
    for side, right in (("right_", True), ("left_", False)):
        add_limb(r, ARM, side, "Floating Base", with_rotors, mirror_inertia=right, flip_positions=not right)
    for side in ("right_", "left_"):  # contact frames: sole centre between toe and heel, hand point
        r.frame(f"{side}foot", f"{side}ankle_link", SOLE_CENTRE, collision=SOLE_BOX)
        r.frame(f"{side}hand", f"{side}elbow_link", HAND_POINT)
    return r


def mit_humanoid_leg() -> Robot:
    r = Robot("mit_humanoid_leg",
              ["One MIT Humanoid leg on a fixed base: geared hip yaw/roll/pitch and the",
               "parallel-belt knee-ankle cluster (ratios 6, 6, 6, 12, 12; the ankle coupling spans",
               "knee + ankle). As in the reference (and its C++ MIT_Humanoid_Leg): rotor masses 0,",
               "rotor inertias kept, right-side positions with the unmirrored (left-side) inertias."],
              "robot-data/mit_humanoid.md")
    r.link("base")
    add_limb(r, LEG, "", "base", True, mirror_inertia=False, flip_positions=False, rotor_mass=0.0)
    return r


def all_models():
    return [mit_humanoid(True), mit_humanoid(False), mit_humanoid_leg()]
