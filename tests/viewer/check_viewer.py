#!/usr/bin/env python3
"""`grbda view` in a real browser: for each bundled robot, write the page, load it in headless
Chromium (software WebGL), and check that the page reports no error (its title ends in "ok",
no console error) and that the screenshot shows something (pixel variance above a threshold).
Also plays a generated Mini Cheetah trajectory and a Mini Cheetah dropped on the ground by
`grbda simulate --ground --out` (the slider moves the robot to where the run put it, the force
arrows carry the run's normal force), draws an arm with URDF <visual> shapes and STL and OBJ meshes,
plots the run with examples/python/plot_run.py when matplotlib is there, and makes sure a broken
page fails the checks. Exit 77 (ctest: skipped) without Chromium.

Usage: check_viewer.py GRBDA SOURCE_DIR WORK_DIR [--pictures DIR]
  --pictures DIR  also copy each robot's screenshot to DIR/view_NAME.png (docs/pictures)."""
import argparse
import math
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

ROBOTS = {  # picture name -> (model, extra arguments)
    "mini_cheetah": ("models/mini_cheetah.urdf",
                     ["--contact", "FR_foot", "--contact", "FL_foot", "--contact", "HR_foot", "--contact", "HL_foot"]),
    "mit_humanoid": ("models/mit_humanoid.urdf", []),
    "jvrc1_humanoid": ("models/jvrc1_humanoid.urdf", []),
    "four_bar": ("models/four_bar.urdf", ["--q", "0.5"]),  # its loop cannot close at q = 0
    "tello": ("builtin:tello", []),
    "visual_arm": ("tests/viewer/visual_arm.urdf", ["--q", "0.5", "--ground"]),  # <visual> shapes, an STL
}
# The drop of the examples: torso at 0.30 m, legs at (0, -1, 2) rad, PD 50/0.4, 1 ms steps.
CROUCH = "0,0,0.30,1,0,0,0,0,-1,2,0,-1,2,0,-1,2,0,-1,2"
MIN_STDDEV = 8.0  # grey levels: a blank or single-colour page is ~0; a drawn robot is well above


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def browser(chromium, page, *mode, fragment=""):
    """Runs headless Chromium on the page (its address + fragment); returns (dumped DOM or '',
    console lines of the page)."""
    command = [chromium, "--headless", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
               "--enable-logging=stderr", "--v=0", "--window-size=800,600",
               f"--user-data-dir={page.parent / 'chromium-profile'}",  # not the user's profile, nor $HOME
               *mode, page.resolve().as_uri() + fragment]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=page.parent)
    console = [line for line in run.stderr.splitlines() if ":CONSOLE" in line and page.name in line]
    return run.stdout, console


def png_pixels(path):
    """(width, height, channels, rows of bytes) of an 8-bit non-interlaced PNG, filters undone."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and interlace == 0 and colour in (2, 6), f"{path}: unexpected PNG format {header}"
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, previous = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):  # PNG filters 1-4: Sub, Up, Average, Paeth
            a = row[x - bpp] if x >= bpp else 0
            b, c = previous[x], previous[x - bpp] if x >= bpp else 0
            if kind == 1:
                row[x] = (row[x] + a) & 255
            elif kind == 2:
                row[x] = (row[x] + b) & 255
            elif kind == 3:
                row[x] = (row[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(row)
        previous = row
    return width, height, bpp, rows


def grey_stddev(path):
    width, height, bpp, rows = png_pixels(path)
    values = [(row[x] + row[x + 1] + row[x + 2]) / 3 for row in rows for x in range(0, width * bpp, bpp)]
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def check_page(chromium, page, name):
    errors = []
    dom, console = browser(chromium, page, "--dump-dom")
    title = re.search(r"<title>(.*?)</title>", dom, re.S)
    if not title or title.group(1) != "grbda view: ok":
        errors.append(f"{name}: page title {title.group(1) if title else '(no DOM)'!r}, expected 'grbda view: ok'")
    shot = page.with_suffix(".png")
    shot.unlink(missing_ok=True)
    _, more = browser(chromium, page, f"--screenshot={shot}")
    errors += [f"{name}: console: {line}" for line in console + more
               if re.search(r"Uncaught|Error|error|THREE\.", line.split(":CONSOLE", 1)[1])]
    if not shot.exists():
        errors.append(f"{name}: no screenshot")
        return errors, None, dom
    stddev = grey_stddev(shot)
    print(f"  {name}: {'no error' if not errors else 'errors'}, screenshot grey-level stddev {stddev:.1f}")
    if stddev < MIN_STDDEV:
        errors.append(f"{name}: the screenshot looks blank (stddev {stddev:.1f} < {MIN_STDDEV})")
    return errors, shot, dom


def page_state(dom):
    """The body's data-* attributes the page sets (what it draws)."""
    body = re.search(r"<body([^>]*)>", dom)
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body.group(1))) if body else {}


def read_csv(path):
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    return [dict(zip(header, line.split(","))) for line in lines[1:] if line]


def check_drop(chromium, grbda, source_dir, work_dir):
    """A simulated drop played: at two times the page draws the torso where the run put it, its force
    arrows sum to the run's normal force, and the two pictures differ."""
    errors = []
    model = str(source_dir / "models/mini_cheetah.urdf")
    csv, page = work_dir / "drop.csv", work_dir / "view_drop.html"
    subprocess.run([grbda, "simulate", model, "--ground", "--pd", "50,0.4", "--q0", CROUCH, "--duration", "0.4",
                    "--out", str(csv)], check=True, capture_output=True)
    subprocess.run([grbda, "view", model, "--trajectory", str(csv), "--html", str(page)], check=True)
    more, _, dom = check_page(chromium, page, "drop")
    errors += more
    rows = read_csv(csv)
    height = next(name for name in rows[0] if name.startswith("q:") and name.endswith(":z"))
    shots = []
    for wanted in (0.05, 0.35):  # in the air, then standing
        dom, _ = browser(chromium, page, "--dump-dom", fragment=f"#t={wanted}")
        state = page_state(dom)
        row = max(k for k, r in enumerate(rows) if float(r["t"]) <= wanted + 1e-9)
        z_drawn = float(state.get("base", "nan,nan,nan").split(",")[2])
        fz, force_sum = float(state.get("force-z", "nan")), float(rows[row]["normal_force_sum"])
        pushing = [name[3:-2] for name in rows[row] if name.startswith("cp:") and name.endswith(":x")
                   and rows[row][name] not in ("", "nan")
                   and any(float(rows[row][f"cf:{name[3:-2]}:{a}"]) != 0 for a in "xyz")]
        touching = len(pushing)  # links with a contact force at this row: one arrow each
        print(f"  drop at t = {wanted}: row {state.get('row')} (file {row}), torso drawn at z = {z_drawn:.4f} "
              f"(run {float(rows[row][height]):.4f}), {state.get('arrows')} arrows summing to Fz = {fz:.2f} N "
              f"(run's normal force {force_sum:.2f} N, {touching} links pushing)")
        if state.get("row") != str(row) or not abs(z_drawn - float(rows[row][height])) < 1e-5:
            errors.append(f"drop: at t = {wanted} the page shows row {state.get('row')} with the torso at {z_drawn}, "
                          f"the run has row {row} at {rows[row][height]}")
        if not abs(fz - force_sum) <= 1e-3 * max(1.0, force_sum) or int(state.get("arrows", -1)) != touching:
            errors.append(f"drop: at t = {wanted} the arrows sum to {fz} N, the run's normal force is {force_sum} N")
        shot = work_dir / f"view_drop_{wanted}.png"
        shot.unlink(missing_ok=True)
        browser(chromium, page, f"--screenshot={shot}", fragment=f"#t={wanted}")
        shots.append(shot)
    if float(rows[max(k for k, r in enumerate(rows) if float(r["t"]) <= 0.35)]["normal_force_sum"]) <= 0:
        errors.append("drop: the robot has not landed by t = 0.35 s")
    if all(s.exists() for s in shots):
        a, b = png_pixels(shots[0])[3], png_pixels(shots[1])[3]
        changed = sum(1 for ra, rb in zip(a, b) for x in range(0, len(ra), 3) if ra[x:x + 3] != rb[x:x + 3])
        print(f"  drop: {changed} pixels differ between t = 0.05 s and t = 0.35 s")
        if changed < 2000:
            errors.append(f"drop: moving the slider changed only {changed} pixels")
    else:
        errors.append("drop: no screenshots")
    try:  # the plot helper on the same run
        import matplotlib  # noqa: F401
    except ImportError:
        print("  plot_run.py: skipped (no matplotlib)")
        return errors
    plot = work_dir / "drop.png"
    out = subprocess.run([sys.executable, str(source_dir / "examples/python/plot_run.py"), str(csv), str(plot)],
                         capture_output=True, text=True)
    print("  plot_run.py:", out.stdout.strip() or out.stderr.strip())
    if out.returncode != 0 or not plot.read_bytes().startswith(b"\x89PNG") or "touchdown" not in out.stdout:
        errors.append("plot_run.py failed on the drop: " + out.stderr)
    return errors


def write_trajectory(grbda, model, path):
    """A 2 s Mini Cheetah trajectory: the knees and hips swing, the base rises (100 rows)."""
    names = subprocess.run([grbda, "info", model, "--json"], capture_output=True, text=True, check=True).stdout
    names = re.search(r'"position_names": \[(.*?)\]', names).group(1).replace('"', "").replace(" ", "").split(",")
    lines = ["t," + ",".join(names) + ",comment"]
    for k in range(100):
        t = 0.02 * k
        q = [0.3 + 0.05 * math.sin(3 * t) if n.endswith(":z") else 1.0 if n.endswith(":qw") else
             -1.2 + 0.4 * math.sin(4 * t) if "knee" in n else 0.6 * math.sin(2 * t) if "hip" in n else 0.0 for n in names]
        lines.append(f"{t:.2f}," + ",".join(f"{x:.6f}" for x in q) + ",ignored")
    path.write_text("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grbda")
    parser.add_argument("source_dir", type=Path)
    parser.add_argument("work_dir", type=Path)
    parser.add_argument("--pictures", type=Path)
    args = parser.parse_args()
    chromium = find_chromium()
    if not chromium:
        print("check_viewer.py: SKIPPED: no chromium on PATH (apt-get install chromium); the viewer was not tested")
        return 77
    args.work_dir.mkdir(parents=True, exist_ok=True)
    errors = []
    for name, (model, extra) in ROBOTS.items():
        model = model if model.startswith("builtin:") else str(args.source_dir / model)
        page = args.work_dir / f"view_{name}.html"
        subprocess.run([args.grbda, "view", model, *extra, "--html", str(page)], check=True)
        text = page.read_text()
        for machine_path in (str(args.source_dir.resolve()), "/usr/share/javascript"):
            if machine_path in text:
                errors.append(f"{name}: the page contains the machine path {machine_path}")
        more, shot, _ = check_page(chromium, page, name)
        errors += more
        if shot and args.pictures and not more:
            shutil.copy(shot, args.pictures / shot.name)
    # Playback: a trajectory page starts playing and has its slider.
    model = str(args.source_dir / "models/mini_cheetah.urdf")
    csv, page = args.work_dir / "trot.csv", args.work_dir / "view_trajectory.html"
    write_trajectory(args.grbda, model, csv)
    subprocess.run([args.grbda, "view", model, "--trajectory", str(csv), "--html", str(page)], check=True)
    more, _, dom = check_page(chromium, page, "trajectory")
    errors += more
    if 'id="time"' not in dom or re.search(r'<div id="bar"[^>]*hidden', dom):
        errors.append("trajectory: the time slider is not shown")
    # It plays: after 5 s of (virtual) page time the clock has left t = 0 (how far depends on the
    # frame rate software rendering reaches, so only leaving 0 is asserted).
    later, _ = browser(chromium, page, "--virtual-time-budget=5000", "--dump-dom")
    clock = re.search(r'<span id="clock">t = ([0-9.]+) s', later)
    print("  trajectory: clock after 5 s of page time:", clock.group(1) if clock else None)
    if not clock or not 0 < float(clock.group(1)) <= 1.98:
        errors.append(f"trajectory: does not play (clock {clock.group(1) if clock else 'missing'})")
    errors += check_drop(chromium, args.grbda, args.source_dir, args.work_dir)
    # The checks can fail: a page whose scene lacks its poses must be caught (title and blank).
    broken = args.work_dir / "view_broken.html"
    broken.write_text((args.work_dir / "view_four_bar.html").read_text().replace('"poses":', '"no_poses":', 1))
    caught = check_page(chromium, broken, "broken (expected to fail)")[0]
    print("  broken page caught:", "; ".join(caught) or "NOT CAUGHT")
    if not any("title" in e for e in caught) or not any("blank" in e for e in caught):
        errors.append("a broken page passed the checks: " + "; ".join(caught))
    for e in errors:
        print("check_viewer.py: FAIL:", e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
