"""JVRC-1 humanoid with geared rotors (facts: robot-data/jvrc1.md).

Three variants: the reference URDF (25 rotors: none on neck and wrists; right hip-pitch origin
z = -0.087), the C++ class (32 rotors, symmetric hips) and the rotor-free approximation of the
URDF. All joint frames have identity orientation. The round-off offsets of the original model
(|x| <= 8e-16 m) are written as 0.
"""
from .urdfplus import Robot, diag_inertial

PELVIS = diag_inertial(10.0, (-0.01, 0.0, 0.034), 0.089583, 0.089583, 0.1125)
ROTOR = diag_inertial(0.07, (0, 0, 0), 2e-05, 2e-05, 5e-05)  # same matrix whatever the axis
GEAR = 6.0
HIP_OFFSET = 0.096
URDF_RIGHT_HIP_Z = -0.087  # xacro property R_hip_pitch_joint_xyz; the C++ class uses 0


def _d(m, com, ixx, iyy, izz):
    return diag_inertial(m, com, ixx, iyy, izz)


# Chains: (link, parent, joint name, xyz, axis, inertial, rotor in the URDF)
# "{s}" = "left"/"right"; the wrist-yaw COM y is side dependent and handled below.
WAIST_NECK = [
    ("waist-yaw", "pelvis", "pelvis-to-waist-yaw", (0, 0, 0.192), "z",
     _d(1.0, (0, 0, -0.07), 0.00173, 0.00173, 0.0032), True),
    ("waist-pitch", "waist-yaw", "waist-yaw-to-waist-pitch", (0, 0, 0), "y",
     _d(1.0, (0, 0, 0), 0.002425, 0.002425, 0.002425), True),
    ("waist-roll", "waist-pitch", "waist-pitch-to-waist-roll", (0, 0, 0), "x",
     _d(10.0, (0.02, 0, 0.24), 0.157083, 0.101083, 0.1367), True),
    ("neck-yaw", "waist-roll", "waist-roll-to-neck-yaw", (-0.003, 0, 0.453), "z",
     _d(0.5, (0, 0, -0.05), 0.000729167, 0.000729167, 0.000625), False),
    ("neck-roll", "neck-yaw", "neck-yaw-to-neck-roll", (0, 0, 0), "x",
     _d(0.5, (0, 0, 0), 0.0005, 0.0005, 0.0005), False),
    ("neck-pitch", "neck-roll", "neck-roll-to-neck-pitch", (0, 0, 0), "y",
     _d(2.0, (0.01, 0, 0.11), 0.00968, 0.00968, 0.00968), False),
]
LEG = [
    ("{s}-hip-pitch", "pelvis", "pelvis-to-{s}-hip-pitch", (0, HIP_OFFSET, 0), "y",
     _d(1.0, (0, 0, 0), 0.00196, 0.00196, 0.00196), True),
    ("{s}-hip-roll", "{s}-hip-pitch", "{s}-hip-pitch-to-hip-roll", (0, 0, 0), "x",
     _d(1.0, (0, 0, 0), 0.00196, 0.00196, 0.00196), True),
    ("{s}-hip-yaw", "{s}-hip-roll", "{s}-hip-roll-to-hip-yaw", (0, 0, 0), "z",
     _d(3.0, (0.01, 0, -0.22), 0.031925, 0.034525, 0.00865), True),
    ("{s}-knee", "{s}-hip-yaw", "{s}-hip-yaw-to-knee", (-0.02, 0, -0.389), "y",
     _d(3.0, (0.04, 0, -0.16), 0.031925, 0.034525, 0.00865), True),
    ("{s}-ankle-roll", "{s}-knee", "{s}-knee-to-ankle-roll", (0.04, 0, -0.357), "x",
     _d(1.0, (0, 0, 0), 0.00064, 0.00064, 0.00064), True),
    ("{s}-ankle-pitch", "{s}-ankle-roll", "{s}-ankle-roll-to-ankle-pitch", (0, 0, 0), "y",
     _d(1.5, (0.03, 0, -0.07), 0.001417, 0.005617, 0.006217), True),
]
SOLE_CENTRE = (0.025, 0.0, -0.041)  # midway between toe (0.1, 0, -0.041) and heel (-0.05, 0, -0.041)
# the sole as a 0.15 x 0.07 x 0.01 m box whose bottom face holds the sole frame (collision for the simulator)
SOLE_BOX = '<origin xyz="0 0 0.005"/><geometry><box size="0.15 0.07 0.01"/></geometry>'
HAND_POINT = (0.0, 0.0, -0.27)      # the wrist-yaw link's lower contact point
ARM = [
    ("{s}-shoulder-pitch", "waist-roll", "waist-roll-to-{s}-shoulder-pitch", (0, 0.24, 0.33), "y",
     _d(1.0, (0, 0, 0), 0.00196, 0.00196, 0.00196), True),
    ("{s}-shoulder-roll", "{s}-shoulder-pitch", "{s}-shoulder-pitch-to-shoulder-roll", (0, 0, 0), "x",
     _d(1.0, (0, 0, 0), 0.00196, 0.00196, 0.00196), True),
    ("{s}-shoulder-yaw", "{s}-shoulder-roll", "{s}-shoulder-roll-to-shoulder-yaw", (0, 0, 0), "z",
     _d(2.0, (-0.01, 0, -0.19), 0.01365, 0.0146, 0.00635), True),
    ("{s}-elbow-pitch", "{s}-shoulder-yaw", "{s}-shoulder-yaw-to-elbow-pitch", (0.004, 0, -0.305), "y",
     _d(1.0, (-0.02, 0, -0.1), 0.010675, 0.010675, 0.0027), True),
    ("{s}-elbow-yaw", "{s}-elbow-pitch", "{s}-elbow-pitch-to-elbow-yaw", (-0.004, 0, -0.239), "z",
     _d(1.0, (0, 0, 0), 0.00064, 0.00064, 0.00064), True),
    ("{s}-wrist-roll", "{s}-elbow-yaw", "{s}-elbow-yaw-to-wrist-roll", (0, 0, 0), "x",
     _d(0.5, (0, 0, 0), 0.00032, 0.00032, 0.00032), False),
    ("{s}-wrist-yaw", "{s}-wrist-roll", "{s}-wrist-roll-to-wrist-yaw", (0, 0, 0), "z",
     _d(0.5, (0, -0.01, -0.06), 0.0004625, 0.0007625, 0.0004625), False),  # left COM y; right +0.01
]


def _add_chain(r: Robot, rows, side: str, rotors: str) -> None:
    """rotors: "urdf" (rotor where the URDF has one), "all" (C++ class) or "none"."""
    for link, parent, joint, xyz, axis, inertial, urdf_rotor in rows:
        nm = lambda t: t.replace("{s}", side)
        if side == "right":
            xyz = (xyz[0], -xyz[1], xyz[2])
            inertial = inertial.mirrored_y()  # products are 0: only the wrist-yaw COM y changes
            if link == "{s}-hip-pitch" and rotors != "all":
                xyz = (xyz[0], xyz[1], URDF_RIGHT_HIP_Z)
        with_rotor = rotors == "all" or (rotors == "urdf" and urdf_rotor)
        r.geared(nm(parent), (nm(link), nm(joint), inertial), (nm(link) + "-rotor", nm(joint) + "-rotor", ROTOR),
                 xyz, (0, 0, 0), axis, GEAR, nm(link) + "-transmission", with_rotor=with_rotor,
                 link_independent=True if rotors != "none" else None)


def jvrc1(rotors: str) -> Robot:
    names = {"urdf": "jvrc1_humanoid", "all": "jvrc1_humanoid_32rotors", "none": "jvrc1_humanoid_approximate"}
    what = {
        "urdf": ["JVRC-1 humanoid as in the reference URDF: floating pelvis, waist yaw-pitch-roll,",
                 "neck yaw-roll-pitch, legs hip pitch-roll-yaw/knee/ankle roll-pitch, arms shoulder",
                 "pitch-roll-yaw/elbow pitch/elbow yaw/wrist roll/wrist yaw. 25 joints carry a geared",
                 "rotor (ratio 6, rotor frame = link joint frame); neck and wrist joints (7) have none.",
                 "Right hip-pitch origin z = -0.087 (left 0), as in the reference URDF."],
        "all": ["JVRC-1 humanoid as in the reference C++ class JVRC1_Humanoid: the same robot as",
                "jvrc1_humanoid.urdf but with a geared rotor (ratio 6) on all 32 joints and",
                "symmetric hips (right hip-pitch origin z = 0). Joint names follow the URDF",
                "(pelvis-to-...; the C++ class calls the pelvis joints base-to-...)."],
        "none": ["JVRC-1 (URDF variant, right hip-pitch z = -0.087) with the 25 rotors, rotor",
                 "joints and couplings deleted (plain tree, no reflected inertia added)."],
    }[rotors]
    r = Robot(names[rotors], what, "robot-data/jvrc1.md",
              notes=["Round-off joint offsets of the original model (<= 8e-16 m) are written as 0."])
    r.link("base")
    r.link("pelvis", PELVIS)
    r.floating("base_to_pelvis", "base", "pelvis")
    _add_chain(r, WAIST_NECK, "", rotors)
    for side in ("left", "right"):
        _add_chain(r, LEG, side, rotors)
    for side in ("left", "right"):
        _add_chain(r, ARM, side, rotors)
    for side in ("left", "right"):  # contact frames (the left foot's numbers on both sides)
        r.frame(f"{side}-foot", f"{side}-ankle-pitch", SOLE_CENTRE, collision=SOLE_BOX)
        r.frame(f"{side}-hand", f"{side}-wrist-yaw", HAND_POINT)
    r.notes.append("Contact frames left-foot, right-foot (sole centre) and left-hand, right-hand (wrist-yaw point).")
    return r


def all_models():
    return [jvrc1("urdf"), jvrc1("all"), jvrc1("none")]
