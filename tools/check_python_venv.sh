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

# grbda, Pinocchio and crocoddyl in one Python process (the peer environment, when installed): a
# call in each, then a clean exit. Extension modules load their libraries privately, and libgrbda
# loads its backend privately too (docs/packaging.md, "Private dependencies").
peers=${GRBDA_PEERS_VENV:-.peers/venv}
if [ -x "$peers/bin/python" ] && "$peers/bin/python" -c 'import pinocchio, crocoddyl' 2>/dev/null; then
  site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
  PYTHONPATH="$site" "$peers/bin/python" - models/double_pendulum.urdf <<'PY'
import sys
import grbda, pinocchio, crocoddyl
import numpy as np
model = grbda.load(sys.argv[1]); data = grbda.Data(model)
pin_model = pinocchio.buildModelFromUrdf(sys.argv[1]); pin_data = pin_model.createData()
q, v, tau = np.array([0.3, 0.5]), np.array([-0.5, -0.1]), np.array([0.7, 0.4])
ours = grbda.forward_dynamics(model, data, q, v, tau)
theirs = pinocchio.aba(pin_model, pin_data, q, v, tau)
state = crocoddyl.StateMultibody(pin_model)
assert np.allclose(ours, theirs, rtol=1e-10, atol=1e-12), (ours, theirs)
print("grbda, Pinocchio %s and crocoddyl %s in one process: the same qdd (%s); state nx = %d"
      % (pinocchio.__version__, crocoddyl.__version__, np.array2string(ours, precision=6), state.nx))
PY
else
  echo "skipped: grbda beside Pinocchio and crocoddyl in Python (no peer environment at $peers; tools/install_peers.sh)"
fi
