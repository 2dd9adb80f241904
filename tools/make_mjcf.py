#!/usr/bin/env python3
"""Writes a URDF+ robot with geared rotors as MuJoCo MJCF, for the side-by-side benchmark
(bench/bench_mujoco.cpp, bench/RESULTS.md). MuJoCo has no rotor-gear joint, so the rotors go in one
of the two ways MuJoCo users write them:

  armature  each rotor's mass is lumped into the link that carries it and its spin into the driven
            joint's armature N^2 I_axial (the diagonal reflected inertia; the gyroscopic and
            off-diagonal terms of the rotor are dropped)
  rotors    each rotor a body on its own hinge, tied to the driven joint by a (soft) equality
            <equality><joint joint1=ROTOR joint2=LINK polycoef="0 N 0 0 0"/></equality>

Everything else is copied from the URDF+ as is: links, inertias, joint frames and axes, the
`<collision>` spheres (the Mini Cheetah's 0.02 m foot spheres), plus a ground plane at z = 0 with
friction MU, a pyramidal cone, the Newton solver, Euler integration and dt. One motor per driven
joint takes the link-side torque as ctrl (on the rotor joint with gear 1/N in the `rotors` variant,
where the motor is). No joint ranges: the URDF's limits are placeholders and grbda's simulator never
reaches them in these runs.

    python3 tools/make_mjcf.py models/mini_cheetah.urdf --variant armature|rotors -o OUT.xml
        [--friction 1.0] [--dt 0.001] [--height 0.30]
"""
import argparse
import math
import sys
import xml.etree.ElementTree as ET

import numpy as np


def floats(text, n=None, default=0.0):
    if text is None:
        return np.full(n, default, dtype=float)
    values = np.array([float(x) for x in text.split()])
    if n is not None and len(values) != n:
        raise ValueError(f"expected {n} numbers, got '{text}'")
    return values


def rpy_matrix(rpy):
    """URDF's fixed-axis roll-pitch-yaw: R = Rz(y) Ry(p) Rx(r)."""
    r, p, y = rpy
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def matrix_quat(R):
    """Unit quaternion (w, x, y, z) of a rotation matrix (Shepperd's method)."""
    t = np.trace(R)
    if t > 0:
        s = 2.0 * math.sqrt(1.0 + t)
        q = [0.25 * s, (R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s]
    else:
        i = int(np.argmax(np.diag(R)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = 2.0 * math.sqrt(1.0 + R[i, i] - R[j, j] - R[k, k])
        q = [0.0] * 4
        q[0] = (R[k, j] - R[j, k]) / s
        q[1 + i] = 0.25 * s
        q[1 + j] = (R[j, i] + R[i, j]) / s
        q[1 + k] = (R[k, i] + R[i, k]) / s
    q = np.array(q)
    return q / np.linalg.norm(q) * (1 if q[0] >= 0 else -1)


def origin(element):
    """(position, rotation) of an `<origin>` child (identity when absent)."""
    o = element.find("origin") if element is not None else None
    if o is None:
        return np.zeros(3), np.eye(3)
    return floats(o.get("xyz"), 3), rpy_matrix(floats(o.get("rpy"), 3))


class Inertia:
    """Mass, centre of mass and inertia about the centre of mass, in some body frame."""

    def __init__(self, mass=0.0, com=np.zeros(3), inertia=np.zeros((3, 3))):
        self.mass, self.com, self.inertia = mass, np.asarray(com, float), np.asarray(inertia, float)

    @staticmethod
    def of_link(link):
        e = link.find("inertial")
        if e is None:
            return Inertia()
        c, R = origin(e)
        i = e.find("inertia")
        I = np.array([[float(i.get("ixx", 0)), float(i.get("ixy", 0)), float(i.get("ixz", 0))],
                      [float(i.get("ixy", 0)), float(i.get("iyy", 0)), float(i.get("iyz", 0))],
                      [float(i.get("ixz", 0)), float(i.get("iyz", 0)), float(i.get("izz", 0))]])
        return Inertia(float(e.find("mass").get("value")), c, R @ I @ R.T)

    def moved(self, p, R):
        """The same body seen from a frame in which this frame sits at (p, R)."""
        return Inertia(self.mass, p + R @ self.com, R @ self.inertia @ R.T)

    def __add__(self, other):
        m = self.mass + other.mass
        if m == 0.0:
            return Inertia()
        c = (self.mass * self.com + other.mass * other.com) / m
        total = np.zeros((3, 3))
        for part in (self, other):  # parallel axis theorem to the common centre
            d = part.com - c
            total += part.inertia + part.mass * (d @ d * np.eye(3) - np.outer(d, d))
        return Inertia(m, c, total)

    def balanced(self):
        """(inertia, added): MuJoCo rejects principal moments that break the triangle inequality
        A + B >= C (a physically impossible body, which grbda accepts as written); the two smaller
        moments are raised by half the excess each (and 1e-12 for rounding), the axes kept."""
        e, V = np.linalg.eigh(self.inertia)
        excess = e[2] - e[0] - e[1]
        if excess <= 0:
            return self, 0.0
        e[:2] += excess / 2 + 1e-12
        return Inertia(self.mass, self.com, V @ np.diag(e) @ V.T), excess

    def about_axis(self, axis):
        """Moment of inertia about the line through the frame's origin along axis."""
        a = axis / np.linalg.norm(axis)
        d = self.com
        return a @ (self.inertia + self.mass * (d @ d * np.eye(3) - np.outer(d, d))) @ a


def num(v):
    """The shortest text that reads back as the same double (MuJoCo then sees grbda's numbers)."""
    text = repr(float(v) + 0.0)  # + 0.0: no "-0.0"
    return text[:-2] if text.endswith(".0") else text


def fmt(values):
    return " ".join(num(v) for v in np.ravel(values))


class Robot:
    """The URDF+ tree: links, joints by child, couplings (rotor joint -> (driven joint, ratio))."""

    def __init__(self, path):
        root = ET.parse(path).getroot()
        self.name = root.get("name", "robot")
        self.links = {l.get("name"): l for l in root.findall("link")}
        self.joints = root.findall("joint")
        self.joint_of_child = {j.find("child").get("link"): j for j in self.joints}
        self.children = {}
        for j in self.joints:
            self.children.setdefault(j.find("parent").get("link"), []).append(j)
        self.rotor_of = {}  # rotor joint name -> (driven joint name, ratio)
        for c in root.findall("coupling"):
            driven = self.joint_of_child[c.find("predecessor").get("link")].get("name")
            rotor = self.joint_of_child[c.find("successor").get("link")].get("name")
            self.rotor_of[rotor] = (driven, float(c.find("ratio").get("value")))
        for j in self.joints:
            if j.get("independent") == "false" and j.get("name") not in self.rotor_of:
                raise ValueError(f"joint '{j.get('name')}' is dependent but not a coupling's rotor")
        roots = [l for l in self.links if l not in self.joint_of_child]
        if len(roots) != 1:
            raise ValueError(f"expected one root link, got {roots}")
        self.root = roots[0]


class Writer:
    def __init__(self, robot, variant, friction, dt, height):
        self.robot, self.variant, self.friction, self.dt, self.height = robot, variant, friction, dt, height
        self.armature = {}    # driven joint -> N^2 I_axial (armature variant)
        self.actuators = []   # (name, joint, gear)
        self.equalities = []  # (rotor joint, driven joint, ratio)
        self.balanced = {}    # link -> (the inertia written, the excess A + B < C it removed)

    def build(self):
        r = self.robot
        mj = ET.Element("mujoco", model=f"{r.name}_{self.variant}")
        ET.SubElement(mj, "compiler", angle="radian", inertiafromgeom="false")
        ET.SubElement(mj, "option", timestep=f"{self.dt:g}", gravity="0 0 -9.81", integrator="Euler",
                      cone="pyramidal", solver="Newton")
        world = ET.SubElement(mj, "worldbody")
        # the ground collides with the robot's shapes, the shapes not with each other (as in grbda)
        ET.SubElement(world, "geom", name="ground", type="plane", size="0 0 1", contype="0", conaffinity="1",
                      friction=f"{self.friction:g} 0.005 0.0001", condim="3")
        if self.variant == "armature":
            for rotor, (driven, ratio) in r.rotor_of.items():
                j = next(x for x in r.joints if x.get("name") == rotor)
                I = Inertia.of_link(r.links[j.find("child").get("link")])
                self.armature[driven] = ratio ** 2 * I.about_axis(floats(j.find("axis").get("xyz"), 3))
        for j in r.children.get(r.root, []):
            self.body(world, j, np.zeros(3), np.eye(3))
        if self.equalities:
            eq = ET.SubElement(mj, "equality")
            for rotor, driven, ratio in self.equalities:
                ET.SubElement(eq, "joint", name=f"{rotor}_gear", joint1=rotor, joint2=driven,
                              polycoef=f"0 {num(ratio)} 0 0 0")
        if self.actuators:
            act = ET.SubElement(mj, "actuator")
            for name, joint, gear in self.actuators:
                ET.SubElement(act, "motor", name=name, joint=joint, gear=num(gear))
        return mj

    def body(self, parent_el, joint, p, R):
        """The body of joint's child, placed at (p, R) · origin(joint) in parent_el's frame."""
        r = self.robot
        name, kind = joint.get("name"), joint.get("type")
        child = joint.find("child").get("link")
        jp, jR = origin(joint)
        p, R = p + R @ jp, R @ jR
        if kind == "fixed":  # merged into the parent body: its shapes and mass, a site at its frame
            self.shapes(parent_el, r.links[child], p, R)
            ET.SubElement(parent_el, "site", name=child, pos=fmt(p), quat=fmt(matrix_quat(R)))
            if Inertia.of_link(r.links[child]).mass > 0:
                raise ValueError(f"fixed link '{child}' with mass: not supported by this generator")
            for j in r.children.get(child, []):
                self.body(parent_el, j, p, R)
            return
        if self.variant == "armature" and name in r.rotor_of:
            return  # lumped into the parent's inertial (see inertial())
        attrs = dict(name=child, pos=fmt(p))
        if not np.allclose(R, np.eye(3)):
            attrs["quat"] = fmt(matrix_quat(R))
        if kind == "floating":
            attrs["pos"] = fmt(p + np.array([0.0, 0.0, self.height]))
        el = ET.SubElement(parent_el, "body", **attrs)
        if kind == "floating":
            ET.SubElement(el, "freejoint", name=name)
        elif kind in ("revolute", "continuous", "prismatic"):
            ja = dict(name=name, type="slide" if kind == "prismatic" else "hinge",
                      axis=fmt(floats(joint.find("axis").get("xyz") if joint.find("axis") is not None else "1 0 0", 3)))
            if name in self.armature:
                ja["armature"] = num(self.armature[name])
            ET.SubElement(el, "joint", **ja)
            if name in r.rotor_of:
                driven, ratio = r.rotor_of[name]
                self.equalities.append((name, driven, ratio))
                self.actuators.append((driven, name, 1.0 / ratio))
            elif self.variant == "armature" or name not in {d for d, _ in r.rotor_of.values()}:
                self.actuators.append((name, name, 1.0))  # a joint without a rotor: its motor on it
        else:
            raise ValueError(f"joint '{name}': type '{kind}' not supported")
        self.inertial(el, child)
        self.shapes(el, r.links[child], np.zeros(3), np.eye(3))
        for j in r.children.get(child, []):
            self.body(el, j, np.zeros(3), np.eye(3))

    def inertial(self, el, link):
        """The link's inertial; in the armature variant plus the rotors it carries (rigidly)."""
        r = self.robot
        total = Inertia.of_link(r.links[link])
        if self.variant == "armature":
            for j in r.children.get(link, []):
                if j.get("name") in r.rotor_of:
                    jp, jR = origin(j)
                    total = total + Inertia.of_link(r.links[j.find("child").get("link")]).moved(jp, jR)
        if total.mass <= 0:
            raise ValueError(f"link '{link}' has no mass: MuJoCo needs one on a moving body")
        total, excess = total.balanced()
        if excess > 0:
            self.balanced[link] = (total, excess)
        I = total.inertia
        ET.SubElement(el, "inertial", pos=fmt(total.com), mass=num(total.mass),
                      fullinertia=fmt([I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]]))

    def shapes(self, el, link, p, R):
        for k, c in enumerate(link.findall("collision")):
            cp, cR = origin(c)
            g = c.find("geometry")
            attrs = dict(name=f"{link.get('name')}_{k}" if k else link.get("name"), pos=fmt(p + R @ cp),
                         contype="1", conaffinity="0", condim="3", friction=f"{self.friction:g} 0.005 0.0001")
            Rg = R @ cR
            if not np.allclose(Rg, np.eye(3)):
                attrs["quat"] = fmt(matrix_quat(Rg))
            if g.find("sphere") is not None:
                attrs.update(type="sphere", size=g.find("sphere").get("radius"))
            elif g.find("box") is not None:
                attrs.update(type="box", size=fmt(floats(g.find("box").get("size"), 3) / 2))
            elif g.find("cylinder") is not None:
                cy = g.find("cylinder")
                attrs.update(type="cylinder", size=f"{cy.get('radius')} {float(cy.get('length')) / 2:.12g}")
            else:
                print(f"make_mjcf: link '{link.get('name')}': skipping a non-primitive collision shape", file=sys.stderr)
                continue
            ET.SubElement(el, "geom", **attrs)


def make_mjcf(urdf, variant, friction=1.0, dt=1e-3, height=0.30):
    """(MJCF text, {link: (inertia written, excess removed)}) of a URDF+ file (variant: 'armature'
    or 'rotors')."""
    if variant not in ("armature", "rotors"):
        raise ValueError(f"variant must be 'armature' or 'rotors', got '{variant}'")
    writer = Writer(Robot(urdf), variant, friction, dt, height)
    mj = writer.build()
    ET.indent(mj)
    notes = "".join(f"\n     {link}: principal moments raised by {excess:.3g} kg m^2 in total (MuJoCo needs A + B >= C)"
                    for link, (_, excess) in writer.balanced.items())
    header = (f"<!-- Written by tools/make_mjcf.py from {urdf.split('/')[-1]} (variant '{variant}'): "
              f"edit the generator, not this file.{notes} -->\n")
    return header + ET.tostring(mj, encoding="unicode") + "\n", writer.balanced


def balanced_urdf(urdf, balanced):
    """The URDF text with the links' inertias as the MJCF has them (for an exact comparison)."""
    tree = ET.parse(urdf)
    for link in tree.getroot().findall("link"):
        if link.get("name") not in balanced:
            continue
        inertia, _ = balanced[link.get("name")]
        e = link.find("inertial")
        _, R = origin(e)
        I = R.T @ inertia.inertia @ R  # back into the `<inertial>` frame
        for name, (r, c) in dict(ixx=(0, 0), iyy=(1, 1), izz=(2, 2), ixy=(0, 1), ixz=(0, 2), iyz=(1, 2)).items():
            e.find("inertia").set(name, f"{I[r, c]:.17g}")
    return ET.tostring(tree.getroot(), encoding="unicode") + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("urdf")
    parser.add_argument("--variant", choices=["armature", "rotors"], required=True)
    parser.add_argument("-o", "--out", required=True)
    parser.add_argument("--friction", type=float, default=1.0, help="ground and foot friction coefficient")
    parser.add_argument("--dt", type=float, default=1e-3, help="time step (s)")
    parser.add_argument("--height", type=float, default=0.30, help="initial height of a floating root (m)")
    parser.add_argument("--balanced-urdf", metavar="OUT", help="also write the URDF with the inertias the MJCF has")
    args = parser.parse_args()
    text, balanced = make_mjcf(args.urdf, args.variant, args.friction, args.dt, args.height)
    with open(args.out, "w") as f:
        f.write(text)
    if args.balanced_urdf:
        with open(args.balanced_urdf, "w") as f:
            f.write(balanced_urdf(args.urdf, balanced))


if __name__ == "__main__":
    main()
