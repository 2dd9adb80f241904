"""MIT Mini Cheetah (facts: robot-data/mini_cheetah.md).

Parameters are the left-front (FL) values; the other legs follow the C++ `withLegSigns` rule:
positions get the leg's (x, y) signs, right legs also mirror their inertias across x-z.
"""
import math

from .urdfplus import Inertial, Robot, diag_inertial, rotor_inertial

TRUNK = diag_inertial(3.3, (0, 0, 0), 0.011253, 0.036203, 0.042673)
ABAD = Inertial(0.54, (0, 0.036, 0), (381e-6, 560e-6, 444e-6, 58e-6, 0.45e-6, 0.95e-6))
HIP = Inertial(0.634, (0, 0.016, -0.02), (1983e-6, 2103e-6, 408e-6, 245e-6, 13e-6, 1.5e-6))
KNEE = diag_inertial(0.064, (0, 0, -0.061), 6e-6, 248e-6, 245e-6)
ROTOR_MASS, ROTOR_TRANSVERSE, ROTOR_AXIAL = 0.055, 33e-6, 63e-6

ABAD_LOCATION = (0.19, 0.049, 0.0)  # body length 0.38 / 2, width 0.098 / 2
ABAD_ROTOR_LOCATION = (0.125, 0.049, 0.0)
HIP_LOCATION, HIP_ROTOR_LOCATION = (0.0, 0.062, 0.0), (0.0, 0.04, 0.0)
KNEE_LOCATION, KNEE_ROTOR_LOCATION = (0.0, 0.0, -0.209), (0.0, 0.0, 0.0)
HIP_FRAME_RPY = (0.0, 0.0, math.pi)  # hip joint frames are turned by pi about z
GEAR = {"abad": 6.0, "hip": 6.0, "knee": 9.33}
FOOT_LOCATION = (0.0, -0.004, -0.195)
FOOT_SPHERE = f'<geometry><sphere radius="0.02"/></geometry>'  # centred on the foot frame (the MuJoCo comparison's)  # foot contact point on the knee link, left legs (y flips on the right)

LEG_SIGNS = {"FR": (1, -1), "FL": (1, 1), "HR": (-1, -1), "HL": (-1, 1)}


def _signed(p, sx, sy):
    return (sx * p[0], sy * p[1], p[2])


def add_leg(r: Robot, leg: str, trunk: str, with_rotors: bool = True) -> None:
    sx, sy = LEG_SIGNS[leg]
    side = (lambda m: m.mirrored_y()) if sy < 0 else (lambda m: m)

    def rotor(axis):
        return rotor_inertial(ROTOR_MASS, ROTOR_TRANSVERSE, ROTOR_AXIAL, axis)

    r.geared(trunk, (f"{leg}_abad_link", f"torso_to_{leg}_abad_j", side(ABAD)),
             (f"{leg}_abad_rotor", f"torso_to_{leg}_abad_rotor_j", rotor("x")),
             _signed(ABAD_LOCATION, sx, sy), (0, 0, 0), "x", GEAR["abad"], f"{leg}_abad_transmission",
             rotor_xyz=_signed(ABAD_ROTOR_LOCATION, sx, sy), with_rotor=with_rotors)
    r.geared(f"{leg}_abad_link", (f"{leg}_hip_link", f"{leg}_abad_to_hip_j", side(HIP)),
             (f"{leg}_hip_rotor", f"{leg}_abad_to_hip_rotor_j", rotor("y")),
             _signed(HIP_LOCATION, sx, sy), HIP_FRAME_RPY, "y", GEAR["hip"], f"{leg}_hip_transmission",
             rotor_xyz=_signed(HIP_ROTOR_LOCATION, sx, sy), with_rotor=with_rotors)
    r.geared(f"{leg}_hip_link", (f"{leg}_knee_link", f"{leg}_hip_to_knee_j", side(KNEE)),
             (f"{leg}_knee_rotor", f"{leg}_hip_to_knee_rotor_j", rotor("y")),
             KNEE_LOCATION, (0, 0, 0), "y", GEAR["knee"], f"{leg}_knee_transmission",
             rotor_xyz=KNEE_ROTOR_LOCATION, with_rotor=with_rotors)
    r.frame(f"{leg}_foot", f"{leg}_knee_link", _signed(FOOT_LOCATION, 1, sy), collision=FOOT_SPHERE)


def mini_cheetah(with_rotors: bool = True) -> Robot:
    name = "mini_cheetah" if with_rotors else "mini_cheetah_approximate"
    if with_rotors:
        what = ["MIT Mini Cheetah quadruped: floating trunk, 4 legs x (ab/ad about x, hip about y,",
                "knee about y); every joint driven by a geared rotor on the parent link",
                "(q_rotor = N q_link; N = 6 ab/ad, 6 hip, 9.33 knee). Contact frames FR_foot, FL_foot,",
                "HR_foot, HL_foot (fixed links on the knee links)."]
    else:
        what = ["MIT Mini Cheetah with the 12 rotors, rotor joints and couplings deleted",
                "(plain tree, no reflected inertia added)."]
    r = Robot(name, what, "robot-data/mini_cheetah.md")
    r.link("base")
    r.link("Floating Base", TRUNK)
    r.floating("base_to_floating_base", "base", "Floating Base")
    for leg in ("FR", "FL", "HR", "HL"):
        add_leg(r, leg, "Floating Base", with_rotors)
    return r


def all_models():
    return [mini_cheetah(True), mini_cheetah(False)]
