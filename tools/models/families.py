"""Parametric families (facts: robot-data/serial_chains.md and benchmark_systems.md).

Serial chains (fixed base, planar, axes z): the reference's "uniform" C++ chains written as
URDF+ -- link m = 1, COM (0.5, 0, 0), I_c = diag(1, 1, 1) (only Izz matters in the plane), link
length 1; rotors massless with I_c = 1e-4 I; gear 2 x belt 3 = ratio 6. Rotors are massless, so
where they sit does not change the dynamics; they are placed at the joint of their cluster's
first link. The belt-triple chain has no uniform variant in the reference: ours extends the
pair rule with belts (3), (3, 1), (3, 1, 1).

Branch x depth trees (families A-C) and parallel chains (D, E): exact rules and names of
benchmark_systems.md.
"""
from .urdfplus import Loop, Robot, diag_inertial

CHAIN_LINK = diag_inertial(1.0, (0.5, 0, 0), 1.0, 1.0, 1.0)
CHAIN_ROTOR = diag_inertial(0.0, (0, 0, 0), 1e-4, 1e-4, 1e-4)
CHAIN_RATIO = 6.0  # gear 2 x belt 3
CHAIN_NOTE = ("The reference's uniform C++ chains use gravity (+9.81, 0, 0) (in the plane); "
              "URDF has no gravity: set it in code.")


def _serial(name: str, n: int, group: int, what) -> Robot:
    """n links in clusters of `group` serial links, each link with a rotor on the cluster's parent."""
    assert n >= group and n % group == 0, f"{name}: N must be a positive multiple of {group}"
    r = Robot(name, what, "robot-data/serial_chains.md", notes=[CHAIN_NOTE])
    r.link("ground")
    parent, at = "ground", (0.0, 0.0, 0.0)
    for first in range(0, n, group):
        cluster_parent, cluster_at = parent, at
        for i in range(first, first + group):
            r.link(f"link-{i}", CHAIN_LINK)
            r.revolute(f"joint{i + 1}", parent, f"link-{i}", at)
            r.link(f"rotor-{i}", CHAIN_ROTOR)
            r.revolute(f"joint{i + 1}r", cluster_parent, f"rotor-{i}", cluster_at, independent=False)
            r.couple(f"transmission{i + 1}", f"link-{i}", f"rotor-{i}", CHAIN_RATIO)
            parent, at = f"link-{i}", (1.0, 0.0, 0.0)
    return r


def rotor_chain(n: int) -> Robot:
    return _serial(f"revolute_rotor_chain_{n}", n, 1,
                   [f"Planar serial chain of {n} links, each driven by a geared rotor on the previous",
                    "link (q_rotor = 6 q_link); the uniform RevoluteChainWithRotor<N> of the reference."])


def belt_pair_chain(n: int) -> Robot:
    return _serial(f"revolute_belt_pair_chain_{n}", n, 2,
                   [f"Planar serial chain of {n} links in {n // 2} parallel-belt pairs: both rotors of a",
                    "pair sit on the link before it; q_rotorA = 6 q_A, q_rotorB = 6 (q_A + q_B) (gear 2,",
                    "belts (3) and (3, 1)); the uniform RevolutePairChainWithRotor<N> of the reference."])


def belt_triple_chain(n: int) -> Robot:
    return _serial(f"revolute_belt_triple_chain_{n}", n, 3,
                   [f"Planar serial chain of {n} links in {n // 3} belt triples: the three rotors of a",
                    "triple sit on the link before it; q_rotor_i = 6 (sum of the triple's q_j, j <= i)",
                    "(gear 2, belts (3), (3, 1), (3, 1, 1)). The reference has no uniform triple chain:",
                    "these numbers extend its pair chain."])


# ---- families A-C: b branches x depth d on a floating base ---------------------------------
BRANCH_LINK = CHAIN_LINK
BRANCH_ROTOR = CHAIN_ROTOR
FOUR_BAR_LINK = diag_inertial(3.3, (0, 0, 0), 0.011253, 0.036203, 0.042673)
BRANCH_LIMIT = 'effort="30" velocity="1" lower="-10" upper="10"'


def _floating_base(name, what, source="robot-data/benchmark_systems.md") -> Robot:
    r = Robot(name, what, source, limit=BRANCH_LIMIT)
    r.link("ground")
    r.link("Floating Base", diag_inertial(5.0, (0, 0, 0), 0.1, 0.1, 0.1))
    r.floating("world_to_base", "ground", "Floating Base")
    return r


def _clusters(b: int, d: int):
    """(cluster index m, index of the cluster it hangs on or 0 for the base), in writing order.
    Root clusters are 1..b; the branch on root k continues with b+1+(k-1)(d-1) ... b+k(d-1)."""
    order = [(k, 0) for k in range(1, b + 1)]
    for k in range(1, b + 1):
        prev = k
        for m in range(b + 1 + (k - 1) * (d - 1), b + k * (d - 1) + 1):
            order.append((m, prev))
            prev = m
    return order


def rotor_branch(b: int, d: int, approx: bool = False) -> Robot:
    name = f"{'approx_' if approx else ''}revolute_rotor_branch_{b}_{d}"
    r = _floating_base(name, [
        f"Floating base with {b} branch(es) x depth {d} of geared link+rotor clusters (all joints z,",
        "at (1, 0, 0) of the parent; q_rotor = 6 q_link; rotors massless)." if not approx else
        "at (1, 0, 0) of the parent) with the rotors and couplings deleted."])
    for m, on in _clusters(b, d):
        parent, prefix = ("Floating Base", "base") if on == 0 else (f"link_{on}", f"link_{on}")
        r.geared(parent, (f"link_{m}", f"{prefix}_to_link_{m}", BRANCH_LINK),
                 (f"rotor_{m}", f"{prefix}_to_rotor_{m}", BRANCH_ROTOR), (1.0, 0, 0), (0, 0, 0), "z",
                 6.0, f"transmission_{m}", with_rotor=not approx, link_independent=None if approx else True)
    return r


def belt_pair_branch(b: int, d: int, approx: bool = False) -> Robot:
    name = f"{'approx_' if approx else ''}revolute_rotor_pair_branch_{b}_{d}"
    r = _floating_base(name, [
        f"Floating base with {b} branch(es) x depth {d} of parallel-belt pairs: link_A on the parent,",
        "link_B on link_A, both rotors on the parent, all at (1, 0, 0), axes z; q_rotorA = 6 q_A,",
        "q_rotorB = 6 (q_A + q_B); rotors massless." if not approx else
        "link_B on link_A, all at (1, 0, 0), axes z; rotors and couplings deleted."])
    flag = None if approx else True
    for m, on in _clusters(b, d):
        a, bb = 2 * m - 1, 2 * m
        parent, prefix = ("Floating Base", "base") if on == 0 else (f"link_{2 * on}", f"link_{2 * on}")
        r.link(f"link_{a}", BRANCH_LINK)
        r.revolute(f"{prefix}_to_link_{a}", parent, f"link_{a}", (1.0, 0, 0), independent=flag)
        if not approx:
            r.link(f"rotor_{a}", BRANCH_ROTOR)
            r.revolute(f"{prefix}_to_rotor_{a}", parent, f"rotor_{a}", (1.0, 0, 0), independent=False)
        r.link(f"link_{bb}", BRANCH_LINK)
        r.revolute(f"link_{a}_to_link_{bb}", f"link_{a}", f"link_{bb}", (1.0, 0, 0), independent=flag)
        if not approx:
            r.link(f"rotor_{bb}", BRANCH_ROTOR)
            r.revolute(f"{prefix}_to_rotor_{bb}", parent, f"rotor_{bb}", (1.0, 0, 0), independent=False)
            r.couple(f"transmission_{a}", f"link_{a}", f"rotor_{a}", 6.0)
            r.couple(f"transmission_{bb}", f"link_{bb}", f"rotor_{bb}", 6.0)
    return r


FOUR_BAR_CRANK_ANGLE = 0.5  # parallelogram branch: rocker = crank, coupler = -crank


def four_bar_branch(b: int, d: int, approx: bool = False) -> Robot:
    name = f"{'approx_' if approx else ''}four_bar_branch_{b}_{d}"
    if approx:
        r = _floating_base(name, [
            f"Floating base with {b} branch(es) x depth {d} of four-bar cranks only: the crank links",
            "(L2) chained crank to crank at (0, 0, 0), axes z; rockers, couplers and loops deleted."])
    else:
        r = _floating_base(name, [
            f"Floating base with {b} branch(es) x depth {d} of planar four-bars (axes z). Cluster on",
            "parent P: rocker L1 at (1, 0, 0) of P, crank L2 at (0, 0, 0) of P (independent), coupler",
            "L3 at (0.5, 0, 0) of L2; loop: L1 point (0.5, 0, 0) = L3 point (1, 0, 0). The next",
            "cluster hangs on L1. Parallelogram branch: L1 = L2 = q, L3 = -q; q = 0 is singular."])
        r.closed_configuration = {}
    for m, on in _clusters(b, d):
        c = 3 * m - 2
        if approx:
            parent = "Floating Base" if on == 0 else f"link_{3 * on - 1}"
            prefix = "base" if on == 0 else parent
            r.link(f"link_{c + 1}", FOUR_BAR_LINK)
            r.revolute(f"{prefix}_to_link_{c + 1}", parent, f"link_{c + 1}")
            continue
        parent = "Floating Base" if on == 0 else f"link_{3 * on - 2}"
        prefix = "base" if on == 0 else parent
        r.link(f"link_{c}", FOUR_BAR_LINK)
        r.revolute(f"{prefix}_to_link_{c}", parent, f"link_{c}", (1.0, 0, 0), independent=False)
        r.link(f"link_{c + 1}", FOUR_BAR_LINK)
        r.revolute(f"{prefix}_to_link_{c + 1}", parent, f"link_{c + 1}", independent=True)
        r.link(f"link_{c + 2}", FOUR_BAR_LINK)
        r.revolute(f"link_{c + 1}_to_link_{c + 2}", f"link_{c + 1}", f"link_{c + 2}", (0.5, 0, 0),
                   independent=False)
        r.loops.append(Loop(f"constraint_{c}", f"link_{c}", (0.5, 0, 0), f"link_{c + 2}", (1.0, 0, 0)))
        q = FOUR_BAR_CRANK_ANGLE
        r.closed_configuration.update({f"{prefix}_to_link_{c}": q, f"{prefix}_to_link_{c + 1}": q,
                                       f"link_{c + 1}_to_link_{c + 2}": -q})
    return r


# ---- families D, E: two parallel chains of depth D on a fixed base --------------------------
CHAIN2_LINK = diag_inertial(0.25, (0, 0.5, 0), 0.01, 0.1, 0.01)


def _two_chains(r: Robot, depth: int, second_base_x: float, dependent, after=None) -> None:
    r.link("base")
    for k in range(1, depth + 1):
        for c in (1, 2):
            parent = "base" if k == 1 else f"link_{c}_{k - 1}"
            xyz = ((second_base_x if c == 2 else 0.0), 0.0, 0.0) if k == 1 else (0.0, 1.0, 0.0)
            r.link(f"link_{c}_{k}", CHAIN2_LINK)
            flag = False if f"joint_{c}_{k}" in dependent else (True if dependent else None)
            r.revolute(f"joint_{c}_{k}", parent, f"link_{c}_{k}", xyz, independent=flag)
        if after:
            after(k)


def explicit_parallel_chain(depth: int, loop_size: int, approx: bool = False) -> Robot:
    assert loop_size % 2 == 0 and 2 <= loop_size <= 2 * depth, "explicit chains need an even L <= 2D"
    n = loop_size // 2
    name = f"{'approx_' if approx else ''}parallel_chain_explicit_d{depth}_l{loop_size}"
    what = [f"Two parallel planar chains of {depth} links (length 1 along local y, axes z) from the",
            "same base point." + ("" if approx else f" coupling_{n} (ratio 1) makes the absolute angles of"),
            f"link_1_{n} and link_2_{n} equal: a {loop_size}-body coupling cluster." if not approx else
            "No constraint (the approximate counterpart)."]
    r = Robot(name, what, "robot-data/benchmark_systems.md", limit=BRANCH_LIMIT)
    _two_chains(r, depth, 0.0, set() if approx else {f"joint_2_{n}"})
    if not approx:
        r.couple(f"coupling_{n}", f"link_1_{n}", f"link_2_{n}", 1.0)
        r.closed_configuration = {}
    return r


def implicit_parallel_chain(depth: int, loop_size: int, approx: bool = False) -> Robot:
    assert loop_size % 2 == 1 and 3 <= loop_size <= 2 * depth + 1, "implicit chains need an odd 3 <= L <= 2D+1"
    n = (loop_size - 1) // 2
    name = f"{'approx_' if approx else ''}parallel_chain_implicit_d{depth}_l{loop_size}"
    what = [f"Two parallel planar chains of {depth} links (length 1 along local y, axes z), bases 1.0",
            "apart." + ("" if approx else f" A connecting rod on link_1_{n} closes loop position_{n} with"),
            f"link_2_{n}'s tip: a {loop_size}-body loop cluster; q = 0 is closed and regular." if not approx
            else "No rod and no constraint (the approximate counterpart)."]
    r = Robot(name, what, "robot-data/benchmark_systems.md", limit=BRANCH_LIMIT)

    def add_rod(k):
        if k == n and not approx:
            r.link("connecting_rod", CHAIN2_LINK)
            r.revolute("connecting_rod_joint", f"link_1_{n}", "connecting_rod", (0, 1.0, 0), independent=False)

    _two_chains(r, depth, 1.0, set() if approx else {"joint_2_1"}, add_rod)
    if not approx:
        r.loops.append(Loop(f"position_{n}", "connecting_rod", (1.0, 0, 0), f"link_2_{n}", (0, 1.0, 0)))
        r.closed_configuration = {}
    return r
