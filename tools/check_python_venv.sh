#!/usr/bin/env bash
# `pip install .` into a fresh venv of the python3 first on PATH (on these machines a pyenv CPython
# with numpy 2, not the Debian interpreter the Quick start builds the module for), then a few of the
# Python tests against the installed package. The configured build tree is reused
# (GRBDA_CMAKE_BUILD_DIR): its libgrbda and command are installed as they are, and only the
# extension is compiled for this interpreter when the tree was built for another one (setup.py).
# Usage: tools/check_python_venv.sh [BUILD_DIR]      (GRBDA_VENV_PYTHON=... picks the interpreter)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=$(cd "${1:-${GRBDA_BUILD_DIR:-build}}" && pwd)
python=${GRBDA_VENV_PYTHON:-$(command -v python3)}
venv="$build/venv-path-python"

echo "== pip install . into a fresh venv of $("$python" -c 'import sys; print(sys.version.split()[0], "(" + sys.base_prefix + ")")')"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r tools/requirements/venv-test.txt 2>&1 \
  | { grep -v "^WARNING: Location .* is ignored" || true; }
GRBDA_CMAKE_BUILD_DIR="$build" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --no-build-isolation . > "$build/venv-pip-install.log" 2>&1 || { tail -40 "$build/venv-pip-install.log"; exit 1; }
"$venv/bin/python" -c 'import grbda, numpy; print("imported", grbda.__file__, "with numpy", numpy.__version__)'
# The installed package, not the build tree's (conftest.py reads GRBDA_TEST_INSTALLED).
GRBDA_TEST_INSTALLED=1 GRBDA_BUILD_DIR="$build" "$venv/bin/python" -m pytest -q -p no:cacheprovider \
  python/tests/test_dynamics.py python/tests/test_model.py python/tests/test_errors.py \
  python/tests/test_simulator.py python/tests/test_derivatives.py
