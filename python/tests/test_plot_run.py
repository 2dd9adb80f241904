"""examples/python/plot_run.py: the run plot helper reads `grbda simulate --out` CSVs (plain and
with a world's contact columns, empty fields included), finds touchdown, peak force and lowest
torso, draws one panel per quantity the file has, and rejects files that are not runs. It needs
only matplotlib (not the grbda module), so it also runs with `pytest --noconftest`."""
import importlib.util
import math
import pathlib
import struct
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "python" / "plot_run.py"
spec = importlib.util.spec_from_file_location("plot_run", SCRIPT)
plot_run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot_run)

G, Z0, ZC, T_CONTACT_FORCE = 9.81, 0.30, 0.20, 120.0


def drop_rows(dt=0.01, steps=40):
    """A body falling freely from Z0 onto ZC (closed form), then resting there with a force spike
    at impact; energy m g z + m v²/2 with m = 1. Returns (t, z, fn) lists."""
    t_hit = math.sqrt(2 * (Z0 - ZC) / G)
    ts, zs, fns = [], [], []
    for k in range(steps + 1):
        t = k * dt
        falling = t < t_hit
        ts.append(t)
        zs.append(Z0 - 0.5 * G * t * t if falling else ZC)
        first_contact = not falling and (k == 0 or (k - 1) * dt < t_hit)
        fns.append(0.0 if falling else 2.5 * T_CONTACT_FORCE if first_contact else T_CONTACT_FORCE)
    return ts, zs, fns


def write_world_csv(path):
    ts, zs, fns = drop_rows()
    header = ["t", "q:base:x", "q:base:z", "v:base:z", "constraint_residual", "energy", "normal_force_sum",
              "fn:left", "fn:right", "ground_height", *[f"{p}:{l}:{a}" for l in ("left", "right")
                                                        for p in ("cp", "cf") for a in "xyz"]]
    lines = [",".join(header)]
    for t, z, fn in zip(ts, zs, fns):
        touching = fn > 0
        contact = (["0.1", "0", "0", "0", "0", str(fn / 2)] if touching else ["", "", "", "0", "0", "0"])
        lines.append(",".join(map(str, [t, 0, z, 0, 0, G * z, fn, fn / 2, fn / 2, 0, *contact, *contact])))
    path.write_text("\n".join(lines) + "\n")
    return ts, zs, fns


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_a_world_run_gets_three_panels_and_its_touchdown(tmp_path):
    csv, png = tmp_path / "run.csv", tmp_path / "run.png"
    ts, zs, fns = write_world_csv(csv)
    result = plot_run.plot_run(csv, png)
    assert result["panels"] == ["torso height", "normal force", "energy"]
    t_hit = math.sqrt(2 * (Z0 - ZC) / G)  # the closed form: the first sample at or after it
    assert result["touchdown"] == pytest.approx(min(t for t in ts if t >= t_hit))
    assert result["peak_normal_force"] == pytest.approx(2.5 * T_CONTACT_FORCE)
    assert result["lowest_torso"] == pytest.approx(ZC)
    assert png_size(png) == (700, 750)  # 7 x 2.5 in per panel at 100 dpi


def test_empty_contact_fields_read_as_nan(tmp_path):
    csv = tmp_path / "run.csv"
    write_world_csv(csv)
    columns = plot_run.read_run(csv)
    assert math.isnan(columns["cp:left:x"][0]) and columns["cp:left:x"][-1] == pytest.approx(0.1)
    assert plot_run.torso_height_column(columns) == "q:base:z"


def test_a_plain_run_gets_height_and_energy_only(tmp_path):
    csv, png = tmp_path / "plain.csv", tmp_path / "plain.png"
    csv.write_text("t,q:base:z,energy\n0,0.3,2.9\n0.1,0.25,2.9\n")
    result = plot_run.plot_run(csv, png)
    assert result["panels"] == ["torso height", "energy"]
    assert result["touchdown"] is None and result["lowest_torso"] == pytest.approx(0.25)
    assert png_size(png) == (700, 500)


@pytest.mark.parametrize("text, message", [("x,y\n1,2\n", "'t'"), ("t,energy\n", "no rows"),
                                           ("t,energy\n0,1\n0.1\n", ":3:"), ("t,v:a\n0,1\n", "nothing to plot")])
def test_files_that_are_not_runs_are_rejected(tmp_path, text, message):
    csv = tmp_path / "bad.csv"
    csv.write_text(text)
    with pytest.raises(ValueError, match=message):
        plot_run.plot_run(csv, tmp_path / "bad.png")


def test_the_command_line(tmp_path):
    csv, png = tmp_path / "run.csv", tmp_path / "run.png"
    write_world_csv(csv)
    out = subprocess.run([sys.executable, str(SCRIPT), str(csv), str(png), "--title", "drop"], capture_output=True,
                         text=True, check=True).stdout
    assert png.exists() and "touchdown" in out and "normal force" in out
