"""A tiny in-memory URDF+ model (links, joints, couplings, loops), its writer and self-checks.

The robot modules fill a `Robot` from facts transcribed in Python; `Robot.to_xml()` writes the
file. Before writing, `Robot.summary()` recomputes the counts that go into the header comment
(bodies, spanning DoF, clusters, independent DoF) from the structure itself and checks that the
`independent` flags agree with the constraints, and `check_closed()` verifies that the recorded
closed configuration really closes every <loop>.
"""
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

Vec3 = Tuple[float, float, float]

# Joint limits are required by URDF for revolute joints but unused by the dynamics.
PLACEHOLDER_LIMIT = 'effort="1000" velocity="1000" lower="-1000" upper="1000"'


def num(x: float) -> str:
    """Shortest text that reads back as the same double; integers without a decimal point."""
    x = float(x)
    if x == 0.0:
        return "0"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def vec(v) -> str:
    return " ".join(num(c) for c in v)


@dataclass(frozen=True)
class Inertial:
    mass: float
    com: Vec3
    # (ixx, iyy, izz, ixy, ixz, iyz): tensor entries about the COM, link axes
    inertia: Tuple[float, float, float, float, float, float]

    def mirrored_y(self) -> "Inertial":
        """Reflection across the x-z plane (left <-> right): COM y, ixy, iyz change sign."""
        ixx, iyy, izz, ixy, ixz, iyz = self.inertia
        cx, cy, cz = self.com
        return Inertial(self.mass, (cx, -cy, cz), (ixx, iyy, izz, -ixy, ixz, -iyz))

    def with_mass(self, mass: float) -> "Inertial":
        return Inertial(mass, self.com, self.inertia)


def diag_inertial(mass: float, com: Vec3, ixx: float, iyy: float, izz: float) -> Inertial:
    return Inertial(mass, com, (ixx, iyy, izz, 0.0, 0.0, 0.0))


def rotor_inertial(mass: float, transverse: float, axial: float, axis: str) -> Inertial:
    """A rotor symmetric about its spin axis, the axial moment placed on `axis` (x, y or z)."""
    moments = [transverse] * 3
    moments["xyz".index(axis)] = axial
    return diag_inertial(mass, (0.0, 0.0, 0.0), *moments)


AXES = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0)}


def flip_y(v: Vec3) -> Vec3:
    return (v[0], -v[1], v[2])


@dataclass
class Link:
    name: str
    inertial: Optional[Inertial]
    collision: Optional[str] = None  # a <collision> element's <origin>/<geometry> body, for the simulator


@dataclass
class Joint:
    name: str
    type: str  # revolute | continuous | prismatic | screw | floating | fixed
    parent: str
    child: str
    xyz: Vec3 = (0.0, 0.0, 0.0)
    rpy: Vec3 = (0.0, 0.0, 0.0)
    axis: Optional[Vec3] = None
    independent: Optional[bool] = None  # None: attribute absent (= independent)
    lead: Optional[float] = None  # screw: travel along the axis per revolution [m], positive right-handed


@dataclass
class Coupling:
    name: str
    predecessor: str
    successor: str
    ratio: float


@dataclass
class Loop:
    name: str
    predecessor: str
    predecessor_xyz: Vec3
    successor: str
    successor_xyz: Vec3
    axis: Vec3 = (0.0, 0.0, 1.0)
    type: str = "revolute"  # planar revolute closures about z (2 rows), or a spatial type below
    axis2: Optional[Vec3] = None  # universal: the successor's axis
    rows: int = 2  # spatial types: the rows the loop states (spherical 3, universal 4)


@dataclass
class Robot:
    name: str
    description: List[str]  # first lines of the header comment (what it is)
    source: str  # e.g. "robot-data/mini_cheetah.md"
    notes: List[str] = field(default_factory=list)  # extra header lines
    links: List[Link] = field(default_factory=list)
    joints: List[Joint] = field(default_factory=list)
    couplings: List[Coupling] = field(default_factory=list)
    loops: List[Loop] = field(default_factory=list)
    closed_configuration: Optional[Dict[str, float]] = None  # joint name -> q (others 0)
    limit: str = PLACEHOLDER_LIMIT

    # ---- building -------------------------------------------------------------------------
    def link(self, name: str, inertial: Optional[Inertial] = None) -> str:
        self.links.append(Link(name, inertial))
        return name

    def revolute(self, name, parent, child, xyz=(0, 0, 0), rpy=(0, 0, 0), axis="z",
                 independent=None, type="revolute") -> Joint:
        j = Joint(name, type, parent, child, tuple(xyz), tuple(rpy), AXES[axis], independent)
        self.joints.append(j)
        return j

    def prismatic(self, name, parent, child, xyz=(0, 0, 0), axis="z", independent=None) -> Joint:
        j = Joint(name, "prismatic", parent, child, tuple(xyz), (0.0, 0.0, 0.0), AXES[axis], independent)
        self.joints.append(j)
        return j

    def screw(self, name, parent, child, lead: float, xyz=(0, 0, 0), axis="z", independent=None) -> Joint:
        """A helical joint: the child turns q about `axis` and advances lead * q / 2 pi along it."""
        j = Joint(name, "screw", parent, child, tuple(xyz), (0.0, 0.0, 0.0), AXES[axis], independent, lead)
        self.joints.append(j)
        return j

    def frame(self, name: str, parent: str, xyz, collision: Optional[str] = None) -> str:
        """A massless link fixed to `parent` at `xyz`: a named frame (feet, hands) for contacts,
        with an optional collision shape (the inside of its <collision> element)."""
        self.links.append(Link(name, None, collision))
        self.joints.append(Joint(f"{parent}_to_{name}", "fixed", parent, name, tuple(xyz)))
        return name

    def floating(self, name: str, parent: str, child: str) -> Joint:
        j = Joint(name, "floating", parent, child)
        self.joints.append(j)
        return j

    def couple(self, name: str, predecessor: str, successor: str, ratio: float) -> None:
        self.couplings.append(Coupling(name, predecessor, successor, ratio))

    def geared(self, parent: str, link: Tuple[str, str, Inertial], rotor: Tuple[str, str, Inertial],
               xyz, rpy, axis: str, ratio: float, coupling: str, rotor_xyz=None, rotor_rpy=None,
               with_rotor: bool = True, link_independent=None) -> None:
        """Link + rotor on the same parent, rotor rate = ratio x link rate (one coupling).
        link/rotor = (link name, joint name, inertial). with_rotor=False writes the link alone
        (the rotor-free "approximate" models)."""
        link_name, link_joint, link_inertial = link
        self.link(link_name, link_inertial)
        self.revolute(link_joint, parent, link_name, xyz, rpy, axis, link_independent)
        if not with_rotor:
            return
        rotor_name, rotor_joint, rotor_in = rotor
        self.link(rotor_name, rotor_in)
        self.revolute(rotor_joint, parent, rotor_name, rotor_xyz if rotor_xyz is not None else xyz,
                      rotor_rpy if rotor_rpy is not None else rpy, axis, False)
        self.couple(coupling, link_name, rotor_name, ratio)

    # ---- structure queries ----------------------------------------------------------------
    def _parent_joint(self) -> Dict[str, Joint]:
        return {j.child: j for j in self.joints}

    def _path_to(self, link: str, stop: str) -> List[str]:
        """Links from `link` up to (excluding) the ancestor `stop`."""
        pj, out = self._parent_joint(), []
        while link != stop:
            out.append(link)
            link = pj[link].parent
        return out

    def _ancestors(self, link: str) -> List[str]:
        pj, out = self._parent_joint(), [link]
        while link in pj:
            link = pj[link].parent
            out.append(link)
        return out

    def nca(self, a: str, b: str) -> str:
        up_b = set(self._ancestors(b))
        return next(x for x in self._ancestors(a) if x in up_b)

    def moving_links(self) -> List[str]:
        return [j.child for j in self.joints if j.type != "fixed"]

    def total_mass(self) -> float:
        return sum(l.inertial.mass for l in self.links if l.inertial)

    def summary(self) -> dict:
        """Counts for the header, recomputed from the structure; raises on inconsistent flags."""
        names = [l.name for l in self.links]
        assert len(set(names)) == len(names), f"{self.name}: duplicate link names"
        jnames = [j.name for j in self.joints]
        assert len(set(jnames)) == len(jnames), f"{self.name}: duplicate joint names"
        for j in self.joints:
            assert j.parent in names and j.child in names, f"{self.name}: joint {j.name} dangles"
        pj = self._parent_joint()
        floating = any(j.type == "floating" for j in self.joints)
        spanning = sum(6 if j.type == "floating" else 0 if j.type == "fixed" else 1 for j in self.joints)
        # Clusters: links on the paths of each constraint (merged when they share a link).
        groups: List[Tuple[set, list]] = []
        for c in list(self.couplings) + list(self.loops):
            top = self.nca(c.predecessor, c.successor)
            members = set(self._path_to(c.predecessor, top)) | set(self._path_to(c.successor, top))
            merged = [g for g in groups if g[0] & members]
            for g in merged:
                groups.remove(g)
                members |= g[0]
            groups.append((members, [c] + [x for g in merged for x in g[1]]))
        kinds = Counter()
        constrained = set()
        for members, cons in groups:
            is_loop = [isinstance(c, Loop) for c in cons]
            assert all(is_loop) or not any(is_loop), f"{self.name}: loop and coupling in one cluster"
            rows = 0
            for c in cons:
                rows += self._loop_rows(c) if isinstance(c, Loop) else 1
            dof = len(members) - rows
            independent = sum(1 for l in members if pj[l].independent is not False)
            assert independent == dof, (f"{self.name}: cluster {sorted(members)} has {dof} DoF "
                                        f"but {independent} independent joints")
            kinds[("loop" if is_loop[0] else "coupling", len(members), dof)] += 1
            constrained |= members
        singles = Counter(pj[l].type for l in self.moving_links() if l not in constrained)
        rows_total = len(self.couplings) + sum(self._loop_rows(l) for l in self.loops)
        parts = []
        if singles.get("floating"):
            parts.append("1 free")
        for (kind, bodies, dof), n in sorted(kinds.items()):
            parts.append(f"{n} x {kind} ({bodies} bodies, {dof} DoF)")
        revs = singles.get("revolute", 0) + singles.get("continuous", 0)
        if revs:
            parts.append(f"{revs} x revolute (1 body)")
        return dict(bodies=len(self.moving_links()), spanning=spanning,
                    independent=spanning - rows_total, floating=floating,
                    clusters=", ".join(parts), mass=self.total_mass())

    def _loop_rows(self, c: Loop) -> int:
        """Rows a loop keeps. Spatial types: as stated. Revolute loops, in the two shapes the models
        use: planar (every joint on the loop's path turns about the loop axis or slides normal to
        it: 2 rows) or coaxial (every path joint turns about, slides along or screws along the loop
        axis: a shaft in its bearing, 1 row, the axial position; the axes are assumed to be one
        line, which grbda's rank count checks). Path joints must have no rpy."""
        if c.type != "revolute":
            return c.rows  # a spatial closure (spherical, universal): its rows as stated
        pj = self._parent_joint()
        top = self.nca(c.predecessor, c.successor)
        path = [pj[l] for l in self._path_to(c.predecessor, top) + self._path_to(c.successor, top)]
        assert not any(any(j.rpy) for j in path), f"{self.name}: loop {c.name}: a path joint has rpy"
        turns = [j for j in path if j.type in ("revolute", "continuous")]
        slides = [j for j in path if j.type == "prismatic"]
        if len(turns) + len(slides) == len(path) and all(j.axis == c.axis for j in turns) and \
                all(sum(a * b for a, b in zip(j.axis, c.axis)) == 0 for j in slides):
            return 2
        assert all(j.axis == c.axis for j in path), f"{self.name}: loop {c.name} is neither planar nor coaxial"
        return 1

    # ---- loop closure check ---------------------------------------------------------------
    def _pose_in(self, link: str, top: str, q: Dict[str, float]):
        """(R, p) of `link`'s frame in `top`'s frame at joint values q (missing = 0)."""
        pj = self._parent_joint()
        R, p = _identity(), (0.0, 0.0, 0.0)
        for l in reversed(self._path_to(link, top)):
            j = pj[l]
            t = q.get(j.name, 0.0)
            p = _add(p, _apply(R, j.xyz))
            R = _matmul(R, _rpy(j.rpy))
            if j.type in ("prismatic", "screw"):  # slides t, or lead * t / 2 pi, along the axis
                p = _add(p, _apply(R, tuple(a * (t if j.type == "prismatic" else j.lead * t / (2 * math.pi))
                                            for a in j.axis)))
            if j.type != "prismatic":
                R = _matmul(R, _axis_angle(j.axis, t))
        return R, p

    def loop_residuals(self, q: Dict[str, float]) -> List[float]:
        out = []
        for c in self.loops:
            top = self.nca(c.predecessor, c.successor)
            Rp, pp = self._pose_in(c.predecessor, top, q)
            Rs, ps = self._pose_in(c.successor, top, q)
            a = _add(pp, _apply(Rp, c.predecessor_xyz))
            b = _add(ps, _apply(Rs, c.successor_xyz))
            out.append(math.dist(a, b))
        return out

    def check_closed(self) -> None:
        if not self.loops:
            return
        assert self.closed_configuration is not None, f"{self.name}: loops need a closed configuration"
        worst = max(self.loop_residuals(self.closed_configuration))
        assert worst < 1e-12, f"{self.name}: recorded configuration leaves a loop open by {worst}"

    # ---- writing --------------------------------------------------------------------------
    def header(self) -> str:
        s = self.summary()
        lines = [f"{self.name}.urdf: " + self.description[0]] + self.description[1:]
        lines.append(f"{'Floating' if s['floating'] else 'Fixed'} base; bodies {s['bodies']}; "
                     f"spanning DoF {s['spanning']}; independent DoF {s['independent']}.")
        lines.append(f"Clusters: {s['clusters']}.")
        lines.append(f"Total mass {num(round(s['mass'], 9))} kg.")
        if self.closed_configuration == {}:
            lines.append("closed configuration: q = 0")
        elif self.closed_configuration is not None:
            cfg = " ".join(f"{k}={num(v)}" for k, v in self.closed_configuration.items())
            lines.append(f"closed configuration: {cfg}")
            lines.append("(joints not listed are 0; q = 0 itself may be singular or open.)")
        lines += self.notes
        lines.append(f"Facts from {self.source}, transcribed for grbda.")
        lines.append("Generated by tools/make_models.py: edit the generator, not this file.")
        if any(j.type in ("revolute", "prismatic") for j in self.joints):
            lines.append("Joint limits are placeholders (the dynamics ignore them).")
        return "<!--\n" + "".join(f"  {l}\n" for l in lines) + "-->\n"

    def to_xml(self) -> str:
        self.check_closed()
        out = [self.header(), f'<robot name="{self.name}">\n']
        for l in self.links:
            out.append(_link_xml(l))
        for j in self.joints:
            out.append(_joint_xml(j, self.limit))
        for c in self.couplings:
            out.append(f'  <coupling name="{c.name}">\n'
                       f'    <predecessor link="{c.predecessor}"/>\n'
                       f'    <successor link="{c.successor}"/>\n'
                       f'    <ratio value="{num(c.ratio)}"/>\n'
                       f'  </coupling>\n')
        for c in self.loops:
            axes = "" if c.type == "spherical" else f'    <axis xyz="{vec(c.axis)}"/>\n'
            if c.axis2 is not None:
                axes += f'    <axis2 xyz="{vec(c.axis2)}"/>\n'
            out.append(f'  <loop name="{c.name}" type="{c.type}">\n'
                       f'    <predecessor link="{c.predecessor}"><origin xyz="{vec(c.predecessor_xyz)}"/></predecessor>\n'
                       f'    <successor link="{c.successor}"><origin xyz="{vec(c.successor_xyz)}"/></successor>\n'
                       + axes + '  </loop>\n')
        out.append("</robot>\n")
        return "".join(out)


def _link_xml(l: Link) -> str:
    if l.inertial is None and l.collision is not None:
        return f'  <link name="{l.name}">\n    <collision>{l.collision}</collision>\n  </link>\n'
    if l.inertial is None:
        return f'  <link name="{l.name}"/>\n'
    m = l.inertial
    ixx, iyy, izz, ixy, ixz, iyz = m.inertia
    return (f'  <link name="{l.name}">\n'
            f'    <inertial>\n'
            f'      <mass value="{num(m.mass)}"/>\n'
            f'      <origin xyz="{vec(m.com)}"/>\n'
            f'      <inertia ixx="{num(ixx)}" iyy="{num(iyy)}" izz="{num(izz)}" '
            f'ixy="{num(ixy)}" ixz="{num(ixz)}" iyz="{num(iyz)}"/>\n'
            f'    </inertial>\n'
            f'  </link>\n')


def _joint_xml(j: Joint, limit: str) -> str:
    flag = "" if j.independent is None else f' independent="{"true" if j.independent else "false"}"'
    s = f'  <joint name="{j.name}" type="{j.type}"{flag}>\n'
    s += f'    <parent link="{j.parent}"/>\n    <child link="{j.child}"/>\n'
    if any(j.xyz) or any(j.rpy):
        rpy = f' rpy="{vec(j.rpy)}"' if any(j.rpy) else ""
        s += f'    <origin xyz="{vec(j.xyz)}"{rpy}/>\n'
    if j.axis is not None:
        s += f'    <axis xyz="{vec(j.axis)}"/>\n'
    if j.type in ("revolute", "prismatic"):
        s += f'    <limit {limit}/>\n'
    if j.type == "screw":  # SDFormat's two spellings of the same lead (docs/urdf-plus.md); grbda checks they agree
        s += (f'    <screw_thread_pitch>{num(j.lead)}</screw_thread_pitch>\n'
              f'    <thread_pitch>{num(-2 * math.pi / j.lead)}</thread_pitch>\n')
    return s + "  </joint>\n"


# ---- minimal 3-D rotation helpers (for the closure check) -----------------------------------
def _identity():
    return ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def _matmul(A, B):
    return tuple(tuple(sum(A[i][k] * B[k][j] for k in range(3)) for j in range(3)) for i in range(3))


def _apply(R, v):
    return tuple(sum(R[i][k] * v[k] for k in range(3)) for i in range(3))


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def _rot(axis: int, t: float):
    c, s = math.cos(t), math.sin(t)
    if axis == 0:
        return ((1, 0, 0), (0, c, -s), (0, s, c))
    if axis == 1:
        return ((c, 0, s), (0, 1, 0), (-s, 0, c))
    return ((c, -s, 0), (s, c, 0), (0, 0, 1))


def _rpy(rpy):
    """URDF fixed-axis roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll)."""
    return _matmul(_rot(2, rpy[2]), _matmul(_rot(1, rpy[1]), _rot(0, rpy[0])))


def _axis_angle(axis, t):
    if axis is None or t == 0.0:
        return _identity()
    return _rot(list(axis).index(1.0), t)
