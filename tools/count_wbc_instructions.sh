#!/usr/bin/env bash
# Instructions per call of the whole-body-control calls (issue #24 part A; bench/RESULTS.md),
# counted by callgrind on bench/wbc_counts, which runs one call REPEAT times inside
# wbc_measured_calls after a warm-up call:
#   valgrind --tool=callgrind --toggle-collect=wbc_measured_calls wbc_counts MODEL METHOD REPEAT
# instructions per call = collected / REPEAT. Prints a markdown table, each count also as a
# multiple of C-RNEA (inverseDynamics) at the same state.
#
#   tools/count_wbc_instructions.sh [--build DIR] [--repeat N] [--models a.urdf,b.urdf]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
build="$repo/build"
repeat=20
models="mini_cheetah.urdf"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="${2:?}"; shift 2 ;;
    --repeat) repeat="${2:?}"; shift 2 ;;
    --models) models="${2:?}"; shift 2 ;;
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "count_wbc_instructions.sh: unknown argument '$1' (see --help)" >&2; exit 1 ;;
  esac
done
driver="$build/bench/wbc_counts"
command -v valgrind >/dev/null || { echo "count_wbc_instructions.sh: needs valgrind (tools/install_deps.sh)" >&2; exit 1; }
[ -x "$driver" ] || { echo "count_wbc_instructions.sh: no $driver (cmake --build BUILD --target wbc_counts)" >&2; exit 1; }

count() {  # model method -> instructions per call
  local tmp
  tmp="$(mktemp)"
  valgrind --tool=callgrind --toggle-collect=wbc_measured_calls --callgrind-out-file="$tmp" \
    "$driver" "$1" "$2" "$repeat" >/dev/null 2>&1
  local total
  total="$(callgrind_annotate "$tmp" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)"
  rm -f "$tmp"
  echo $(( total / repeat ))
}

methods="c-rnea com com-jacobian centroidal centroidal-matrix centroidal-momentum centroidal-bias coriolis gravity"
echo "| model | call | instructions | × C-RNEA |"
echo "|---|---|---:|---:|"
IFS=, read -ra list <<<"$models"
for m in "${list[@]}"; do
  file="$m"; [ -f "$file" ] || file="$repo/models/$m"
  base="$(count "$file" c-rnea)"
  for method in $methods; do
    n="$(count "$file" "$method")"
    printf '| %s | %s | %d | %.2f |\n' "$(basename "$m" .urdf)" "$method" "$n" "$(echo "$n / $base" | bc -l)"
  done
done
