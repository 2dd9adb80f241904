#!/usr/bin/env bash
# Configures the Release tree the Quick start builds (tools/run_main.sh, tools/run_tests.sh):
# Ninja when installed (its .ninja_log lists the slowest compilations: tools/slowest_compiles.py),
# else Make; a tree already configured keeps its generator. Extra arguments go to cmake.
# Usage: tools/configure_release.sh BUILD_DIR [cmake options...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=$1; shift
generator=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
