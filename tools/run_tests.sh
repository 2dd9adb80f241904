#!/usr/bin/env bash
# Every test, from a fresh Debian machine: install dependencies, build (Release, in build/), run
# the test suite, then install grbda to a temporary prefix and build and run an out-of-tree
# program against it (tests/consumer), proving the exported CMake package works.
# Usage: tools/run_tests.sh        (GRBDA_BUILD_DIR=dir picks another build directory)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${GRBDA_BUILD_DIR:-build}

bash tools/install_deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j2

# Keep going after failing tests so the package check still reports; fail at the end.
status=0
ctest --test-dir "$build" --output-on-failure --no-tests=error -j2 || status=$?

echo
echo "== install + downstream consumer (find_package(grbda))"
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

exit "$status"
