"""Shared fixtures: the grbda package and command of the build tree, and the bundled models.

The build directory is $GRBDA_BUILD_DIR (relative to the repository root) or build/. Its
python/ folder goes first on sys.path, so the tests exercise the freshly built module, unless
GRBDA_TEST_INSTALLED=1: then the tests import the grbda installed in the running environment
(tools/check_python_venv.sh, after `pip install .`).
"""
import json
import os
import pathlib
import subprocess
import sys
import sysconfig

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = ROOT / os.environ.get("GRBDA_BUILD_DIR", "build")
MODELS = ROOT / "models"
INSTALLED = os.environ.get("GRBDA_TEST_INSTALLED") == "1"
if (BUILD / "python" / "grbda").is_dir() and not INSTALLED:
    sys.path.insert(0, str(BUILD / "python"))

import grbda  # noqa: E402

if INSTALLED and not pathlib.Path(grbda.__file__).is_relative_to(sysconfig.get_paths()["platlib"]):
    raise RuntimeError(f"GRBDA_TEST_INSTALLED=1, but grbda was not imported from this environment's "
                       f"site-packages ({sysconfig.get_paths()['platlib']}): {grbda.__file__}")

CLI = BUILD / "tools" / "grbda"

# Bundled robots the cross-checks run on: serial, geared rotors, belts, a four-bar loop, and a
# floating base. The loop models need their closed configuration (named in the file header).
CROSS_CHECK_MODELS = [
    "double_pendulum.urdf",
    "revolute_rotor_chain.urdf",
    "mini_cheetah.urdf",
    "mit_humanoid_leg.urdf",
    "four_bar.urdf",
]


def model_path(name):
    return str(MODELS / name)


def run_cli(*args, json_output=True):
    """The grbda command's answer, parsed from --json (the independent reference the bindings are
    checked against), or its text output with json_output=False."""
    if not CLI.exists():
        pytest.skip("the grbda command is not built (%s)" % CLI.relative_to(ROOT))
    flags = ["--json"] if json_output else []
    out = subprocess.run([str(CLI), *map(str, args), *flags], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout) if json_output else out.stdout


def vector_arg(x):
    return ",".join(repr(float(v)) for v in x)


def closed_configuration(path, model):
    """Independent positions from the model file's header line 'closed configuration: joint=value ...'
    (loop mechanisms are singular or open at q = 0), else the neutral configuration."""
    q = model.neutral_configuration()
    text = pathlib.Path(path).read_text() if pathlib.Path(path).exists() else ""
    for line in text.splitlines():
        if "closed configuration:" in line:
            for item in line.split("closed configuration:")[1].split():
                name, value = item.split("=")
                if name in model.position_names:
                    q[model.position_names.index(name)] = float(value)
    return q


def state(path, model, seed=0):
    """A reproducible state: a small random offset from a closed configuration, random v and tau."""
    rng = np.random.default_rng(seed)
    q = closed_configuration(path, model) + 0.05 * rng.standard_normal(model.nq)
    if model.is_floating_base:
        q[3:7] /= np.linalg.norm(q[3:7])
    return q, rng.standard_normal(model.nv), rng.standard_normal(model.nv)


def robot_at_state(file, seed=0):
    """(path, model, data, q, v, tau): a bundled model, a Data for it and state(seed)."""
    path = model_path(file)
    model = grbda.load(path)
    return (path, model, grbda.Data(model)) + state(path, model, seed)


@pytest.fixture(params=CROSS_CHECK_MODELS)
def bundled(request):
    """(model file, model) for each cross-check robot."""
    path = model_path(request.param)
    return path, grbda.load(path)
