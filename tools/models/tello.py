"""Tello humanoid (facts: robot-data/tello.md), as a TREE only.

The hip and knee-ankle differentials are implicit nonlinear constraints that URDF+ cannot state,
so this file carries no constraint tags; grbda builds them in C++. The `independent` flags mark
the C++ cluster roles (differential rotors independent, their links dependent). The right
hip-clamp rotor uses the C++ frame R_down = rpy (pi, 0, 0) like the left one (the reference URDF
has rpy 0 there, a xacro typo), and the frame angles are exact pi and pi/2 (the reference URDF
rounds them to 8 digits).
"""
import math

from .mit_humanoid import ELBOW, SHOULDER_RX, SHOULDER_RY, SHOULDER_RZ
from .urdfplus import Inertial, Robot, diag_inertial

TORSO = Inertial(2.3008, (0.0073, -0.0013, -0.0023), (0.0366, 0.0142, 0.0291, 0.0, -0.0006, -0.0002))
HIP_CLAMP = Inertial(1.3289, (-0.001, 0.0, -0.0069), (0.0032, 0.0033, 0.0027, 0.0, 0.0001, 0.0))
GIMBAL = diag_inertial(0.4433, (-0.0027, 0.0, 0.0258), 0.0018, 0.0017, 0.0015)
THIGH = Inertial(1.5424, (0.003, -0.0001, -0.0323), (0.0103, 0.0097, 0.0027, 0.0, -0.0005, 0.0))
SHIN = Inertial(0.3072, (0.0047, -0.0003, -0.1043), (0.0054, 0.0054, 0.0001, 0.0, -0.0002, 0.0))
FOOT = Inertial(0.1025, (0.0042, 0.0, -0.0251), (9.4e-05, 0.0001773, 9.01e-05, 0.0, -3.8e-06, 0.0))
LEG_ROTOR = diag_inertial(0.07, (0, 0, 0), 2.5984e-05, 2.5984e-05, 5.1512e-05)  # spin axis z

PI, HALF_PI = math.pi, math.pi / 2
R_DOWN = (PI, 0.0, 0.0)
R_LEFT = (-HALF_PI, PI, 0.0)
R_RIGHT = (HALF_PI, 0.0, 0.0)
GEAR = 6.0

# Arms: the MIT Humanoid arm (left values as given, right mirrored) with massless rotors whose
# axial moment is 1.684e-4 (4 digits in the Tello facts, 1.6841e-4 in the MIT ones).
ARM_ROTOR_TRANSVERSE, ARM_ROTOR_AXIAL = 0.0001084, 0.0001684
ARM = [  # link, parent, xyz (left), axis, inertial (left), rotor xyz (left)
    ("shoulder-ry", None, (0.01346, 0.17608, 0.24657), "y", SHOULDER_RY, (0.01346, 0.16, 0.24657)),
    ("shoulder-rx", "shoulder-ry", (0.0, 0.0575, 0.0), "x", SHOULDER_RX, (0.0, 0.0575, 0.0)),
    ("shoulder-rz", "shoulder-rx", (0.0, 0.0, -0.1025), "z", SHOULDER_RZ, (0.0, 0.0, -0.1025)),
    ("elbow", "shoulder-rz", (0.0, 0.0, -0.1455), "y", ELBOW, (0.0, -0.0325, -0.06)),
]
ARM_GEARS = "6, 6, 6, 9"


def _add_leg(r: Robot, s: str, sign: int, with_rotors: bool) -> None:
    rotor_flag = lambda f: f if with_rotors else None
    clamp, gimbal, thigh, shin, foot = (f"{s}-hip-clamp", f"{s}-gimbal", f"{s}-thigh", f"{s}-shin", f"{s}-foot")
    if with_rotors:
        r.link(f"{clamp}-rotor", LEG_ROTOR)
        r.revolute(f"torso-to-{clamp}-rotor", "torso", f"{clamp}-rotor", (0, sign * 0.126, -0.026), R_DOWN,
                   "z", False)
    r.link(clamp, HIP_CLAMP)
    r.revolute(f"torso-to-{clamp}", "torso", clamp, (0, sign * 0.126, -0.087), (0, 0, 0), "z", rotor_flag(True))
    if with_rotors:
        for k, y, rpy in ((1, 0.04, R_LEFT), (2, -0.04, R_RIGHT)):
            r.link(f"{s}-hip-rotor-{k}", LEG_ROTOR)
            r.revolute(f"{clamp}-to-hip-rotor-{k}", clamp, f"{s}-hip-rotor-{k}", (0, y, 0), rpy, "z", True)
    r.link(gimbal, GIMBAL)
    r.revolute(f"{clamp}-to-gimbal", clamp, gimbal, (0, 0, -0.1425), (0, 0, 0), "x", rotor_flag(False))
    r.link(thigh, THIGH)
    r.revolute(f"{gimbal}-to-thigh", gimbal, thigh, (0, 0, 0), (0, 0, 0), "y", rotor_flag(False))
    if with_rotors:
        for k, y, rpy in ((1, 0.02655, R_RIGHT), (2, -0.02655, R_LEFT)):
            r.link(f"{s}-knee-ankle-rotor-{k}", LEG_ROTOR)
            r.revolute(f"{thigh}-to-knee-ankle-rotor-{k}", thigh, f"{s}-knee-ankle-rotor-{k}", (0, y, 0), rpy,
                       "z", True)
    r.link(shin, SHIN)
    r.revolute(f"{thigh}-to-shin", thigh, shin, (0, 0, -0.2268), (0, 0, 0), "y", rotor_flag(False))
    r.link(foot, FOOT)
    r.revolute(f"{shin}-to-foot", shin, foot, (0, 0, -0.26), (0, 0, 0), "y", rotor_flag(False))


def _add_arm(r: Robot, s: str, right: bool, with_rotors: bool) -> None:
    for link, parent, xyz, axis, inertial, rxyz in ARM:
        if right:
            xyz, rxyz, inertial = (xyz[0], -xyz[1], xyz[2]), (rxyz[0], -rxyz[1], rxyz[2]), inertial.mirrored_y()
        parent_name = "torso" if parent is None else f"{s}-{parent}"
        joint = f"{parent_name}-to-{s}-{link}" if parent is None else f"{s}-{parent}-to-{link}"
        moments = [ARM_ROTOR_TRANSVERSE] * 3
        moments["xyz".index(axis)] = ARM_ROTOR_AXIAL
        r.link(f"{s}-{link}", inertial)
        r.revolute(joint, parent_name, f"{s}-{link}", xyz, (0, 0, 0), axis, True if with_rotors else None)
        if with_rotors:
            r.link(f"{s}-{link}-rotor", diag_inertial(0.0, (0, 0, 0), *moments))
            r.revolute(f"{joint}-rotor", parent_name, f"{s}-{link}-rotor", rxyz, (0, 0, 0), axis, False)


def tello(with_rotors=True) -> Robot:
    if with_rotors:
        r = Robot("tello_humanoid",
                  ["Tello humanoid with arms (the body tree of the C++ TelloWithArms), floating torso.",
                   "Per leg: hip clamp (yaw, z) with a geared rotor (ratio 6); hip differential (rotors",
                   "1, 2 on the clamp drive gimbal x and thigh y); knee-ankle differential (rotors 1, 2",
                   "on the thigh drive shin y and foot y); differential rotor gear 6. Arms: MIT Humanoid",
                   f"arms with massless rotors (gears {ARM_GEARS})."],
                  "robot-data/tello.md",
                  notes=["TREE ONLY: no <coupling>/<loop>, so every joint counts as independent here; the",
                         "differentials and gears are built in C++ (TelloWithArms: 24 independent DoF).",
                         "Right hip-clamp rotor frame rpy (pi, 0, 0) as in the C++ class (reference URDF: 0)."])
    else:
        r = Robot("tello_humanoid_approximate",
                  ["Tello humanoid with arms with all 18 rotors deleted (plain tree, no reflected",
                   "inertia added)."], "robot-data/tello.md")
    r.link("ground")
    r.link("torso", TORSO)
    r.floating("torso-to-ground", "ground", "torso")
    _add_leg(r, "left", 1, with_rotors)
    _add_leg(r, "right", -1, with_rotors)
    _add_arm(r, "left", False, with_rotors)
    _add_arm(r, "right", True, with_rotors)
    return r


def all_models():
    return [tello(True), tello(False)]
