#!/usr/bin/env python3
"""The two flavours of libgrbda (plain x86-64 and x86-64-v3 with AVX2 and FMA, docs/building.md
"Two flavours") answer alike: on every robot model of models/ and models/generated/, forward and
inverse dynamics at a fixed state by `grbda fd` / `grbda id` in each flavour agree to 1e-11
relative (FMA contracts a·b + c into one rounding, so the last bits may differ), each flavour gives
bitwise the same answer twice, and the flavour really is the one asked for (the dynamic loader's
own report). Prints the largest difference per model.

  check_flavours.py BUILD_DIR MODELS_DIR
"""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

LOADER = "/lib64/ld-linux-x86-64.so.2"


def run(build, flavour, argv):
    env = dict(os.environ, LD_DEBUG="libs")
    prefix = [LOADER, "--glibc-hwcaps-mask", "none"] if flavour == "x86-64" else []
    if flavour == "x86-64-v3":
        env["LD_LIBRARY_PATH"] = str(build / "glibc-hwcaps" / "x86-64-v3")
    out = subprocess.run(prefix + [str(build / "tools" / "grbda")] + argv + ["--json"], capture_output=True,
                         text=True, env=env)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} ({flavour}) failed: {out.stderr[-800:]}")
    loaded = [line for line in out.stderr.splitlines() if "calling init:" in line and "libgrbda.so.0" in line]
    in_v3 = bool(loaded) and "glibc-hwcaps/x86-64-v3" in loaded[0]
    if in_v3 != (flavour == "x86-64-v3"):
        raise RuntimeError(f"asked for {flavour}, the loader took {loaded}")
    return json.loads(out.stdout)["result"]


def state(nq, nv, floating):
    q = [0.0, 0.0, 0.3, 1.0, 0.0, 0.0, 0.0] if floating else []
    q += [0.3 * math.sin(1.7 * i + 0.4) for i in range(nq - len(q))]
    v = [0.5 * math.cos(0.9 * i) for i in range(nv)]
    u = [math.sin(2.3 * i + 1.0) for i in range(nv)]
    return [",".join(f"{x:.6f}" for x in vec) for vec in (q, v, u)]


def main():
    build, models = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    if not (build / "glibc-hwcaps" / "x86-64-v3" / "libgrbda.so.0").exists():
        print("skipped: this build has no x86-64-v3 flavour (GRBDA_X86_64_V3 off)")
        return 0
    files = sorted(models.glob("*.urdf")) + sorted((models / "generated").glob("*.urdf"))
    worst = 0.0
    for path in files:
        info = json.loads(subprocess.run([str(build / "tools" / "grbda"), "info", str(path), "--json"],
                                         capture_output=True, text=True, check=True).stdout)
        q, v, u = state(info["nq"], info["nv"], info["floating_base"])
        line = []
        for command, last in (("fd", "--tau"), ("id", "--a")):
            argv = [command, str(path), "--q", q, "--v", v, last, u]
            plain, plain2 = run(build, "x86-64", argv), run(build, "x86-64", argv)
            fast, fast2 = run(build, "x86-64-v3", argv), run(build, "x86-64-v3", argv)
            if plain != plain2 or fast != fast2:
                print(f"{path.name} {command}: a flavour answered differently twice")
                return 1
            scale = max(1.0, max(abs(x) for x in plain))
            difference = max(abs(a - b) for a, b in zip(plain, fast)) / scale
            worst = max(worst, difference)
            line.append(f"{command} {difference:.1e}")
        print(f"{path.name}: {', '.join(line)}")
    print(f"largest relative difference between the flavours: {worst:.1e} over {len(files)} models")
    return 0 if worst < 1e-11 else 1


if __name__ == "__main__":
    sys.exit(main())
