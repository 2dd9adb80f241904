"""MuJoCo Menagerie's MJCF files as users have them (text only, no meshes: ../shared/menagerie, or
$GRBDA_MENAGERIE_DIR): each robot's main file loads unmodified, an absent mesh is skipped with a
warning and never a crash, or the file is refused with a ModelError naming it. Where it loads and
has no <equality> rows, its coordinates are MuJoCo 4.0's (nq, nv from mujoco40.json, which MuJoCo
itself wrote on the stripped copy): an independent count of joints and their kinds."""
import json
import os
import pathlib

import pytest

import grbda

ROOT = pathlib.Path(__file__).resolve().parents[2]
MENAGERIE = pathlib.Path(os.environ.get("GRBDA_MENAGERIE_DIR", ROOT.parent / "shared" / "menagerie"))
MUJOCO = MENAGERIE / "mujoco40.json"


def robots():
    """One parameter per robot's main file, or one skipped parameter saying where none was found."""
    if not MUJOCO.is_file():
        reason = f"no Menagerie files at {MENAGERIE} (set GRBDA_MENAGERIE_DIR)"
        return [pytest.param(None, id="no-menagerie", marks=pytest.mark.skip(reason=reason))]
    results = json.loads(MUJOCO.read_text())["results"]
    return [pytest.param(r, id=r["folder"]) for r in results if r["file"] != "scene.xml"]


@pytest.mark.parametrize("robot", robots())
def test_menagerie_robot_loads_unmodified_or_is_refused_naming_the_file(robot):
    path = MENAGERIE / robot["folder"] / robot["file"]
    try:
        model = grbda.load(str(path))
    except grbda.ModelError as error:
        assert robot["file"] in str(error), error
        pytest.xfail(f"refused, naming the file: {error}")
    if robot["neq"] == 0:
        assert (model.nq, model.nv) == (robot["nq"], robot["nv"]), (model.nq, model.nv, robot["nq"], robot["nv"])
