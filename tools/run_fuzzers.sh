#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, in build-fuzz/) and runs each for a bounded
# time from the seed corpus kept in fuzz/corpus/<target>/ (plus models/ for the URDF target; new
# inputs go to a scratch directory, the committed corpus is only read). A crash, leak, sanitizer report, timeout or untyped
# exception fails the script and leaves the input in build-fuzz/artifacts/.
#
#   tools/run_fuzzers.sh [SECONDS]        # default 60 per target (CI); docs/reliability.md: 600
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${1:-60}"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "run_fuzzers.sh: SECONDS must be a positive integer" >&2; exit 2; }
cxx="${GRBDA_FUZZ_CXX:-$(command -v clang++-14 || command -v clang++ || true)}"
[ -n "$cxx" ] || { echo "run_fuzzers.sh: clang++ is needed (Debian: apt-get install clang-14 libfuzzer-14-dev)" >&2; exit 1; }

# GRBDA_FUZZ_BUILD_DIR reuses a build already configured with GRBDA_FUZZ=ON (CI's sanitizer
# build, whose test suite ran first); otherwise build-fuzz/ holds just the library and the targets.
build="${GRBDA_FUZZ_BUILD_DIR:-build-fuzz}"
if ! grep -qs '^GRBDA_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  launcher=()
  command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" -DGRBDA_FUZZ=ON \
    -DGRBDA_BUILD_TESTS=OFF -DGRBDA_BUILD_BENCH=OFF -DGRBDA_BUILD_TOOLS=OFF -DGRBDA_BUILD_PYTHON=OFF \
    "${launcher[@]}" >/dev/null
fi
cmake --build "$build" -j2 --target fuzz_urdf fuzz_cli_args fuzz_random_model

mkdir -p "$build/artifacts"
status=0
for target in fuzz_urdf fuzz_cli_args fuzz_random_model; do
  seeds="fuzz/corpus/${target#fuzz_}"
  if [ "$target" = fuzz_urdf ]; then seeds="$seeds models"; fi  # every bundled model seeds the loader
  scratch="$(mktemp -d)"
  echo "== $target: ${seconds} s from $seeds"
  if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "$build/fuzz/$target" "$scratch" $seeds -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-" 2>"$build/$target.log"; then
    echo "$target: FAILED (see $build/$target.log and $build/artifacts/)" >&2
    tail -40 "$build/$target.log" >&2
    status=1
  else
    grep -E "^stat::(number_of_executed_units|peak_rss_mb|new_units_added)" "$build/$target.log" || true
  fi
  rm -rf "$scratch"
done
exit "$status"
