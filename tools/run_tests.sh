#!/usr/bin/env bash
# Every test, from a fresh Debian machine: install dependencies, build (Release, in build/), run
# the test suite and the Python bindings' pytest suite (python/tests), then install grbda to a
# temporary prefix, build and run an out-of-tree program against it (tests/consumer) and import
# the installed Python package, proving the exported CMake package and the install layout work.
# Usage: tools/run_tests.sh        (GRBDA_BUILD_DIR=dir picks another build directory; GRBDA_PEERS=off
#                                   runs without the peer environment of tools/install_peers.sh)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${GRBDA_BUILD_DIR:-build}

stage() { echo; echo "== [run_tests.sh $SECONDS s] $*"; }
stage "Debian packages (tools/install_deps.sh)"
bash tools/install_deps.sh
# The peers from the package index (MuJoCo 4.0, Pinocchio 4.1, crocoddyl, example-robot-data 6, ...):
# optional; without them (GRBDA_PEERS=off, or the index out of reach) their tests say they are skipped.
if [ "${GRBDA_PEERS:-on}" != off ]; then
  stage "peer environment (tools/install_peers.sh)"
  bash tools/install_peers.sh || echo "run_tests.sh: no peer environment; the tests that need one are skipped"
fi
stage "configure and build $build (Release)"
bash tools/configure_release.sh "$build"
cmake --build "$build" -j2
python3 tools/slowest_compiles.py "$build" 20 || true

# Keep going after failing tests so the package check still reports; fail at the end.
status=0
stage "ctest"
# Per-test times are kept in $build/junit.xml (issue #26) and the slowest are printed.
ctest --test-dir "$build" --output-on-failure --no-tests=error -j2 --output-junit junit.xml || status=$?
python3 tools/slowest_tests.py "$build/junit.xml" || true

# The Python bindings (built when pybind11 is installed): pytest with the interpreter they were
# built for, importing grbda from the build tree.
python="$(cd "$build" && pwd)/python/python3"
if [ -x "$python" ]; then
  stage "Python bindings: pytest python/tests ($("$python" -c 'import sys; print(sys.executable)'))"
  GRBDA_BUILD_DIR="$build" "$python" -m pytest -q -p no:cacheprovider python/tests || status=$?
  stage "pip install . for the python3 on PATH, in a fresh venv (tools/check_python_venv.sh)"
  bash tools/check_python_venv.sh "$build" || status=$?
fi

stage "install + downstream consumer (find_package(grbda))"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/grbda-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
# urdfdom, tinyxml2 and spdlog are private to libgrbda.so: the exported interface must only name Eigen.
targets=$(find "$tmp/prefix" -name grbdaTargets.cmake)
if grep -E 'INTERFACE_[A-Z_]+' "$targets" | grep -iE 'urdf|tinyxml|spdlog|console_bridge'; then
  echo "run_tests.sh: a private dependency leaked into the exported interface (above)" >&2
  exit 1
fi
# The README's "Use from C++" example is built too: the first ```cpp block, fences cut off.
awk '/^```cpp/{inside=1; next} inside && /^```/{exit} inside' README.md > "$tmp/readme_example.cpp"
cmake -S tests/consumer -B "$tmp/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release \
  -DGRBDA_README_EXAMPLE="$tmp/readme_example.cpp" >/dev/null
cmake --build "$tmp/build" -j2
"$tmp/build/grbda_consumer"  # a pendulum built in code, checked against its closed form
model=models/double_pendulum.urdf
if [ -f "$model" ]; then
  "$tmp/build/grbda_consumer" "$model"
  "$tmp/build/readme_example" "$model"
fi
# The installed Python package imports from the prefix's site-packages and finds libgrbda.so there.
if [ -x "$python" ]; then
  site=$(sed -n 's/^GRBDA_PYTHON_INSTALL_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")
  PYTHONPATH="$tmp/prefix/$site" "$python" -c \
    'import grbda, sys; m = grbda.load(sys.argv[1]); print("installed grbda:", m, "from", grbda.__file__.split("/prefix/")[1])' \
    models/double_pendulum.urdf
fi

stage "done (status $status)"
exit "$status"
