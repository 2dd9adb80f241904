#!/usr/bin/env bash
# Instructions per step (callgrind) of grbda's Simulator and of MuJoCo 2.2.2's mj_step on the same
# Mini Cheetah (bench/bench_mujoco.cpp; MuJoCo with rotors as armature and as bodies tied by joint
# equalities), standing (after the drop and settling) and falling (no contact), 1 ms steps. Per
# step: (count(N) − count(1)) / (N − 1), so loading, the drop and the settling cancel. Prints a
# markdown table.
#
#   tools/count_mujoco_instructions.sh [--build DIR] [--repeat N]
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
    *) echo "count_mujoco_instructions.sh: unknown argument '$1'" >&2; exit 1 ;;
  esac
done
program="$build/bench/bench_mujoco"
command -v valgrind >/dev/null || { echo "count_mujoco_instructions.sh: needs valgrind" >&2; exit 1; }
[ -x "$program" ] || { echo "count_mujoco_instructions.sh: no $program (install libmujoco-dev, build the bench target bench_mujoco)" >&2; exit 1; }

count() {  # engine scenario steps -> instructions of the whole run
  local out
  out=$(mktemp "${TMPDIR:-/tmp}/callgrind.XXXXXX")
  valgrind --tool=callgrind --callgrind-out-file="$out" "$program" count "$@" >/dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$out"
  rm -f "$out"
}

echo "| engine | scenario | instructions per step |"
echo "|---|---|---:|"
for row in "grbda standing" "armature standing" "rotors standing" "grbda falling" "armature falling" "rotors falling"; do
  set -- $row
  n1=$(count "$1" "$2" 1)
  nN=$(count "$1" "$2" "$repeat")
  echo "| $1 | $2 | $(( (nN - n1) / (repeat - 1) )) |"
done
