#!/usr/bin/env bash
# Instructions per call (callgrind) of issue 24's contact-consistent inverse dynamics, impulse
# dynamics and regressor on the Mini Cheetah with four feet, beside C-RNEA and PV at the same
# state: for each command it runs
#   valgrind --tool=callgrind grbda CMD MODEL ARGS --repeat N   and the same with --repeat 1
# and prints (count(N) - count(1)) / (N - 1) as a markdown table with the ratios of the goals
# (contact ID ≤ 1.5 × C-RNEA, impulses ≤ PV). The state: joint angles in [-0.5, 0.5], random v,
# and the q̈ that `grbda fd --method kkt` returns for the four feet under zero torques, so that
# the contacts are consistent (id --contact refuses an inconsistent q̈).
#
#   tools/count_contact_dynamics_instructions.sh [--grbda PATH] [--repeat N]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
grbda="${GRBDA:-$repo/build/tools/grbda}"
repeat=50
while [ $# -gt 0 ]; do
  case "$1" in
    --grbda) grbda="${2:?}"; shift 2 ;;
    --repeat) repeat="${2:?}"; shift 2 ;;
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "count_contact_dynamics_instructions.sh: unknown argument '$1'" >&2; exit 1 ;;
  esac
done
command -v valgrind >/dev/null || { echo "count_contact_dynamics_instructions.sh: needs valgrind" >&2; exit 1; }
[ -x "$grbda" ] || { echo "count_contact_dynamics_instructions.sh: no grbda at $grbda" >&2; exit 1; }

model="$repo/models/mini_cheetah.urdf"
feet="--contact FR_foot --contact FL_foot --contact HR_foot --contact HL_foot"
read -r q v <<<"$(awk 'BEGIN { srand(7); q = "0,0,0.3,1,0,0,0"; for (i = 7; i < 19; i++) q = q "," sprintf("%.3f", rand() - 0.5);
  v = ""; for (i = 0; i < 18; i++) v = v (i ? "," : "") sprintf("%.3f", rand() - 0.5); print q, v }')"
# shellcheck disable=SC2086
a=$("$grbda" fd "$model" --q "$q" --v "$v" $feet --method kkt --json |
    python3 -c 'import json, sys; print(",".join(repr(x) for x in json.load(sys.stdin)["result"]))')

count() {  # args... -> instructions of the whole run
  local out
  out=$(mktemp "${TMPDIR:-/tmp}/callgrind.XXXXXX")
  valgrind --tool=callgrind --callgrind-out-file="$out" "$grbda" "$@" >/dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$out"
  rm -f "$out"
}
per_call() {  # command args...
  local n0 n1
  n0=$(count "$@" --repeat 1)
  n1=$(count "$@" --repeat "$repeat")
  echo $(( (n1 - n0) / (repeat - 1) ))
}

# shellcheck disable=SC2086
{
  rnea=$(per_call id "$model" --q "$q" --v "$v" --a "$a")
  cid=$(per_call id "$model" --q "$q" --v "$v" --a "$a" $feet)
  pv=$(per_call fd "$model" --q "$q" --v "$v" $feet --method pv)
  imp=$(per_call impulse "$model" --q "$q" --v "$v" $feet --restitution 0.5)
  reg=$(per_call regressor "$model" --q "$q" --v "$v" --a "$a")
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "| Mini Cheetah, 4 feet (12 rows) | instructions / call | ratio | goal |"
echo "|---|---:|---:|---|"
echo "| C-RNEA (\`id\`) | $rnea | 1.00 | |"
echo "| contact-consistent ID (\`id --contact ×4\`) | $cid | $(ratio "$cid" "$rnea") × C-RNEA | ≤ 1.5 × C-RNEA |"
echo "| PV (\`fd --method pv --contact ×4\`) | $pv | 1.00 | |"
echo "| impulse dynamics (\`impulse --contact ×4\`) | $imp | $(ratio "$imp" "$pv") × PV | ≤ 1.0 × PV |"
echo "| regressor (\`regressor\`, 18 × 250) | $reg | $(ratio "$reg" "$rnea") × C-RNEA | — |"
