#!/usr/bin/env bash
# Instructions per call of forward dynamics with the loops embedded (C-ABA), kept as constraint
# rows (PV) and chosen per cluster (auto, PV on what it keeps), on the locality family of seed 000
# (Figs. 10-11: two parallel chains of depth d joined by an explicit transmission or an implicit
# connecting rod of size l; the generated models of the benchmark set). Each count is
#   (callgrind(--repeat N) - callgrind(--repeat 1)) / (N - 1)
# at the model's neutral state, so loading, preparing, the first call and printing are not counted.
#
#   tools/count_loops_instructions.sh [--grbda PATH] [--models DIR] [--repeat N] [--data FILE]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
grbda="${GRBDA:-$repo/build/tools/grbda}"
models="$repo/build/bench/models"
repeat=50
data=""
while [ $# -gt 0 ]; do
  case "$1" in
    --grbda) grbda="$2"; shift 2 ;;
    --models) models="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --data) data="$2"; shift 2 ;;
    *) echo "count_loops_instructions.sh: unknown argument $1" >&2; exit 1 ;;
  esac
done
command -v valgrind >/dev/null || { echo "count_loops_instructions.sh: valgrind is not installed" >&2; exit 1; }

count() {
  local out
  out=$(mktemp "${TMPDIR:-/tmp}/callgrind.XXXXXX")
  valgrind --tool=callgrind --callgrind-out-file="$out" "$grbda" "$@" >/dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$out"
  rm -f "$out"
}
per_call() { echo $(( ($(count fd "$@" --repeat "$repeat") - $(count fd "$@" --repeat 1)) / (repeat - 1) )); }

echo "| system | depth | loop size | embed (C-ABA) | constrain (PV) | auto | auto / best |"
echo "|---|---|---|---|---|---|---|"
[ -n "$data" ] && echo "# kind depth size embed constrain auto" > "$data"
for kind in explicit implicit; do
  for depth in 5 10 20 40; do
    for file in $(ls "$models" | grep "^parallel_chain_${kind}_d${depth}_l" | sort -V); do
      size=${file##*_l}; size=${size%.urdf}
      embed=$(per_call "$models/$file" --loops embed)
      constrain=$(per_call "$models/$file" --loops constrain)
      auto=$(per_call "$models/$file" --loops auto)
      best=$(( embed < constrain ? embed : constrain ))
      ratio=$(awk -v a="$auto" -v b="$best" 'BEGIN { printf "%.3f", a / b }')
      echo "| $kind | $depth | $size | $embed | $constrain | $auto | $ratio |"
      [ -n "$data" ] && echo "$kind $depth $size $embed $constrain $auto" >> "$data"
    done
  done
done
