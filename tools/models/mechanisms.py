"""Small planar mechanisms and demo arms (facts: robot-data/four_bar.md, six_bar.md,
planar_leg_linkage.md, serial_chains.md; the demo arms are invented here)."""
import math

from .families import rotor_chain
from .urdfplus import Inertial, Joint, Loop, Robot, diag_inertial

# Every link of the four-bar and six-bar reuses the Mini Cheetah trunk numbers.
BAR = diag_inertial(3.3, (0, 0, 0), 0.011253, 0.036203, 0.042673)


def four_bar() -> Robot:
    r = Robot("four_bar",
              ["Planar four-bar on a fixed base, all joints about z: crank link1 (0.5) at the",
               "origin, coupler link2 (1.0) on link1, rocker link3 (0.5) at (1, 0, 0); loop1 joins",
               "link2's point (1, 0, 0) and link3's point (0.5, 0, 0): a parallelogram (ground 1.0).",
               "Parallelogram branch: joint2 = -joint1, joint3 = joint1; q = 0 closes the loop but is",
               "singular (all links collinear)."],
              "robot-data/four_bar.md")
    r.link("base_link")
    for k in (1, 2, 3):
        r.link(f"link{k}", BAR)
    r.revolute("joint1", "base_link", "link1", independent=True)
    r.revolute("joint2", "link1", "link2", (0.5, 0, 0), independent=False)
    r.revolute("joint3", "base_link", "link3", (1.0, 0, 0), independent=False)
    r.loops.append(Loop("loop1", "link2", (1.0, 0, 0), "link3", (0.5, 0, 0)))
    r.closed_configuration = {"joint1": 0.5, "joint2": -0.5, "joint3": 0.5}
    return r


def six_bar() -> Robot:
    # Branch A: link1-3 (lengths 0.1, 0.2, 0.3); branch B: link4-5 (0.4, 0.5); both start at the
    # origin; constraint1 joins the tips. Closed state with branch A straight (tip at (0.6, 0)):
    # cos q5 = (0.6^2 - 0.4^2 - 0.5^2) / (2 0.4 0.5) and q4 turns the tip back onto the x axis.
    q5 = math.acos((0.6 ** 2 - 0.4 ** 2 - 0.5 ** 2) / (2 * 0.4 * 0.5))
    q4 = -math.atan2(0.5 * math.sin(q5), 0.4 + 0.5 * math.cos(q5))
    r = Robot("six_bar",
              ["Planar closed chain of 5 moving links (6 bars counting the ground), all joints",
               "continuous about z. Branch A link1-link2-link3 (lengths 0.1, 0.2, 0.3, independent),",
               "branch B link4-link5 (0.4, 0.5, dependent), both from the origin; constraint1 joins",
               "link3's point (0.3, 0, 0) and link5's point (0.5, 0, 0). q = 0 is NOT closed."],
              "robot-data/six_bar.md")
    r.link("base_link")
    for k in range(1, 6):
        r.link(f"link{k}", BAR)
    r.revolute("joint1", "base_link", "link1", type="continuous")
    r.revolute("joint2", "link1", "link2", (0.1, 0, 0), type="continuous")
    r.revolute("joint3", "link2", "link3", (0.2, 0, 0), type="continuous")
    r.revolute("joint4", "base_link", "link4", independent=False, type="continuous")
    r.revolute("joint5", "link4", "link5", (0.4, 0, 0), independent=False, type="continuous")
    r.loops.append(Loop("constraint1", "link3", (0.3, 0, 0), "link5", (0.5, 0, 0)))
    r.closed_configuration = {"joint4": q4, "joint5": q5}
    return r


def planar_leg_linkage() -> Robot:
    r = Robot("planar_leg_linkage",
              ["Planar leg: thigh (revolute about z at the origin) carrying a parallelogram lower",
               "leg {shank_driver, shank_support, foot} closed by the loop `linkage` (ground 0.031,",
               "driver 0.096, foot 0.031, support 0.096). Independent: base_to_thigh, thigh_to_driver.",
               "Parallelogram branch: support = driver, foot = -driver; q = 0 is singular.",
               "Planar inertias (only Izz nonzero), as in the facts."],
              "robot-data/planar_leg_linkage.md")
    r.link("base")
    r.link("thigh", diag_inertial(0.23, (0.0364, 0, 0), 0, 0, 4.5389e-05))
    r.link("shank_driver", diag_inertial(0.004, (0.048, 0, 0), 0, 0, 3.257e-06))
    r.link("shank_support", diag_inertial(0.225, (0.04, 0, 0), 0, 0, 2.2918e-05))
    r.link("foot", diag_inertial(0.017, (0.0635, 0, 0), 0, 0, 2.2176e-05))
    r.revolute("base_to_thigh", "base", "thigh", type="continuous")
    r.revolute("thigh_to_driver", "thigh", "shank_driver", (0.011, 0, 0), independent=True, type="continuous")
    r.revolute("thigh_to_support", "thigh", "shank_support", (0.042, 0, 0), independent=False, type="continuous")
    r.revolute("driver_to_foot", "shank_driver", "foot", (0.096, 0, 0), independent=False, type="continuous")
    r.loops.append(Loop("linkage", "foot", (0.031, 0, 0), "shank_support", (0.096, 0, 0)))
    r.closed_configuration = {"thigh_to_driver": 0.5, "thigh_to_support": 0.5, "driver_to_foot": -0.5}
    return r


def revolute_rotor_chain() -> Robot:
    r = rotor_chain(3)
    r.name = "revolute_rotor_chain"
    r.source = "robot-data/serial_chains.md"
    return r


def double_pendulum() -> Robot:
    r = Robot("double_pendulum",
              ["Planar double pendulum (plain URDF, no constraints), joints about z; link2's joint",
               "at (0.1, 0, 0) of link1; COMs at the joints."],
              "robot-data/serial_chains.md")
    r.link("base_link")
    r.link("link1", diag_inertial(2.0, (0, 0, 0), 0.05, 0.03, 0.01))
    r.link("link2", diag_inertial(1.0, (0, 0, 0), 0.01, 0.005, 0.2))
    r.revolute("joint1", "base_link", "link1")
    r.revolute("joint2", "link1", "link2", (0.1, 0, 0))
    return r


def _rod(mass: float, length: float, radius: float, axis: str) -> Inertial:
    """Solid cylinder along `axis`, COM at its middle (invented demo numbers)."""
    axial = 0.5 * mass * radius ** 2
    transverse = mass * (3 * radius ** 2 + length ** 2) / 12
    moments = [transverse] * 3
    moments["xyz".index(axis)] = axial
    com = [0.0, 0.0, 0.0]
    com["xyz".index(axis)] = length / 2
    return diag_inertial(mass, tuple(com), *moments)


def planar_arm_3dof() -> Robot:
    r = Robot("planar_arm_3dof",
              ["Demo: planar 3-link arm on a fixed base, joints about z, links along x (lengths",
               "0.5, 0.4, 0.3 m, masses 2, 1.5, 1 kg, solid rods of radius 0.03 m)."],
              "nothing: the numbers are invented for demos (no robot-data file)")
    r.link("base")
    parent, offset = "base", 0.0
    for k, (length, mass) in enumerate([(0.5, 2.0), (0.4, 1.5), (0.3, 1.0)], start=1):
        r.link(f"link{k}", _rod(mass, length, 0.03, "x"))
        r.revolute(f"joint{k}", parent, f"link{k}", (offset, 0, 0))
        parent, offset = f"link{k}", length
    r.link("tool")
    r.joints.append(_fixed("tool_mount", "link3", "tool", (0.3, 0, 0)))
    return r


def arm_6dof() -> Robot:
    r = Robot("arm_6dof",
              ["Demo: spatial 6-DoF arm on a fixed base (yaw z, shoulder y, elbow y, wrist roll x,",
               "wrist pitch y, wrist roll x), a tilted mounting frame on the base and a fixed tool",
               "flange; solid-rod links."],
              "nothing: the numbers are invented for demos (no robot-data file)")
    r.link("base")
    rows = [  # link, joint origin in parent, origin rpy, axis, rod (mass, length, along)
        ("shoulder", (0, 0, 0.1), (0, 0, 0.3), "z", (3.0, 0.15, "z")),
        ("upper_arm", (0, 0, 0.15), (0, 0, 0), "y", (2.5, 0.45, "z")),
        ("forearm", (0, 0, 0.45), (0, 0, 0), "y", (1.5, 0.35, "z")),
        ("wrist_1", (0, 0, 0.35), (0, math.pi / 2, 0), "x", (0.6, 0.08, "z")),
        ("wrist_2", (0, 0, 0.08), (0, 0, 0), "y", (0.5, 0.08, "z")),
        ("wrist_3", (0, 0, 0.08), (0, 0, 0), "x", (0.3, 0.05, "z")),
    ]
    parent = "base"
    for k, (link, xyz, rpy, axis, (mass, length, along)) in enumerate(rows, start=1):
        r.link(link, _rod(mass, length, 0.04, along))
        r.revolute(f"joint{k}", parent, link, xyz, rpy, axis)
        parent = link
    r.link("tool_flange", diag_inertial(0.2, (0, 0, 0.02), 1e-4, 1e-4, 1e-4))
    r.joints.append(_fixed("flange_mount", "wrist_3", "tool_flange", (0, 0, 0.05)))
    return r


def ball_screw_knee(shaft_axial_inertia: float = 3.5e-5) -> Robot:
    """Knee driven by a ball-screw linear actuator (invented demo numbers): a helical joint and a
    prismatic joint inside one loop cluster. shaft_axial_inertia: the shaft + motor rotor's moment
    about the screw axis (tests vary it to see the reflected inertia)."""
    lead = 0.005  # m per revolution: a 12 x 5 ball screw
    r = Robot("ball_screw_knee",
              ["Knee driven by a ball-screw linear actuator, planar in x-z (pivot axes along y), on a",
               "fixed thigh: shank on the knee (0, 0, -0.4); actuator housing pivoting at (-0.05, 0, -0.1);",
               "nut sliding along the housing's z (prismatic nut_slide, 0.25 below the pivot at q = 0);",
               "shaft (screw, with the motor rotor) on a helical joint screw_turn in the nut, lead 5 mm",
               "per revolution, right-handed (SDFormat's <screw_thread_pitch> 0.005 m/rev, equally",
               "<thread_pitch> -2 pi / 0.005 rad/m: grbda's pitch 0.005 / 2 pi m/rad). Loop",
               "screw_bearing (revolute about z) holds the shaft axially in the housing at the pivot: its",
               "one row is the helical pair, nut_slide = -(0.005 / 2 pi) screw_turn. Loop nut_link",
               "(revolute about y, 2 rows) pins the nut to the shank's crank point (-0.05, 0, 0.05).",
               "4 coordinates - 3 rows = 1 DoF. Independent: knee. The knee fixes the actuator's length,",
               "hence the nut travel and the shaft angle, at every pose; the motor angle does not: it folds",
               "where the screw axis passes through the knee axis (knee = 0.62 rad, the shortest actuator),",
               "and it turns about 63 rad per knee radian at q = 0."],
              "tools/models/mechanisms.py (invented numbers)")
    r.link("thigh")
    r.link("shank", diag_inertial(1.2, (0, 0, -0.18), 0.018, 0.018, 0.001))
    r.link("housing", diag_inertial(0.6, (0, 0, -0.04), 6e-4, 6e-4, 1e-4))
    r.link("nut", diag_inertial(0.08, (0, 0, 0), 1e-5, 1e-5, 1e-5))
    r.link("screw", diag_inertial(0.35, (0, 0, 0.125), 1.8e-3, 1.8e-3, shaft_axial_inertia))
    r.revolute("knee", "thigh", "shank", (0, 0, -0.4), axis="y", independent=True, type="continuous")
    r.revolute("pivot", "thigh", "housing", (-0.05, 0, -0.1), axis="y", independent=False, type="continuous")
    r.prismatic("nut_slide", "housing", "nut", (0, 0, -0.25), axis="z", independent=False)
    r.screw("screw_turn", "nut", "screw", lead, axis="z", independent=False)
    r.loops.append(Loop("screw_bearing", "screw", (0, 0, 0.25), "housing", (0, 0, 0), (0.0, 0.0, 1.0)))
    r.loops.append(Loop("nut_link", "nut", (0, 0, 0), "shank", (-0.05, 0, 0.05), (0.0, 1.0, 0.0)))
    r.closed_configuration = {}
    return r


def ankle_2rsu() -> Robot:
    """2-RSU parallel ankle (invented demo numbers, the layout of recent humanoid ankles).

    tests/test_loop_types.cpp builds the same mechanism in code."""
    r = Robot("ankle_2rsu",
              ["2-RSU parallel ankle on a fixed shank: the foot on a universal joint (ankle_pitch about",
               "y, ankle_roll about x) at the origin; two cranks about y at (0, +-0.03, 0.2), 0.04 long",
               "pointing back, each driving a 0.23 m rod down to the foot 0.04 behind the ankle.",
               "Left: rod on a universal at the crank (two revolutes), ball at the foot",
               "(<loop type=\"spherical\">); right: ball at the crank (three revolutes), universal at the",
               "foot (<loop type=\"universal\">, axis x on the rod, axis2 y on the foot). Actuators:",
               "crank_l_joint, crank_r_joint (together: pitch; opposite: roll)."],
              "tools/models/mechanisms.py (invented numbers)")
    r.link("shank")
    r.link("ankle_cross", diag_inertial(0.05, (0, 0, 0), 1e-5, 1e-5, 1e-5))
    r.link("foot", diag_inertial(0.6, (0.04, 0, -0.04), 4e-4, 1.2e-3, 1.4e-3))
    r.revolute("ankle_pitch", "shank", "ankle_cross", axis="y", independent=False)
    r.revolute("ankle_roll", "ankle_cross", "foot", axis="x", independent=False)
    crank = diag_inertial(0.1, (-0.02, 0, 0), 2e-5, 5e-5, 5e-5)
    cross = diag_inertial(0.01, (0, 0, 0), 1e-6, 1e-6, 1e-6)
    rod = _rod(0.05, 0.23, 0.004, "z")
    rod = Inertial(rod.mass, (0.0, 0.0, -0.115), rod.inertia)  # hangs down from the crank
    for side, y in (("l", 0.03), ("r", -0.03)):
        r.link(f"crank_{side}", crank)
        r.revolute(f"crank_{side}_joint", "shank", f"crank_{side}", (0, y, 0.2), axis="y", independent=True)
    r.link("rod_l_x", cross)
    r.link("rod_l", rod)
    r.revolute("rod_l_u1", "crank_l", "rod_l_x", (-0.04, 0, 0), axis="x", independent=False)
    r.revolute("rod_l_u2", "rod_l_x", "rod_l", axis="y", independent=False)
    r.link("rod_r_x", cross)
    r.link("rod_r_y", cross)
    r.link("rod_r", rod)
    r.revolute("rod_r_s1", "crank_r", "rod_r_x", (-0.04, 0, 0), axis="x", independent=False)
    r.revolute("rod_r_s2", "rod_r_x", "rod_r_y", axis="y", independent=False)
    r.revolute("rod_r_s3", "rod_r_y", "rod_r", axis="z", independent=False)
    r.loops.append(Loop("left_ball", "rod_l", (0, 0, -0.23), "foot", (-0.04, 0.03, -0.03), type="spherical", rows=3))
    r.loops.append(Loop("right_cardan", "rod_r", (0, 0, -0.23), "foot", (-0.04, -0.03, -0.03), (1.0, 0.0, 0.0),
                        type="universal", axis2=(0.0, 1.0, 0.0), rows=4))
    r.closed_configuration = {}
    return r


def delta_robot() -> Robot:
    """Delta robot: three motors on a fixed base, each driving a parallelogram of two rods down to a
    platform that only translates (invented demo numbers, the layout of pick-and-place deltas).

    A ball inside the tree is three revolutes and each rod's top joint a universal (two revolutes,
    so the rod cannot spin idly): the platform hangs from rod 0+ by a ball and the other five rods
    close on it with <loop type="spherical">. 18 coordinates, 15 rows, 3 DoF (the motors). At q = 0
    the upper arms are horizontal and every rod runs 0.45 m inward and 0.6 m down (0.75 m long,
    tilted by asin(0.6) from the vertical), so the pose is closed and regular."""
    rb, la, rp, w, h = 0.2, 0.3, 0.05, 0.04, 0.6  # base radius, arm, platform radius, half rod gap, drop
    length = math.hypot(rb + la - rp, h)  # 0.75
    tilt = math.atan2(rb + la - rp, h)  # rods lean inward: -z turned by `tilt` about the arm's y
    r = Robot("delta_robot",
              ["Delta robot on a fixed base (z up): three motors at radius 0.2 m, 120 deg apart (arm k",
               "along the base's x turned by k*120 deg), each turning about the tangent (its frame's y)",
               "an upper arm 0.3 m long, horizontal at q = 0. Each arm carries a parallelogram of two",
               "0.75 m rods at +-0.04 m along the motor axis down to a platform of radius 0.05 m, 0.6 m",
               "below the base. Rod tops: universal joints (rod_*_u1 about the arm's y, rod_*_u2 about",
               "the rod's x); the platform hangs from rod_0p by a ball written as three revolutes",
               "(platform_bx, _by, _bz), the other five rod ends close on it with <loop",
               "type=\"spherical\">. The parallelograms keep the platform's orientation fixed.",
               "Actuators: motor_0, motor_1, motor_2 (positive turns the arm down)."],
              "tools/models/mechanisms.py (invented numbers)")
    r.link("base")
    arm = _rod(0.3, la, 0.015, "x")
    cross = diag_inertial(0.01, (0, 0, 0), 1e-6, 1e-6, 1e-6)
    rod = _rod(0.03, length, 0.004, "z")
    rod = Inertial(rod.mass, (0.0, 0.0, -length / 2), rod.inertia)  # hangs down from the elbow
    ends = {}  # (arm, side) -> the rod's platform end, relative to rod 0+'s end, platform axes
    for k in range(3):
        phi = 2 * math.pi * k / 3
        c, s = math.cos(phi), math.sin(phi)
        r.link(f"upper_arm_{k}", arm)
        r.revolute(f"motor_{k}", "base", f"upper_arm_{k}", (rb * c, rb * s, 0), (0, 0, phi), axis="y",
                   independent=True)
        for side, sign in (("p", 1.0), ("m", -1.0)):
            name = f"rod_{k}{side}"
            r.link(f"{name}_x", cross)
            r.link(name, rod)
            r.revolute(f"{name}_u1", f"upper_arm_{k}", f"{name}_x", (la, sign * w, 0), (0, tilt, 0), axis="y",
                       independent=False)
            r.revolute(f"{name}_u2", f"{name}_x", name, axis="x", independent=False)
            ends[(k, side)] = (rp * c - sign * w * s, rp * s + sign * w * c, 0.0)
    # Platform: its frame at rod 0+'s end, axes parallel to the base's at q = 0 (rpy undoes the tilt).
    r.link("platform_x", cross)
    r.link("platform_y", cross)
    r.link("platform", diag_inertial(0.2, (-rp, -w, 0), 1.5e-4, 1.5e-4, 2.8e-4))
    r.revolute("platform_bx", "rod_0p", "platform_x", (0, 0, -length), (0, -tilt, 0), axis="x", independent=False)
    r.revolute("platform_by", "platform_x", "platform_y", axis="y", independent=False)
    r.revolute("platform_bz", "platform_y", "platform", axis="z", independent=False)
    origin = ends[(0, "p")]
    for (k, side), end in ends.items():
        if (k, side) != (0, "p"):
            rel = tuple(round(e - o, 15) for e, o in zip(end, origin))
            r.loops.append(Loop(f"ball_{k}{side}", f"rod_{k}{side}", (0, 0, -length), "platform", rel,
                                type="spherical", rows=3))
    r.closed_configuration = {}
    return r


def _fixed(name, parent, child, xyz):
    return Joint(name, "fixed", parent, child, xyz)


def all_models():
    return [four_bar(), six_bar(), planar_leg_linkage(), revolute_rotor_chain(), double_pendulum(),
            planar_arm_3dof(), arm_6dof(), ankle_2rsu(), delta_robot(),
            ball_screw_knee()]
