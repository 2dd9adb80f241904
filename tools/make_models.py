#!/usr/bin/env python3
"""Write grbda's URDF+ robot models from the facts transcribed in tools/models/*.py.

  make_models.py                      rewrite models/ and models/generated/ (the committed set)
  make_models.py --check              exit 1 if a committed file differs from what would be written
  make_models.py --out DIR FAMILY SIZE...   write one family (any sizes) into DIR, e.g.
      rotor-chain 12 24        belt-pair-chain 12      belt-triple-chain 12
      rotor-branch 2x3         belt-pair-branch 1x2    four-bar-branch 4x7
      explicit-parallel 5x4    implicit-parallel 10x9  (depth x loop size)
    add --approx for the rotor-free / constraint-free counterparts of the branch and parallel families
  make_models.py --out DIR benchmark-set    every size the reference benchmarks used (+ approx)

Standard library only.
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # keep tools/models/ free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from models import families, jvrc1, mechanisms, mini_cheetah, mit_humanoid, tello  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FAMILIES = {  # name -> (builder, number of size arguments, has an approx variant)
    "rotor-chain": (families.rotor_chain, 1, False),
    "belt-pair-chain": (families.belt_pair_chain, 1, False),
    "belt-triple-chain": (families.belt_triple_chain, 1, False),
    "rotor-branch": (families.rotor_branch, 2, True),
    "belt-pair-branch": (families.belt_pair_branch, 2, True),
    "four-bar-branch": (families.four_bar_branch, 2, True),
    "explicit-parallel": (families.explicit_parallel_chain, 2, True),
    "implicit-parallel": (families.implicit_parallel_chain, 2, True),
}


def fixed_models():
    out = []
    for module in (mini_cheetah, mit_humanoid, jvrc1, tello, mechanisms):
        out += module.all_models()
    return out


def committed_generated():
    """A small representative set; benchmarks generate the rest into their build directory."""
    f = families
    out = [f.rotor_chain(n) for n in (2, 4, 12, 24)]
    out += [f.belt_pair_chain(n) for n in (12, 24)] + [f.belt_triple_chain(n) for n in (12, 24)]
    for approx in (False, True):
        out += [f.rotor_branch(2, 2, approx), f.belt_pair_branch(1, 2, approx), f.belt_pair_branch(2, 2, approx),
                f.four_bar_branch(2, 2, approx), f.explicit_parallel_chain(5, 4, approx),
                f.implicit_parallel_chain(5, 5, approx)]
    return out


def benchmark_set():
    """Every system of the reference's V2.1 benchmarks and the v1 chain sizes."""
    f, out = families, []
    for n in (2, 4, 6, 8, 12, 16, 20, 24):
        out += [f.rotor_chain(n), f.belt_pair_chain(n)]
    out += [f.belt_triple_chain(n) for n in (3, 6, 9, 12, 15)]
    for b in (1, 2, 4, 6):
        for approx in (False, True):
            out += [f.rotor_branch(b, d, approx) for d in range(1, 11)]
            out += [f.belt_pair_branch(b, d, approx) for d in range(1, 8)]
            out += [f.four_bar_branch(b, d, approx) for d in range(1, 11)]
    explicit = {5: (2, 4, 6, 8, 10), 10: (2, 4, 8, 12, 16), 20: (2, 6, 12, 20, 30), 40: (2, 8, 16, 28, 40)}
    implicit = {5: (3, 5, 7, 9, 11), 10: (3, 5, 9, 13, 17), 20: (3, 7, 13, 21, 31), 40: (3, 9, 17, 29, 41)}
    for approx in (False, True):
        out += [f.explicit_parallel_chain(d, l, approx) for d, ls in explicit.items() for l in ls]
        out += [f.implicit_parallel_chain(d, l, approx) for d, ls in implicit.items() for l in ls]
    return out


def write(models, directory, check=False) -> int:
    os.makedirs(directory, exist_ok=True)
    stale = 0
    for m in models:
        path = os.path.join(directory, m.name + ".urdf")
        text = m.to_xml()
        if check:
            try:
                with open(path) as fh:
                    same = fh.read() == text
            except FileNotFoundError:
                same = False
            if not same:
                print(f"out of date: {os.path.relpath(path, REPO)}")
                stale += 1
        else:
            with open(path, "w") as fh:
                fh.write(text)
    return stale


def parse_size(text: str, count: int):
    parts = text.lower().split("x")
    if len(parts) != count or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"size '{text}' should be {'N' if count == 1 else 'AxB'}")
    return [int(p) for p in parts]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", help="output directory (default: the repository's models/)")
    p.add_argument("--check", action="store_true", help="compare instead of writing")
    p.add_argument("--approx", action="store_true", help="write the approximate counterparts too")
    p.add_argument("family", nargs="?", choices=sorted(FAMILIES) + ["benchmark-set"])
    p.add_argument("sizes", nargs="*")
    a = p.parse_args(argv)
    if a.family is None:
        root = a.out or os.path.join(REPO, "models")
        stale = write(fixed_models(), root, a.check) + write(committed_generated(), os.path.join(root, "generated"),
                                                              a.check)
        return 1 if stale else 0
    if not a.out:
        p.error("give --out DIR for a family (benchmarks write into their build directory)")
    if a.family == "benchmark-set":
        return 1 if write(benchmark_set(), a.out, a.check) else 0
    build, count, has_approx = FAMILIES[a.family]
    if not a.sizes:
        p.error(f"{a.family} needs at least one size")
    models = []
    try:
        for s in a.sizes:
            args = parse_size(s, count)
            models.append(build(*args))
            if a.approx and has_approx:
                models.append(build(*args, approx=True))
    except (argparse.ArgumentTypeError, AssertionError) as e:
        p.error(str(e))
    return 1 if write(models, a.out, a.check) else 0


if __name__ == "__main__":
    sys.exit(main())
