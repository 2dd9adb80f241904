#!/usr/bin/env bash
# The API reference: Doxygen over include/grbda (docs/Doxyfile; an undocumented public name fails
# the run) into BUILD_DIR/docs/api/html, and the Python module's docstrings rendered by pydoc into
# BUILD_DIR/docs/python (when the module is built). Usage: tools/build_docs.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=$(cd "${1:-${GRBDA_BUILD_DIR:-build}}" && pwd)  # absolute: the pydoc step runs elsewhere
mkdir -p "$build/docs/api"
out=$(cd "$build/docs" && pwd)
version=$(sed -n 's/^project(grbda VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)

GRBDA_VERSION="$version" GRBDA_DOCS_OUTPUT="$out/api" doxygen docs/Doxyfile
echo "build_docs.sh: C++ API reference in $out/api/html/index.html (no warnings)"

python="$build/python/python3"
if [ -x "$python" ]; then
  mkdir -p "$out/python"
  (cd "$out/python" && PYTHONPATH="$(cd "$build" && pwd)/python" "$python" -m pydoc -w grbda grbda.tree grbda.robots >/dev/null)
  ls "$out/python"/grbda*.html >/dev/null
  echo "build_docs.sh: Python reference in $out/python/grbda.html"
fi
