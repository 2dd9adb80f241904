#!/usr/bin/env bash
# Instructions per simulator step (callgrind) of the Mini Cheetah with four 0.02 m foot spheres
# under a joint PD, 1 ms steps: standing on the ground (after a drop and settling) with each contact
# solver, and falling with no contact. Per step: (count(N) − count(1)) / (N − 1), so loading, the
# drop and the settling cancel. Prints a markdown table.
#
#   tools/count_sim_instructions.sh [--build DIR] [--repeat N]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
build="$repo/build"
repeat=200
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="${2:?}"; shift 2 ;;
    --repeat) repeat="${2:?}"; shift 2 ;;
    -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "count_sim_instructions.sh: unknown argument '$1'" >&2; exit 1 ;;
  esac
done
program="$build/bench/sim_step_count"
command -v valgrind >/dev/null || { echo "count_sim_instructions.sh: needs valgrind" >&2; exit 1; }
[ -x "$program" ] || { echo "count_sim_instructions.sh: no $program (build the bench target sim_step_count)" >&2; exit 1; }
model="$repo/models/mini_cheetah.urdf"

count() {  # scenario solver steps -> instructions of the whole run
  local out
  out=$(mktemp "${TMPDIR:-/tmp}/callgrind.XXXXXX")
  valgrind --tool=callgrind --callgrind-out-file="$out" "$program" "$model" "$@" >/dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$out"
  rm -f "$out"
}

echo "| scenario | contact solver | instructions per step |"
echo "|---|---|---:|"
for row in "standing admm" "standing pgs" "standing compliant" "falling admm"; do
  set -- $row
  n1=$(count "$1" "$2" 1)
  nN=$(count "$1" "$2" "$repeat")
  echo "| $1 | $2 | $(( (nN - n1) / (repeat - 1) )) |"
done
