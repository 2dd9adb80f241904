"""The README's "Use from Python" block runs as written (from the repository root)."""
import os
import pathlib
import subprocess
import sys

import grbda
from conftest import ROOT


def readme_python_block():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Use from Python", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_readme_python_example_runs():
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(grbda.__file__).parents[1]))
    out = subprocess.run([sys.executable, "-c", readme_python_block()], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("['Free', 'RevoluteWithRotor'")
    assert lines[1] == "forwardDynamics: tau has 3 entries, expected 18"
