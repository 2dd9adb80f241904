#!/usr/bin/env bash
# Instructions per call of the operational-space methods of `grbda osim` (C-EFPA, PV-OSIM,
# PV-OSIM-fast, dense J H⁻¹ Jᵀ) on the bench_osim sets: Mini Cheetah 4 feet as 3-D points, the
# MIT Humanoid and JVRC-1 feet and hands as 6-D points (and the MIT Humanoid's as 3-D points).
#   valgrind --tool=callgrind grbda osim MODEL --q Q --point ... --method M --repeat N
# is run with N = R and N = 2R; (count(2R) − count(R)) / R is the cost of one call on a prepared
# model, without loading, the first (sizing) call or printing. pv-fast's call is the operator's
# compute() (its printed Λ⁻¹ is formed once, after the timed calls). The state is fixed: joint
# angles 0.3 + 0.2 sin(1.7 i) (the Mini Cheetah's knees bent), identity base orientation.
#
#   tools/count_osim_instructions.sh [--grbda PATH] [--repeat R]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
grbda="$repo/build/tools/grbda"
repeat=50
while [ $# -gt 0 ]; do
  case "$1" in
    --grbda) grbda="${2:?}"; shift 2 ;;
    --repeat) repeat="${2:?}"; shift 2 ;;
    *) echo "count_osim_instructions.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
command -v valgrind >/dev/null || { echo "count_osim_instructions.sh: valgrind is not installed" >&2; exit 1; }
[ -x "$grbda" ] || { echo "count_osim_instructions.sh: no grbda command at $grbda (build it first)" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

count() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$grbda" "$@" >"$tmp/out" 2>"$tmp/err" ||
    { grep -v '^==' "$tmp/err" >&2; return 1; }
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/err" | tail -1
}

# q: 0.3 + 0.2 sin(1.7 i) for every non-quaternion coordinate, quaternions the identity
configuration() {
  "$grbda" info "$1" --json | grep -m1 '"position_names":' | sed -e 's/^[^[]*\[//' -e 's/\][^]]*$//' -e 's/", "/\t/g' -e 's/"//g' |
    awk -v bent="$2" 'BEGIN { FS = "\t" } { s = "";
      for (i = 1; i <= NF; i++) {
        if ($i ~ /:qw$/) x = 1; else if ($i ~ /:q[xyz]$/) x = 0; else x = 0.3 + 0.2 * sin(1.7 * (i - 1));
        if (bent && i > 7 && (i - 8) % 3 == 1) x -= 1.0;
        if (bent && i > 7 && (i - 8) % 3 == 2) x += 1.5;
        s = s (i > 1 ? "," : "") sprintf("%.6f", x) }
      print s }'
}

echo "Instructions per call of grbda osim: (count(--repeat $((2 * repeat))) - count(--repeat $repeat)) / $repeat"
echo
echo "| robot | points | rows | method | instructions per call | vs C-EFPA | pv-fast fell back |"
echo "|---|---|---:|---|---:|---:|---|"
run_set() {  # robot label linear bent points...
  local robot="$1" label="$2" linear="$3" bent="$4"; shift 4
  local file="$repo/models/$robot.urdf" q efpa="" flags=() points=()
  q="$(configuration "$file" "$bent")"
  for p in "$@"; do points+=(--point "$p"); done
  [ "$linear" = 1 ] && flags+=(--linear)
  local rows=$(( $# * (linear == 1 ? 3 : 6) ))
  for method in efpa pv pv-fast dense; do
    local a b per rel="" fell=""
    a="$(count osim "$file" --q "$q" "${points[@]}" "${flags[@]}" --method "$method" --repeat "$repeat")"
    b="$(count osim "$file" --q "$q" "${points[@]}" "${flags[@]}" --method "$method" --repeat $((2 * repeat)))"
    per=$(( (b - a) / repeat ))
    [ "$method" = efpa ] && efpa="$per"
    [ "$method" != efpa ] && rel="$(awk -v a="$per" -v b="$efpa" 'BEGIN { printf "%.2f x", a / b }')"
    if [ "$method" = pv-fast ]; then
      fell="$("$grbda" osim "$file" --q "$q" "${points[@]}" "${flags[@]}" --method pv-fast --json |
              sed -n 's/.*"fell_back": *\([01]\).*/\1/p' | head -1)"
      [ "$fell" = 1 ] && fell=yes || fell=no
    fi
    echo "| $robot | $label | $rows | $method | $per | $rel | $fell |"
  done
}
run_set mini_cheetah 4F3 1 1 FR_foot FL_foot HR_foot HL_foot
run_set mit_humanoid 2F3+2H3 1 0 right_foot left_foot right_hand left_hand
run_set mit_humanoid 2F6+2H6 0 0 right_foot left_foot right_hand left_hand
run_set jvrc1_humanoid 2F6+2H6 0 0 right-foot left-foot right-hand left-hand
