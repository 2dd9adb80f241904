#!/usr/bin/env bash
# Makes the peer environment: a virtual environment of the python3 on PATH with the exact versions of
# tools/requirements/peers*.txt (MuJoCo 4.0, Pinocchio 4.1, crocoddyl, example-robot-data 6, CasADi,
# Gymnasium, proxsuite). Idempotent: a venv whose recorded requirements match is kept as it is.
# CMake finds the peers through it (-DGRBDA_PEERS_VENV=DIR, default .peers/venv when it exists).
# Usage: tools/install_peers.sh [DIR]    (default .peers/venv; GRBDA_VENV_PYTHON picks the interpreter)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
venv=${1:-.peers/venv}
python=${GRBDA_VENV_PYTHON:-$(command -v python3)}
requirements=(tools/requirements/peers.txt tools/requirements/peers-without-deps.txt)
stamp="$venv/grbda-peers.txt"
if [ -x "$venv/bin/python" ] && cat "${requirements[@]}" | cmp -s - "$stamp"; then
  echo "install_peers.sh: $venv already has the pinned peers"
  exit 0
fi
rm -rf "$venv"
"$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check)
"${pip[@]}" -r "${requirements[0]}" 2>&1 | { grep -v "^WARNING: Location .* is ignored" || true; }
"${pip[@]}" --no-deps -r "${requirements[1]}" 2>&1 | { grep -v "^WARNING: Location .* is ignored" || true; }
cat "${requirements[@]}" > "$stamp"
"$venv/bin/python" - <<'PY'
import importlib.metadata as md
print("install_peers.sh:", ", ".join(f"{p} {md.version(p)}" for p in
      ["mujoco", "pin", "crocoddyl", "example-robot-data", "casadi", "gymnasium", "proxsuite", "numpy"]))
PY
